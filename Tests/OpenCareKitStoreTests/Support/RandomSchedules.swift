import Foundation
@testable import OpenCareKitStore

/// Random schedule elements that exercise the hard cases: daylight-saving gaps and overlaps in many zones (30-minute
/// and 2-hour shifts, midnight changes, a skipped calendar day), month ends, leap days and fractional seconds.
enum RandomSchedules {
    static let zones = [
        "America/New_York", "Europe/London", "Europe/Berlin", "Australia/Sydney", "Australia/Lord_Howe",
        "America/Sao_Paulo", "America/Havana", "America/Santiago", "Asia/Tehran", "Asia/Kolkata", "Pacific/Apia",
        "Antarctica/Troll", "Asia/Seoul", "UTC", "America/Los_Angeles", "Africa/Casablanca",
    ]

    static func calendar(_ zone: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar
    }

    static func interval(using rng: inout SeededGenerator) -> DateComponents {
        switch Int.random(in: 0..<14, using: &rng) {
        case 0, 1, 2: DateComponents(day: Int.random(in: 1...3, using: &rng))
        case 3: DateComponents(day: Int.random(in: 4...40, using: &rng))
        case 4, 5: DateComponents(weekOfYear: Int.random(in: 1...3, using: &rng))
        case 6: DateComponents(month: Int.random(in: 1...14, using: &rng))
        case 7: DateComponents(year: Int.random(in: 1...4, using: &rng))
        case 8: DateComponents(hour: Int.random(in: 1...30, using: &rng))
        case 9: DateComponents(minute: Int.random(in: 20...900, using: &rng))
        case 10: DateComponents(day: Int.random(in: 1...2, using: &rng), weekOfYear: 1)
        case 11: DateComponents(weekday: Int.random(in: 1...9, using: &rng))
        case 12: DateComponents(day: 1, hour: Int.random(in: 1...5, using: &rng))
        default: DateComponents(month: 1, day: 2)
        }
    }

    static func element(using rng: inout SeededGenerator) -> OCKScheduleElement {
        let calendar = calendar(zones.randomElement(using: &rng)!)
        var components = DateComponents(
            year: Int.random(in: 2000...2030, using: &rng), month: Int.random(in: 1...12, using: &rng),
            day: Int.random(in: 1...28, using: &rng))
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: components.hour = 2; components.minute = Int.random(in: 0...59, using: &rng) // gap hours
        case 1: components.hour = Int.random(in: 0...1, using: &rng); components.minute = 30 // overlap/midnight
        case 2: components.day = Int.random(in: 28...31, using: &rng); components.hour = 8 // month ends
        case 3: components.month = 2; components.day = 29; components.year = 2024; components.hour = 9 // leap day
        default: components.hour = Int.random(in: 0...23, using: &rng); components.minute = Int.random(in: 0...59, using: &rng)
        }
        var start = calendar.date(from: components)!
        if Int.random(in: 0..<8, using: &rng) == 0 {
            start += Double(Int.random(in: 1...999_999, using: &rng)) / 1_000_000
        }
        let duration: OCKScheduleElement.Duration = switch Int.random(in: 0..<6, using: &rng) {
        case 0: .allDay
        case 1: .seconds(0)
        case 2: .hours(Double(Int.random(in: 30...80, using: &rng)))
        default: .minutes(Double(Int.random(in: 5...180, using: &rng)))
        }
        var interval = interval(using: &rng)
        if duration == .allDay, interval.hour != nil || interval.minute != nil {
            interval = DateComponents(day: Int.random(in: 1...3, using: &rng))
        }
        let end: Date? = Int.random(in: 0..<3, using: &rng) == 0
            ? start.addingTimeInterval(Double(Int.random(in: 3_600...400_000_000, using: &rng))) : nil
        return OCKScheduleElement(start: start, end: end, interval: interval, text: nil, targetValues: [],
                                  duration: duration, calendar: calendar)
    }
}
