import Foundation

/// How a run of an element's occurrences repeats, in iCalendar's terms (RFC 5545 `RRULE`), when a rule says it
/// exactly.
package struct CalendarRecurrence: Hashable, Sendable {
    package enum Frequency: String, Sendable {
        case secondly = "SECONDLY", minutely = "MINUTELY", hourly = "HOURLY", daily = "DAILY", weekly = "WEEKLY"
        case monthly = "MONTHLY", yearly = "YEARLY"
    }

    package var frequency: Frequency
    package var interval: Int
    /// Whether the steps are elapsed time (hours, minutes, seconds: the rule is exact in UTC) rather than calendar
    /// steps at the same wall-clock time (days, weeks, months, years: exact in the element's time zone).
    package var isElapsed: Bool
}

extension OCKScheduleElement {
    /// The index of the first occurrence that starts at or after `date` (the element's end not considered), or nil
    /// where the schedule cannot reach it.
    package func occurrenceIndex(startingAtOrAfter date: Date) -> Int? {
        engine.firstOccurrence(startingAtOrAfter: date)?.index
    }

    /// The start of occurrence `index` (the element's end not considered).
    package func start(ofOccurrence index: Int) -> Date? {
        engine.date(ofOccurrence: index)
    }

    /// The start of the occurrence after the one that starts at `start` (the element's end not considered): one
    /// step, computed directly where nothing can change the wall-clock time.
    package func start(after start: Date) -> Date? {
        engine.step(start)
    }

    /// The element's stepping, made once for many steps (it holds the zone's transition table).
    package var stepper: ScheduleStepper { ScheduleStepper(element: self, table: engine.zoneTable) }

    /// The last occurrence that starts before `limit` (a version's end) and by the element's end, or nil when
    /// neither ends it.
    package func lastOccurrence(before limit: Date?) -> Int? {
        [limit, end].compactMap { $0 }.min().map { numberOfEvents(startingBefore: $0) - 1 }
    }

    /// How many events start before `limit` by CareKit's rule, the element's end included.
    package func numberOfEvents(startingBefore limit: Date) -> Int {
        countOfEvents(startingBefore: limit)
    }

    /// The rule that generates occurrences `first` through `last` exactly from occurrence `first`'s start, or nil
    /// when none does: intervals that mix units or are not whole days, weeks, months, years or clock time; a
    /// non-Gregorian calendar; a run in which a step lands in a skipped (spring-forward) wall-clock hour or a month
    /// too short for the day, where CareKit's step moves the time or the day for good and a rule would not; a
    /// time-zone shift across the date line; clock-time intervals of all-day elements.
    package func calendarRecurrence(from first: Int, through last: Int) -> CalendarRecurrence? {
        let engine = engine
        let recurrence: CalendarRecurrence
        switch engine.plan {
        case let .days(total, _):
            recurrence = total % 7 == 0 ? CalendarRecurrence(frequency: .weekly, interval: total / 7, isElapsed: false)
                : CalendarRecurrence(frequency: .daily, interval: total, isElapsed: false)
        case let .months(months):
            recurrence = CalendarRecurrence(frequency: .monthly, interval: months, isElapsed: false)
        case let .years(years):
            recurrence = CalendarRecurrence(frequency: .yearly, interval: years, isElapsed: false)
        case let .seconds(seconds):
            // Clock-time steps are elapsed time: the same in UTC whatever the zone does.
            guard !engine.allDay, seconds > 0 else { return nil }
            return seconds % 3_600 == 0 ? CalendarRecurrence(frequency: .hourly, interval: seconds / 3_600, isElapsed: true)
                : seconds % 60 == 0 ? CalendarRecurrence(frequency: .minutely, interval: seconds / 60, isElapsed: true)
                : CalendarRecurrence(frequency: .secondly, interval: seconds, isElapsed: true)
        case .stepwise:
            return nil
        }
        guard last > first else { return recurrence }
        guard let anchor = engine.date(ofOccurrence: first),
              engine.firstIrregularStep(after: anchor, within: last - first) == nil else { return nil }
        return recurrence
    }
}

/// One element's `start(after:)`, with what it needs fetched once: a reminder index steps hundreds of thousands of
/// elements a day.
package struct ScheduleStepper: Sendable {
    /// Two references: an index keeps one per element, hundreds of thousands of them.
    let element: OCKScheduleElement
    let table: ZoneTransitions

    /// The start of the occurrence after the one that starts at `start` (the element's end not considered).
    package func start(after start: Date) -> Date? {
        element.engine(table: table).step(start)
    }

    /// `hours` of wall-clock time after `start` in the element's zone (on a day with a daylight-saving change, one
    /// hour more or less of elapsed time): when an all-day event's reminder at that hour is due.
    package func wallClock(hours: Int, after start: Date) -> Date {
        let t = start.timeIntervalSinceReferenceDate
        let naive = t + Double(hours) * 3_600
        let table = naive + 86_400 < self.table.coveredUntil ? self.table
            : element.engine(table: self.table).transitions(covering: naive + 86_400)
        guard table.hasTransition(after: t, through: naive) else { return Date(timeIntervalSinceReferenceDate: naive) }
        return Date(timeIntervalSinceReferenceDate: naive - Double(table.offset(at: naive) - table.offset(at: t)))
    }
}
