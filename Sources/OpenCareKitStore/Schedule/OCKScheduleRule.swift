import Foundation

/// A schedule as people say it: "every Monday and Thursday at 8:00 AM, from Nov 24", "every 2 days, all day, until
/// Dec 15". A plan editor builds schedules from rules, and reads a stored schedule back as a rule when one expresses
/// it exactly (`init?(schedule:)`).
///
/// A rule makes one schedule element per time (and per weekday for weekly rules), all in the rule's calendar, so
/// events stay at the same local time across daylight-saving changes. It expresses:
/// - every N days, or every N weeks on chosen weekdays;
/// - at one or more times of day (each with an optional label such as "Breakfast"), lasting a number of minutes, or
///   all day;
/// - from a first day, optionally until a last day (included);
/// - numeric target values with units.
///
/// It does not express what `OCKSchedule(composing:)` can hold beyond that — elements with different intervals,
/// targets, durations, ends or calendars; intervals of months, years, hours or minutes; times with seconds; text,
/// date or boolean targets — and `init?(schedule:)` returns nil for those, never an approximation.
///
/// For example:
/// ```swift
/// var rule = OCKScheduleRule(start: .init(year: 2026, month: 11, day: 24), timeZone: zone)
/// rule.repetition = .weeks(1, weekdays: [2, 5])
/// rule.times = [.init(hour: 8, minute: 0)]
/// let schedule = try rule.schedule()
/// ```
public struct OCKScheduleRule: Hashable, Sendable {
    /// How the events repeat.
    public enum Repetition: Hashable, Sendable {
        /// Every N days (1: every day).
        case days(Int)
        /// Every N weeks, on the given weekdays (1 Sunday … 7 Saturday, as `Calendar` numbers them).
        case weeks(Int, weekdays: Set<Int>)

        /// How many days or weeks apart the repeats are (the N of "every N days").
        public var count: Int {
            switch self {
            case let .days(count), let .weeks(count, _): count
            }
        }
    }

    /// A time of day, with an optional label for its event ("Breakfast").
    public struct Time: Hashable, Sendable, Comparable {
        /// The hour, 0 to 23.
        public var hour: Int
        /// The minute, 0 to 59.
        public var minute: Int
        /// The event's label, such as "Breakfast" (the element's `text`).
        public var label: String?

        /// The time `hour:minute`, with an optional label.
        public init(hour: Int, minute: Int, label: String? = nil) {
            self.hour = hour
            self.minute = minute
            self.label = label
        }

        public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.hour, lhs.minute) < (rhs.hour, rhs.minute) }

        /// "HH:MM", 24-hour, as forms and templates write it.
        public var clock: String {
            (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
        }
    }

    /// A numeric target for each event: "400 mg", "8 glasses".
    public struct Target: Hashable, Sendable {
        /// The amount, such as 400.
        public var value: Double
        /// The units, such as "mg".
        public var units: String?
        /// What the value measures, such as `dose` (a clinician's flag rules read it).
        public var kind: String?
        /// Whether the target is stored as a whole number (CareKit's `Int` value) rather than a `Double`.
        public var isInteger = false
        /// The target value's creation date, kept so a schedule read back is rebuilt exactly; nil: the rule's start.
        var createdDate: Date?

        /// A target of `value` in `units`, measuring `kind`; stored as a `Double` unless `isInteger` is set.
        public init(value: Double, units: String? = nil, kind: String? = nil) {
            self.value = value
            self.units = units
            self.kind = kind
        }
    }

    /// A day on the calendar, in the rule's time zone.
    public struct Day: Hashable, Sendable, Comparable {
        /// The year, such as 2026.
        public var year: Int
        /// The month, 1 to 12.
        public var month: Int
        /// The day of the month, from 1.
        public var day: Int

        /// The day `year-month-day`; `start(in:)` is nil if the calendar has no such day.
        public init(year: Int, month: Int, day: Int) {
            self.year = year
            self.month = month
            self.day = day
        }

        /// The day containing `date` in `calendar`.
        public init(_ date: Date, in calendar: Calendar) {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            self.init(year: parts.year ?? 2001, month: parts.month ?? 1, day: parts.day ?? 1)
        }

        /// Midnight starting this day in `calendar` (the day's first moment where midnight does not exist), or nil
        /// for a day that does not exist.
        public func start(in calendar: Calendar) -> Date? {
            guard let noon = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12)),
                  Day(noon, in: calendar) == self else { return nil }
            return calendar.startOfDay(for: noon)
        }

        /// The day `days` later.
        public func adding(days: Int, in calendar: Calendar) -> Day? {
            guard let noon = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12)),
                  let moved = calendar.date(byAdding: .day, value: days, to: noon) else { return nil }
            return Day(moved, in: calendar)
        }

        public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day) }
    }

    /// How the events repeat; every day by default.
    public var repetition: Repetition = .days(1)
    /// The times of day, in order; empty for an all-day event.
    public var times: [Time] = []
    /// The label of an all-day event ("Anytime today").
    public var allDayLabel: String?
    /// How long each timed event lasts, in minutes.
    public var durationMinutes = 60
    /// The first day.
    public var start: Day
    /// The last day with events, if the schedule ends.
    public var end: Day?
    /// The values the patient is expected to record for each event (the elements' `targetValues`).
    public var targets: [Target] = []
    /// The calendar whose days and times the rule speaks of (Gregorian, in the record's time zone).
    public var calendar: Calendar

    /// Whether the events last all day.
    public var isAllDay: Bool { times.isEmpty }

    /// A rule for every day from `start`, all day, in the Gregorian calendar of `timeZone`.
    public init(start: Day, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.start = start
        self.calendar = calendar
    }

    /// The most times a day: `OCKSchedule.maximumEventsPerDay` (48).
    public static let maximumTimes = OCKSchedule.maximumEventsPerDay
    /// The longest repetition in days: every 366 days.
    public static let maximumDays = 366
    /// The longest repetition in weeks: every 52 weeks.
    public static let maximumWeeks = 52
    /// The longest timed event, in minutes: a day.
    public static let maximumDurationMinutes = 24 * 60
    /// The most targets per event.
    public static let maximumTargets = 8
    /// The longest label of a time or an all-day event, in characters.
    public static let maximumLabelLength = 100
}
