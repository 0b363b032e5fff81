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

    /// A query for every entity.
    public init() {}

    /// A query for the versions effective during `dateInterval` (every version when nil).
    public init(dateInterval: DateInterval? = nil) {
        self.dateInterval = dateInterval
    }

    /// A query for the versions effective on the day of `date`, from its start to its last second, in `calendar`
    /// (CareKit always uses the current calendar).
    public init(for date: Date, calendar: Calendar = .current) {
        self.dateInterval = .careKitDay(containing: date, calendar: calendar)
    }
}
