import Foundation
import OpenCareKitStore
import Testing

extension StoreConformance {
    static let rules: [StoreCheck] = [
        StoreCheck("aStoreHoldsOnePatient") { store in
            try await store.addPatient(OCKPatient(id: "p1", givenName: "A", familyName: "B"))
            let error = await failure { try await store.addPatient(OCKPatient(id: "p2", givenName: "C", familyName: "D")) }
            #expect(error?.isAddFailed == true)
            #expect(error?.reason.contains("one patient per store") == true)
        },
        StoreCheck("aStoreHoldsABoundedNumberOfTasksAndContacts") { store in
            let limit = OCKStoreLimits.maximumEntitiesOfAKind
            let tasks = try await store.addTasks((0..<limit).map { Fixture.daily("task-\($0)") })
            let error = await failure { try await store.addTask(Fixture.daily("one-too-many")) }
            #expect(error == .addFailed(reason: OCKStoreLimits.tooMany("task")))
            // A batch that would pass the limit adds nothing; a deleted task makes room.
            try await store.deleteTask(tasks[0])
            #expect(await failure { try await store.addTasks([Fixture.daily("a"), Fixture.daily("b")]) }?.isAddFailed == true)
            #expect(try await store.fetchTasks(query: OCKTaskQuery()).contains { $0.id == "a" } == false)
            try await store.addTask(Fixture.daily("one-more"))
            try await store.addContacts((0..<limit).map { OCKContact(id: "contact-\($0)", givenName: "A", familyName: "B", carePlanUUID: nil) })
            let contactError = await failure {
                try await store.addContact(OCKContact(id: "one-too-many", givenName: "C", familyName: "D", carePlanUUID: nil))
            }
            #expect(contactError == .addFailed(reason: OCKStoreLimits.tooMany("contact")))
        },
        StoreCheck("aTakenUUIDIsRefusedAndTheCallAddsNothing") { store in
            let task = try await store.addTask(Fixture.daily("med"))
            var sameUUID = Fixture.daily("other")
            sameUUID.uuid = task.uuid
            #expect(await failure { try await store.addTask(sameUUID) } == .addFailed(reason: "A task with the same uuid already exists"))
            let outcome = try await store.addOutcome(Fixture.done(task, 0))
            var reused = Fixture.done(task, 2)
            reused.uuid = outcome.uuid
            let sameUUIDError = OCKStoreError.addFailed(reason: "An outcome with the same uuid already exists")
            #expect(await failure { try await store.addOutcomes([Fixture.done(task, 1), reused]) } == sameUUIDError)
            // Twice in one call.
            let first = Fixture.done(task, 3)
            var twin = Fixture.done(task, 4)
            twin.uuid = first.uuid
            #expect(await failure { try await store.addOutcomes([first, twin]) } == sameUUIDError)
            #expect(try await store.fetchTasks(query: OCKTaskQuery()).map(\.id) == ["med"])
            #expect(try await store.fetchOutcomes(query: OCKOutcomeQuery()).map(\.uuid) == [outcome.uuid])
            // The one-outcome-per-occurrence rule still answers as CareKit does.
            let again = await failure { try await store.addOutcome(Fixture.done(task, 0)) }
            #expect(again?.isInvalidValue == true && again?.reason.contains("non-unique outcome") == true)
        },
        StoreCheck("invalidEntitiesAreRejectedNamingTheField") { store in
            let error = await failure { try await store.addTask(OCKTask(id: "", title: nil, carePlanUUID: nil, schedule: Fixture.daily("x").schedule)) }
            #expect(error == .invalidValue(reason: "task: id: must not be empty"))
            var badSchedule = Fixture.daily("x")
            badSchedule.schedule = OCKSchedule(composing: [OCKScheduleElement(start: Fixture.date(1), end: nil,
                                                                              interval: DateComponents(), calendar: Fixture.calendar)])
            #expect(await failure { try await store.addTask(badSchedule) } == .invalidValue(reason: "task: schedule.elements[0].interval: must move forward in time"))
        },
        StoreCheck("updatingATaskBeforeExistingOutcomesFails") { store in
            let task = try await store.addTask(Fixture.daily("med"))
            try await store.addOutcome(Fixture.done(task, 9)) // Nov 10, 08:00
            var change = task
            change.effectiveDate = Fixture.date(5)
            let error = await failure { try await store.updateTask(change) }
            #expect(error?.isUpdateFailed == true)
            #expect(error?.reason.contains("To prevent implicit data loss") == true)
            // After the last outcome the update is fine.
            change.effectiveDate = Fixture.date(11)
            #expect(try await store.updateTask(change).previousVersionUUIDs == [task.uuid])
        },
        StoreCheck("outcomesCannotFallInANewerVersionsSpan") { store in
            let first = try await store.addTask(Fixture.daily("med"))
            var change = first
            change.effectiveDate = Fixture.date(10)
            try await store.updateTask(change)
            try await store.addOutcome(Fixture.done(first, 3)) // Nov 4: before the new version, fine
            let error = await failure { try await store.addOutcome(Fixture.done(first, 12)) } // Nov 13
            #expect(error?.isInvalidValue == true)
            #expect(error?.reason.contains("overshadowed") == true)
        },
        StoreCheck("outcomesCoveredByANewerVersionCanStillBeDeleted") { store in
            let first = try await store.addTask(Fixture.daily("med"))
            let outcome = try await store.addOutcome(Fixture.done(first, 8)) // Nov 9
            var change = first
            change.effectiveDate = Fixture.date(10)
            try await store.updateTask(change)
            let tombstone = try await store.deleteOutcome(outcome)
            #expect(tombstone.deletedDate != nil)
            #expect(try await store.fetchOutcomes(query: OCKOutcomeQuery(dateInterval: Fixture.day(9))).isEmpty)
        },
        StoreCheck("oneCurrentOutcomePerOccurrence") { store in
            let task = try await store.addTask(Fixture.daily("med"))
            let outcome = try await store.addOutcome(Fixture.done(task, 2))
            let error = await failure { try await store.addOutcome(Fixture.done(task, 2)) }
            #expect(error?.reason.contains("non-unique outcome") == true)
            // After deleting, the occurrence can be recorded again.
            try await store.deleteOutcome(outcome)
            try await store.addOutcome(Fixture.done(task, 2))
            #expect(try await store.fetchOutcomes(query: OCKOutcomeQuery(dateInterval: Fixture.day(3))).count == 1)
        },
        StoreCheck("outcomesNeedAnExistingTaskAndOccurrence", outcomesNeedAnExistingTaskAndOccurrence),
        StoreCheck("outcomeUpdatesAppendVersions") { store in
            let task = try await store.addTask(Fixture.daily("pain"))
            var outcome = try await store.addOutcome(OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: 0, values: [OCKOutcomeValue(3)]))
            outcome.values = [OCKOutcomeValue(5, units: "of 10")]
            let updated = try await store.updateOutcome(outcome)
            #expect(updated.previousVersionUUIDs == [outcome.uuid])
            let current = try await store.fetchOutcomes(query: OCKOutcomeQuery(dateInterval: Fixture.day(1)))
            #expect(current.map(\.uuid) == [updated.uuid])
            #expect(current.first?.values.first?.integerValue == 5)
            #expect(current.first?.values.first?.units == "of 10")
        },
    ]

    private static func outcomesNeedAnExistingTaskAndOccurrence(_ store: any StoreUnderTest) async throws {
        let orphan = OCKOutcome(taskUUID: UUID(), taskOccurrenceIndex: 0, values: [])
        #expect(await failure { try await store.addOutcome(orphan) }?.isInvalidValue == true)
        let added = try await store.addTask(Fixture.bounded("short", until: Fixture.date(3)))
        let beyond = Fixture.done(added, 5)
        let error = await failure { try await store.addOutcome(beyond) }
        #expect(error?.reason.contains("Invalid outcome occurrence") == true)
        let negative = Fixture.done(added, -1)
        #expect(await failure { try await store.addOutcome(negative) }?.isInvalidValue == true)
    }
}
