import Foundation

/// A query for tasks, as in CareKitStore. Empty filters match everything; filters combine with "and". The default order
/// is newest created first, after any `sortDescriptors`.
///
/// With a `dateInterval`, a fetch returns the version of each task in effect at the interval's end, leaving out tasks
/// whose schedule ended before the interval (and, with `excludesTasksWithNoEvents`, tasks without an event in it).
///
/// For example:
/// ```swift
/// var query = OCKTaskQuery(for: Date())          // the versions in effect today
/// query.carePlanIDs = ["knee-rehab"]
/// query.tags = ["medication"]
/// query.sortDescriptors = [.title(ascending: true)]
/// let tasks = try await store.fetchTasks(query: query)
/// ```
public struct OCKTaskQuery: OCKQueryProtocol, Codable {
    /// A sort order.
    public enum SortDescriptor: Codable, Hashable, Sendable {
        /// By the version's effective date.
        case effectiveDate(ascending: Bool)
        /// By group identifier; tasks without one sort first when ascending.
        case groupIdentifier(ascending: Bool)
        /// By title; tasks without one sort first when ascending.
        case title(ascending: Bool)
    }

    /// Only tasks of the care plans with these ids (whichever plan version they name).
    public var carePlanIDs: [String] = []
    /// Only tasks whose `carePlanUUID` is one of these plan versions.
    public var carePlanUUIDs: [UUID] = []
    /// Only tasks of the care plans with these remote ids (whichever plan version they name).
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
    /// The tasks a task query for `dateInterval` lists (CareKit's filter of its task queries): not those whose schedule
    /// ended before the interval, nor, with `excludeTasksWithNoEvents`, those without an event in it (an event that
    /// starts before the interval and lasts into it counts). Without an interval, all of them.
    ///
    /// - Parameters:
    ///   - dateInterval: The query's interval; nil keeps every task.
    ///   - excludeTasksWithNoEvents: Whether to leave out tasks whose schedules have no event in the interval.
    /// - Returns: The listed tasks, in their order.
    public func filtered(dateInterval: DateInterval?, excludeTasksWithNoEvents: Bool) -> [Element] {
        filter { OCKTaskQuery.lists($0, in: dateInterval, excludingTasksWithNoEvents: excludeTasksWithNoEvents) }
    }
}
