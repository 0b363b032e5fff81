import Foundation

/// A query for outcomes, as in CareKitStore. Empty filters match everything; the default order is newest
/// created first.
public struct OCKOutcomeQuery: OCKQueryProtocol, Codable {
    public var taskIDs: [String] = []
    public var taskUUIDs: [UUID] = []
    public var taskRemoteIDs: [String] = []
    public var ids: [String] = []
    public var uuids: [UUID] = []
    public var groupIdentifiers: [String?] = []
    public var tags: [String] = []
    public var remoteIDs: [String?] = []
    public var dateInterval: DateInterval?
    public var limit: Int?
    public var offset: Int = 0

    /// A query for every entity. `OCKQueryProtocol` adds `init(dateInterval:)`, `init(for:calendar:)` and
    /// `init(id:)`.
    public init() {}
}
