import Foundation

/// The calendar of a schedule element: always fixed (never autoupdating), so events do not move when the process's
/// time zone differs from the one the schedule was written in.
///
/// Encodes in Foundation's `Calendar` JSON form, which is what CareKit writes. When a CareKit device encoded its
/// autoupdating calendar, the JSON still records the time zone it had then; decoding keeps that zone (Foundation
/// would substitute the decoding process's own) and keeps the original JSON so the element encodes back unchanged.
struct ScheduleCalendar: Codable, Hashable, Sendable {
    let calendar: Calendar
    /// The JSON this calendar was decoded from, re-encoded verbatim.
    private let original: JSONValue?

    init(_ calendar: Calendar) {
        self.calendar = Self.fixed(calendar, timeZone: TimeZone(identifier: calendar.timeZone.identifier))
        self.original = nil
    }

    private static func fixed(_ calendar: Calendar, timeZone: TimeZone?) -> Calendar {
        var fixed = Calendar(identifier: calendar.identifier)
        fixed.timeZone = timeZone ?? calendar.timeZone
        fixed.firstWeekday = calendar.firstWeekday
        fixed.minimumDaysInFirstWeek = calendar.minimumDaysInFirstWeek
        return fixed
    }

    init(from decoder: Decoder) throws {
        let raw = try JSONValue(from: decoder)
        guard let zoneName = raw["timeZone"]?["identifier"]?.stringValue else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "calendar.timeZone: an identifier is required"))
        }
        guard let zone = TimeZone(identifier: zoneName) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "calendar.timeZone: not a known time zone identifier"))
        }
        let decoded = try Calendar(from: decoder)
        var fixed = Self.fixed(decoded, timeZone: zone)
        if let firstWeekday = raw["firstWeekday"]?.intValue, (1...7).contains(firstWeekday) {
            fixed.firstWeekday = firstWeekday
        }
        if let minimumDays = raw["minimumDaysInFirstWeek"]?.intValue, (1...7).contains(minimumDays) {
            fixed.minimumDaysInFirstWeek = minimumDays
        }
        calendar = fixed
        original = raw
    }

    func encode(to encoder: Encoder) throws {
        if let original {
            try original.encode(to: encoder)
        } else {
            try calendar.encode(to: encoder)
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.calendar == rhs.calendar
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(calendar)
    }
}
