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
        StoreCheck("everySavedVersionCarriesCareKitsSchemaVersion") { store in
            // CareKit 4 stamps 3.0.0 on every version it saves, whatever the caller set.
            let stamped = OCKSemanticVersion(majorVersion: 3, minorVersion: 0, patchNumber: 0)
            var task = Fixture.daily("walk")
            task.schemaVersion = OCKSemanticVersion(majorVersion: 9)
            let added = try await store.addTask(task)
            var change = added
            change.schemaVersion = nil
            change.title = "walk on"
            let updated = try await store.updateTask(change)
            var outcome = Fixture.done(updated, 1)
            outcome.schemaVersion = OCKSemanticVersion(majorVersion: 1)
            let recorded = try await store.addOutcome(outcome)
            let deleted = try await store.deleteOutcome(recorded)
            let patient = try await store.addPatient(OCKPatient(id: "alex", givenName: "Alex", familyName: "Kim"))
            let plan = try await store.addCarePlan(OCKCarePlan(id: "knee", title: "Knee", patientUUID: patient.uuid))
            let contact = try await store.addContact(OCKContact(id: "lee", givenName: "Jordan", familyName: "Lee", carePlanUUID: plan.uuid))
            #expect([added.schemaVersion, updated.schemaVersion, recorded.schemaVersion, deleted.schemaVersion,
                     patient.schemaVersion, plan.schemaVersion, contact.schemaVersion] == Array(repeating: stamped, count: 7))
            let tasks = try await store.fetchTasks(query: OCKTaskQuery())
            #expect(tasks.count == 2 && tasks.allSatisfy { $0.schemaVersion == stamped })
            #expect(try await store.fetchPatient(withID: "alex").schemaVersion == stamped)
            #expect(try await store.fetchCarePlan(withID: "knee").schemaVersion == stamped)
            #expect(try await store.fetchContact(withID: "lee").schemaVersion == stamped)
        },
        StoreCheck("anOutcomeUpdateDatedBeforeTheVersionItReplacesLosesToIt") { store in
            let task = try await store.addTask(Fixture.daily("walk"))
            var outcome = Fixture.done(task, 1)
            outcome.effectiveDate = Fixture.date(2, 12)
            let recorded = try await store.addOutcome(outcome)
            func shown() async throws -> [String]? {
                let event: OCKEvent<OCKTask, OCKOutcome> = try await store.fetchEvent(forTask: task, occurrence: 1)
                return event.outcome?.values.map(\.description)
            }
            // Dated earlier: kept in the history, but the version it replaces is still the one shown.
            var earlier = recorded
            earlier.values = [OCKOutcomeValue(2)]
            earlier.effectiveDate = Fixture.date(2, 11)
            let returned = try await store.updateOutcome(earlier)
            #expect(returned.values.map(\.description) == ["2"])
            #expect(try await shown() == ["true"])
            let day = try await store.fetchOutcomes(query: OCKOutcomeQuery(dateInterval: Fixture.day(2)))
            #expect(day.map { $0.values.map(\.description) } == [["true"]])
            #expect(try await store.fetchOutcomes(query: OCKOutcomeQuery()).contains { $0.uuid == returned.uuid })
            // Dated the same or later: it replaces the shown version.
            var same = try #require(day.first)
            same.values = [OCKOutcomeValue(3)]
            try await store.updateOutcome(same)
            #expect(try await shown() == ["3"])
            var later = try #require(try await store.fetchOutcomes(query: OCKOutcomeQuery(dateInterval: Fixture.day(2))).first)
            later.values = [OCKOutcomeValue(4)]
            later.effectiveDate = Fixture.date(2, 13)
            try await store.updateOutcome(later)
            #expect(try await shown() == ["4"])
        },
        StoreCheck("addingAnExistingIDFails") { store in
            try await store.addTask(Fixture.daily("a"))
            let error = await failure { try await store.addTask(Fixture.daily("a")) }
            #expect(error?.isAddFailed == true)
            #expect(try await store.fetchTasks(query: OCKTaskQuery()).count == 1)
        },
        StoreCheck("aDeletedTaskIDCanBeAddedAgainAsANewTask") { store in
            // Given a task with an outcome on Nov 2, deleted.
            let task = try await store.addTask(Fixture.daily("a"))
            try await store.addOutcome(Fixture.done(task, 1))
            let tombstone = try await store.deleteTask(task)
            // When the id is added again from Nov 10 (CareKit #379 refuses this).
            var again = Fixture.daily("a", hours: [9], from: 10)
            again.title = "again"
            let added = try await store.addTask(again)
            // Then it follows the tombstone, owns the days from Nov 10, and shows nothing of the deleted task before.
            #expect(added.previousVersionUUIDs == [tombstone.uuid])
            #expect(try await store.fetchTask(withID: "a").title == "again")
            #expect(try await store.fetchEvents(query: OCKEventQuery(dateInterval: Fixture.day(12))).map(\.scheduleEvent.start) == [Fixture.date(12, 9)])
            #expect(try await store.fetchEvents(query: OCKEventQuery(dateInterval: Fixture.day(2))).isEmpty)
            // The deleted task's outcome is kept.
            var outcomes = OCKOutcomeQuery()
            outcomes.taskUUIDs = [task.uuid]
            #expect(try await store.fetchOutcomes(query: outcomes).count == 1)
            // An id whose newest version is not deleted stays taken.
            #expect(await failure { try await store.addTask(Fixture.daily("a")) }?.isAddFailed == true)
        },
        StoreCheck("aTaskAddedAgainTakesEffectAfterTheDeletedOnesLastVersion") { store in
            var task = try await store.addTask(Fixture.daily("a"))
            task.effectiveDate = Fixture.date(10)
            task = try await store.updateTask(task)
            try await store.deleteTask(task)
            // Before Nov 10 the deleted task's first version still answers dated queries: a new task cannot overlap it.
            #expect(await failure { try await store.addTask(Fixture.daily("a", from: 5)) }?.isAddFailed == true)
            try await store.addTask(Fixture.daily("a", from: 10))
            #expect(try await store.fetchEvents(query: OCKEventQuery(dateInterval: Fixture.day(6))).count == 1)
            #expect(try await store.fetchEvents(query: OCKEventQuery(dateInterval: Fixture.day(12))).count == 1)
        },
        StoreCheck("anEventSpanningAVersionChangeIsListedOnce") { store in
            // A daily event from 08:00 for three hours; a new version takes effect at 09:00 on Nov 5.
            let element = OCKScheduleElement(start: Fixture.date(1, 8), end: nil, interval: DateComponents(day: 1),
                                             duration: .hours(3), calendar: Fixture.calendar)
            let task = try await store.addTask(OCKTask(id: "walk", title: "walk", carePlanUUID: nil, schedule: OCKSchedule(composing: [element])))
            var change = task
            change.title = "walk on"
            change.effectiveDate = Fixture.date(5, 9)
            try await store.updateTask(change)
            let events = try await store.fetchEvents(query: OCKEventQuery(dateInterval: Fixture.day(5)))
            // The 08:00 event began under the first version: it is listed once, as that version's.
            #expect(events.map(\.task.title) == ["walk"])
            #expect(try await store.fetchEvents(query: OCKEventQuery(dateInterval: Fixture.day(6))).map(\.task.title) == ["walk on"])
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
