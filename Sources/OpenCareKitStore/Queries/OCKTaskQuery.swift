import Foundation

/// A query for tasks, as in CareKitStore. Empty filters match everything; the default order is newest
/// created first.
public struct OCKTaskQuery: OCKQueryProtocol, Codable {
    /// A sort order.
    public enum SortDescriptor: Codable, Hashable, Sendable {
        case effectiveDate(ascending: Bool)
        case groupIdentifier(ascending: Bool)
        case title(ascending: Bool)
    }

    public var carePlanIDs: [String] = []
    public var carePlanUUIDs: [UUID] = []
    public var carePlanRemoteIDs: [String] = []
    /// Leave out tasks that have no events in `dateInterval`.
    public var excludesTasksWithNoEvents = false
    /// Sort orders, applied in turn.
    public var sortDescriptors: [SortDescriptor] = []
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
