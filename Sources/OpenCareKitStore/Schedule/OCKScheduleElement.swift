import Foundation

/// One repeating part of a schedule: an event at `start`, then one every `interval`, until `end`.
///
/// Same API and semantics as CareKitStore's `OCKScheduleElement`: occurrence *k + 1* starts at
/// `calendar.date(byAdding: interval, to: start(k))`, all-day elements snap to the start of the day and last until its
/// final second, and `events(from:to:)` returns the events that start before `to` and end at or after `from`.
///
/// Two things differ, on purpose:
/// - **The calendar is fixed.** CareKit defaults to `Calendar.autoupdatingCurrent`, so an element created in New York
///   and read in Seoul moves its events. Here the calendar given at creation (by default the current one, frozen with
///   its time zone) is part of the element, survives encoding, and all events are computed in it: "08:00 daily in
///   America/New_York" stays 08:00 New York time on both sides of a daylight-saving change, wherever the code runs.
/// - **Lookups do not walk from the start.** `events(from:to:)`, `date(ofOccurrence:)` and the subscript cost about
///   the same for a schedule that began ten years ago as for one that began yesterday, with results equal to the
///   step-by-step definition.
///
/// Invalid values (an end before the start, an interval that does not move forward, a negative duration) do not
/// trap: `validate()` reports them, and the event functions return what can be computed without looping forever.
///
/// For example:
/// ```swift
/// var calendar = Calendar(identifier: .gregorian)
/// calendar.timeZone = TimeZone(identifier: "America/New_York")!
/// let start = calendar.date(from: DateComponents(year: 2026, month: 3, day: 1, hour: 8))!
/// let element = OCKScheduleElement(start: start, end: nil, interval: DateComponents(day: 1), calendar: calendar)
/// element[7].start // 2026-03-08 08:00 EDT, after the spring-forward change
/// ```
public struct OCKScheduleElement: Codable, Hashable, Sendable {
    /// A short description of when the event happens, such as "After breakfast".
    public var text: String?

    /// How long each event lasts.
    public var duration: Duration

    /// The start of the first event (the start of its day for all-day elements).
    public let start: Date

    /// Events start before this date (for all-day elements: on or before its day); nil repeats forever.
    public var end: Date?

    /// The time between the starts of consecutive events.
    public var interval: DateComponents

    /// The values the patient is expected to record for each event, such as a dose.
    public var targetValues: [OCKOutcomeValue]

    /// The calendar, with its time zone, in which events are computed. Always a fixed calendar: assigning an
    /// autoupdating one freezes it.
    public var calendar: Calendar {
        get { storedCalendar.calendar }
        set { storedCalendar = ScheduleCalendar(newValue) }
    }

    /// The time zone events are computed in.
    public var timeZone: TimeZone { storedCalendar.calendar.timeZone }

    private var storedCalendar: ScheduleCalendar

    /// Creates an element.
    ///
    /// - Parameters:
    ///   - start: The start of the first event. All-day elements move it to the start of its day.
    ///   - end: Events start before this date; nil repeats forever.
    ///   - interval: The time between events. It must move forward in time.
    ///   - text: A short description, such as "08:00" or "As needed".
    ///   - targetValues: The values the patient is expected to record for each event.
    ///   - duration: How long each event lasts; one hour by default.
    ///   - calendar: The calendar events are computed in. The default is the current calendar, frozen with the
    ///     current time zone at creation (CareKit keeps it autoupdating).
    public init(start: Date, end: Date?, interval: DateComponents, text: String? = nil,
                targetValues: [OCKOutcomeValue] = [], duration: Duration = .hours(1),
                calendar: Calendar = .autoupdatingCurrent) {
        let stored = ScheduleCalendar(calendar)
        self.storedCalendar = stored
        self.start = duration == .allDay ? stored.calendar.startOfDay(for: start) : start
        self.end = end
        self.interval = interval
        self.text = text
        self.targetValues = targetValues
        self.duration = duration
    }

    init(copying other: OCKScheduleElement, start: Date, end: Date?) {
        self = OCKScheduleElement(start: start, end: end, interval: other.interval, text: other.text,
                                  targetValues: other.targetValues, duration: other.duration, calendar: other.calendar)
        storedCalendar = other.storedCalendar
    }

    var engine: OccurrenceEngine {
        OccurrenceEngine(calendar: storedCalendar.calendar, first: start, interval: interval, allDay: duration == .allDay)
    }

    /// The event of occurrence `occurrence` (0 is the first event).
    ///
    /// CareKit traps when the occurrence does not exist; this returns an event at the schedule's end instead and
    /// `event(forOccurrenceIndex:)` returns nil, which is what code handling outside input should call.
    public subscript(occurrence: Int) -> OCKScheduleEvent {
        event(forOccurrenceIndex: occurrence)
            ?? OCKScheduleEvent(start: end ?? start, end: end ?? start, element: self, occurrence: max(occurrence, 0))
    }

    /// The event of occurrence `occurrence`, or nil if the schedule ends before it or the index is negative.
    public func event(forOccurrenceIndex occurrence: Int) -> OCKScheduleEvent? {
        guard let start = date(ofOccurrence: occurrence) else { return nil }
        return makeEvent(start: start, occurrence: occurrence)
    }

    @available(*, deprecated, message: "OCKScheduleElement.elements has been deprecated")
    public var elements: [OCKScheduleElement] { [self] }

    /// A copy with every event moved by `dateComponents` (start and end shifted in this element's calendar).
    ///
    /// Unlike CareKit, the copy keeps this element's calendar.
    public func offset(by dateComponents: DateComponents) -> OCKScheduleElement {
        let calendar = storedCalendar.calendar
        let newStart = calendar.date(byAdding: dateComponents, to: start) ?? start
        let newEnd = end.map { calendar.date(byAdding: dateComponents, to: $0) ?? $0 }
        return OCKScheduleElement(copying: self, start: newStart, end: newEnd)
    }

    /// The events with occurrence indices in `startIndex..<stopIndex` that exist before the element's end.
    public func events(betweenOccurrenceIndex startIndex: Int, and stopIndex: Int) -> [OCKScheduleEvent] {
        let lower = max(startIndex, 0)
        guard stopIndex > lower, var date = date(ofOccurrence: lower) else { return [] }
        var events: [OCKScheduleEvent] = []
        let engine = engine
        for occurrence in lower..<stopIndex {
            if occurrence > lower {
                guard let next = engine.step(date) else { break }
                date = next
            }
            guard startsBefore(limit: end, date) else { break }
            events.append(makeEvent(start: date, occurrence: occurrence))
        }
        return events
    }

    /// The events that start before `end` and end at or after `start`, in order.
    ///
    /// All-day events also count as starting before `end` when they fall on the same day as the second before it.
    /// Returns an empty array when `end` is not after `start`.
    public func events(from start: Date, to end: Date) -> [OCKScheduleEvent] {
        guard start < end, let first = firstOccurrence(endingAtOrAfter: start) else { return [] }
        return eventsStarting(at: first, whileStartBefore: end)
    }

    /// The start of occurrence `occurrence`, or nil if the schedule ends before it or the index is negative.
    public func date(ofOccurrence occurrence: Int) -> Date? {
        guard let date = engine.date(ofOccurrence: occurrence), startsBefore(limit: end, date) else { return nil }
        return date
    }

    /// The index of the first occurrence that starts at or after `date`, or nil if there is none.
    public func firstOccurrence(startingAtOrAfter date: Date) -> Int? {
        guard let index = engine.firstOccurrence(startingAtOrAfter: date),
              let start = engine.date(ofOccurrence: index), startsBefore(limit: end, start) else { return nil }
        return index
    }

    // MARK: - Internals shared with OCKSchedule

    /// The first occurrence whose event ends at or after `date` (it may start after `date`), ignoring `end`.
    func firstOccurrence(endingAtOrAfter date: Date) -> Int? {
        let engine = engine
        switch duration {
        case .allDay:
            // An all-day event ends at the last second of its day, so it ends at or after `date` exactly when it
            // starts on or after the start of a day whose last second is at or after `date`.
            let day = storedCalendar.calendar.startOfDay(for: date)
            guard var index = engine.firstOccurrence(startingAtOrAfter: day) else { return nil }
            while index > 0, let previous = engine.date(ofOccurrence: index - 1),
                  makeEvent(start: previous, occurrence: index - 1).end >= date {
                index -= 1
            }
            return index
        case let .seconds(seconds):
            guard seconds.isFinite else { return nil }
            guard var index = engine.firstOccurrence(startingAtOrAfter: date.addingTimeInterval(-seconds)) else {
                return nil
            }
            // Rounding of `date - seconds` can be off by one in either direction: settle on the exact boundary.
            while index > 0, let previous = engine.date(ofOccurrence: index - 1),
                  previous.addingTimeInterval(seconds) >= date {
                index -= 1
            }
            while let current = engine.date(ofOccurrence: index), current.addingTimeInterval(seconds) < date {
                index += 1
            }
            return index
        }
    }

    /// Events from occurrence `first` on, while they start before `limit` (and before the element's end).
    func eventsStarting(at first: Int, whileStartBefore limit: Date) -> [OCKScheduleEvent] {
        let engine = engine
        guard var date = engine.date(ofOccurrence: first) else { return [] }
        var events: [OCKScheduleEvent] = []
        var occurrence = first
        while startsBefore(limit: limit, date), startsBefore(limit: end, date) {
            events.append(makeEvent(start: date, occurrence: occurrence))
            guard let next = engine.step(date) else { break }
            date = next
            occurrence += 1
        }
        return events
    }

    /// The number of events that start before `limit` (CareKit's rule, including the all-day same-day rule) and
    /// before the element's end.
    func countOfEvents(startingBefore limit: Date) -> Int {
        let bound = end.map { min($0, limit) } ?? limit
        let engine = engine
        guard var index = engine.firstOccurrence(startingAtOrAfter: bound) else { return 0 }
        // All-day events on the same day as the second before the bound also count.
        while duration == .allDay, let date = engine.date(ofOccurrence: index),
              startsBefore(limit: limit, date), startsBefore(limit: end, date) {
            index += 1
        }
        return index
    }

    /// CareKit's `isEventStart(_:beforeLimit:)`: fixed-length events must start before the limit; all-day events may
    /// also start on the same day as the second before it. A nil limit means no limit.
    func startsBefore(limit: Date?, _ eventStart: Date) -> Bool {
        guard let limit else { return true }
        if eventStart < limit { return true }
        guard duration == .allDay else { return false }
        let calendar = storedCalendar.calendar
        guard let adjusted = calendar.date(byAdding: .second, value: -1, to: limit) else { return false }
        return calendar.isDate(eventStart, inSameDayAs: adjusted)
    }

    func makeEvent(start: Date, occurrence: Int) -> OCKScheduleEvent {
        let end: Date
        switch duration {
        case .allDay:
            end = storedCalendar.calendar.date(byAdding: DateComponents(day: 1, second: -1), to: start) ?? start
        case let .seconds(seconds):
            end = start.addingTimeInterval(seconds)
        }
        return OCKScheduleEvent(start: start, end: end, element: self, occurrence: occurrence)
    }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case text, duration, start, end, interval, targetValues, calendar
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decodeIfPresent(String.self, forKey: .text)
        duration = try container.decode(Duration.self, forKey: .duration)
        start = try container.decode(Date.self, forKey: .start)
        end = try container.decodeIfPresent(Date.self, forKey: .end)
        interval = try container.decode(DateComponents.self, forKey: .interval)
        targetValues = try container.decodeIfPresent([OCKOutcomeValue].self, forKey: .targetValues) ?? []
        storedCalendar = try container.decodeIfPresent(ScheduleCalendar.self, forKey: .calendar)
            ?? ScheduleCalendar(.autoupdatingCurrent)
        try checkDecoded(decoder)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(text, forKey: .text)
        try container.encode(duration, forKey: .duration)
        try container.encode(start, forKey: .start)
        try container.encodeIfPresent(end, forKey: .end)
        try container.encode(interval, forKey: .interval)
        try container.encode(targetValues, forKey: .targetValues)
        try container.encode(storedCalendar, forKey: .calendar)
    }
}
