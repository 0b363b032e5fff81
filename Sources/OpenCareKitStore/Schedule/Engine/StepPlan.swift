import Foundation

/// How one schedule interval moves a date, classified once so occurrences can be found without stepping.
///
/// Foundation adds an interval field by field (years, months, weeks, days, then clock units). The engine has a
/// direct formula for the shapes care plans use — whole days and weeks, whole months, whole years, or clock time —
/// and falls back to CareKit's step-by-step definition for anything else (mixed calendar and clock units, negative
/// parts, nanoseconds, non-Gregorian calendars).
enum StepPlan: Hashable, Sendable {
    /// Whole days per occurrence, with the running totals after each field Foundation adds in turn (weeks, then
    /// days) so that an intermediate landing in a skipped hour can be detected.
    case days(total: Int, partials: [Int])
    /// Whole months per occurrence.
    case months(Int)
    /// Whole years per occurrence.
    case years(Int)
    /// Whole seconds per occurrence (hours, minutes and seconds).
    case seconds(Int)
    /// Only the step-by-step definition is known.
    case stepwise

    init(interval: DateComponents, calendar: Calendar) {
        guard calendar.identifier == .gregorian || calendar.identifier == .iso8601 else {
            self = .stepwise
            return
        }
        func value(_ component: Calendar.Component) -> Int { interval.value(for: component) ?? 0 }

        let fields: [Calendar.Component] = [.year, .yearForWeekOfYear, .month, .weekOfYear, .weekOfMonth,
                                            .weekdayOrdinal, .day, .dayOfYear, .weekday, .hour, .minute, .second,
                                            .nanosecond]
        // Components beyond ten million units are left to Foundation, which reports overflow as nil.
        guard fields.allSatisfy({ (0...10_000_000).contains(value($0)) }), value(.nanosecond) == 0,
              value(.yearForWeekOfYear) == 0, interval.calendar == nil, interval.timeZone == nil else {
            self = .stepwise
            return
        }
        let years = value(.year), months = value(.month)
        var partials: [Int] = []
        var days = 0
        for (component, length) in [(Calendar.Component.weekOfYear, 7), (.weekOfMonth, 7), (.weekdayOrdinal, 7),
                                     (.day, 1), (.dayOfYear, 1), (.weekday, 1)] where value(component) > 0 {
            days += value(component) * length
            partials.append(days)
        }
        let seconds = value(.hour) * 3600 + value(.minute) * 60 + value(.second)

        let kinds = [years > 0, months > 0, days > 0, seconds > 0].filter { $0 }.count
        guard kinds == 1 else {
            self = .stepwise
            return
        }
        if years > 0 {
            self = .years(years)
        } else if months > 0 {
            self = .months(months)
        } else if days > 0 {
            self = .days(total: days, partials: partials)
        } else {
            self = .seconds(seconds)
        }
    }

    /// A typical length of one step in seconds, used only to estimate an occurrence index from a date.
    var approximateSeconds: Double? {
        switch self {
        case let .days(total, _): Double(total) * 86_400
        case let .months(months): Double(months) * 2_629_746
        case let .years(years): Double(years) * 31_556_952
        case let .seconds(seconds): Double(seconds)
        case .stepwise: nil
        }
    }
}
