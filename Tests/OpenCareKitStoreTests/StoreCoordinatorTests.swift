import Foundation
import OpenCareKitStore
import Synchronization
import Testing

/// A delegate whose decisions each test sets, and which records what it was asked.
final class RoutingDelegate: OCKStoreCoordinatorDelegate {
    struct Rules {
        var queryable: @Sendable (any OCKAnyResettableStore) -> Bool = { _ in true }
        var writable: @Sendable (any OCKAnyResettableStore, String) -> Bool = { _, _ in true }
    }

    let rules = Mutex(Rules())

    func set(queryable: @escaping @Sendable (any OCKAnyResettableStore) -> Bool = { _ in true },
             writable: @escaping @Sendable (any OCKAnyResettableStore, String) -> Bool = { _, _ in true }) {
        rules.withLock { $0 = Rules(queryable: queryable, writable: writable) }
    }

    private func reads(_ store: any OCKAnyResettableStore) -> Bool { rules.withLock { $0.queryable(store) } }
    private func writes(_ store: any OCKAnyResettableStore, _ id: String) -> Bool { rules.withLock { $0.writable(store, id) } }

    func taskStore(_ store: any OCKAnyReadOnlyTaskStore, shouldHandleQuery query: OCKTaskQuery) -> Bool { reads(store) }
    func taskStore(_ store: any OCKAnyReadOnlyTaskStore, shouldHandleWritingTask task: any OCKAnyTask) -> Bool {
        writes(store, task.id)
    }
    func outcomeStore(_ store: any OCKAnyReadOnlyOutcomeStore, shouldHandleQuery query: OCKOutcomeQuery) -> Bool { reads(store) }
    func outcomeStore(_ store: any OCKAnyReadOnlyOutcomeStore, shouldHandleWritingOutcome outcome: any OCKAnyOutcome) -> Bool {
        writes(store, outcome.id)
    }
    func patientStore(_ store: any OCKAnyReadOnlyPatientStore, shouldHandleQuery query: OCKPatientQuery) -> Bool { reads(store) }
    func patientStore(_ store: any OCKAnyPatientStore, shouldHandleWritingPatient patient: any OCKAnyPatient) -> Bool {
        writes(store, patient.id)
    }
    func contactStore(_ store: any OCKAnyReadOnlyContactStore, shouldHandleQuery query: OCKContactQuery) -> Bool { reads(store) }
    func contactStore(_ store: any OCKAnyReadOnlyContactStore, shouldHandleWritingContact contact: any OCKAnyContact) -> Bool {
        writes(store, contact.id)
    }
    // Care plans keep the protocol's defaults: the test of defaults uses them.
}

@Suite struct StoreCoordinatorTests {
    static let day = Date(timeIntervalSince1970: 1_790_000_000)

    static func task(_ id: String, title: String? = nil) -> OCKTask {
        let element = OCKScheduleElement(start: day, end: nil, interval: DateComponents(day: 1),
                                         calendar: Calendar(identifier: .gregorian))
        var task = OCKTask(id: id, title: title ?? id, carePlanUUID: nil, schedule: OCKSchedule(composing: [element]))
        task.effectiveDate = day
        return task
    }

    static func ids(_ tasks: [any OCKAnyTask]) -> [String] { tasks.map(\.id) }

    struct World {
        let first = OCKStore(name: "first", type: .inMemory)
        let second = OCKStore(name: "second", type: .inMemory)
        let coordinator = OCKStoreCoordinator()
        let routing = RoutingDelegate()

        init(attach: Bool = true) {
            if attach {
                coordinator.attach(store: first)
                coordinator.attach(store: second)
            }
            coordinator.delegate = routing
        }
    }

    @Test func readsFanOutToEveryStoreAndMergeInTheQueryOrder() async throws {
        let world = World()
        try await world.first.addTasks([Self.task("a", title: "Walk"), Self.task("c", title: "Breathe")])
        try await world.second.addTasks([Self.task("b", title: "Apply cream"), Self.task("d", title: "Rest")])

        var byTitle = OCKTaskQuery()
        byTitle.sortDescriptors = [.title(ascending: true)]
        #expect(Self.ids(try await world.coordinator.fetchAnyTasks(query: byTitle)) == ["b", "c", "d", "a"])
        byTitle.sortDescriptors = [.title(ascending: false)]
        #expect(Self.ids(try await world.coordinator.fetchAnyTasks(query: byTitle)) == ["a", "d", "c", "b"])

        // Offset and limit apply to the merged result, not to each store's.
        byTitle.sortDescriptors = [.title(ascending: true)]
        byTitle.offset = 1
        byTitle.limit = 2
        #expect(Self.ids(try await world.coordinator.fetchAnyTasks(query: byTitle)) == ["c", "d"])

        // By id, through the protocols' extensions.
        #expect(try await world.coordinator.fetchAnyTask(withID: "d").title == "Rest")
        await #expect(throws: OCKStoreError.self) { try await world.coordinator.fetchAnyTask(withID: "nowhere") }
    }

    @Test func aStoreTheDelegateTurnsAwayFromAQueryIsNotRead() async throws {
        let world = World()
        try await world.first.addTasks([Self.task("a")])
        try await world.second.addTasks([Self.task("b")])
        let second = world.second
        world.routing.set(queryable: { $0 !== second })
        #expect(Self.ids(try await world.coordinator.fetchAnyTasks(query: OCKTaskQuery())) == ["a"])
    }

    @Test func aWriteGoesToTheFirstStoreThatAcceptsEveryEntity() async throws {
        let world = World()
        let first = world.first
        // The first store takes nothing whose id starts with "b".
        world.routing.set(writable: { store, id in !(store === first && id.hasPrefix("b")) })

        try await world.coordinator.addAnyTasks([Self.task("a1"), Self.task("a2")])
        try await world.coordinator.addAnyTask(Self.task("b1"))
        // A mixed batch goes whole to the one store that accepts all of it.
        try await world.coordinator.addAnyTasks([Self.task("a3"), Self.task("b2")])

        #expect(Set(Self.ids(try await world.first.fetchTasks(query: OCKTaskQuery()))) == ["a1", "a2"])
        #expect(Set(Self.ids(try await world.second.fetchTasks(query: OCKTaskQuery()))) == ["b1", "a3", "b2"])

        // Updates and deletes are routed the same way.
        var walk = try await world.coordinator.fetchAnyTask(withID: "b1") as! OCKTask
        walk.title = "Walk further"
        try await world.coordinator.updateAnyTask(walk)
        #expect(try await world.second.fetchTask(withID: "b1").title == "Walk further")
        #expect(try await world.first.fetchTasks(query: OCKTaskQuery(id: "a1")).count == 1)
        try await world.coordinator.deleteAnyTask(try await world.coordinator.fetchAnyTask(withID: "a1"))
        #expect(try await world.first.fetchTasks(query: OCKTaskQuery(id: "a1")).isEmpty)
    }

    @Test func aWriteNoStoreAcceptsWhollyFailsAndChangesNothing() async throws {
        let world = World()
        let first = world.first
        // "a" only in the first store, "b" only in the second: no store takes both.
        world.routing.set(writable: { store, id in (store === first) == id.hasPrefix("a") })
        await #expect(throws: OCKStoreError.addFailed(reason: "No attached store accepts every one of these tasks")) {
            try await world.coordinator.addAnyTasks([Self.task("a1"), Self.task("b1")])
        }
        #expect(try await world.coordinator.fetchAnyTasks(query: OCKTaskQuery()).isEmpty)

        // The same holds for outcomes, patients and contacts.
        await #expect(throws: OCKStoreError.addFailed(reason: "No attached store accepts every one of these patients")) {
            try await world.coordinator.addAnyPatients([OCKPatient(id: "a", givenName: "A", familyName: "B"),
                                                        OCKPatient(id: "b", givenName: "C", familyName: "D")])
        }
        await #expect(throws: OCKStoreError.updateFailed(reason: "No attached store accepts every one of these contacts")) {
            try await world.coordinator.updateAnyContacts([OCKContact(id: "a", givenName: "A", familyName: "B", carePlanUUID: nil),
                                                           OCKContact(id: "b", givenName: "C", familyName: "D", carePlanUUID: nil)])
        }
        #expect(try await world.coordinator.fetchAnyPatients(query: OCKPatientQuery()).isEmpty)
    }

    @Test func readOnlyStoresAreReadButNeverWritten() async throws {
        let world = World(attach: false)
        world.coordinator.attachReadOnly(eventStore: world.second)
        world.coordinator.attach(eventStore: world.first)
        try await world.second.addTasks([Self.task("library")])
        let first = world.first
        world.routing.set(writable: { store, _ in store !== first })

        #expect(Self.ids(try await world.coordinator.fetchAnyTasks(query: OCKTaskQuery())) == ["library"])
        await #expect(throws: OCKStoreError.addFailed(reason: "No attached store accepts every one of these tasks")) {
            try await world.coordinator.addAnyTask(Self.task("mine"))
        }
        #expect(try await world.second.fetchTasks(query: OCKTaskQuery()).count == 1)

        // A coordinator with no store of a kind says so.
        await #expect(throws: OCKStoreError.addFailed(reason: "No store for patients is attached to the coordinator")) {
            try await world.coordinator.addAnyPatient(OCKPatient(id: "p", givenName: "A", familyName: "B"))
        }
        #expect(try await world.coordinator.fetchAnyPatients(query: OCKPatientQuery()).isEmpty)
    }

    @Test func theDefaultHooksAcceptEverythingAndTheCoordinatorIsItsOwnDelegate() async throws {
        let coordinator = OCKStoreCoordinator()
        #expect(coordinator.delegate === coordinator)
        let first = OCKStore(name: "first", type: .inMemory)
        let second = OCKStore(name: "second", type: .inMemory)
        coordinator.attach(planStore: first)
        coordinator.attach(planStore: second)
        let plan = OCKCarePlan(id: "knee", title: "Knee recovery", patientUUID: nil)
        try await coordinator.addAnyCarePlan(plan)
        #expect(try await first.fetchCarePlans(query: OCKCarePlanQuery()).map(\.id) == ["knee"])
        #expect(try await second.fetchCarePlans(query: OCKCarePlanQuery()).isEmpty)

        // The delegate is held weakly: once it is gone, the coordinator decides again.
        do {
            let routing = RoutingDelegate()
            coordinator.delegate = routing
            #expect(coordinator.delegate === routing)
        }
        #expect(coordinator.delegate === coordinator)
    }

    @Test func eventsMergeFromEveryStoreInFetchOrder() async throws {
        let world = World()
        let morning = try await world.first.addTask(Self.task("morning"))
        let evening = try await world.second.addTask(Self.task("evening"))
        try await world.second.addOutcome(OCKOutcome(taskUUID: evening.uuid, taskOccurrenceIndex: 1, values: []))

        let week = DateInterval(start: Self.day, duration: 3 * 86_400 - 1)
        let events = try await world.coordinator.fetchAnyEvents(query: OCKEventQuery(dateInterval: week))
        #expect(events.count == 6)
        let expected = try await world.first.fetchEvents(query: OCKEventQuery(dateInterval: week)).map(\.anyEvent)
            + world.second.fetchEvents(query: OCKEventQuery(dateInterval: week)).map(\.anyEvent)
        let sorted = expected.sorted { lhs, rhs in
            (lhs.scheduleEvent.start, lhs.task.uuid.uuidString, lhs.scheduleEvent.occurrence)
                < (rhs.scheduleEvent.start, rhs.task.uuid.uuidString, rhs.scheduleEvent.occurrence)
        }
        #expect(events.map(\.id) == sorted.map(\.id))
        #expect(events.filter { $0.outcome != nil }.map(\.id) == ["\(evening.uuid.uuidString)/1"])

        // One event comes from whichever store has its task.
        let found = try await world.coordinator.fetchAnyEvent(forTask: evening, occurrence: 1)
        #expect(found.outcome != nil)
        #expect(try await world.coordinator.fetchAnyEvent(forTask: morning, occurrence: 2).task.id == "morning")

        // Adherence is computed across the stores: half of each day's events.
        let adherence = try await world.coordinator.fetchAdherence(
            query: OCKAdherenceQuery(taskIDs: ["morning", "evening"], dateInterval: week),
            calendar: Calendar(identifier: .gregorian))
        #expect(adherence == [.progress(0), .progress(0.5), .progress(0)])
    }

    @Test func liveQueriesCombineTheStoresAndFollowEachOfThem() async throws {
        let world = World()
        try await world.first.addTasks([Self.task("a")])
        var query = OCKTaskQuery()
        query.sortDescriptors = [.title(ascending: true)]
        var results = world.coordinator.anyTasks(matching: query).makeAsyncIterator()
        #expect(Self.ids(try await results.next() ?? []) == ["a"])

        try await world.second.addTasks([Self.task("b")])
        #expect(Self.ids(try await results.next() ?? []) == ["a", "b"])
        try await world.first.addTasks([Self.task("0")])
        #expect(Self.ids(try await results.next() ?? []) == ["0", "a", "b"])
    }

    @Test func aCoordinatorWithoutStoresAnswersEmptyAndRefusesWrites() async throws {
        let coordinator = OCKStoreCoordinator()
        #expect(try await coordinator.fetchAnyOutcomes(query: OCKOutcomeQuery()).isEmpty)
        var live = coordinator.anyContacts(matching: OCKContactQuery()).makeAsyncIterator()
        #expect(try await live.next()?.isEmpty == true)
        #expect(try await live.next() == nil)
        await #expect(throws: OCKStoreError.fetchFailed(reason: "No store for events is attached to the coordinator")) {
            try await coordinator.fetchAnyEvent(forTask: Self.task("a"), occurrence: 0)
        }
    }

    @Test func resetResetsEachAttachedStoreOnce() async throws {
        let world = World()
        world.coordinator.attachReadOnly(patientStore: world.first)
        try await world.first.addTasks([Self.task("a")])
        try await world.second.addPatient(OCKPatient(id: "p", givenName: "A", familyName: "B"))
        let before = world.first.changeCount
        try world.coordinator.reset()
        #expect(try await world.coordinator.fetchAnyTasks(query: OCKTaskQuery()).isEmpty)
        #expect(try await world.coordinator.fetchAnyPatients(query: OCKPatientQuery()).isEmpty)
        #expect(world.first.changeCount == before + 1)
    }
}
