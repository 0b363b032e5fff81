import Foundation
import OpenCareKitStore

/// When each reminded task's next event is due, across many care records, so that finding one minute's due events
/// costs what those events cost — not a look at every record, task and schedule.
///
/// Every schedule element of every task version that owns future events (as `fetchEvents` assigns events to
/// versions) has one entry: the start of its next event — for all-day events, `allDayReminderHour` on its day — in a
/// heap. `due(through:)` takes the entries due by then, and puts each back with its element's following event
/// (the schedule engine finds an occurrence directly, whatever the schedule's age). Replacing or removing a record's
/// tasks (after a change to its store) leaves its old entries in the heap marked stale; they are dropped when they come
/// up, and the heap is rebuilt once they outnumber the live ones, so memory stays proportional to the live entries.
///
/// For example, a record's reminders, then each minute's:
/// ```swift
/// var index = OCKReminderIndex()
/// let now = Date()
/// index.replace(record: "record-1", tasks: try await OCKCalendarFeed(title: "", now: now).tasks(of: store), from: now)
/// // Every minute (events more than 15 minutes late are skipped):
/// let minute = Date()
/// for due in index.due(through: minute, notBefore: minute.addingTimeInterval(-15 * 60)) {
///     print(due.record, due.taskID, due.start)
/// }
/// ```
public struct OCKReminderIndex: Sendable {
    /// An event that is due.
    public struct Due: Hashable, Sendable {
        /// The record the event belongs to, as named to ``OCKReminderIndex/replace(record:tasks:from:)``.
        public var record: String
        /// The id of the event's task.
        public var taskID: String
        /// The task version that owns the event.
        public var taskUUID: UUID
        /// The event's occurrence in the task's schedule (what its outcome records).
        public var occurrence: Int
        /// When the reminder is due: the event's start, or the reminder hour of an all-day event's day.
        public var date: Date
        /// The event's start.
        public var start: Date
        /// Whether the event lasts all day.
        public var isAllDay: Bool

        /// A due event, as the index reports one.
        ///
        /// - Parameters:
        ///   - record: The record's name.
        ///   - taskID: The task's id.
        ///   - taskUUID: The task version that owns the event.
        ///   - occurrence: The event's occurrence in the task's schedule.
        ///   - date: When the reminder is due.
        ///   - start: The event's start.
        ///   - isAllDay: Whether the event lasts all day; false by default.
        public init(record: String, taskID: String, taskUUID: UUID, occurrence: Int, date: Date, start: Date, isAllDay: Bool = false) {
            (self.record, self.taskID, self.taskUUID, self.occurrence, self.date, self.start) = (record, taskID, taskUUID, occurrence, date, start)
            self.isAllDay = isAllDay
        }
    }

    /// What an element's entry keeps (not the whole task: an index of many records holds hundreds of thousands).
    private struct Entry: Sendable {
        var date: Date
        /// The record's place in `records`.
        var record: Int
        var generation: Int
        var taskID: String
        var taskUUID: UUID
        var schedule: OCKSchedule
        var element: Int
        var stepper: ScheduleStepper
        var isAllDay: Bool
        var occurrence: Int
        var start: Date
        /// The element's last occurrence this version owns (before the next version's effective date and the
        /// element's end), if there is one.
        var last: Int?
    }

    /// The hour (in the element's time zone) at which an all-day event's reminder is due.
    public var allDayReminderHour = 9
    /// The entries, by slot; freed slots are reused.
    private var entries: [Entry] = []
    private var freeSlots: [Int] = []
    /// The slots by due date: small values, so the heap's sifting moves 16 bytes, not an entry.
    private var heap = DateHeap<Int>()
    /// Each record's name, its current generation (0: removed) and its live entries, by its place; looked up by
    /// position while due events are taken, not by hashing its name.
    private var records: [(name: String, generation: Int, live: Int)] = []
    private var places: [String: Int] = [:]
    private var nextGeneration = 0

    /// An empty index: no records, nothing due.
    public init() {}

    /// How many entries are live (one per schedule element with events to come).
    public private(set) var count = 0

    /// Sets the reminded tasks of `record`, each as its versions newest first (`OCKCalendarFeed.tasks(of:)` reads
    /// them), with their events from `now` on.
    public mutating func replace(record: String, tasks: [[OCKTask]], from now: Date) {
        nextGeneration += 1
        let generation = nextGeneration
        let place = places[record] ?? records.count
        if place == records.count {
            places[record] = place
            records.append((record, 0, 0))
        }
        count -= records[place].live
        records[place].generation = generation
        var live = 0
        for chain in tasks {
            for (version, end) in OCKCalendarFeed.ownership(chain) where end.map({ $0 > now }) ?? true {
                for (index, element) in version.schedule.elements.enumerated() {
                    if let entry = entry(record: place, generation: generation, task: version, element: index, end: end,
                                         startingAtOrAfter: max(now, version.effectiveDate), with: element) {
                        let slot = freeSlots.popLast() ?? entries.count
                        if slot == entries.count { entries.append(entry) } else { entries[slot] = entry }
                        heap.push(slot, at: entry.date)
                        live += 1
                    }
                }
            }
        }
        records[place].live = live
        count += live
        compactIfMostlyStale()
    }

    /// Forgets `record`'s tasks.
    public mutating func remove(record: String) {
        if let place = places[record] {
            count -= records[place].live
            records[place] = (record, 0, 0)
        }
        compactIfMostlyStale()
    }

    /// The events due at or before `date` (those of records replaced or removed since are left out), each element
    /// moving on to its next event. With `earliest`, events due before it are not returned: their element jumps
    /// straight to its first event due at or after it (the schedule engine finds it directly), so a call after a long
    /// pause costs the events it returns, not every event missed.
    public mutating func due(through date: Date, notBefore earliest: Date? = nil) -> [Due] {
        var found: [Due] = []
        let limit = date.timeIntervalSinceReferenceDate
        while let top = heap.minimum, top.date.timeIntervalSinceReferenceDate <= limit {
            let slot = heap.popMinimum()
            let record = entries[slot].record
            guard records[record].generation == entries[slot].generation else {
                freeSlots.append(slot)
                continue
            }
            if let earliest, entries[slot].date < earliest {
                if jump(slot, to: earliest) {
                    heap.push(slot, at: entries[slot].date)
                } else {
                    records[record].live -= 1
                    count -= 1
                    freeSlots.append(slot)
                }
                continue
            }
            let start = entries[slot].start
            // The element counts its own occurrences; a schedule of several counts all their events.
            var occurrence = entries[slot].occurrence
            if entries[slot].schedule.elements.count > 1 {
                let element = entries[slot].schedule.elements[entries[slot].element]
                occurrence = entries[slot].schedule.events(from: start, to: start.addingTimeInterval(1))
                    .first { $0.start == start && $0.element == element }?.occurrence ?? occurrence
            }
            found.append(Due(record: records[record].name, taskID: entries[slot].taskID, taskUUID: entries[slot].taskUUID,
                             occurrence: occurrence, date: entries[slot].date, start: start, isAllDay: entries[slot].isAllDay))
            if entries[slot].last.map({ entries[slot].occurrence < $0 }) ?? true, let next = entries[slot].stepper.start(after: start) {
                entries[slot].occurrence += 1
                entries[slot].start = next
                entries[slot].date = reminderDate(next, isAllDay: entries[slot].isAllDay, entries[slot].stepper)
                heap.push(slot, at: entries[slot].date)
            } else {
                records[record].live -= 1
                count -= 1
                freeSlots.append(slot)
            }
        }
        return found
    }

    /// Moves `slot`'s element to its first event due at or after `date`; false when it has none (its schedule or its
    /// version ends before).
    private mutating func jump(_ slot: Int, to date: Date) -> Bool {
        let entry = entries[slot]
        guard let (occurrence, start) = firstEvent(of: entry.schedule.elements[entry.element], isAllDay: entry.isAllDay,
                                                   stepper: entry.stepper, dueAtOrAfter: date, notBefore: entry.start, last: entry.last)
        else { return false }
        entries[slot].occurrence = occurrence
        entries[slot].start = start
        entries[slot].date = reminderDate(start, isAllDay: entry.isAllDay, entry.stepper)
        return true
    }

    /// `element`'s first event (its occurrence and start) whose reminder is due at or after `date`, starting no
    /// earlier than `earliest`, up to occurrence `last`; nil when there is none.
    private func firstEvent(of element: OCKScheduleElement, isAllDay: Bool, stepper: ScheduleStepper, dueAtOrAfter date: Date,
                            notBefore earliest: Date, last: Int?) -> (occurrence: Int, start: Date)? {
        // An all-day event is due at its reminder hour: look from before the start of the day that hour has not passed
        // on (two hours more than the hour: on the day clocks go back, 9:00 is ten hours after midnight), then step on.
        let from = isAllDay ? date.addingTimeInterval(-Double(allDayReminderHour + 2) * 3_600) : date
        guard var occurrence = element.occurrenceIndex(startingAtOrAfter: max(from, earliest)),
              var start = element.start(ofOccurrence: occurrence) else { return nil }
        while reminderDate(start, isAllDay: isAllDay, stepper) < date {
            guard let next = element.start(ofOccurrence: occurrence + 1) else { return nil }
            occurrence += 1
            start = next
        }
        guard last.map({ occurrence <= $0 }) ?? true else { return nil }
        return (occurrence, start)
    }

    private func entry(record: Int, generation: Int, task: OCKTask, element index: Int, end: Date?,
                       startingAtOrAfter date: Date, with element: OCKScheduleElement) -> Entry? {
        let isAllDay = element.duration == .allDay, stepper = element.stepper
        let last = element.lastOccurrence(before: end)
        guard let (occurrence, start) = firstEvent(of: element, isAllDay: isAllDay, stepper: stepper, dueAtOrAfter: date,
                                                   notBefore: task.effectiveDate, last: last) else { return nil }
        return Entry(date: reminderDate(start, isAllDay: isAllDay, stepper), record: record, generation: generation, taskID: task.id,
                     taskUUID: task.uuid, schedule: task.schedule, element: index, stepper: stepper, isAllDay: isAllDay,
                     occurrence: occurrence, start: start, last: last)
    }

    /// An event's start, or for an all-day event `allDayReminderHour` on its day (wall-clock time in its zone).
    private func reminderDate(_ start: Date, isAllDay: Bool, _ stepper: ScheduleStepper) -> Date {
        isAllDay ? stepper.wallClock(hours: allDayReminderHour, after: start) : start
    }

    /// Drops stale entries once they are more than half the heap.
    private mutating func compactIfMostlyStale() {
        guard heap.count > 1_024, heap.count > 2 * count else { return }
        heap.removeAll { slot in
            let entry = entries[slot]
            guard records[entry.record].generation == entry.generation else {
                freeSlots.append(slot)
                return true
            }
            return false
        }
    }
}
