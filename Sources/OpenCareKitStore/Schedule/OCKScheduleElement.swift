import Foundation
import Synchronization

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
    public var text: String? {
        get { storage.text }
        set { mutate { $0.text = newValue } }
    }

    /// How long each event lasts.
    public var duration: Duration {
        get { storage.duration }
        set { mutate { $0.duration = newValue } }
    }

    /// The start of the first event (the start of its day for all-day elements).
    public var start: Date { storage.start }

    /// Events start before this date (for all-day elements: on or before its day); nil repeats forever.
    public var end: Date? {
        get { storage.end }
        set { mutate { $0.end = newValue } }
    }

    /// The time between the starts of consecutive events.
    public var interval: DateComponents {
        get { storage.interval }
        set {
            mutate {
                $0.interval = newValue
                $0.plan = StepPlan(interval: newValue, calendar: $0.calendar.calendar)
            }
        }
    }

    /// The values the patient is expected to record for each event, such as a dose.
    public var targetValues: [OCKOutcomeValue] {
        get { storage.targetValues }
        set { mutate { $0.targetValues = newValue } }
    }

    /// The calendar, with its time zone, in which events are computed. Always a fixed calendar: assigning an
    /// autoupdating one freezes it.
    public var calendar: Calendar {
        get { storage.calendar.calendar }
        set {
            mutate {
                $0.calendar = ScheduleCalendar(newValue)
                $0.plan = StepPlan(interval: $0.interval, calendar: $0.calendar.calendar)
            }
        }
    }

    /// The time zone events are computed in.
    public var timeZone: TimeZone { storage.calendar.calendar.timeZone }

    /// The fields, shared between copies until one is changed, so that events (which each carry their element) stay
    /// cheap to copy.
    final class Storage: @unchecked Sendable {
        // Mutated only through `mutate`, on a uniquely referenced instance.
        var text: String?
        var duration: Duration
        let start: Date
        var end: Date?
        var interval: DateComponents
        var targetValues: [OCKOutcomeValue]
        var calendar: ScheduleCalendar
        /// How `interval` moves a date, derived from `interval` and the calendar.
        var plan: StepPlan
        /// The element's engine once made (making one looks up the zone's transition table); emptied by `mutate`.
        let engine = Mutex<OccurrenceEngine?>(nil)

        init(text: String?, duration: Duration, start: Date, end: Date?, interval: DateComponents,
             targetValues: [OCKOutcomeValue], calendar: ScheduleCalendar) {
            self.text = text
            self.duration = duration
            self.start = start
            self.end = end
            self.interval = interval
            self.targetValues = targetValues
            self.calendar = calendar
            self.plan = StepPlan(interval: interval, calendar: calendar.calendar)
        }

        func copy() -> Storage {
            Storage(text: text, duration: duration, start: start, end: end, interval: interval,
                    targetValues: targetValues, calendar: calendar)
        }
    }

    var storage: Storage

    private mutating func mutate(_ change: (Storage) -> Void) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        change(storage)
        storage.engine.withLock { $0 = nil }
    }

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
        self.init(start: start, end: end, interval: interval, text: text, targetValues: targetValues,
                  duration: duration, storedCalendar: ScheduleCalendar(calendar))
    }

    init(start: Date, end: Date?, interval: DateComponents, text: String?, targetValues: [OCKOutcomeValue],
         duration: Duration, storedCalendar: ScheduleCalendar) {
        let snapped = duration == .allDay ? storedCalendar.calendar.startOfDay(for: start) : start
        storage = Storage(text: text, duration: duration, start: snapped, end: end, interval: interval,
                          targetValues: targetValues, calendar: storedCalendar)
    }

    public static func == (lhs: OCKScheduleElement, rhs: OCKScheduleElement) -> Bool {
        if lhs.storage === rhs.storage { return true }
        let (l, r) = (lhs.storage, rhs.storage)
        return l.start == r.start && l.end == r.end && l.interval == r.interval && l.duration == r.duration
            && l.text == r.text && l.targetValues == r.targetValues && l.calendar == r.calendar
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.start)
        hasher.combine(storage.end)
        hasher.combine(storage.interval)
        hasher.combine(storage.duration)
        hasher.combine(storage.text)
        hasher.combine(storage.targetValues)
        hasher.combine(storage.calendar)
    }

    init(copying other: OCKScheduleElement, start: Date, end: Date?) {
        self.init(start: start, end: end, interval: other.interval, text: other.text, targetValues: other.targetValues,
                  duration: other.duration, storedCalendar: other.storage.calendar)
    }

    var engine: OccurrenceEngine {
        storage.engine.withLock { made in
            if let made { return made }
            let engine = engine(table: nil)
            made = engine
            return engine
        }
    }

    /// The engine, with the zone's transition table already fetched (`nil`: fetch it).
    func engine(table: ZoneTransitions?) -> OccurrenceEngine {
        OccurrenceEngine(calendar: storage.calendar.calendar, first: storage.start, interval: storage.interval,
                         plan: storage.plan, allDay: storage.duration == .allDay, table: table)
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
        let engine = engine
        guard let start = engine.date(ofOccurrence: occurrence), startsBefore(limit: end, start) else { return nil }
        return makeEvent(engine, start: start, occurrence: occurrence)
    }

    /// The element itself, as a one-element array (kept for code written against CareKit, which deprecates it).
    @available(*, deprecated, message: "OCKScheduleElement.elements has been deprecated")
    public var elements: [OCKScheduleElement] { [self] }

    /// A copy with every event moved by `dateComponents` (start and end shifted in this element's calendar).
    ///
    /// Unlike CareKit, the copy keeps this element's calendar.
    public func offset(by dateComponents: DateComponents) -> OCKScheduleElement {
        let calendar = storage.calendar.calendar
        let newStart = calendar.date(byAdding: dateComponents, to: start) ?? start
        let newEnd = end.map { calendar.date(byAdding: dateComponents, to: $0) ?? $0 }
        return OCKScheduleElement(copying: self, start: newStart, end: newEnd)
    }

    /// The events with occurrence indices in `startIndex..<stopIndex` that exist before the element's end.
    public func events(betweenOccurrenceIndex startIndex: Int, and stopIndex: Int) -> [OCKScheduleEvent] {
        let lower = max(startIndex, 0)
        let engine = engine
        guard stopIndex > lower, let date = engine.date(ofOccurrence: lower) else { return [] }
        return events(engine, from: (lower, date)) { event in event.occurrence < stopIndex }
    }

    /// The events that start before `end` and end at or after `start`, in order.
    ///
    /// All-day events also count as starting before `end` when they fall on the same day as the second before it.
    /// Returns an empty array when `end` is not after `start`.
    public func events(from start: Date, to end: Date) -> [OCKScheduleEvent] {
        guard start < end else { return [] }
        return window(from: start, to: end).events
    }

    /// The start of occurrence `occurrence`, or nil if the schedule ends before it or the index is negative.
    public func date(ofOccurrence occurrence: Int) -> Date? {
        guard let date = engine.date(ofOccurrence: occurrence), startsBefore(limit: end, date) else { return nil }
        return date
    }

    /// The index of the first occurrence that starts at or after `date`, or nil if there is none.
    public func firstOccurrence(startingAtOrAfter date: Date) -> Int? {
        guard let first = engine.firstOccurrence(startingAtOrAfter: date), startsBefore(limit: end, first.start) else {
            return nil
        }
        return first.index
    }
}
