import Foundation
import OpenCareKitStore

/// When each reminded task's next event is due, across many care records, so that finding one minute's due events
/// costs what those events cost — not a look at every record, task and schedule.
///
/// Every schedule element of every task version that owns future events (as `fetchEvents` assigns events to
/// versions) has one entry: the start of its next event — for all-day events, `allDayReminderHour` on its day — in a
/// binary heap. `due(through:)` takes the entries due by then, and puts each back with its element's following event
/// (the schedule engine finds an occurrence directly, whatever the schedule's age). Replacing or removing a record's
/// tasks (after a change to its store) leaves its old entries in the heap marked stale; they are dropped when they come
/// up, and the heap is rebuilt once they outnumber the live ones, so memory stays proportional to the live entries.
public struct OCKReminderIndex: Sendable {
    /// An event that is due.
    public struct Due: Hashable, Sendable {
        public var record: String
        public var taskID: String
        /// The task version that owns the event.
        public var taskUUID: UUID
        /// The event's occurrence in the task's schedule (what its outcome records).
        public var occurrence: Int
        /// When the reminder is due: the event's start, or the reminder hour of an all-day event's day.
        public var date: Date
        /// The event's start.
        public var start: Date

        public init(record: String, taskID: String, taskUUID: UUID, occurrence: Int, date: Date, start: Date) {
            (self.record, self.taskID, self.taskUUID, self.occurrence, self.date, self.start) = (record, taskID, taskUUID, occurrence, date, start)
        }
    }

    private struct Entry: Sendable {
        var date: Date
        var record: String
        var generation: Int
        var task: OCKTask
        var element: Int
        var occurrence: Int
        var start: Date
        /// The element's last occurrence this version owns (before the next version's effective date and the
        /// element's end), if there is one.
        var last: Int?
    }

    /// The hour (in the element's time zone) at which an all-day event's reminder is due.
    public var allDayReminderHour = 9
    private var heap: [Entry] = []
    private var generations: [String: Int] = [:]
    private var liveCount: [String: Int] = [:]
    private var nextGeneration = 0

    public init() {}

    /// How many entries are live (one per schedule element with events to come).
    public var count: Int { liveCount.values.reduce(0, +) }

    /// Sets the reminded tasks of `record`, each as its versions newest first (`OCKCalendarFeed.tasks(of:)` reads
    /// them), with their events from `now` on.
    public mutating func replace(record: String, tasks: [[OCKTask]], from now: Date) {
        nextGeneration += 1
        let generation = nextGeneration
        generations[record] = generation
        var live = 0
        for chain in tasks {
            for (version, end) in OCKCalendarFeed.ownership(chain) where end.map({ $0 > now }) ?? true {
                for (index, element) in version.schedule.elements.enumerated() {
                    if let entry = entry(record: record, generation: generation, task: version, element: index, end: end,
                                         startingAtOrAfter: max(now, version.effectiveDate), with: element) {
                        push(entry)
                        live += 1
                    }
                }
            }
        }
        liveCount[record] = live
        compactIfMostlyStale()
    }

    /// Forgets `record`'s tasks.
    public mutating func remove(record: String) {
        generations[record] = nil
        liveCount[record] = nil
        compactIfMostlyStale()
    }

    /// The events due at or before `date` (those of records replaced or removed since are left out), each element
    /// moving on to its next event.
    public mutating func due(through date: Date) -> [Due] {
        var found: [Due] = []
        while let top = heap.first, top.date <= date {
            var entry = popMinimum()
            guard generations[entry.record] == entry.generation else { continue }
            let element = entry.task.schedule.elements[entry.element]
            // The element counts its own occurrences; the schedule's count all its elements' events.
            let event = entry.task.schedule.events(from: entry.start, to: entry.start.addingTimeInterval(1))
                .first { $0.start == entry.start && $0.element == element }
            found.append(Due(record: entry.record, taskID: entry.task.id, taskUUID: entry.task.uuid,
                             occurrence: event?.occurrence ?? entry.occurrence, date: entry.date, start: entry.start))
            if entry.last.map({ entry.occurrence < $0 }) ?? true, let next = element.start(ofOccurrence: entry.occurrence + 1) {
                entry.occurrence += 1
                entry.start = next
                entry.date = reminderDate(next, element)
                push(entry)
            } else {
                liveCount[entry.record, default: 1] -= 1
            }
        }
        return found
    }

    private func entry(record: String, generation: Int, task: OCKTask, element index: Int, end: Date?,
                       startingAtOrAfter date: Date, with element: OCKScheduleElement) -> Entry? {
        // An all-day event is due at its reminder hour: look from the start of the day that hour has not passed on.
        let from = element.duration == .allDay ? date.addingTimeInterval(-Double(allDayReminderHour) * 3_600) : date
        guard var occurrence = element.occurrenceIndex(startingAtOrAfter: max(from, task.effectiveDate)),
              var start = element.start(ofOccurrence: occurrence) else { return nil }
        while reminderDate(start, element) < date {
            guard let next = element.start(ofOccurrence: occurrence + 1) else { return nil }
            occurrence += 1
            start = next
        }
        let last = [end, element.end].compactMap { $0 }.min().map { element.numberOfEvents(startingBefore: $0) - 1 }
        guard last.map({ occurrence <= $0 }) ?? true else { return nil }
        return Entry(date: reminderDate(start, element), record: record, generation: generation, task: task, element: index,
                     occurrence: occurrence, start: start, last: last)
    }

    private func reminderDate(_ start: Date, _ element: OCKScheduleElement) -> Date {
        element.duration == .allDay ? start.addingTimeInterval(Double(allDayReminderHour) * 3_600) : start
    }

    // MARK: The heap

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].date < heap[parent].date else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popMinimum() -> Entry {
        let minimum = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        return minimum
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].date < heap[smallest].date { smallest = left }
            if right < heap.count, heap[right].date < heap[smallest].date { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }

    /// Drops stale entries once they are more than half the heap.
    private mutating func compactIfMostlyStale() {
        guard heap.count > 1_024, heap.count > 2 * count else { return }
        heap.removeAll { generations[$0.record] != $0.generation }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }
}
