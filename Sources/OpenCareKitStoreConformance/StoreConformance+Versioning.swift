import Foundation
import OpenCareKitStore
import Testing

extension StoreConformance {
    static let versioning: [StoreCheck] = [
        StoreCheck("addedTasksRoundTrip") { store in
            var task = Fixture.daily("ibuprofen", hours: [8, 20])
            task.instructions = "Take with food"
            task.tags = ["medication"]
            task.userInfo = ["dose": "200mg"]
            let added = try await store.addTask(task)
            #expect(added.createdDate != nil)
            let fetched = try await store.fetchTasks(query: OCKTaskQuery(id: "ibuprofen"))
            #expect(fetched == [added])
            #expect(fetched.first?.schedule == task.schedule)
            #expect(try await store.fetchTask(withID: "ibuprofen") == added)
        },
        StoreCheck("addingAnExistingIDFails") { store in
            try await store.addTask(Fixture.daily("a"))
            let error = await failure { try await store.addTask(Fixture.daily("a")) }
            #expect(error?.isAddFailed == true)
            #expect(try await store.fetchTasks(query: OCKTaskQuery()).count == 1)
        },
        StoreCheck("anIDStaysTakenAfterDelete") { store in
            let task = try await store.addTask(Fixture.daily("a"))
            try await store.deleteTask(task)
            #expect(await failure { try await store.addTask(Fixture.daily("a")) }?.isAddFailed == true)
        },
        StoreCheck("aBatchIsAllOrNothing") { store in
            try await store.addTask(Fixture.daily("existing"))
            let error = await failure { try await store.addTasks([Fixture.daily("new"), Fixture.daily("existing")]) }
            #expect(error?.isAddFailed == true)
            #expect(try await store.fetchTasks(query: OCKTaskQuery(id: "new")).isEmpty)
            #expect(await failure { try await store.addTasks([Fixture.daily("x"), Fixture.daily("x")]) }?.isInvalidValue == true)
        },
        StoreCheck("updatesAppendLinkedVersions") { store in
            let first = try await store.addTask(Fixture.daily("walk"))
            var change = first
            change.title = "Walk 30 minutes"
            change.effectiveDate = Fixture.date(10)
            let second = try await store.updateTask(change)
            #expect(second.uuid != first.uuid)
            #expect(second.previousVersionUUIDs == [first.uuid])
            #expect(second.createdDate == first.createdDate)
            let all = try await store.fetchTasks(query: OCKTaskQuery())
            #expect(Set(all.map(\.uuid)) == [first.uuid, second.uuid])
            #expect(all.first { $0.uuid == first.uuid }?.nextVersionUUIDs == [second.uuid])
        },
        StoreCheck("dateIntervalQueriesReturnTheVersionInEffect") { store in
            let first = try await store.addTask(Fixture.daily("walk"))
            var change = first
            change.title = "v2"
            change.effectiveDate = Fixture.date(10)
            try await store.updateTask(change)
            #expect(try await store.fetchTasks(query: OCKTaskQuery(dateInterval: Fixture.day(5))).map(\.title) == ["walk"])
            #expect(try await store.fetchTasks(query: OCKTaskQuery(dateInterval: Fixture.day(12))).map(\.title) == ["v2"])
            // An interval spanning both returns the newest only; one ending exactly at the change, the old one.
            #expect(try await store.fetchTasks(query: OCKTaskQuery(dateInterval: DateInterval(start: Fixture.date(5), end: Fixture.date(12)))).map(\.title) == ["v2"])
            #expect(try await store.fetchTasks(query: OCKTaskQuery(dateInterval: DateInterval(start: Fixture.date(5), end: Fixture.date(10)))).map(\.title) == ["walk"])
            // Before the task began there is nothing.
            #expect(try await store.fetchTasks(query: OCKTaskQuery(dateInterval: DateInterval(start: Fixture.date(1, month: 10), end: Fixture.date(2, month: 10)))).isEmpty)
        },
        StoreCheck("fetchByIDReturnsTheLatestUpdate") { store in
            // Updates with the same effective date: the one made last is the task now.
            var task = try await store.addTask(Fixture.daily("walk"))
            for title in ["second", "third", "fourth"] {
                task.title = title
                task = try await store.updateTask(task)
                #expect(try await store.fetchTask(withID: "walk").title == title)
            }
        },
        StoreCheck("updatingOrDeletingAMissingIDFails") { store in
            #expect(await failure { try await store.updateTask(Fixture.daily("ghost")) }?.isUpdateFailed == true)
            #expect(await failure { try await store.deleteTask(Fixture.daily("ghost")) }?.isDeleteFailed == true)
        },
        StoreCheck("deletesAppendTombstones") { store in
            let task = try await store.addTask(Fixture.daily("a"))
            let tombstone = try await store.deleteTask(task)
            #expect(tombstone.deletedDate != nil)
            #expect(tombstone.previousVersionUUIDs == [task.uuid])
            #expect(try await store.fetchTasks(query: OCKTaskQuery(dateInterval: Fixture.day(20))).isEmpty)
            #expect(await failure { try await store.updateTask(task) }?.isUpdateFailed == true)
            #expect(await failure { _ = try await store.fetchTask(withID: "a") }?.isFetchFailed == true)
        },
        StoreCheck("everyEntityKindIsVersioned") { store in
            let patient = try await store.addPatient(OCKPatient(id: "p", givenName: "Min-jun", familyName: "Kim"))
            var renamed = patient
            renamed.name.givenName = "Minjun"
            #expect(try await store.updatePatient(renamed).previousVersionUUIDs == [patient.uuid])
            let plan = try await store.addCarePlan(OCKCarePlan(id: "plan", title: "Knee", patientUUID: patient.uuid))
            #expect(try await store.fetchCarePlan(withID: "plan") == plan)
            var contact = OCKContact(id: "dr", givenName: "Maria", familyName: "Ruiz", carePlanUUID: plan.uuid)
            contact.category = .careProvider
            let added = try await store.addContact(contact)
            #expect(try await store.fetchContact(withID: "dr") == added)
            try await store.deleteContact(added)
            #expect(try await store.fetchContacts(query: OCKContactQuery(for: Date())).isEmpty)
            try await store.deleteCarePlan(plan)
            #expect(try await store.fetchCarePlans(query: OCKCarePlanQuery(for: Date())).isEmpty)
        },
        StoreCheck("resetRemovesEverything") { store in
            let task = try await store.addTask(Fixture.daily("a"))
            try await store.addOutcome(Fixture.done(task, 0))
            try await store.addPatient(OCKPatient(id: "p", givenName: "A", familyName: "B"))
            try store.reset()
            #expect(try await store.fetchTasks(query: OCKTaskQuery()).isEmpty)
            #expect(try await store.fetchOutcomes(query: OCKOutcomeQuery()).isEmpty)
            #expect(try await store.fetchPatients(query: OCKPatientQuery()).isEmpty)
            try await store.addTask(Fixture.daily("a"))
        },
    ]
}
