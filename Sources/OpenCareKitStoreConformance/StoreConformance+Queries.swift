import Foundation
import OpenCareKitStore
import Testing

extension StoreConformance {
    static let queries: [StoreCheck] = [
        StoreCheck("queriesFilterByIdentifiersGroupsTagsAndPlans") { store in
            let plan = try await store.addCarePlan(OCKCarePlan(id: "knee", title: "Knee", patientUUID: nil))
            var a = Fixture.daily("a")
            a.groupIdentifier = "meds"
            a.tags = ["morning"]
            a.remoteID = "r-a"
            a.carePlanUUID = plan.uuid
            var b = Fixture.daily("b")
            b.tags = ["evening"]
            try await store.addTasks([a, b, Fixture.daily("c")])
            func ids(_ configure: (inout OCKTaskQuery) -> Void) async throws -> [String] {
                var query = OCKTaskQuery()
                configure(&query)
                return try await store.fetchTasks(query: query).map(\.id).sorted()
            }
            #expect(try await ids { $0.ids = ["a", "c"] } == ["a", "c"])
            #expect(try await ids { $0.groupIdentifiers = ["meds"] } == ["a"])
            #expect(try await ids { $0.groupIdentifiers = [nil] } == ["b", "c"])
            #expect(try await ids { $0.tags = ["evening", "morning"] } == ["a", "b"])
            #expect(try await ids { $0.remoteIDs = ["r-a"] } == ["a"])
            #expect(try await ids { $0.carePlanIDs = ["knee"] } == ["a"])
            #expect(try await ids { $0.carePlanUUIDs = [plan.uuid] } == ["a"])
        },
        StoreCheck("queriesSortLimitAndOffset") { store in
            try await store.addTasks(["b", "c", "a"].map { Fixture.daily($0) })
            var query = OCKTaskQuery()
            query.sortDescriptors = [.title(ascending: true)]
            query.limit = 2
            #expect(try await store.fetchTasks(query: query).map(\.id) == ["a", "b"])
            query.offset = 2
            #expect(try await store.fetchTasks(query: query).map(\.id) == ["c"])
            query.sortDescriptors = [.title(ascending: false)]
            query.offset = 0
            #expect(try await store.fetchTasks(query: query).map(\.id) == ["c", "b"])
            query.limit = 0 // CareKit: no limit
            #expect(try await store.fetchTasks(query: query).map(\.id) == ["c", "b", "a"])
        },
        StoreCheck("outcomeQueriesMatchEventsInTheInterval") { store in
            let task = try await store.addTask(Fixture.daily("med"))
            try await store.addOutcomes([Fixture.done(task, 0), Fixture.done(task, 1), Fixture.done(task, 5)])
            var query = OCKOutcomeQuery(dateInterval: DateInterval(start: Fixture.date(1), end: Fixture.date(3)))
            #expect(try await store.fetchOutcomes(query: query).map(\.taskOccurrenceIndex).sorted() == [0, 1])
            query.taskIDs = ["other"]
            #expect(try await store.fetchOutcomes(query: query).isEmpty)
            #expect(try await store.fetchOutcomes(query: OCKOutcomeQuery()).count == 3)
        },
    ]

    static let live: [StoreCheck] = [
        StoreCheck("liveQueriesYieldOnlyWhenTheResultChanges") { store in
            var iterator = store.anyTasks(matching: OCKTaskQuery()).makeAsyncIterator()
            #expect(try await iterator.next()?.isEmpty == true)
            // A change to another kind of entity must not produce an element; the next element is the new task.
            try await store.addContact(OCKContact(id: "c", givenName: "A", familyName: "B", carePlanUUID: nil))
            try await store.addTask(Fixture.daily("a"))
            #expect(try await iterator.next()?.map(\.id) == ["a"])
        },
        StoreCheck("everyLiveQueryFollowsItsEntities", everyLiveQueryFollowsItsEntities),
        StoreCheck("liveEventsFollowOutcomes") { store in
            let task = try await store.addTask(Fixture.daily("med"))
            var iterator = store.anyEvents(matching: OCKEventQuery(dateInterval: Fixture.day(3))).makeAsyncIterator()
            #expect(try await iterator.next()?.map { $0.outcome == nil } == [true])
            try await store.addOutcome(Fixture.done(task, 2))
            #expect(try await iterator.next()?.map { $0.outcome == nil } == [false])
        },
    ]

    private static func everyLiveQueryFollowsItsEntities(_ store: any StoreUnderTest) async throws {
        var patients = store.anyPatients(matching: OCKPatientQuery()).makeAsyncIterator()
        var plans = store.anyCarePlans(matching: OCKCarePlanQuery()).makeAsyncIterator()
        var contacts = store.anyContacts(matching: OCKContactQuery()).makeAsyncIterator()
        var outcomes = store.anyOutcomes(matching: OCKOutcomeQuery()).makeAsyncIterator()
        #expect(try await patients.next()?.isEmpty == true)
        #expect(try await plans.next()?.isEmpty == true)
        #expect(try await contacts.next()?.isEmpty == true)
        #expect(try await outcomes.next()?.isEmpty == true)
        let patient = try await store.addPatient(OCKPatient(id: "p", givenName: "A", familyName: "B"))
        #expect(try await store.fetchPatient(withID: "p") == patient)
        try await store.addCarePlan(OCKCarePlan(id: "plan", title: "Plan", patientUUID: patient.uuid))
        try await store.addContact(OCKContact(id: "c", givenName: "C", familyName: "D", carePlanUUID: nil))
        let task = try await store.addTask(Fixture.daily("t"))
        try await store.addOutcome(Fixture.done(task, 0))
        #expect(try await patients.next()?.map(\.id) == ["p"])
        #expect(try await plans.next()?.map(\.id) == ["plan"])
        #expect(try await contacts.next()?.map(\.id) == ["c"])
        #expect(try await outcomes.next()?.map(\.taskOccurrenceIndex) == [0])
    }
}
