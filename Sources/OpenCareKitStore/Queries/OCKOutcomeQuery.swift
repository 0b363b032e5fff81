import Foundation

/// A query for outcomes, as in CareKitStore. Empty filters match everything; filters combine with "and". The order is
/// newest created first (outcome queries have no sort descriptors).
///
/// The date interval works differently from other queries: with one, a fetch returns the current version (neither
/// replaced nor deleted) of each outcome whose *event* overlaps the interval, whatever the outcome's own
/// `effectiveDate`; without one, every version that is not a tombstone, of outcomes that are not deleted.
///
/// For example:
/// ```swift
/// var query = OCKOutcomeQuery(dateInterval: lastWeek)
/// query.taskIDs = ["ibuprofen"]
/// let doses = try await store.fetchOutcomes(query: query).flatMap(\.values).compactMap(\.doubleValue)
/// ```
public struct OCKOutcomeQuery: OCKQueryProtocol, Codable {
    /// Only outcomes of the tasks with these ids (any of their versions).
    public var taskIDs: [String] = []
    /// Only outcomes whose `taskUUID` is one of these task versions.
    public var taskUUIDs: [UUID] = []
    /// Only outcomes of the tasks with these remote ids (any of their versions).
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
