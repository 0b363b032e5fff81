import Foundation

/// A query for the events of tasks during an interval, as in CareKitStore.
///
/// A fetch returns every event that overlaps `dateInterval` (starts before its end and ends at or after its start),
/// each from the task version in effect when it starts, with its outcome; in start order. There is no limit or sort:
/// narrow the interval or the tasks instead (``OCKEventQuery/maximumEventsPerFetch``).
///
/// For example:
/// ```swift
/// var query = OCKEventQuery(for: Date())        // today, in the current calendar
/// query.taskTags = ["medication"]
/// for event in try await store.fetchEvents(query: query) {
///     print(event.task.title ?? "", event.scheduleEvent.start, event.outcome == nil ? "to do" : "done")
/// }
/// ```
public struct OCKEventQuery: Codable, Hashable, Sendable {
    /// The events that overlap this interval are returned.
    public var dateInterval: DateInterval
    /// Only events of these task ids (empty: all tasks).
    public var taskIDs: [String] = []
    /// Only events of tasks with these group identifiers (empty: any).
    public var taskGroupIdentifiers: [String] = []
    /// Only events of tasks with any of these tags (empty: any).
    public var taskTags: [String] = []

    /// The events that overlap `dateInterval`, of every task.
    public init(dateInterval: DateInterval) {
        self.dateInterval = dateInterval
    }

    /// The events of the day of `date`, from its start to its last second, in `calendar` (CareKit always uses the
    /// current calendar).
    public init(for date: Date, calendar: Calendar = .current) {
        self.dateInterval = .careKitDay(containing: date, calendar: calendar)
    }

    /// The task query that finds the tasks whose events this query returns.
    public var taskQuery: OCKTaskQuery {
        var query = OCKTaskQuery(dateInterval: dateInterval)
        query.ids = taskIDs
        query.groupIdentifiers = taskGroupIdentifiers
        query.tags = taskTags
        return query
    }
}

extension OCKEventQuery {
    /// The most events one fetch returns: a query that covers more fails with `OCKStoreError.invalidValue` (ask for a
    /// shorter interval or fewer tasks). A year of a busy plan (ten tasks four times a day) is 14,600.
    public static let maximumEventsPerFetch = 100_000

    /// The most events one task lists in `interval`: every event of a schedule within the limits
    /// (`OCKSchedule.maximumEventsPerDay` a day, events at most a day long), and a bound on a schedule stored before
    /// the limits existed, whose further events are left out.
    public static func maximumEvents(ofTaskWith elementCount: Int, in interval: DateInterval) -> Int {
        let days = min((interval.duration / 86_400).rounded(.up), 1e9)
        return OCKSchedule.maximumEventsPerDay * (Int(days) + 2) + elementCount
    }
}

/// A query for daily adherence of tasks over an interval, as in CareKitStore.
///
/// It carries a closure, so unlike the other queries it is neither `Codable` nor `Hashable`.
public struct OCKAdherenceQuery: Sendable {
    /// Only these tasks count (empty: every task that impacts adherence).
    public var taskIDs: [String]
    /// The days to compute adherence for.
    public var dateInterval: DateInterval
    /// How an event's progress is computed.
    public let computeProgress: @Sendable (OCKAnyEvent) -> any CareTaskProgress

    /// A query for the daily adherence of the tasks `taskIDs` (empty: every task) over `dateInterval`.
    ///
    /// - Parameters:
    ///   - taskIDs: The tasks that count; empty for every task. Only tasks that impact adherence count.
    ///   - dateInterval: The days to compute, from the interval's start.
    ///   - computeProgress: How one event's progress is computed; by default, complete once it has an outcome.
    public init(taskIDs: [String], dateInterval: DateInterval,
                computeProgress: @escaping @Sendable (OCKAnyEvent) -> any CareTaskProgress = {
                    $0.computeProgress(by: .checkingOutcomeExists)
                }) {
        self.taskIDs = taskIDs
        self.dateInterval = dateInterval
        self.computeProgress = computeProgress
    }

    /// The start of each day the query covers: the interval's start, then one day later each time while before
    /// its end (CareKit's rule, in `calendar`).
    public func dates(calendar: Calendar = .current) -> [Date] {
        var dates: [Date] = []
        var current = dateInterval.start
        while current < dateInterval.end, dates.count < 100_000 {
            dates.append(current)
            guard let next = calendar.date(byAdding: .day, value: 1, to: current), next > current else { break }
            current = next
        }
        return dates
    }
}
