import Foundation

/// CareKit's JSON: `text`, `duration`, `start`, `end`, `interval`, `targetValues` and `calendar`.
extension OCKScheduleElement {

    private enum CodingKeys: String, CodingKey {
        case text, duration, start, end, interval, targetValues, calendar
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let calendar = try container.decodeIfPresent(ScheduleCalendar.self, forKey: .calendar)
            ?? ScheduleCalendar(.autoupdatingCurrent)
        storage = Storage(text: try container.decodeIfPresent(String.self, forKey: .text),
                          duration: try container.decode(Duration.self, forKey: .duration),
                          start: try container.decode(Date.self, forKey: .start),
                          end: try container.decodeIfPresent(Date.self, forKey: .end),
                          interval: try container.decode(DateComponents.self, forKey: .interval),
                          targetValues: try container.decodeIfPresent([OCKOutcomeValue].self, forKey: .targetValues) ?? [],
                          calendar: calendar)
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
        try container.encode(storage.calendar, forKey: .calendar)
    }
}
