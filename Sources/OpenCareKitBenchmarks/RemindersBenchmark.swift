import Foundation
import OpenCareKit
import OpenCareKitStore

/// The reminder index with many records: the time to find one minute's due events, for schedules that began 30 days
/// and 20 years ago, against the reference measured in the same run — looking at every task's schedule for that
/// minute, as a service without the index would.
struct RemindersBenchmark {
    var records = 10_000
    var tasksPerRecord = 50
    var minutes = 60

    /// Record `variant`'s tasks: daily, twice-daily, weekly, every-8-hours and all-day schedules at times spread over the
    /// day, `variant` minutes later than variant 0's, in New York.
    static func tasks(_ count: Int, variant: Int, began: Date, calendar: Calendar) -> [[OCKTask]] {
        (0..<count).map { index in
            let hour = (index * 5) % 24, minute = (index * 7 + variant) % 60
            let start = calendar.date(bySettingHour: hour, minute: minute, second: 0, of: began)!
            let elements: [OCKScheduleElement] = switch index % 5 {
            case 0: [OCKScheduleElement(start: start, end: nil, interval: DateComponents(day: 1), calendar: calendar)]
            case 1: [OCKScheduleElement(start: start, end: nil, interval: DateComponents(day: 1), calendar: calendar),
                     OCKScheduleElement(start: start.addingTimeInterval(9 * 3_600), end: nil, interval: DateComponents(day: 1), calendar: calendar)]
            case 2: [OCKScheduleElement(start: start, end: nil, interval: DateComponents(weekOfYear: 1), calendar: calendar)]
            case 3: [OCKScheduleElement(start: start, end: nil, interval: DateComponents(hour: 8), calendar: calendar)]
            default: [OCKScheduleElement(start: start, end: nil, interval: DateComponents(day: 1), duration: .allDay, calendar: calendar)]
            }
            var task = OCKTask(id: "task-\(index)", title: "Task \(index)", carePlanUUID: nil, schedule: OCKSchedule(composing: elements))
            task.effectiveDate = began
            return [task]
        }
    }

    func run() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/New_York")!
        // 2026-11-29 13:00 UTC (8:00 in New York, a Sunday).
        let now = Date(timeIntervalSince1970: 1_795_957_200)
        let elements = (0..<tasksPerRecord).map { $0 % 5 == 1 ? 2 : 1 }.reduce(0, +)
        print("Reminder benchmark: \(records) records × \(tasksPerRecord) tasks (\(records * elements) schedule elements), "
              + "America/New_York, \(minutes) minutes from 2026-11-29 08:00")
        print("")
        print("                                        build s   per minute: median ms   max ms   due events   in the first minute")
        var variants: [[[OCKTask]]] = []
        for (label, began) in [("schedules began 30 days ago", now.addingTimeInterval(-30 * 86_400)),
                               ("schedules began 20 years ago", calendar.date(byAdding: .year, value: -20, to: now)!)] {
            variants = (0..<60).map { Self.tasks(tasksPerRecord, variant: $0, began: began, calendar: calendar) }
            var index = OCKReminderIndex()
            let buildStart = DispatchTime.now().uptimeNanoseconds
            for record in 0..<records {
                index.replace(record: "record-\(record)", tasks: variants[record % 60], from: now)
            }
            let build = Double(DispatchTime.now().uptimeNanoseconds - buildStart) / 1e9
            // Due at `now` itself first (not timed): each measured minute then holds that minute's events.
            _ = index.due(through: now)
            var times: [Double] = []
            var due = 0, first = 0
            for minute in 1...minutes {
                let started = DispatchTime.now().uptimeNanoseconds
                let found = index.due(through: now.addingTimeInterval(Double(minute) * 60)).count
                times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
                due += found
                if minute == 1 { first = found }
            }
            times.sort()
            print(String(format: "index, %@   %7.2f   %21.3f   %6.3f   %10d   %19d", label, build, times[times.count / 2], times.last ?? 0,
                         due, first))
        }
        // The reference: every record's every schedule looked at for the first minute (after now, through now + 60 s;
        // all-day events are due at 9:00, outside it).
        let minuteStart = now, minuteEnd = now.addingTimeInterval(60)
        let started = DispatchTime.now().uptimeNanoseconds
        var found = 0
        for record in 0..<records {
            for chain in variants[record % 60] {
                found += chain[0].schedule.events(from: minuteStart, to: minuteEnd.addingTimeInterval(0.001))
                    .filter { $0.start > minuteStart && $0.start <= minuteEnd && $0.element.duration != .allDay }.count
            }
        }
        let scan = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        print(String(format: "scan of every schedule (reference, 20 years)       %21.3f   %6@   %10@   %19d", scan, "", "", found))
    }
}
