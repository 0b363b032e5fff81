import Foundation
import OpenCareKitStore
import Testing

/// A store backed by something else (here, fixed arrays standing in for a third-party API). It implements only the
/// typed task and outcome reads; events, the type-erased forms and single-item fetches come from the protocols.
final class ArrayStore: OCKReadOnlyEventStore {
    typealias Task = OCKTask
    typealias Outcome = OCKOutcome

    let tasks: [OCKTask]
    let outcomes: [OCKOutcome]

    init(tasks: [OCKTask], outcomes: [OCKOutcome]) {
        self.tasks = tasks
        self.outcomes = outcomes
    }

    func reset() throws {}

    func tasks(matching query: OCKTaskQuery) -> AsyncThrowingStream<[OCKTask], any Error> {
        let tasks = self.tasks
        return AsyncThrowingStream { $0.yield(tasks); $0.finish() }
    }

    func outcomes(matching query: OCKOutcomeQuery) -> AsyncThrowingStream<[OCKOutcome], any Error> {
        let outcomes = self.outcomes
        return AsyncThrowingStream { $0.yield(outcomes); $0.finish() }
    }

    func fetchTasks(query: OCKTaskQuery) async throws -> [OCKTask] {
        tasks.filter { (query.ids.isEmpty || query.ids.contains($0.id)) && (query.uuids.isEmpty || query.uuids.contains($0.uuid)) }
    }

    func fetchOutcomes(query: OCKOutcomeQuery) async throws -> [OCKOutcome] {
        outcomes.filter { query.taskUUIDs.isEmpty || query.taskUUIDs.contains($0.taskUUID) }
    }
}

@Suite struct CustomStoreTests {
    @Test func aCustomStoreGetsEventsFromTheProtocols() async throws {
        let calendar = ScheduleSemanticsTests.newYork
        let schedule = OCKSchedule.dailyAtTime(hour: 9, minutes: 0, start: ScheduleSemanticsTests.date(calendar, 2026, 1, 1),
                                               end: nil, text: nil, calendar: calendar)
        let task = OCKTask(id: "stretch", title: "Stretch", carePlanUUID: nil, schedule: schedule)
        let store = ArrayStore(tasks: [task], outcomes: [OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: 4, values: [])])
        let day = OCKEventQuery(for: ScheduleSemanticsTests.date(calendar, 2026, 1, 5, 12), calendar: calendar)
        let events = try await store.fetchEvents(query: day)
        #expect(events.map(\.scheduleEvent.occurrence) == [4])
        #expect(events.first?.outcome != nil)
        #expect(try await store.fetchAnyEvents(query: day).count == 1)
        #expect(try await store.fetchTask(withID: "stretch").id == "stretch")
        #expect(try await store.fetchEvent(forTask: task, occurrence: 2).outcome == nil)
        var iterator = store.anyEvents(matching: day).makeAsyncIterator()
        #expect(try await iterator.next()?.count == 1)
    }
}

/// CareKit's filter of task queries, public here for code that filters tasks it holds (`filtered(dateInterval:
/// excludeTasksWithNoEvents:)`): the same rule a task query of the store applies.
@Suite struct TaskFilterTests {
    @Test func tasksAreListedAsATaskQueryListsThem() async throws {
        let calendar = ScheduleSemanticsTests.newYork
        let morning = ScheduleSemanticsTests.date(calendar, 2026, 3, 2)
        func at(_ hour: Int, day: Int = 2) -> Date { ScheduleSemanticsTests.date(calendar, 2026, 3, day, hour) }
        // 09:00–11:00 daily: its event starts before 10:00 and lasts into the query.
        let long = OCKTask(id: "long", title: nil, carePlanUUID: nil, schedule: OCKSchedule(composing: [
            OCKScheduleElement(start: at(9), end: nil, interval: DateComponents(day: 1), duration: .hours(2), calendar: calendar),
        ]))
        // 06:00 daily: no event between 10:00 and 13:00, but it is in effect.
        let early = OCKTask(id: "early", title: nil, carePlanUUID: nil, schedule: .dailyAtTime(hour: 6, minutes: 0, start: morning, end: nil,
                                                                                               text: nil, calendar: calendar))
        // Ended the day before.
        let ended = OCKTask(id: "ended", title: nil, carePlanUUID: nil, schedule: .dailyAtTime(
            hour: 6, minutes: 0, start: at(0, day: 1), end: at(0, day: 2), text: nil, calendar: calendar))
        let tasks = [long, early, ended]
        let interval = DateInterval(start: at(10), end: at(13))
        #expect(tasks.filtered(dateInterval: interval, excludeTasksWithNoEvents: false).map(\.id) == ["long", "early"])
        #expect(tasks.filtered(dateInterval: interval, excludeTasksWithNoEvents: true).map(\.id) == ["long"])
        #expect(tasks.filtered(dateInterval: nil, excludeTasksWithNoEvents: true).map(\.id) == ["long", "early", "ended"])
        // The store's own task query lists the same.
        let store = OCKStore(name: "filter", type: .inMemory)
        try await store.addTasks(tasks)
        var query = OCKTaskQuery(dateInterval: interval)
        query.excludesTasksWithNoEvents = true
        #expect(try await store.fetchTasks(query: query).map(\.id) == ["long"])
    }
}
