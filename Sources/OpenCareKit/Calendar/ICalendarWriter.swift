import Foundation

/// iCalendar text (RFC 5545): content lines folded at 75 octets, text escaped, dates in the forms the standard
/// names. Every value written goes through `text(_:)` or one of the date forms, so nothing from a care record can
/// start a line, a property or a component of its own.
struct ICalendarWriter {
    private(set) var output = ""

    /// Writes `name:value` (the value already in its iCalendar form), folded.
    mutating func line(_ name: String, _ value: String) {
        // Fold: at most 75 octets per line, continuation lines start with a space; never inside a UTF-8 sequence.
        var octets = 0
        for scalar in (name + ":" + value).unicodeScalars {
            let width = String(scalar).utf8.count
            if octets + width > 75 {
                output += "\r\n "
                octets = 1
            }
            output.unicodeScalars.append(scalar)
            octets += width
        }
        output += "\r\n"
    }

    /// A TEXT value: backslashes, semicolons, commas and line breaks escaped; other control characters left out.
    static func text(_ value: String) -> String {
        var escaped = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case ";": escaped += "\\;"
            case ",": escaped += "\\,"
            case "\n": escaped += "\\n"
            case "\r": continue
            default:
                if scalar.value < 0x20 && scalar != "\t" || scalar.value == 0x7F { continue }
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// A parameter value (`TZID=…`): quoted when it holds a character a bare value cannot; quotes left out.
    static func parameter(_ value: String) -> String {
        let clean = String(value.unicodeScalars.filter { $0.value >= 0x20 && $0 != "\"" && $0.value != 0x7F })
        return clean.contains(where: { ";:,".contains($0) }) ? "\"" + clean + "\"" : clean
    }

    /// The Gregorian calendar in UTC, in which wall-clock times at a known offset are read.
    static let gregorian: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    private static func digits(_ value: Int, _ count: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }

    private static func stamp(_ date: Date, offset: Int, time: Bool) -> String {
        // The wall-clock time at `offset`, to the second (iCalendar has no fractions).
        let seconds = (date.timeIntervalSinceReferenceDate + Double(offset)).rounded(.down)
        let parts = gregorian.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                             from: Date(timeIntervalSinceReferenceDate: seconds))
        let day = digits(parts.year ?? 0, 4) + digits(parts.month ?? 0, 2) + digits(parts.day ?? 0, 2)
        guard time else { return day }
        return day + "T" + digits(parts.hour ?? 0, 2) + digits(parts.minute ?? 0, 2) + digits(parts.second ?? 0, 2)
    }

    /// A UTC DATE-TIME: `20261124T130000Z`.
    static func utc(_ date: Date) -> String {
        stamp(date, offset: 0, time: true) + "Z"
    }

    /// A local DATE-TIME in `zone` (written with `TZID`): `20261124T080000`.
    static func local(_ date: Date, in zone: TimeZone) -> String {
        stamp(date, offset: zone.secondsFromGMT(for: date), time: true)
    }

    /// A local DATE-TIME at a fixed offset (a `VTIMEZONE` onset, in the offset before the change).
    static func local(_ date: Date, offset: Int) -> String {
        stamp(date, offset: offset, time: true)
    }

    /// A DATE, the day `date` falls on in `zone`: `20261124`.
    static func day(_ date: Date, in zone: TimeZone) -> String {
        stamp(date, offset: zone.secondsFromGMT(for: date), time: false)
    }

    /// A UTC offset: `-0500`, `+0930`, `+0545`, with seconds when there are any.
    static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = abs(seconds)
        let text = sign + digits(magnitude / 3_600, 2) + digits(magnitude % 3_600 / 60, 2)
        return magnitude % 60 == 0 ? text : text + digits(magnitude % 60, 2)
    }

    /// A DURATION of whole seconds: `PT3600S`, `PT0S`.
    static func duration(seconds: Double) -> String {
        "PT" + String(Int(max(0, seconds.rounded(.down)))) + "S"
    }
}
