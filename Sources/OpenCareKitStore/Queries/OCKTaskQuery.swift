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

extension OCKTaskQuery {
    /// Whether a task version in effect during the query's interval is listed (CareKit's rule): not when its schedule
    /// ended before the interval, nor, with `excludesTasksWithNoEvents`, when it has no events in it. Without an
    /// interval, every task is.
    func lists(_ task: some OCKAnyTask) -> Bool {
        Self.lists(task, in: dateInterval, excludingTasksWithNoEvents: excludesTasksWithNoEvents)
    }

    static func lists(_ task: some OCKAnyTask, in dateInterval: DateInterval?, excludingTasksWithNoEvents: Bool) -> Bool {
        guard let interval = dateInterval else { return true }
        if excludingTasksWithNoEvents, task.schedule.events(from: interval.start, to: interval.end).isEmpty {
            return false
        }
        if let end = task.schedule.endDate() {
            return end >= interval.start && task.effectiveDate <= interval.end
        }
        return true
    }
}

extension Array where Element: OCKAnyTask {
    /// The tasks a task query for `dateInterval` lists (CareKit's filter of its task queries): not those whose
    /// schedule ended before the interval, nor, with `excludeTasksWithNoEvents`, those without an event in it (an
    /// event that starts before the interval and lasts into it counts). Without an interval, all of them.
    public func filtered(dateInterval: DateInterval?, excludeTasksWithNoEvents: Bool) -> [Element] {
        filter { OCKTaskQuery.lists($0, in: dateInterval, excludingTasksWithNoEvents: excludeTasksWithNoEvents) }
    }
}
