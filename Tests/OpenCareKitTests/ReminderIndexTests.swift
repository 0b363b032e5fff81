import Foundation
import OpenCareKit
import OpenCareKitStore
import Testing

/// The reminder index against the store: stepping through three days finds exactly the events the store has whose
/// reminders fall in them (all-day events at 9:00), with the store's occurrence numbers; a record's tasks replaced or
/// removed are forgotten.
@Suite struct ReminderIndexTests {
    static func reminders(_ store: OCKStore, from start: Date, through end: Date) async throws -> Set<OCKReminderIndex.Due> {
        var found = Set<OCKReminderIndex.Due>()
        for event in try await store.fetchEvents(query: OCKEventQuery(dateInterval: DateInterval(start: start.addingTimeInterval(-86_400), end: end))) {
            let allDay = event.scheduleEvent.element.duration == .allDay
            // 9:00 on the event's day, in its zone.
            let date = allDay ? event.scheduleEvent.element.calendar.date(bySettingHour: 9, minute: 0, second: 0, of: event.scheduleEvent.start)!
                : event.scheduleEvent.start
            guard date >= start, date <= end else { continue }
            found.insert(OCKReminderIndex.Due(record: "r", taskID: event.task.id, taskUUID: event.task.uuid,
                                              occurrence: event.scheduleEvent.occurrence, date: date, start: event.scheduleEvent.start,
                                              isAllDay: event.scheduleEvent.element.duration == .allDay))
        }
        return found
    }

    @Test(arguments: ["America/New_York", "Europe/Berlin", "Australia/Sydney"])
    func steppingThroughThreeDaysFindsExactlyTheStoresReminders(zone identifier: String) async throws {
        let zone = try #require(TimeZone(identifier: identifier))
        let store = try await CalendarFeedTests.store(in: zone, seed: UInt64(identifier.utf8.count) * 31)
        let now = CalendarFeedTests.now
        let feed = OCKCalendarFeed(title: "", now: now)
        var index = OCKReminderIndex()
        index.replace(record: "r", tasks: try await feed.tasks(of: store), from: now)
        var found: [OCKReminderIndex.Due] = []
        var minute = now
        let end = now.addingTimeInterval(3 * 86_400)
        while minute < end {
            minute = minute.addingTimeInterval(600)
            let due = index.due(through: min(minute, end))
            #expect(due.allSatisfy { $0.date <= min(minute, end) && $0.date > minute.addingTimeInterval(-600) || $0.date == now })
            found += due
        }
        let expected = try await Self.reminders(store, from: now, through: end)
        #expect(found.count > 100)
        #expect(found.count == Set(found).count)
        #expect(Set(found) == expected, "missing \(expected.subtracting(found).count), extra \(Set(found).subtracting(expected).count)")
    }

    @Test(arguments: ["America/New_York", "Australia/Sydney"])
    func afterAPauseOnlyTheRecentEventsComeAndTheIndexGoesOnFromThere(zone identifier: String) async throws {
        let zone = try #require(TimeZone(identifier: identifier))
        let store = try await CalendarFeedTests.store(in: zone, seed: UInt64(identifier.utf8.count) * 17)
        let now = CalendarFeedTests.now
        var index = OCKReminderIndex()
        index.replace(record: "r", tasks: try await OCKCalendarFeed(title: "", now: now).tasks(of: store), from: now)
        // Twenty days and a few hours without a look (the server was down): only the last 15 minutes' events come,
        // exactly the store's.
        let back = now.addingTimeInterval(20 * 86_400 + 4 * 3_600 + 1_500)
        let window = back.addingTimeInterval(-900)
        let recent = index.due(through: back, notBefore: window)
        #expect(Set(recent) == (try await Self.reminders(store, from: window, through: back)))
        // Then five minutes at a time, as before.
        var later: [OCKReminderIndex.Due] = []
        var minute = back
        while minute < back.addingTimeInterval(86_400) {
            minute = minute.addingTimeInterval(300)
            later += index.due(through: minute, notBefore: minute.addingTimeInterval(-900))
        }
        let expected = try await Self.reminders(store, from: back.addingTimeInterval(0.001), through: minute)
        #expect(later.count > 20 && Set(later) == expected, "missing \(expected.subtracting(later).count), extra \(Set(later).subtracting(expected).count)")
    }

    @Test(.timeLimit(.minutes(1)))
    func aScheduleOfEverySecondPausedForYearsIsNotSteppedThrough() throws {
        // 20 years of an event a second is 631 million events: stepping through them would not end within the limit.
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        var task = OCKTask(id: "tick", title: "Tick", carePlanUUID: nil, schedule: OCKSchedule(composing: [
            OCKScheduleElement(start: start, end: nil, interval: DateComponents(second: 1))]))
        task.effectiveDate = start
        var index = OCKReminderIndex()
        index.replace(record: "r", tasks: [[task]], from: start)
        let back = start.addingTimeInterval(20 * 365 * 86_400)
        let due = index.due(through: back, notBefore: back.addingTimeInterval(-2))
        #expect(due.map(\.start) == [back.addingTimeInterval(-2), back.addingTimeInterval(-1), back])
        #expect(due.map(\.occurrence) == [630_719_998, 630_719_999, 630_720_000])
        #expect(index.due(through: back.addingTimeInterval(1), notBefore: back).map(\.occurrence) == [630_720_001])
    }

    @Test func aRecordReplacedOrRemovedIsForgotten() async throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Asia/Seoul"))
        let now = CalendarFeedTests.now
        func task(_ id: String, hour: Int) -> OCKTask {
            OCKTask(id: id, title: id, carePlanUUID: nil,
                    schedule: .dailyAtTime(hour: hour, minutes: 0, start: now.addingTimeInterval(-86_400 * 10), end: nil, text: nil, calendar: calendar))
        }
        var index = OCKReminderIndex()
        index.replace(record: "a", tasks: [[task("walk", hour: 8)]], from: now)
        index.replace(record: "b", tasks: [[task("pill", hour: 8)]], from: now)
        #expect(index.count == 2)
        // a's walk moves to 20:00; b is removed.
        index.replace(record: "a", tasks: [[task("walk", hour: 20)]], from: now)
        index.remove(record: "b")
        #expect(index.count == 1)
        let day = index.due(through: now.addingTimeInterval(86_400))
        #expect(day.map(\.record) == ["a"])
        #expect(day.map { calendar.component(.hour, from: $0.start) } == [20])
        #expect(index.due(through: now.addingTimeInterval(86_400)).isEmpty)
    }
}

extension ReminderIndexTests {
    /// On the days clocks change, an all-day task's reminder is still at 9:00 on the wall clock.
    /// A daily all-day task in New York from `start` (a day of 2027), and its calendar.
    static func allDayTask(from start: DateComponents) throws -> (OCKTask, Calendar, Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "America/New_York"))
        let date = try #require(calendar.date(from: start))
        var task = OCKTask(id: "log", title: "Log", carePlanUUID: nil, schedule: OCKSchedule(composing: [
            OCKScheduleElement(start: date, end: nil, interval: DateComponents(day: 1), duration: .allDay, calendar: calendar),
        ]))
        task.effectiveDate = date
        return (task, calendar, date)
    }

    @Test func allDayRemindersAreAtNineOnTheWallClockAcrossDaylightSavingChanges() throws {
        let (task, calendar, start) = try Self.allDayTask(from: DateComponents(year: 2027, month: 3, day: 12))
        var index = OCKReminderIndex()
        index.replace(record: "r", tasks: [[task]], from: start)
        // March 14 (spring forward) and November 7 (fall back) included.
        let due = index.due(through: try #require(calendar.date(from: DateComponents(year: 2027, month: 11, day: 9))))
        #expect(due.count == 242)
        #expect(due.allSatisfy { calendar.dateComponents([.hour, .minute], from: $0.date) == DateComponents(hour: 9, minute: 0) })
    }

    @Test func onTheDayClocksGoBackAnIndexMadeOrResumedAt8_30StillRemindsAt9() throws {
        // 7 November 2027 in New York: 25 hours long, 9:00 is 10 hours after midnight.
        let (task, calendar, start) = try Self.allDayTask(from: DateComponents(year: 2027, month: 11, day: 1))
        let halfPastEight = try #require(calendar.date(from: DateComponents(year: 2027, month: 11, day: 7, hour: 8, minute: 30)))
        let nine = try #require(calendar.date(from: DateComponents(year: 2027, month: 11, day: 7, hour: 9)))
        // Made at 8:30 (a record changed then).
        var made = OCKReminderIndex()
        made.replace(record: "r", tasks: [[task]], from: halfPastEight)
        #expect(made.due(through: nine).map(\.date) == [nine])
        // Resumed at 9:00 after a pause, passing over what is older than 8:30.
        var resumed = OCKReminderIndex()
        resumed.replace(record: "r", tasks: [[task]], from: start)
        #expect(resumed.due(through: nine, notBefore: halfPastEight).map(\.date) == [nine])
    }

    @Test func theHeapGivesItemsInDateOrderAfterPushesPopsAndRemovals() {
        var generator = SystemRandomNumberGenerator()
        for size in [0, 1, 2, 5, 17, 1_000] {
            var heap = DateHeap<Int>()
            var kept: [(Double, Int)] = []
            for item in 0..<size {
                let date = Double(Int.random(in: 0..<(size / 2 + 1), using: &generator))  // ties too
                heap.push(item, at: Date(timeIntervalSinceReferenceDate: date))
                kept.append((date, item))
            }
            // Take a third, drop the odd items, then take the rest: always the earliest left.
            var taken: [Double] = []
            for _ in 0..<(size / 3) {
                let date = heap.minimum!.date.timeIntervalSinceReferenceDate
                let item = heap.popMinimum()
                #expect(kept.contains { $0 == (date, item) })
                kept.removeAll { $0.1 == item }
                taken.append(date)
            }
            heap.removeAll { $0 % 2 == 1 }
            kept.removeAll { $0.1 % 2 == 1 }
            #expect(heap.count == kept.count)
            while let top = heap.minimum {
                #expect(top.date.timeIntervalSinceReferenceDate == kept.map(\.0).min())
                let item = heap.popMinimum()
                kept.removeAll { $0.1 == item }
                taken.append(top.date.timeIntervalSinceReferenceDate)
            }
            #expect(kept.isEmpty)
            #expect(taken.prefix(size / 3) == taken.prefix(size / 3).sorted()[...])
            #expect(taken.dropFirst(size / 3) == taken.dropFirst(size / 3).sorted()[...])
        }
    }
}
