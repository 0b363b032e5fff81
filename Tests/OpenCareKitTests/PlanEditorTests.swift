import Foundation
import OpenCareKit
import OpenCareKitStore
import Testing

@Suite struct PlanEditorTests {
    static let calendar = ScheduleRuleTests.calendar
    static func date(_ day: Int, _ hour: Int = 0, _ minute: Int = 0, month: Int = 11) -> Date {
        ScheduleRuleTests.date(day, hour, minute, month: month)
    }

    /// The day `day` of November in New York.
    static func day(_ day: Int) -> DateInterval { DateInterval(start: date(day), end: date(day + 1)) }

    /// A store with a task three times a day from Nov 16, its 08:00 and 14:00 events of Nov 23 done.
    static func storeWithDoses() async throws -> (OCKStore, OCKTask) {
        let store = OCKStore(name: "editor", type: .inMemory)
        var rule = OCKScheduleRule(start: .init(year: 2026, month: 11, day: 16), timeZone: ScheduleRuleTests.newYork)
        rule.times = [.init(hour: 8, minute: 0), .init(hour: 14, minute: 0), .init(hour: 20, minute: 0)]
        let task = try await store.addTask(OCKTask(id: "doses", title: "Doses", carePlanUUID: nil, schedule: try rule.schedule()))
        for hour in [8, 14] {
            let event = try #require(task.schedule.events(from: date(23, hour), to: date(23, hour, 1)).first)
            try await store.addOutcome(OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: event.occurrence, values: [OCKOutcomeValue(true)]))
        }
        return (store, task)
    }

    @Test func aChangeAppliesFromTheNextEventNotYetDoneAndKeepsWhatWasDone() async throws {
        let (store, task) = try await Self.storeWithDoses()
        let editor = OCKPlanEditor(store: store, calendar: Self.calendar)
        let now = Self.date(23, 15)
        var changed = task
        var rule = try #require(OCKScheduleRule(schedule: task.schedule))
        rule.times = [.init(hour: 9, minute: 0), .init(hour: 21, minute: 0)]
        changed.schedule = try rule.schedule()
        let effective = try await editor.suggestedEffectiveDate(current: task, now: now)
        #expect(effective == Self.date(23, 20))
        try await editor.update(changed, effective: effective, now: now)
        // Today's done events keep their version and outcomes; the 20:00 event gave way to 21:00.
        let today = try await store.fetchEvents(query: OCKEventQuery(dateInterval: Self.day(23)))
        #expect(today.map(\.scheduleEvent.start) == [Self.date(23, 8), Self.date(23, 14), Self.date(23, 21)])
        #expect(today.map { $0.outcome != nil } == [true, true, false])
        #expect(today[0].task.uuid == task.uuid)
        let tomorrow = try await store.fetchEvents(query: OCKEventQuery(dateInterval: Self.day(24)))
        #expect(tomorrow.map(\.scheduleEvent.start) == [Self.date(24, 9), Self.date(24, 21)])
    }

    @Test func aChangeCannotApplyBeforeAnOutcomeOrBeforeToday() async throws {
        let (store, task) = try await Self.storeWithDoses()
        let editor = OCKPlanEditor(store: store, calendar: Self.calendar)
        var changed = task
        changed.title = "Doses, renamed"
        await #expect(throws: OCKPlanEditor.Failure.tooEarly(earliest: Self.date(23, 14).addingTimeInterval(0.001))) {
            try await editor.update(changed, effective: Self.date(23, 9), now: Self.date(23, 15))
        }
        await #expect(throws: OCKPlanEditor.Failure.tooEarly(earliest: Self.date(25))) {
            try await editor.update(changed, effective: Self.date(24, 9), now: Self.date(25, 15))
        }
        #expect(try await store.fetchTasks(query: OCKTaskQuery()).count == 1)
    }

    @Test func aChangeFromAnOldReadingIsRefused() async throws {
        let (store, task) = try await Self.storeWithDoses()
        let editor = OCKPlanEditor(store: store, calendar: Self.calendar)
        var first = task
        first.title = "First"
        try await editor.update(first, effective: Self.date(24), now: Self.date(23, 15))
        var second = task
        second.title = "Second"
        await #expect(throws: OCKPlanEditor.Failure.changedMeanwhile) {
            try await editor.update(second, effective: Self.date(24), now: Self.date(23, 15))
        }
        #expect(try await editor.task(withID: "doses")?.title == "First")
    }

    @Test func aTaskWithOutcomesIsEndedNotDeletedAndItsIDCanBeUsedAgain() async throws {
        let (store, task) = try await Self.storeWithDoses()
        let editor = OCKPlanEditor(store: store, calendar: Self.calendar)
        let now = Self.date(23, 15)
        await #expect(throws: OCKPlanEditor.Failure.hasOutcomes) { try await editor.delete(task) }
        try await editor.end(task, effective: try await editor.suggestedEffectiveDate(current: task, now: now), now: now)
        #expect(try await store.fetchEvents(query: OCKEventQuery(dateInterval: Self.day(23))).map { $0.outcome != nil } == [true, true])
        #expect(try await store.fetchEvents(query: OCKEventQuery(dateInterval: Self.day(24))).isEmpty)
        #expect(try await store.fetchEvents(query: OCKEventQuery(dateInterval: Self.day(20))).count == 3)

        // A task without outcomes is deleted, and its id then starts a new task.
        let fresh = try await editor.add(OCKTask(id: "walk", title: "Walk", carePlanUUID: nil,
                                                 schedule: .dailyAtTime(hour: 17, minutes: 0, start: Self.date(24), end: nil, text: nil, calendar: Self.calendar)),
                                         now: now)
        await #expect(throws: OCKPlanEditor.Failure.idTaken) { try await editor.add(fresh, now: now) }
        try await editor.delete(fresh)
        try await editor.add(OCKTask(id: "walk", title: "Walk again", carePlanUUID: nil,
                                     schedule: .dailyAtTime(hour: 18, minutes: 0, start: Self.date(24), end: nil, text: nil, calendar: Self.calendar)), now: now)
        #expect(try await store.fetchEvents(query: OCKEventQuery(dateInterval: Self.day(25))).filter { $0.task.id == "walk" }
            .map(\.scheduleEvent.start) == [Self.date(25, 18)])
    }

    @Test func aNewTaskAddsNothingToDaysAlreadyPast() async throws {
        let store = OCKStore(name: "editor", type: .inMemory)
        let editor = OCKPlanEditor(store: store, calendar: Self.calendar)
        let task = OCKTask(id: "walk", title: "Walk", carePlanUUID: nil,
                           schedule: .dailyAtTime(hour: 17, minutes: 0, start: Self.date(10), end: nil, text: nil, calendar: Self.calendar))
        try await editor.add(task, now: Self.date(23, 15))
        #expect(try await store.fetchEvents(query: OCKEventQuery(dateInterval: Self.day(22))).isEmpty)
        #expect(try await store.fetchEvents(query: OCKEventQuery(dateInterval: Self.day(23))).count == 1)
    }

    /// The property: for random rules in zones with daylight-saving changes inside the fortnight, the editor's preview
    /// of a change equals, day by day, what the store lists once the change is saved.
    @Test(arguments: ["America/New_York", "Australia/Lord_Howe", "Europe/London"])
    func thePreviewIsWhatTheStoreShowsAfterSaving(zoneName: String) async throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        // The fortnights around each zone's 2026 changes.
        let changes: [Date] = [(3, 29), (4, 5), (10, 4), (10, 25), (11, 1), (3, 8)].compactMap {
            calendar.date(from: DateComponents(year: 2026, month: $0.0, day: $0.1))
        }.filter { zone.isDaylightSavingTime(for: $0.addingTimeInterval(-86_400)) != zone.isDaylightSavingTime(for: $0.addingTimeInterval(86_400)) }
        #expect(!changes.isEmpty)
        var random = SeededRandomNumberGenerator(seed: UInt64(zoneName.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) }))
        for round in 0..<25 {
            let change = changes[round % changes.count]
            let now = change.addingTimeInterval(-Double(Int.random(in: 0...10, using: &random)) * 86_400
                                                + Double(Int.random(in: 0..<86_400, using: &random)))
            let store = OCKStore(name: "property", type: .inMemory)
            let editor = OCKPlanEditor(store: store, calendar: calendar)
            let first = Self.randomRule(from: OCKScheduleRule.Day(now.addingTimeInterval(-12 * 86_400), in: calendar), zone: zone, using: &random)
            guard let firstSchedule = try? first.schedule() else { continue }
            var task = try await store.addTask(OCKTask(id: "t", title: "t", carePlanUUID: nil, schedule: firstSchedule))
            // Some past events are done.
            let past = try await store.fetchEvents(query: OCKEventQuery(dateInterval: DateInterval(start: now.addingTimeInterval(-12 * 86_400), end: now)))
            for event in past where Bool.random(using: &random) {
                try await store.addOutcome(OCKOutcome(taskUUID: event.task.uuid, taskOccurrenceIndex: event.scheduleEvent.occurrence,
                                                      values: [OCKOutcomeValue(true)]))
            }
            task = try #require(try await editor.task(withID: "t"))
            var changed = task
            let second = Self.randomRule(from: OCKScheduleRule.Day(now.addingTimeInterval(-Double(Int.random(in: -3...12, using: &random)) * 86_400), in: calendar),
                                         zone: zone, using: &random)
            guard let secondSchedule = try? second.schedule() else { continue }
            changed.schedule = secondSchedule
            var effective = try await editor.suggestedEffectiveDate(current: task, now: now)
            if Bool.random(using: &random) {
                effective = max(effective, calendar.startOfDay(for: now.addingTimeInterval(Double(Int.random(in: 1...5, using: &random)) * 86_400)))
            }
            changed.effectiveDate = effective
            let preview = try await editor.preview(changed, from: now)
            try await editor.update(changed, effective: effective, now: now)
            for (day, events) in preview {
                let next = calendar.date(byAdding: .day, value: 1, to: day)!
                let stored = try await store.fetchEvents(query: OCKEventQuery(dateInterval: DateInterval(start: day, end: next)))
                #expect(events.map(Self.shape) == stored.map(Self.shape), "\(zoneName) round \(round) day \(day)")
            }
        }
    }

    /// What the Care page shows of an event: its times, occurrence, outcome and the version it belongs to.
    static func shape(_ event: OCKEvent<OCKTask, OCKOutcome>) -> String {
        "\(event.scheduleEvent.start.timeIntervalSince1970)-\(event.scheduleEvent.end.timeIntervalSince1970) #\(event.scheduleEvent.occurrence) "
            + "\(event.outcome?.values.count ?? -1) v\(event.task.effectiveDate.timeIntervalSince1970) \(event.task.schedule.hashValue)"
    }

    static func randomRule(from start: OCKScheduleRule.Day, zone: TimeZone, using random: inout SeededRandomNumberGenerator) -> OCKScheduleRule {
        var rule = OCKScheduleRule(start: start, timeZone: zone)
        if Int.random(in: 0..<3, using: &random) == 0 {
            let weekdays = Set((1...7).filter { _ in Bool.random(using: &random) })
            rule.repetition = .weeks(Int.random(in: 1...2, using: &random), weekdays: weekdays.isEmpty ? [1] : weekdays)
        } else {
            rule.repetition = .days(Int.random(in: 1...3, using: &random))
        }
        if Int.random(in: 0..<5, using: &random) > 0 {
            // Hours around the changes (00:00–03:00) come up often.
            let count = Int.random(in: 1...3, using: &random)
            var minutes: Set<Int> = []
            while minutes.count < count {
                minutes.insert(Bool.random(using: &random) ? Int.random(in: 0..<(3 * 60), using: &random) : Int.random(in: 0..<(24 * 60), using: &random))
            }
            rule.times = minutes.map { OCKScheduleRule.Time(hour: $0 / 60, minute: $0 % 60) }.sorted()
            rule.durationMinutes = [15, 60, 150, 600][Int.random(in: 0..<4, using: &random)]
        }
        if Bool.random(using: &random) {
            rule.end = start.adding(days: Int.random(in: 0...20, using: &random), in: rule.calendar)
        }
        return rule
    }
}
