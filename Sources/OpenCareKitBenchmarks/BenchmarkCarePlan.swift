import Foundation
import OpenCareKitStore

/// The fixed care plan the schedule benchmark expands: 20 tasks in America/New_York — medications one to three times
/// a day, exercises every other day, weekly sessions on two weekdays, 13 checks at every waking hour, all-day tasks.
///
/// Wall-clock times avoid 01:00–03:00, where a daylight-saving change makes CareKit's definition and RFC 5545
/// (python-dateutil) disagree by design, so the two occurrence sets can be compared exactly.
struct BenchmarkCarePlan {
    struct Rule {
        enum Frequency: String { case daily, weekly }
        var frequency: Frequency
        var interval: Int
        var hour: Int
        var minute: Int
        /// Days after the plan's start of the first occurrence (to land weekly rules on a chosen weekday).
        var dayOffset = 0
        var allDay = false
    }

    struct Task {
        var id: String
        var rules: [Rule]
    }

    static let zone = TimeZone(identifier: "America/New_York")!

    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    static let tasks: [Task] = {
        func daily(_ times: [(Int, Int)], every interval: Int = 1) -> [Rule] {
            times.map { Rule(frequency: .daily, interval: interval, hour: $0.0, minute: $0.1) }
        }
        func weekly(_ days: [Int], at time: (Int, Int)) -> [Rule] {
            days.map { Rule(frequency: .weekly, interval: 1, hour: time.0, minute: time.1, dayOffset: $0) }
        }
        return [
            Task(id: "levothyroxine", rules: daily([(7, 0)])),
            Task(id: "metformin", rules: daily([(8, 0), (20, 0)])),
            Task(id: "ibuprofen", rules: daily([(8, 0), (14, 0), (20, 0)])),
            Task(id: "lisinopril", rules: daily([(9, 30)])),
            Task(id: "atorvastatin", rules: daily([(21, 0)])),
            Task(id: "omeprazole", rules: daily([(6, 45), (18, 45)])),
            Task(id: "vitamin-d", rules: daily([(12, 0)])),
            Task(id: "insulin", rules: daily([(7, 30), (12, 30), (18, 30)])),
            Task(id: "eye-drops", rules: daily([(10, 15), (22, 15)])),
            Task(id: "blood-pressure", rules: daily([(8, 30), (19, 30)])),
            Task(id: "knee-exercises", rules: daily([(17, 0)], every: 2)),
            Task(id: "walk", rules: daily([(16, 0)], every: 2)),
            Task(id: "stretching", rules: daily([(7, 15), (19, 15)], every: 2)),
            // 2016-01-01 is a Friday: offsets 3 and 6 are Monday and Thursday, 4 and 1 are Tuesday and Saturday.
            Task(id: "physiotherapy", rules: weekly([3, 6], at: (18, 0))),
            Task(id: "group-session", rules: weekly([4, 1], at: (10, 0))),
            Task(id: "weigh-in", rules: weekly([2], at: (7, 0))),
            Task(id: "symptom-check", rules: daily((7...19).map { ($0, 0) })),
            Task(id: "hydration", rules: [Rule(frequency: .daily, interval: 1, hour: 0, minute: 0, allDay: true)]),
            Task(id: "nausea-log", rules: [Rule(frequency: .daily, interval: 1, hour: 0, minute: 0, allDay: true)]),
            Task(id: "mood-journal", rules: daily([(21, 30)])),
        ]
    }()

    /// The schedules of every task, starting on `start`'s day.
    static func schedules(startingOn start: Date) -> [(id: String, schedule: OCKSchedule)] {
        let calendar = calendar
        return tasks.map { task in
            let elements = task.rules.map { rule in
                let day = calendar.date(byAdding: .day, value: rule.dayOffset, to: start)!
                let first = calendar.date(bySettingHour: rule.hour, minute: rule.minute, second: 0, of: day)!
                let interval = rule.frequency == .daily ? DateComponents(day: rule.interval)
                    : DateComponents(weekOfYear: rule.interval)
                return OCKScheduleElement(start: first, end: nil, interval: interval, text: nil, targetValues: [],
                                          duration: rule.allDay ? .allDay : .hours(1), calendar: calendar)
            }
            return (task.id, OCKSchedule(composing: elements))
        }
    }

    /// The same rules as python-dateutil input.
    static func dateutilSpec(startingOn start: Date, until end: Date) -> [String: Any] {
        let calendar = calendar
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = zone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let tasks: [[String: Any]] = tasks.map { task in
            ["id": task.id, "rules": task.rules.map { rule -> [String: Any] in
                let day = calendar.date(byAdding: .day, value: rule.dayOffset, to: start)!
                let first = calendar.date(bySettingHour: rule.hour, minute: rule.minute, second: 0, of: day)!
                return ["freq": rule.frequency.rawValue, "interval": rule.interval, "start": formatter.string(from: first)]
            }]
        }
        return ["zone": zone.identifier, "until": Int(end.timeIntervalSince1970), "tasks": tasks]
    }
}
