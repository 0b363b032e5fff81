import Foundation
import Testing
import OpenCareKitCommandTesting
@testable import OpenCareKitStore

/// The engine against python-dateutil's RFC 5545 recurrence: random daily and weekly rules over several years, across
/// daylight-saving changes, at wall-clock times where the two definitions agree (outside the hours a change skips or
/// repeats). Needs python3 with python-dateutil: scripts/test installs it into .venv and sets OPENCAREKIT_PYTHON.
@Suite struct DateutilDifferentialTests {
    static func expand(_ spec: [String: Any]) throws -> [String: [Int]] {
        try #require(try PythonReference.run("dateutil_expand.py", spec)["occurrences"] as? [String: [Int]])
    }

    @Test(arguments: ["America/New_York", "Europe/London", "Australia/Sydney", "America/Sao_Paulo", "Europe/Berlin"])
    func dailyAndWeeklyRulesMatchDateutil(zone: String) throws {
        var rng = SeededGenerator(seed: UInt64(zone.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        let calendar = RandomSchedules.calendar(zone)
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"

        var tasks: [[String: Any]] = []
        var schedules: [String: OCKSchedule] = [:]
        var until = Date.distantPast
        for index in 0..<40 {
            let weekly = Bool.random(using: &rng)
            let interval = Int.random(in: 1...(weekly ? 3 : 4), using: &rng)
            let start = calendar.date(from: DateComponents(
                year: Int.random(in: 2010...2024, using: &rng), month: Int.random(in: 1...12, using: &rng),
                day: Int.random(in: 1...28, using: &rng), hour: Int.random(in: 4...23, using: &rng),
                minute: Int.random(in: 0...59, using: &rng)))!
            let years = Int.random(in: 2...6, using: &rng)
            until = max(until, calendar.date(byAdding: .year, value: years, to: start)!)
            let element = OCKScheduleElement(start: start, end: nil,
                                             interval: weekly ? DateComponents(weekOfYear: interval) : DateComponents(day: interval),
                                             calendar: calendar)
            schedules["rule\(index)"] = OCKSchedule(composing: [element])
            tasks.append(["id": "rule\(index)", "rules": [["freq": weekly ? "weekly" : "daily", "interval": interval,
                                                           "start": formatter.string(from: start)]]])
        }
        let reference = try Self.expand(["zone": zone, "until": Int(until.timeIntervalSince1970), "tasks": tasks])
        var compared = 0
        for (id, schedule) in schedules {
            let ours = schedule.events(from: schedule.startDate(), to: until).map { Int($0.start.timeIntervalSince1970) }
            #expect(ours == reference[id], "\(zone) \(id)")
            compared += ours.count
        }
        #expect(compared > 5_000)
    }
}
