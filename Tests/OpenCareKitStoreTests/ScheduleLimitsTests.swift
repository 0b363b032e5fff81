import Foundation
import GRDB
import Testing
@testable import OpenCareKitStore

/// The schedule limits: an interval is judged by the step it takes from every date, a schedule has at most 48 events
/// a day and 64 elements, and whatever the store already holds, listing events stays bounded.
@Suite struct ScheduleLimitsTests {
    static let newYork = ScheduleSemanticsTests.newYork
    static let start = ScheduleSemanticsTests.date(newYork, 2026, 1, 31, 8)

    private func element(_ interval: DateComponents, hour: Int = 8, duration: OCKScheduleElement.Duration = .hours(1),
                         calendar: Calendar = newYork) -> OCKScheduleElement {
        let start = calendar.date(bySettingHour: hour, minute: 0, second: 0, of: Self.start) ?? Self.start
        return OCKScheduleElement(start: start, end: nil, interval: interval, duration: duration, calendar: calendar)
    }

    private func error(_ body: () throws -> Void) -> OCKValidationError? {
        do { try body() } catch let error as OCKValidationError { return error } catch { return nil }
        return nil
    }

    private func task(_ elements: [OCKScheduleElement]) -> OCKTask {
        OCKTask(id: "flood", title: "Flood", carePlanUUID: nil, schedule: OCKSchedule(composing: elements))
    }

    // MARK: - What an interval does

    @Test(arguments: [DateComponents(day: 1, second: -86_399), DateComponents(day: 1, hour: -23),
                      DateComponents(year: 1, day: -365),
                      DateComponents(day: -7, second: 30, weekOfYear: 1), DateComponents(second: 59),
                      DateComponents(minute: 2, second: -90)])
    func intervalsWhosePartsCancelAreRefusedByTheStore(interval: DateComponents) async throws {
        // Each moves forward from its start (CareKit accepts them all), but by seconds or less from some date.
        let flood = element(interval)
        #expect(flood.interval == interval)
        let refused = try #require(error { try flood.validate() })
        #expect(refused.field == "interval")
        let store = OCKStore(name: "limits", type: .inMemory)
        await #expect(throws: OCKStoreError.self) { try await store.addTask(task([flood])) }
        #expect(try await store.fetchTasks(query: OCKTaskQuery()).isEmpty)
    }

    @Test func theBoundIsBelowEveryStepTakenAcrossMonthEndsAndDaylightSavingChanges() throws {
        // Differential: random intervals with parts of both signs, from starts on month ends and near the zones'
        // changes; every step Foundation takes over two years is at least the bound, and accepted intervals always
        // move by at least a minute.
        var random = SeededGenerator(seed: 12)
        let zones = ["America/New_York", "Europe/London", "Australia/Lord_Howe", "America/Sao_Paulo", "Asia/Seoul"]
        var accepted = 0
        for round in 0..<400 {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: zones[round % zones.count])!
            var interval = DateComponents()
            let pick = { (range: ClosedRange<Int>) in Int.random(in: range, using: &random) }
            if pick(0...2) == 0 { interval.year = pick(-1...2) }
            if pick(0...1) == 0 { interval.month = pick(-2...3) }
            if pick(0...1) == 0 { interval.day = pick(-40...40) }
            if pick(0...1) == 0 { interval.hour = pick(-30...30) }
            if pick(0...1) == 0 { interval.minute = pick(-90...90) }
            if pick(0...2) == 0 { interval.second = pick(-90_000...90_000) }
            let start = calendar.date(from: DateComponents(year: 2025, month: pick(1...12), day: pick(1...31),
                                                           hour: pick(0...23), minute: pick(0...59)))!
            let element = OCKScheduleElement(start: start, end: nil, interval: interval, calendar: calendar)
            let bound = try #require(element.shortestStep)
            // Dates a schedule can reach: anywhere in two years, every month's last days, and around every change
            // of the zone's offset.
            let origin = calendar.date(from: DateComponents(year: 2025, month: 1, day: 1))!
            var dates = (0..<100).map { _ in origin.addingTimeInterval(Double(pick(0...(2 * 365 * 86_400)))) }
            for month in 1...24 {
                for day in 28...31 {
                    if let date = calendar.date(from: DateComponents(year: 2025, month: month, day: day, hour: pick(0...23))) {
                        dates.append(date)
                    }
                }
            }
            var transition = calendar.timeZone.nextDaylightSavingTimeTransition(after: origin)
            while let change = transition, change < origin.addingTimeInterval(2 * 366 * 86_400) {
                dates += (0..<8).map { _ in change.addingTimeInterval(Double(pick(-172_800...172_800))) }
                transition = calendar.timeZone.nextDaylightSavingTimeTransition(after: change)
            }
            for date in dates {
                guard let next = calendar.date(byAdding: interval, to: date) else { continue }
                let step = next.timeIntervalSince(date)
                #expect(step >= bound, "round \(round): \(interval) stepped \(step) s from \(date), bound \(bound)")
            }
            if (try? element.validate()) != nil {
                accepted += 1
                #expect(bound >= OCKScheduleElement.minimumInterval)
            }
        }
        #expect(accepted > 40)
    }

    @Test func calendarPartsThatCancelStillCountAsMovingTheWallClock() throws {
        // +7 days then -7 is no move of the calendar, but it resolves the wall clock again: an hour's step can
        // shrink to seconds when the clocks fall back. The bound allows for it, so it is refused.
        let cancelling = element(DateComponents(day: -7, second: 3_601, weekOfYear: 1))
        #expect(try #require(cancelling.shortestStep) < OCKScheduleElement.minimumInterval)
        #expect(error { try cancelling.validate() }?.field == "interval")
        // A schedule stored with an element that may not move has no bound on its events a day (and no overflow).
        let stuck = OCKSchedule(composing: [element(DateComponents(day: 1, hour: -24)), element(DateComponents(hour: -1))])
        #expect(stuck.maximumEventsOnOneDay == nil)
    }

    @Test func clockIntervalsAreExactAndCalendarIntervalsAllowForClockChanges() throws {
        #expect(element(DateComponents(minute: 30)).shortestStep == 1_800)
        #expect(element(DateComponents(hour: 1, minute: 1)).shortestStep == 3_660)
        // A day can be 23 hours (or less in a few zones' history); the bound allows for three hours.
        let daily = try #require(element(DateComponents(day: 1)).shortestStep)
        #expect(daily <= 23 * 3_600 && daily >= 20 * 3_600)
        #expect(element(DateComponents(quarter: 1)).shortestStep == nil)
        #expect(error { try element(DateComponents(era: 0, day: 1)).validate() } == nil)
    }

    // MARK: - Events per day and elements

    @Test func twentyMinuteElementsAreRefusedNamingTheElements() async throws {
        let elements = (0..<20).map { _ in element(DateComponents(minute: 1)) }
        let refused = try #require(error { try task(elements).validate() })
        #expect(refused.field == "schedule.elements")
        #expect(refused.reason.contains("48 events a day"))
        let store = OCKStore(name: "limits", type: .inMemory)
        await #expect(throws: OCKStoreError.self) { try await store.addTask(task(elements)) }
        // Updating a good task into a flood is refused the same way.
        let good = try await store.addTask(task([element(DateComponents(day: 1))]))
        var flooded = good
        flooded.schedule = OCKSchedule(composing: elements)
        await #expect(throws: OCKStoreError.self) { try await store.updateTask(flooded) }
    }

    @Test func everyHalfHourIsTheMostOneTaskMayHave() throws {
        #expect(error { try task([element(DateComponents(minute: 30))]).validate() } == nil)
        #expect(error { try task([element(DateComponents(minute: 29))]).validate() }?.field == "schedule.elements")
        #expect(error { try task([element(DateComponents(hour: 1)), element(DateComponents(hour: 1), hour: 9)]).validate() } == nil)
        #expect(error { try task([element(DateComponents(minute: 30)), element(DateComponents(day: 1))]).validate() }?.field
            == "schedule.elements")
        #expect(task([element(DateComponents(minute: 30))]).schedule.maximumEventsOnOneDay == 48)
    }

    @Test func weeklyElementsOnDifferentDaysShareTheDailyBudget() throws {
        // Nine doses on each day of the week: 63 weekly elements, never more than nine on one day.
        var elements: [OCKScheduleElement] = []
        for weekday in 0..<7 {
            for hour in 8..<17 {
                let start = Self.newYork.date(byAdding: .day, value: weekday, to: element(DateComponents(day: 1), hour: hour).start)!
                elements.append(OCKScheduleElement(start: start, end: nil, interval: DateComponents(weekOfYear: 1), calendar: Self.newYork))
            }
        }
        let weekly = task(elements)
        #expect(weekly.schedule.maximumEventsOnOneDay == 9)
        #expect(error { try weekly.validate() } == nil)
        // Sixty-five elements are too many, however sparse.
        let many = task((0..<65).map { index in
            OCKScheduleElement(start: Self.start.addingTimeInterval(Double(index) * 86_400), end: nil,
                               interval: DateComponents(day: 100), calendar: Self.newYork)
        })
        #expect(error { try many.validate() } == OCKValidationError(field: "schedule.elements", reason: "must have at most 64 elements"))
    }

    @Test func eventsLastAtMostADay() {
        #expect(error { try element(DateComponents(day: 2), duration: .hours(25)).validate() }?.field == "duration")
        #expect(error { try element(DateComponents(day: 2), duration: .hours(24)).validate() } == nil)
        #expect(error { try element(DateComponents(day: 1), duration: .allDay).validate() } == nil)
    }

    // MARK: - What the store already holds

    @Test func aFloodStoredBeforeTheLimitsStillLoadsAndListsABoundedDay() async throws {
        // Given a store whose task was written, before the limits, to repeat every second.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ock-limits-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = OCKStore(name: "care", type: .onDisk(), directory: directory)
        try await store.addTask(task([element(DateComponents(day: 1))]))
        let url = try #require(store.fileURL)
        let queue = try DatabaseQueue(path: url.path)
        try await queue.write { db in
            let payload = try #require(try Data.fetchOne(db, sql: "SELECT payload FROM tasks"))
            let text = String(decoding: payload, as: UTF8.self)
            #expect(text.contains(#""interval":{"day":1}"#))
            let flood = text.replacingOccurrences(of: #""interval":{"day":1}"#, with: #""interval":{"day":1,"second":-86399}"#)
            try db.execute(sql: "UPDATE tasks SET payload = ?", arguments: [Data(flood.utf8)])
        }
        try queue.close()

        // When it is read back in a new process's store.
        let reopened = OCKStore(name: "care", type: .onDisk(), directory: directory)
        let stored = try #require(try await reopened.fetchTasks(query: OCKTaskQuery()).first)
        #expect(stored.schedule.elements[0].interval == DateComponents(day: 1, second: -86_399))

        // Then a day lists at most the bound (86,400 events without it), and a long range is refused.
        let day = DateInterval(start: Self.newYork.startOfDay(for: Self.start.addingTimeInterval(3 * 86_400)), duration: 86_400)
        let events = try await reopened.fetchEvents(query: OCKEventQuery(dateInterval: day))
        #expect(events.count == OCKEventQuery.maximumEvents(ofTaskWith: 1, in: day))
        #expect(events.count < 200)
        let decade = DateInterval(start: day.start, duration: 3_650 * 86_400)
        await #expect(throws: OCKStoreError.self) { try await reopened.fetchEvents(query: OCKEventQuery(dateInterval: decade)) }
        // And the task cannot be saved again as it is, while a fixed version can.
        await #expect(throws: OCKStoreError.self) { try await reopened.updateTask(stored) }
        var fixed = stored
        fixed.schedule = OCKSchedule(composing: [element(DateComponents(day: 1))])
        try await reopened.updateTask(fixed)
    }
}
