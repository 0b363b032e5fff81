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
