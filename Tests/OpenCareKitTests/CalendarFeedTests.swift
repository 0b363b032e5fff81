import Foundation
import OpenCareKit
import OpenCareKitCommandTesting
import OpenCareKitStore
import Testing

/// The calendar feed against what calendar apps read: Python's `icalendar` parses it and `recurring-ical-events`
/// expands it, and the occurrences must be exactly the store's events (`fetchEvents`) over a year — random schedules
/// in three time zones across their daylight-saving changes, at times a change skips or repeats, on the 29th to 31st
/// of months, with ends, and with a third of the tasks updated in the middle of the year. Each `VTIMEZONE`, read on
/// its own, must give zoneinfo's offsets for the next thirty years.
@Suite struct CalendarFeedTests {
    /// 2026-11-18T20:53:20Z.
    static let now = Date(timeIntervalSince1970: 1_795_035_200)

    struct Occurrence: Hashable, Comparable, CustomStringConvertible {
        var title: String
        /// Unix seconds (timed) or the local date (all-day).
        var start: String
        var length: Int

        static func < (lhs: Self, rhs: Self) -> Bool { (lhs.title, lhs.start, lhs.length) < (rhs.title, rhs.start, rhs.length) }
        var description: String { "\(title) \(start) \(length)" }
    }

    static func day(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// A store of random tasks in `zone`; a third of them get a second version with another schedule.
    static func store(in zone: TimeZone, seed: UInt64) async throws -> OCKStore {
        var random = SeededRandomNumberGenerator(seed: seed)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        func element() -> OCKScheduleElement {
            let day = calendar.date(byAdding: .day, value: Int.random(in: -400...60, using: &random), to: now)!
            var parts = calendar.dateComponents([.year, .month], from: day)
            // Any day of the month (the 29th to 31st cannot be a monthly rule), any hour (some a change skips or repeats).
            parts.day = Int.random(in: 1...31, using: &random)
            parts.hour = Int.random(in: 0...23, using: &random)
            parts.minute = [0, 15, 30, 45].randomElement(using: &random)!
            let start = calendar.date(from: parts)!
            let intervals: [DateComponents] = [
                DateComponents(day: 1), DateComponents(day: 1), DateComponents(day: 2), DateComponents(weekOfYear: 1),
                DateComponents(weekOfYear: 2), DateComponents(month: 1), DateComponents(year: 1), DateComponents(hour: 8),
                DateComponents(minute: 90), DateComponents(day: 1, hour: 1),
            ]
            var interval = intervals.randomElement(using: &random)!
            let allDay = Int.random(in: 0..<5, using: &random) == 0
            // An all-day event moves by whole days at least.
            if allDay && (interval.hour != nil || interval.minute != nil) { interval = DateComponents(day: 3) }
            let end = Int.random(in: 0..<3, using: &random) == 0
                ? calendar.date(byAdding: .day, value: Int.random(in: 20...300, using: &random), to: start) : nil
            return OCKScheduleElement(start: start, end: end, interval: interval,
                                      duration: allDay ? .allDay : .seconds(Double([0, 900, 3_600].randomElement(using: &random)!)),
                                      calendar: calendar)
        }
        let store = OCKStore(name: "feed \(zone.identifier)", type: .inMemory)
        var tasks: [OCKTask] = []
        for index in 0..<18 {
            let elements = (0..<Int.random(in: 1...2, using: &random)).map { _ in element() }
            // Titles the feed must escape and fold: commas, semicolons, backslashes, line breaks, long Korean text.
            let title = index % 3 == 0 ? "약 \(index), 아침; 식후\\저녁\n두 번째 줄 — 매우 긴 제목이 여러 줄로 접혀야 합니다 \(index)" : "Task \(index)"
            var task = OCKTask(id: "t\(index)", title: title, carePlanUUID: nil, schedule: OCKSchedule(composing: elements))
            task.instructions = index % 4 == 0 ? "Take with water, then rest; see notes." : nil
            tasks.append(task)
        }
        try await store.addTasks(tasks)
        for var task in tasks.enumerated().filter({ $0.offset % 3 == 1 }).map(\.element) {
            // A new schedule that has not ended before the version takes effect. (One that has hides the task from
            // any query whose interval reaches the new version, as CareKit's task query does, so the events the
            // store lists would depend on the interval asked for.)
            var replacement = element()
            while replacement.end.map({ $0 < now.addingTimeInterval(200 * 86_400) }) ?? false { replacement = element() }
            task.schedule = OCKSchedule(composing: [replacement])
            // After the first version's (the store refuses an update that takes effect before it).
            task.effectiveDate = max(task.effectiveDate.addingTimeInterval(3_600),
                                     calendar.date(byAdding: .hour, value: Int.random(in: -200...4_000, using: &random), to: now)!)
            try await store.updateTasks([task])
        }
        return store
    }

    /// The store's events that start in `window`, fetched a month at a time.
    static func storeEvents(_ store: OCKStore, in window: DateInterval, zone: TimeZone) async throws -> [Occurrence] {
        var seen = Set<String>()
        var occurrences: [Occurrence] = []
        var start = window.start
        while start < window.end {
            let end = min(window.end, start.addingTimeInterval(30 * 86_400))
            for event in try await store.fetchEvents(query: OCKEventQuery(dateInterval: DateInterval(start: start, end: end)))
            where event.scheduleEvent.start >= window.start && event.scheduleEvent.start < window.end {
                guard seen.insert("\(event.task.uuid) \(event.scheduleEvent.element.start) \(event.scheduleEvent.occurrence)").inserted
                else { continue }
                let allDay = event.scheduleEvent.element.duration == .allDay
                occurrences.append(Occurrence(
                    title: event.task.title ?? "",
                    start: allDay ? day(event.scheduleEvent.start, in: zone) : String(Int(event.scheduleEvent.start.timeIntervalSince1970.rounded(.down))),
                    length: allDay ? 1 : Int(event.scheduleEvent.element.duration.seconds)))
            }
            start = end
        }
        return occurrences.sorted()
    }

    /// Two stores per zone (the second seed's include a task whose newest version's schedule ends before the window
    /// while the version before it still has events in it).
    @Test(arguments: ["America/New_York", "Europe/Berlin", "Australia/Sydney"], [UInt64(7_919), 31])
    func theFeedHoldsExactlyTheStoresEventsForAYear(zone identifier: String, seed: UInt64) async throws {
        let zone = try #require(TimeZone(identifier: identifier))
        let store = try await Self.store(in: zone, seed: UInt64(identifier.utf8.count) * seed)
        var feed = OCKCalendarFeed(title: "Care plan", now: Self.now)
        feed.expandedDays = 400
        let ics = feed.render(try await feed.tasks(of: store))
        let window = DateInterval(start: Self.now.addingTimeInterval(-Double(feed.pastDays) * 86_400), duration: 365 * 86_400)

        // Offsets to compare: around every change of the next thirty years, and every ten days.
        let horizon = Self.now.addingTimeInterval(32 * 365 * 86_400)
        var instants: [Double] = []
        for change in ZoneOffsetChange.changes(of: zone, after: window.start, through: horizon) {
            let t = change.instant.timeIntervalSince1970
            instants += [t - 3_600, t - 1, t, t + 3_600]
        }
        instants += stride(from: window.start.timeIntervalSince1970, to: horizon.timeIntervalSince1970, by: 10 * 86_400).map { $0 }
        let answer = try PythonReference.run("ical_expand.py", [
            "ics": ics, "from": window.start.timeIntervalSince1970 - 2 * 86_400, "to": window.end.timeIntervalSince1970 + 2 * 86_400,
            "instants": instants,
        ])
        let offsets = try #require(answer["offsets"] as? [String: [[Double]]])
        #expect(offsets.keys.contains(identifier))
        for (tzid, differences) in offsets { #expect(differences.isEmpty, "\(tzid): \(differences.prefix(5))") }

        let rows = try #require(answer["events"] as? [[Any]])
        var read: [Occurrence] = []
        for row in rows {
            let title = try #require(row[0] as? String), length = try #require(row[2] as? Double)
            if let date = row[1] as? String {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = zone
                let parts = date.split(separator: "-").compactMap { Int($0) }
                let midnight = try #require(calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])))
                if midnight >= window.start && midnight < window.end { read.append(Occurrence(title: title, start: date, length: Int(length))) }
            } else {
                let start = try #require(row[1] as? Double)
                let date = Date(timeIntervalSince1970: start)
                if date >= window.start && date < window.end {
                    read.append(Occurrence(title: title, start: String(Int(start.rounded(.down))), length: Int(length)))
                }
            }
        }
        read.sort()
        let expected = try await Self.storeEvents(store, in: window, zone: zone)
        #expect(expected.count > 2_000)
        #expect(read.count == expected.count)
        let missing = Set(expected).subtracting(read), extra = Set(read).subtracting(expected)
        #expect(missing.isEmpty && extra.isEmpty, "missing \(missing.sorted().prefix(5)), extra \(extra.sorted().prefix(5))")
        #expect(read == expected)

        // Both ways of writing events were used: rules, and occurrences listed where no rule is exact.
        let uids = rows.compactMap { $0[3] as? String }
        #expect(uids.contains { $0.split(separator: "-").count == 6 })
        #expect(uids.contains { $0.split(separator: "-").count == 7 })
        #expect(ics.contains("RRULE:FREQ=DAILY") && ics.contains("RRULE:FREQ=HOURLY") && ics.contains("BEGIN:VTIMEZONE"))
        // Every line within 75 octets, CRLF-terminated.
        let lines = ics.components(separatedBy: "\r\n")
        #expect(lines.last == "" && lines.dropLast().allSatisfy { $0.utf8.count <= 75 && !$0.contains("\n") })
    }

    @Test func occurrencesWithoutAnExactRuleAreListedForTheNext90DaysOnly() async throws {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let store = OCKStore(name: "feed expanded", type: .inMemory)
        // Daily at 2:30 AM: 2027-03-14 skips that time, and CareKit moves the event to 3:30 for good, which no rule
        // says. The 31st of every month from January 2026: capped to the 28th in February for good, which a rule
        // from the 28th of October (the window's first event) says exactly.
        let night = try #require(calendar.date(from: DateComponents(year: 2026, month: 6, day: 1, hour: 2, minute: 30)))
        let monthEnd = try #require(calendar.date(from: DateComponents(year: 2026, month: 1, day: 31, hour: 9)))
        try await store.addTasks([
            OCKTask(id: "night", title: "Night", carePlanUUID: nil, schedule: OCKSchedule(composing: [
                OCKScheduleElement(start: night, end: nil, interval: DateComponents(day: 1), calendar: calendar),
            ])),
            OCKTask(id: "monthly", title: "Monthly", carePlanUUID: nil, schedule: OCKSchedule(composing: [
                OCKScheduleElement(start: monthEnd, end: nil, interval: DateComponents(month: 1), calendar: calendar),
            ])),
        ])
        let feed = OCKCalendarFeed(title: "Care plan", now: Self.now)
        let lines = feed.render(try await feed.tasks(of: store)).components(separatedBy: "\r\n")
        let starts = lines.filter { $0.hasPrefix("DTSTART;TZID=America/New_York:") }.map { String($0.suffix(15)) }
        // From 30 days back (Oct 19) to 90 ahead (Feb 16): 120 nights listed one by one, and one monthly series.
        #expect(starts.count == 121)
        #expect(starts.min() == "20261020T023000" && starts.contains("20270216T023000") && !starts.contains("20270217T023000"))
        #expect(starts.contains("20261028T090000"))
        #expect(lines.filter { $0.hasPrefix("RRULE:FREQ=MONTHLY") || $0.hasPrefix("RRULE:FREQ=DAILY") } == ["RRULE:FREQ=MONTHLY;INTERVAL=1"])
    }
}

extension CalendarFeedTests {
    @Test func aFeedListsAtMost5000OccurrencesOneByOne() async throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let store = OCKStore(name: "feed cap", type: .inMemory)
        // Every day and a minute: an interval no rule says, so each task's next 90 days (and last 30) are listed.
        try await store.addTasks((0..<50).map { index in
            OCKTask(id: "t\(index)", title: "T\(index)", carePlanUUID: nil, schedule: OCKSchedule(composing: [
                OCKScheduleElement(start: Self.now.addingTimeInterval(-40 * 86_400), end: nil, interval: DateComponents(day: 1, minute: 1),
                                   calendar: calendar),
            ]))
        })
        let feed = OCKCalendarFeed(title: "Care plan", now: Self.now)
        let ics = feed.render(try await feed.tasks(of: store))
        #expect(ics.components(separatedBy: "BEGIN:VEVENT").count - 1 == OCKCalendarFeed.maximumExpandedEvents)
        #expect(ics.hasSuffix("END:VCALENDAR\r\n"))
    }
}

extension CalendarFeedTests {
    /// A task whose next version (in ten days) has a schedule that already ended: CareKit's task query hides the task
    /// from any interval that reaches that version, but each day's view before it shows the current version's events,
    /// and so does the feed.
    @Test func aNextVersionWithAnEndedScheduleLeavesTheCurrentVersionsEventsInTheFeed() async throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Asia/Seoul"))
        let store = OCKStore(name: "feed ended", type: .inMemory)
        let monthAgo = Self.now.addingTimeInterval(-40 * 86_400)
        let task = try await store.addTask(OCKTask(id: "pill", title: "Pill", carePlanUUID: nil,
                                                   schedule: .dailyAtTime(hour: 8, minutes: 0, start: monthAgo, end: nil, text: nil, calendar: calendar)))
        var next = task
        next.schedule = .dailyAtTime(hour: 20, minutes: 0, start: monthAgo, end: monthAgo.addingTimeInterval(5 * 86_400), text: nil, calendar: calendar)
        next.effectiveDate = Self.now.addingTimeInterval(10 * 86_400)
        try await store.updateTask(next)
        var days: [Date] = []
        var day = calendar.startOfDay(for: Self.now)
        while day < next.effectiveDate {
            let end = calendar.date(byAdding: .day, value: 1, to: day)!
            for event in try await store.fetchEvents(query: OCKEventQuery(dateInterval: DateInterval(start: day, end: end)))
            where event.scheduleEvent.start >= Self.now {
                days.append(event.scheduleEvent.start)
            }
            day = end
        }
        #expect(days.count == 10)
        let feed = OCKCalendarFeed(title: "Care plan", now: Self.now)
        let ics = feed.render(try await feed.tasks(of: store))
        // One daily series, ending with the last event before the next version.
        let lines = ics.components(separatedBy: "\r\n")
        let until = try #require(lines.first { $0.hasPrefix("RRULE:FREQ=DAILY") }?.split(separator: "=").last)
        #expect(lines.filter { $0.hasPrefix("RRULE:FREQ=DAILY") }.count == 1)
        var utc = calendar
        utc.timeZone = try #require(TimeZone(identifier: "UTC"))
        #expect(String(until) == ICalendarDay.local(try #require(days.last), utc) + "Z")
    }
}

/// A local date-time as iCalendar writes it, for the tests: `20261128T080000`.
enum ICalendarDay {
    static func local(_ date: Date, _ calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!)
    }
}
