import Foundation

/// A schedule made of one or more elements, as in CareKitStore: `OCKSchedule(composing:)` merges elements (or other
/// schedules), and occurrence indices run over the merged events in start order.
///
/// Events that start at the same moment are ordered by element, in the order of `elements` (which is sorted by start,
/// keeping the given order for equal starts), so occurrence indices are stable.
///
/// For example:
/// ```swift
/// let morning = OCKSchedule.dailyAtTime(hour: 8, minutes: 0, start: start, end: nil, text: nil, calendar: calendar)
/// let evening = OCKSchedule.dailyAtTime(hour: 20, minutes: 0, start: start, end: nil, text: nil, calendar: calendar)
/// let twiceDaily = OCKSchedule(composing: [morning, evening])
/// twiceDaily.events(from: day, to: nextDay) // the 08:00 and 20:00 events of that day
/// ```
public struct OCKSchedule: Codable, Hashable, Sendable {
    /// The elements, sorted by start.
    public let elements: [OCKScheduleElement]

    /// A schedule made of the elements of all `schedules`.
    public init(composing schedules: [OCKSchedule]) {
        self.init(composing: schedules.flatMap(\.elements))
    }

    /// A schedule made of `elements`, sorted by start (equal starts keep their order).
    public init(composing elements: [OCKScheduleElement]) {
        self.elements = elements.enumerated()
            .sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
            .map(\.element)
    }

    /// The event of occurrence `occurrence`. Use `event(forOccurrenceIndex:)` for indices from outside: this returns
    /// an empty event at the schedule's end where CareKit would trap.
    public subscript(occurrence: Int) -> OCKScheduleEvent {
        if let event = event(forOccurrenceIndex: occurrence) { return event }
        let date = endDate() ?? startDate()
        let element = elements.first ?? OCKScheduleElement(start: date, end: nil, interval: DateComponents(day: 1))
        return OCKScheduleEvent(start: date, end: date, element: element, occurrence: max(occurrence, 0))
    }

    /// The start of the earliest element (`Date.distantFuture` for a schedule with no elements, which
    /// `validate()` rejects).
    public func startDate() -> Date {
        elements.map(\.start).min() ?? .distantFuture
    }

    /// The latest element end, or nil if any element repeats forever.
    public func endDate() -> Date? {
        var latest: Date?
        for element in elements {
            guard let end = element.end else { return nil }
            latest = max(latest ?? end, end)
        }
        return latest
    }

    /// The events that start before `end` and end at or after `start`, in start order (ties by element), numbered by
    /// their position among all of the schedule's events — the same numbers `event(forOccurrenceIndex:)` uses. Events
    /// of elements that ended at or before `start` are left out. Empty when `end` is not after `start`.
    ///
    /// CareKit numbers the window by counting back from its end, which gives a wrong number when a long event
    /// overlaps `start` while a shorter one of another element ended before it; here the numbers are always the
    /// events' true positions.
    public func events(from start: Date, to end: Date) -> [OCKScheduleEvent] {
        events(from: start, to: end, limit: .max)
    }

    /// `events(from:to:)`, stopping after the first `limit` events.
    func events(from start: Date, to end: Date, limit: Int) -> [OCKScheduleEvent] {
        guard start < end, limit > 0 else { return [] }
        let active = elements.filter { $0.start < end }
        if active.count == 1 {
            return active[0].window(from: start, to: end, limit: limit).events.filter { ($0.element.end ?? .distantFuture) > start }
        }
        let engines = active.map(\.engine)
        // The earliest event in the window, over all elements.
        var earliest: Date?
        for (element, engine) in zip(active, engines) {
            guard let first = element.firstOccurrence(engine, endingAtOrAfter: start),
                  element.startsBefore(limit: end, first.start), element.startsBefore(limit: element.end, first.start) else {
                continue
            }
            earliest = min(earliest ?? first.start, first.start)
        }
        guard let earliest else { return [] }
        // Walk every element's events from the earliest one in the window, in merged order; events before it are
        // counted per element.
        var cursors: [(index: Int, start: Date)?] = []
        var occurrence = 0
        for (element, engine) in zip(active, engines) {
            guard let first = engine.firstOccurrence(startingAtOrAfter: earliest) else {
                cursors.append(nil)
                continue
            }
            let before = element.end == nil ? first.index : min(first.index, element.countOfEvents(startingBefore: .distantFuture))
            occurrence += before
            cursors.append((first.index, first.start))
        }
        var merged: [OCKScheduleEvent] = []
        while merged.count < limit {
            var next: Int?
            for (position, cursor) in cursors.enumerated() {
                guard let cursor, active[position].startsBefore(limit: end, cursor.start),
                      active[position].startsBefore(limit: active[position].end, cursor.start) else { continue }
                if let chosen = next, let current = cursors[chosen], current.start <= cursor.start { continue }
                next = position
            }
            guard let position = next, let cursor = cursors[position] else { break }
            let element = active[position]
            var event = element.makeEvent(engines[position], start: cursor.start, occurrence: cursor.index)
            if event.end >= start, (element.end ?? .distantFuture) > start {
                event.occurrence = occurrence
                merged.append(event)
            }
            occurrence += 1
            cursors[position] = engines[position].step(cursor.start).map { (cursor.index + 1, $0) }
        }
        return merged
    }

    /// A copy with every element shifted by `dateComponents`.
    public func offset(by dateComponents: DateComponents) -> OCKSchedule {
        OCKSchedule(composing: elements.map { $0.offset(by: dateComponents) })
    }

    /// The event of occurrence `occurrence` counted over all elements in start order, or nil if the schedule ends
    /// before it or the index is negative.
    public func event(forOccurrenceIndex occurrence: Int) -> OCKScheduleEvent? {
        guard occurrence >= 0, !elements.isEmpty else { return nil }
        if elements.count == 1 {
            return elements[0].event(forOccurrenceIndex: occurrence)
        }
        return MergedOccurrences(elements: elements).event(at: occurrence)
    }

    /// Whether the schedule has started by the end of the day of `date` and has not ended before that day began, in
    /// the calendar of the schedule's first element (CareKit uses the device's current calendar).
    public func exists(onDay date: Date) -> Bool {
        guard let calendar = elements.first?.calendar else { return false }
        let firstMoment = calendar.startOfDay(for: date)
        guard let lastMoment = calendar.date(byAdding: DateComponents(day: 1, second: -1), to: firstMoment) else {
            return false
        }
        guard let end = endDate() else { return startDate() <= lastMoment }
        return startDate() < lastMoment && end > firstMoment
    }

    // MARK: - Common schedules

    /// A schedule with one event a day at `hour:minutes`, starting on the day of `start`.
    ///
    /// - Parameters:
    ///   - hour: The hour of each event, 0 to 23, in `calendar`'s time zone.
    ///   - minutes: The minute of each event.
    ///   - start: The first day with an event (its time of day is replaced by `hour:minutes`).
    ///   - end: When the events end (none after it), or nil for no end.
    ///   - text: The events' label, such as "Breakfast".
    ///   - duration: How long each event lasts (an hour by default; `.allDay` for the whole day).
    ///   - targetValues: What each event asks for, such as `OCKOutcomeValue(400.0, units: "mg")`.
    ///   - calendar: The calendar the time is set and the events computed in. CareKit always uses the current
    ///     calendar; the default here is the same, frozen at creation.
    public static func dailyAtTime(hour: Int, minutes: Int, start: Date, end: Date?, text: String?,
                                   duration: OCKScheduleElement.Duration = .hours(1),
                                   targetValues: [OCKOutcomeValue] = [],
                                   calendar: Calendar = .autoupdatingCurrent) -> OCKSchedule {
        let fixed = ScheduleCalendar(calendar).calendar
        let startTime = fixed.date(bySettingHour: hour, minute: minutes, second: 0, of: start) ?? start
        let element = OCKScheduleElement(start: startTime, end: end, interval: DateComponents(day: 1), text: text,
                                         targetValues: targetValues, duration: duration, calendar: fixed)
        return OCKSchedule(composing: [element])
    }

    /// A schedule with one event a week on `weekday` (1 is Sunday) at `hours:minutes`, starting from `start`.
    ///
    /// - Parameters:
    ///   - weekday: The day of the week, 1 (Sunday) to 7 (Saturday).
    ///   - hours: The hour of each event, 0 to 23, in `calendar`'s time zone.
    ///   - minutes: The minute of each event.
    ///   - start: The first week with an event.
    ///   - end: When the events end (none after it), or nil for no end.
    ///   - targetValues: What each event asks for.
    ///   - text: The events' label.
    ///   - duration: How long each event lasts (an hour by default).
    ///   - calendar: As for `dailyAtTime`.
    public static func weeklyAtTime(weekday: Int, hours: Int, minutes: Int, start: Date, end: Date?,
                                    targetValues: [OCKOutcomeValue], text: String?,
                                    duration: OCKScheduleElement.Duration = .hours(1),
                                    calendar: Calendar = .autoupdatingCurrent) -> OCKSchedule {
        let fixed = ScheduleCalendar(calendar).calendar
        var startTime = fixed.date(bySetting: .weekday, value: weekday, of: start) ?? start
        startTime = fixed.date(bySettingHour: hours, minute: minutes, second: 0, of: startTime) ?? startTime
        let element = OCKScheduleElement(start: startTime, end: end, interval: DateComponents(weekOfYear: 1),
                                         text: text, targetValues: targetValues, duration: duration, calendar: fixed)
        return OCKSchedule(composing: [element])
    }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case elements
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(composing: try container.decode([OCKScheduleElement].self, forKey: .elements))
        try checkDecoded(decoder)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(elements, forKey: .elements)
    }
}
