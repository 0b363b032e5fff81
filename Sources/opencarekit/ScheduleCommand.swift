import ArgumentParser
import Foundation
import OpenCareKitStore

/// `opencarekit schedule`: prints the events of a schedule described on the command line.
struct ScheduleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "Print the events of a schedule.",
        discussion: """
            Every --time adds one element that starts on the --start day at that time and repeats every --every.
            Without --time, --start gives the first event's date and time.

            Example: opencarekit schedule --start 2026-03-01 --time 08:00 --time 20:00 --every 1d \\
                       --zone America/New_York --from 2026-03-07 --to 2026-03-10
            """)

    @Option(help: "First day, or first date and time: 2026-03-01 or 2026-03-01T08:00.")
    var start: String

    @Option(name: .customLong("time"), help: "A time of day, HH:MM (repeatable).")
    var times: [String] = []

    @Option(help: "The interval: a number and a unit (s, min, h, d, w, mo, y), joined with + (1w+1d).")
    var every: String = "1d"

    @Option(help: "Events start before this date (exclusive): a date or date and time.")
    var end: String?

    @Option(help: "How long each event lasts: a number and a unit (s, min, h), or all-day.")
    var duration: String = "1h"

    @Option(help: "The IANA time zone the schedule is in (default: this machine's).")
    var zone: String = TimeZone.current.identifier

    @Option(help: "Show events that end at or after this date or date and time (default: the start).")
    var from: String?

    @Option(help: "Show events that start before this date or date and time (default: 7 days after --from).")
    var to: String?

    @Option(help: "Print at most this many events.")
    var limit: Int = 1_000

    mutating func run() throws {
        guard let timeZone = TimeZone(identifier: zone) else {
            throw ValidationError("--zone: not a known time zone identifier")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard limit > 0 else { throw ValidationError("--limit: must be positive") }

        let parser = CommandLineDates(calendar: calendar)
        let startDate = try parser.date(start, option: "--start")
        let endDate = try end.map { try parser.date($0, option: "--end") }
        let interval = try CommandLineDates.interval(every)
        let eventDuration = try CommandLineDates.duration(duration)

        let starts = try times.isEmpty ? [startDate] : times.map { try parser.time($0, on: startDate) }
        let elements = starts.map {
            OCKScheduleElement(start: $0, end: endDate, interval: interval, text: nil, targetValues: [],
                               duration: eventDuration, calendar: calendar)
        }
        let schedule = OCKSchedule(composing: elements)
        do {
            try schedule.validate()
        } catch {
            throw ValidationError("schedule: \(error.description)")
        }

        let fromDate = try from.map { try parser.date($0, option: "--from") } ?? schedule.startDate()
        let toDate = try to.map { try parser.date($0, option: "--to") }
            ?? calendar.date(byAdding: .day, value: 7, to: fromDate) ?? fromDate
        guard toDate > fromDate else { throw ValidationError("--to: must be after --from") }
        guard toDate.timeIntervalSince(fromDate) <= 100 * 366 * 86_400 else {
            throw ValidationError("--to: at most 100 years after --from")
        }

        let events = schedule.events(from: fromDate, to: toDate)
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = timeZone
        formatter.formatOptions = [.withInternetDateTime]
        for event in events.prefix(limit) {
            let length = eventDuration == .allDay ? "all day" : "until \(formatter.string(from: event.end))"
            print("\(event.occurrence)\t\(formatter.string(from: event.start))\t\(length)")
        }
        if events.count > limit {
            print("… \(events.count - limit) more (raise --limit to see them)")
        }
    }
}

/// Parses the dates, times and intervals the command line accepts.
struct CommandLineDates {
    let calendar: Calendar

    /// "2026-03-01" (midnight) or "2026-03-01T08:00[:SS]", in the calendar's time zone.
    func date(_ text: String, option: String) throws -> Date {
        let parts = text.split(separator: "T", maxSplits: 1)
        let day = parts.first.map { $0.split(separator: "-").compactMap { Int($0) } } ?? []
        var components = DateComponents()
        guard day.count == 3, (1...9999).contains(day[0]), (1...12).contains(day[1]), (1...31).contains(day[2]) else {
            throw ValidationError("\(option): expected a date like 2026-03-01 or 2026-03-01T08:00")
        }
        (components.year, components.month, components.day) = (day[0], day[1], day[2])
        if parts.count == 2 {
            let time = try Self.clock(String(parts[1]), option: option)
            (components.hour, components.minute, components.second) = (time.hour, time.minute, time.second)
        }
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day[2] else {
            throw ValidationError("\(option): not a day of that month")
        }
        return date
    }

    /// The moment on the day of `day` at "HH:MM".
    func time(_ text: String, on day: Date) throws -> Date {
        let time = try Self.clock(text, option: "--time")
        guard let date = calendar.date(bySettingHour: time.hour, minute: time.minute, second: time.second, of: day) else {
            throw ValidationError("--time: that time does not exist on the start day")
        }
        return date
    }

    private static func clock(_ text: String, option: String) throws -> (hour: Int, minute: Int, second: Int) {
        let parts = text.split(separator: ":").map { Int($0) }
        guard (2...3).contains(parts.count), let hour = parts[0], let minute = parts[1], (0...23).contains(hour),
              (0...59).contains(minute) else {
            throw ValidationError("\(option): expected a time like 08:00")
        }
        let second = parts.count == 3 ? parts[2] : 0
        guard let second, (0...59).contains(second) else { throw ValidationError("\(option): expected a time like 08:00") }
        return (hour, minute, second)
    }

    private static func quantity(_ text: Substring, option: String) throws -> (Int, String) {
        let digits = text.prefix { $0.isNumber }
        let unit = text.dropFirst(digits.count)
        guard let value = Int(digits), !unit.isEmpty else {
            throw ValidationError("\(option): expected a number and a unit, such as 1d or 30min")
        }
        return (value, String(unit))
    }

    /// "1d", "2w", "1mo", "1y", "6h", "30min", "45s", or a sum such as "1w+1d".
    static func interval(_ text: String) throws -> DateComponents {
        var components = DateComponents()
        for part in text.split(separator: "+") {
            let (value, unit) = try quantity(part, option: "--every")
            func add(_ keyPath: WritableKeyPath<DateComponents, Int?>) { components[keyPath: keyPath] = (components[keyPath: keyPath] ?? 0) + value }
            switch unit {
            case "s": add(\.second)
            case "min": add(\.minute)
            case "h": add(\.hour)
            case "d": add(\.day)
            case "w": add(\.weekOfYear)
            case "mo": add(\.month)
            case "y": add(\.year)
            default: throw ValidationError("--every: unknown unit '\(unit)' (use s, min, h, d, w, mo or y)")
            }
        }
        return components
    }

    /// "all-day", or "90min", "1h", "30s".
    static func duration(_ text: String) throws -> OCKScheduleElement.Duration {
        if text == "all-day" { return .allDay }
        let (value, unit) = try quantity(Substring(text), option: "--duration")
        switch unit {
        case "s": return .seconds(Double(value))
        case "min": return .minutes(Double(value))
        case "h": return .hours(Double(value))
        default: throw ValidationError("--duration: unknown unit '\(unit)' (use s, min, h or all-day)")
        }
    }
}
