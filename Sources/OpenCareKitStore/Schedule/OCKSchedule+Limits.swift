import Foundation

/// The limits every schedule in a store keeps, so that no schedule can make a day hold thousands of events.
///
/// CareKit accepts any interval that moves forward, so an element repeating every second is valid there and a single
/// task can fill a day with 86,400 events. OpenCareKit refuses, wherever a task is written (the store checks
/// `validate()` on every add and update):
/// - an element must move at least `OCKScheduleElement.minimumInterval` (one minute) from *every* date it can reach,
///   judged from what the interval does in the element's calendar — month lengths, leap days and daylight-saving
///   changes included — not from its parts: `{"day": 1, "second": -86399}` moves one second and is refused;
/// - an event lasts at most a day (`OCKScheduleElement.maximumDuration`);
/// - a schedule has at most `OCKSchedule.maximumElements` (64) elements;
/// - a schedule has at most `OCKSchedule.maximumEventsPerDay` (48, one every half hour) events on any day of 24 hours.
///   Elements repeating by whole days or longer count once on the days they fall on (weekly elements on different
///   weekdays share the budget); elements repeating by clock time count `ceil(24 h / step)`.
///
/// Care plans never come near these (the busiest real regimens are hourly checks: 24 a day).
extension OCKSchedule {
    /// The most events a schedule may have on one day (counted on a 24-hour day).
    public static let maximumEventsPerDay = 48
    /// The most elements a schedule may compose.
    public static let maximumElements = 64

    /// An upper bound on the number of events that start on any one day of 24 hours, or nil if an element's step
    /// cannot be bounded or may not move forward (see `OCKScheduleElement.shortestStep`).
    ///
    /// Exact for elements that repeat by whole days (weekly elements on different days do not add up); every other
    /// element counts as often as it can repeat in 24 hours.
    public var maximumEventsOnOneDay: Int? {
        var total = 0
        var cycles: [(period: Int, phase: Int)] = []
        for element in elements {
            guard let bounds = element.stepBounds, bounds.shortest > 0 else { return nil }
            if case let .days(period, _) = element.storage.plan, period > 1,
               element.calendar.timeZone == elements[0].calendar.timeZone,
               let day = element.engine.localDayAndTime(element.start)?.day {
                cycles.append((period, day))
            } else {
                total = total.addingReportingOverflow(bounds.eventsPerDay).overflow ? .max : total + bounds.eventsPerDay
            }
        }
        return total + Self.busiestDay(cycles)
    }

    /// The most of `cycles` (elements with an event every `period` days from local day `phase`) that fall on one
    /// day: exact over their common period when that is at most ten years of days, else every cycle counts.
    private static func busiestDay(_ cycles: [(period: Int, phase: Int)]) -> Int {
        guard !cycles.isEmpty else { return 0 }
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        var common = 1
        for cycle in cycles {
            common = common / gcd(common, cycle.period) * cycle.period
            guard common <= 3_660 else { return cycles.count }
        }
        var busiest = 0
        for day in 0..<common {
            let count = cycles.count { (day - $0.phase).modulo($0.period) == 0 }
            busiest = max(busiest, count)
        }
        return busiest
    }

    /// Throws if the schedule breaks the limits above (not the element rules, which `validate()` checks first).
    func validateLimits() throws(OCKValidationError) {
        guard let count = maximumEventsOnOneDay, count <= Self.maximumEventsPerDay else {
            throw OCKValidationError(
                field: "elements",
                reason: "must have at most \(Self.maximumEventsPerDay) events a day (one every half hour)")
        }
    }
}

extension Int {
    /// The remainder that is never negative.
    fileprivate func modulo(_ divisor: Int) -> Int {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}

extension OCKScheduleElement {
    /// The shortest interval an element may repeat at: one minute.
    public static let minimumInterval: TimeInterval = 60

    /// The least time, in seconds, from one event's start to the next one's, over every date the element can reach;
    /// nil when the interval uses a unit whose length cannot be bounded (era, quarter, week-numbering year, a
    /// calendar or time zone of its own).
    ///
    /// A bound, not a sample: each calendar unit is taken at its shortest (a month of 28 days, a year of 365, in the
    /// Gregorian calendar), and each change of wall-clock time at its largest (three hours, more than any
    /// daylight-saving change). Intervals of clock time alone are exact. For example `{"day": 1}` is at least 21 hours
    /// and `{"day": 1, "second": -86399}` at most a few seconds (it is refused).
    public var shortestStep: TimeInterval? { stepBounds?.shortest }

    struct StepBounds {
        /// The least elapsed seconds between consecutive starts.
        var shortest: Double
        /// How many events can start in one day of 24 hours.
        var eventsPerDay: Int
    }

    /// The largest change of a zone's offset from UTC that one step can meet (daylight-saving changes are one or two
    /// hours).
    private static let largestOffsetChange: Double = 3 * 3_600

    var stepBounds: StepBounds? {
        let interval = self.interval
        func value(_ component: Calendar.Component) -> Int { interval.value(for: component) ?? 0 }
        guard value(.era) == 0, value(.quarter) == 0, value(.yearForWeekOfYear) == 0,
              interval.calendar == nil, interval.timeZone == nil else { return nil }
        let limit = 1_000_000_000
        let parts = [Calendar.Component.year, .month, .weekOfYear, .weekOfMonth, .weekdayOrdinal, .day, .dayOfYear,
                     .weekday, .hour, .minute, .second, .nanosecond].map(value)
        guard parts.allSatisfy({ abs($0) <= limit }) else { return nil }

        // Days the calendar units move the wall clock, at least and at most.
        let identifier = calendar.identifier
        let gregorianLike: Set<Calendar.Identifier> = [.gregorian, .iso8601, .buddhist, .japanese, .republicOfChina]
        let (yearDays, monthDays) = gregorianLike.contains(identifier)
            ? ((365.0, 366.0), (28.0, 31.0)) : ((350.0, 390.0), (1.0, 32.0))
        func range(_ count: Int, _ length: (Double, Double)) -> (Double, Double) {
            let n = Double(count)
            return n >= 0 ? (n * length.0, n * length.1) : (n * length.1, n * length.0)
        }
        let years = range(value(.year), yearDays), months = range(value(.month), monthDays)
        let fixedDays = Double(7 * (value(.weekOfYear) + value(.weekOfMonth) + value(.weekdayOrdinal))
                               + value(.day) + value(.dayOfYear) + value(.weekday))
        let leastDays = years.0 + months.0 + fixedDays
        let clock = Double(value(.hour)) * 3_600 + Double(value(.minute)) * 60 + Double(value(.second))
            + Double(value(.nanosecond)) / 1e9
        // Any calendar part moves the wall clock, even when the parts cancel out (+7 days, then -7).
        let hasCalendarPart = parts.prefix(8).contains { $0 != 0 }
        let shift = Self.largestOffsetChange

        // Calendar units keep the wall-clock time (a skipped hour only moves it later); clock units add elapsed
        // time, which moves the wall clock by up to an offset change more or less.
        let leastWallClock = leastDays * 86_400 + (clock == 0 ? 0 : clock - shift)
        let leastElapsed = hasCalendarPart ? leastWallClock - shift : clock
        if duration == .allDay {
            // Each start snaps to the start of its day: it moves on only if the wall clock passes midnight.
            guard leastWallClock >= 86_400 else { return StepBounds(shortest: 0, eventsPerDay: .max) }
            return StepBounds(shortest: max(leastElapsed, 86_400 - shift), eventsPerDay: 1)
        }
        guard leastElapsed > 0 else { return StepBounds(shortest: leastElapsed, eventsPerDay: .max) }
        let perDay = leastWallClock >= 86_400 ? 1 : Int((86_400 / leastElapsed).rounded(.up))
        return StepBounds(shortest: leastElapsed, eventsPerDay: perDay)
    }

    /// The longest an event may last (all-day events fill their day).
    public static let maximumDuration: TimeInterval = 86_400

    /// Throws unless the element moves at least a minute from every date (see `shortestStep`) and its events last at
    /// most a day.
    func validateStep() throws(OCKValidationError) {
        guard duration.seconds <= Self.maximumDuration else {
            throw OCKValidationError(field: "duration", reason: "must be at most a day (86400 seconds)")
        }
        guard let bounds = stepBounds else {
            throw OCKValidationError(field: "interval",
                                     reason: "must use years, months, weeks, days, hours, minutes or seconds only")
        }
        guard bounds.shortest >= Self.minimumInterval else {
            throw OCKValidationError(
                field: "interval",
                reason: duration == .allDay ? "must move an all-day event forward by at least one day from every date"
                    : "must move forward by at least a minute from every date (in the element's calendar, across month "
                        + "ends and daylight-saving changes)")
        }
    }
}
