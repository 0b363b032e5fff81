import Foundation
import Synchronization
import OpenCareKitStore
import OpenCareKitSurveys
import Testing

/// A care record's rules against every writer of the store: its own calls (what pages, the JSON API, imports and the
/// command line use), a sync merge (a device's push) and CareKit's `mergeRevision(_:)` (one pulled revision). Each rule refuses each writer with the same reason, and a
/// refused call leaves the store as it was.
extension StoreConformance {
    /// The store's writers, as the matrix tries them.
    enum Writer: CaseIterable {
        case calls, merge, mergeRevision
    }

    /// A record of the demo plan's rules, at noon on 16 November 2026 (America/New_York): the onboarding (a daily
    /// all-day survey task), the daily check-in survey and a daily 08:00 medication, all from 1 November.
    struct RuledRecord {
        let store: OCKStore
        let onboarding: OCKTask
        let checkIn: OCKTask
        let med: OCKTask
        static let now = Fixture.date(16, 12)
        /// The device whose pushes the merge writer makes.
        let device = UUID()

        init(_ store: any StoreUnderTest) async throws {
            self.store = try #require(store as? OCKStore)
            self.store.addRule(OCKSurveyStoreRule(surveys: OCKDemoSurveys.byTaskID, consentTaskID: OCKDemoSurveys.onboardingTaskID))
            self.store.addRule(OCKFutureEventsRule(calendar: Fixture.calendar, now: { Self.now }))
            func allDay(_ id: String) -> OCKTask {
                let element = OCKScheduleElement(start: Fixture.date(1), end: nil, interval: DateComponents(day: 1), duration: .allDay,
                                                 calendar: Fixture.calendar)
                return OCKTask(id: id, title: id, carePlanUUID: nil, schedule: OCKSchedule(composing: [element]))
            }
            let tasks = try await self.store.addTasks([allDay(OCKDemoSurveys.onboardingTaskID), allDay(OCKDemoSurveys.checkInTaskID),
                                                       Fixture.daily("med")])
            (onboarding, checkIn, med) = (tasks[0], tasks[1], tasks[2])
        }

        /// The signed onboarding of day `day` (occurrence `day - 1`).
        func consent(day: Int = 2) throws -> OCKOutcome {
            OCKOutcome(taskUUID: onboarding.uuid, taskOccurrenceIndex: day - 1,
                       values: try OCKDemoSurveys.signedOnboarding(signerName: "Alex Rivera", at: Fixture.date(day, 9)))
        }

        /// A check-in with answers `pain`, `sleep` and `exercises` on day `day`.
        func checkIn(day: Int, pain: Int) throws -> OCKOutcome {
            var session = OCKSurveySession(survey: OCKDemoSurveys.checkIn)
            if (0...10).contains(pain) {
                try session.record(.answer(.scale(pain)), for: "pain")
                try session.record(.answer(.number(7)), for: "sleep")
                try session.record(.answer(.yesNo(true)), for: "exercises")
                return OCKOutcome(taskUUID: checkIn.uuid, taskOccurrenceIndex: day - 1,
                                  values: try session.finish().outcomeValues(createdDate: Fixture.date(day, 9)))
            }
            var value = OCKOutcomeValue(pain)
            value.kind = "pain"
            var sleep = OCKOutcomeValue(7.0)
            sleep.kind = "sleep"
            var exercises = OCKOutcomeValue(true)
            exercises.kind = "exercises"
            return OCKOutcome(taskUUID: checkIn.uuid, taskOccurrenceIndex: day - 1, values: [value, sleep, exercises])
        }

        /// A medication dose on day `day`.
        func dose(day: Int) -> OCKOutcome { Fixture.done(med, day - 1) }

        /// The next version of `version`: changed by `change`, dated as a device dates it.
        func nextVersion<E: OCKVersionedObjectCompatible>(of version: E, _ change: (inout E) -> Void) -> E {
            var next = version
            next.uuid = UUID()
            next.previousVersionUUIDs = [version.uuid]
            next.nextVersionUUIDs = []
            next.updatedDate = Self.now
            change(&next)
            return next
        }

        /// Pushes `entities` as a device does, under a vector of the device's own process.
        func push(_ entities: [OCKEntity]) async throws {
            let clock = try await store.knowledgeVector()
            var knowledge = clock
            knowledge.merge(with: .init([device: clock.clock(for: device) + 1]))
            try await store.mergeRevisions([OCKRevisionRecord(entities: entities, knowledgeVector: .init([device: knowledge.clock(for: device)]))],
                                           deviceKnowledge: knowledge)
        }

        /// Writes `entities` as a merge `writer` does: a device's push, or CareKit's `mergeRevision(_:)` of one
        /// revision of the device (from a thread of its own, as it blocks), throwing the error it returns.
        func merge(_ entities: [OCKEntity], by writer: Writer) async throws {
            guard writer == .mergeRevision else { return try await push(entities) }
            let clock = try await store.knowledgeVector()
            let record = OCKRevisionRecord(entities: entities, knowledgeVector: .init([device: clock.clock(for: device) + 1]))
            let store = self.store
            if let error = await onThread({ store.mergeRevision(record) }) { throw error }
        }

        /// Writes outcomes with `writer`: as new, as updates of what is there (`current`), or as deletions.
        func add(_ outcomes: [OCKOutcome], by writer: Writer) async throws {
            switch writer {
            case .calls: try await store.addOutcomes(outcomes)
            case .merge, .mergeRevision: try await merge(outcomes.map { .outcome($0) }, by: writer)
            }
        }

        func update(_ current: OCKOutcome, by writer: Writer, _ change: (inout OCKOutcome) -> Void) async throws {
            switch writer {
            case .calls:
                var changed = current
                change(&changed)
                try await store.updateOutcome(changed)
            case .merge, .mergeRevision: try await merge([.outcome(nextVersion(of: current, change))], by: writer)
            }
        }

        func delete(_ current: OCKOutcome, by writer: Writer) async throws {
            switch writer {
            case .calls: try await store.deleteOutcome(current)
            case .merge, .mergeRevision: try await merge([.outcome(nextVersion(of: current) { $0.deletedDate = Self.now })], by: writer)
            }
        }

        func add(_ tasks: [OCKTask], by writer: Writer) async throws {
            switch writer {
            case .calls: try await store.addTasks(tasks)
            case .merge, .mergeRevision: try await merge(tasks.map { .task($0) }, by: writer)
            }
        }

        /// Every version, to see that a refused write left nothing.
        func versions() async throws -> [OCKEntity] { try await allVersions(of: store) }
    }

    /// Expects `write` to be refused for `rule`'s reason (or one of its reasons) and to leave the store unchanged.
    static func expectRefused(_ record: RuledRecord, _ writer: Writer, _ reason: String, _ write: () async throws -> Void,
                              sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let before = try await record.versions()
        let error = await failure(write)
        #expect(error?.isInvalidValue == true && error?.reason.hasPrefix(reason) == true,
                "\(writer): \(String(describing: error)), expected \(reason)", sourceLocation: sourceLocation)
        #expect(try await record.versions() == before, "\(writer) left changes", sourceLocation: sourceLocation)
    }

    static let recordRules: [StoreCheck] = [
        StoreCheck("onboardingComesFirstForEveryWriter") { store in
            for writer in Writer.allCases {
                let record = try await RuledRecord(store)
                defer { try? record.store.reset() }
                let onboardingFirst = OCKSurveyStoreRule.onboardingFirst.reason
                try await expectRefused(record, writer, onboardingFirst) { try await record.add([record.dose(day: 10)], by: writer) }
                try await expectRefused(record, writer, onboardingFirst) { try await record.add([try record.checkIn(day: 10, pain: 3)], by: writer) }
                // Nor is a survey's completion alone an onboarding: the consent is signed or it is not done.
                var marker = OCKOutcomeValue(Fixture.date(2, 9))
                marker.kind = OCKSurveyResult.completedKind
                try await expectRefused(record, writer, "A survey task's outcome comes from its survey") {
                    try await record.add([OCKOutcome(taskUUID: record.onboarding.uuid, taskOccurrenceIndex: 1, values: [marker])], by: writer)
                }
                // With the onboarding in the same write, the plan opens.
                try await record.add([try record.consent(), record.dose(day: 10)], by: writer)
                #expect(try await record.store.fetchOutcomes(query: OCKOutcomeQuery()).count == 2, "\(writer)")
            }
        },
        StoreCheck("theSignedConsentIsKeptFromEveryWriter") { store in
            for writer in Writer.allCases {
                let record = try await RuledRecord(store)
                defer { try? record.store.reset() }
                let consent = try await record.store.addOutcome(try record.consent())
                let kept = OCKSurveyStoreRule.consentKept.reason
                try await expectRefused(record, writer, kept) { try await record.delete(consent, by: writer) }
                try await expectRefused(record, writer, kept) {
                    try await record.update(consent, by: writer) { $0.values[0].kind = "consent.signerName"; $0.values[0].value = "Somebody Else" }
                }
                // Nor deleted by another outcome for its event (a merge keeps the newer one and tombstones the other).
                if writer != .calls {
                    // Newer than the consent by every date the merge compares (the store dates its writes by its clock).
                    var usurper = try record.consent()
                    usurper.createdDate = Date().addingTimeInterval(86_400)
                    usurper.updatedDate = usurper.createdDate
                    try await expectRefused(record, writer, kept) { try await record.add([usurper], by: writer) }
                }
                await #expect(throws: OCKStoreError.self) { try await record.store.deleteTask(record.onboarding) }
            }
        },
        StoreCheck("surveyAnswersAreValidFromEveryWriter") { store in
            for writer in Writer.allCases {
                let record = try await RuledRecord(store)
                defer { try? record.store.reset() }
                try await record.store.addOutcome(try record.consent())
                let fromSurvey = "A survey task's outcome comes from its survey"
                try await expectRefused(record, writer, fromSurvey) { try await record.add([try record.checkIn(day: 10, pain: 99)], by: writer) }
                try await expectRefused(record, writer, fromSurvey) {
                    try await record.add([OCKOutcome(taskUUID: record.checkIn.uuid, taskOccurrenceIndex: 9, values: [OCKOutcomeValue(true)])], by: writer)
                }
                let answered = try await record.store.addOutcome(try record.checkIn(day: 11, pain: 4))
                try await expectRefused(record, writer, fromSurvey) {
                    try await record.update(answered, by: writer) { $0.values[0].value = 99 }
                }
                try await record.add([try record.checkIn(day: 12, pain: 6)], by: writer)
            }
        },
        StoreCheck("eventsStillToComeAreReadOnlyForEveryWriter") { store in
            for writer in Writer.allCases {
                let record = try await RuledRecord(store)
                defer { try? record.store.reset() }
                try await record.store.addOutcome(try record.consent())
                let readOnly = OCKFutureEventsRule.violation.reason
                // Tomorrow's dose, and one ten days ahead; today's is fine (its event is at 08:00, before noon or after).
                try await expectRefused(record, writer, readOnly) { try await record.add([record.dose(day: 17)], by: writer) }
                try await expectRefused(record, writer, readOnly) { try await record.add([record.dose(day: 26)], by: writer) }
                let today = try await record.store.addOutcome(record.dose(day: 16))
                try await expectRefused(record, writer, readOnly) {
                    try await record.update(today, by: writer) { $0.taskOccurrenceIndex = 20 }
                }
                try await record.delete(today, by: writer)
            }
        },
        StoreCheck("planLimitsHoldForEveryWriter") { store in
            for writer in Writer.allCases {
                let record = try await RuledRecord(store)
                defer { try? record.store.reset() }
                // 42 tasks of 48 events a day: each within a schedule's limits, together past the record's.
                let busy = (0..<42).map { index in
                    OCKTask(id: "busy-\(index)", title: nil, carePlanUUID: nil, schedule: OCKSchedule(composing: [
                        OCKScheduleElement(start: Fixture.date(1), end: nil, interval: DateComponents(minute: 30), calendar: Fixture.calendar),
                    ]))
                }
                try await expectRefused(record, writer, OCKStoreLimits.tooManyEventsPerDay) { try await record.add(busy, by: writer) }
                // More tasks than a store holds.
                let many = (0..<OCKStoreLimits.maximumEntitiesOfAKind).map { Fixture.daily("task-\($0)") }
                let before = try await record.versions()
                let error = await failure { try await record.add(many, by: writer) }
                #expect(error?.reason == OCKStoreLimits.tooMany("task"), "\(writer): \(String(describing: error))")
                #expect(try await record.versions() == before)
            }
        },
        StoreCheck("aMergeReportsWhatItChangesForAuthorization") { store in
            let record = try await RuledRecord(store)
            try await record.store.addOutcome(try record.consent())
            let dose = try await record.store.addOutcome(record.dose(day: 10))
            let device = UUID()
            // The kinds of change reach the caller's check before anything is written; its refusal rolls the merge
            // back and reaches the caller as it was thrown.
            let tombstone = record.nextVersion(of: dose) { $0.deletedDate = RuledRecord.now }
            var seen: Set<OCKStoreChange> = []
            do {
                try await record.store.mergeRevisions([OCKRevisionRecord(entities: [.outcome(tombstone), .outcome(record.dose(day: 11)),
                                                                                    .task(record.nextVersion(of: record.med) { $0.title = "Changed" })],
                                                                         knowledgeVector: .init([device: 1]))], deviceKnowledge: nil) { changes in
                    throw ReportedChanges(changes: changes)
                }
            } catch let reported as ReportedChanges {
                seen = reported.changes
            }
            #expect(seen == [OCKStoreChange(.outcome, .delete), OCKStoreChange(.outcome, .add), OCKStoreChange(.task, .update)])
            #expect(try await record.store.fetchOutcomes(query: OCKOutcomeQuery()).count == 2)
        },
        StoreCheck("whatADeviceClaimsToKnowIsBounded") { store in
            let server = try #require(store as? OCKStore)
            var contacts = 0
            /// A push of one new contact under `device`'s next clock, with `knowledge` as the device's.
            func write(_ device: UUID, clock: Int, knowing knowledge: OCKRevisionRecord.KnowledgeVector?) async throws {
                contacts += 1
                var contact = OCKContact(id: "contact-\(contacts)", givenName: "A", familyName: "B", carePlanUUID: nil)
                contact.createdDate = Fixture.date(1)
                try await server.mergeRevisions([OCKRevisionRecord(entities: [.contact(contact)], knowledgeVector: .init([device: clock]))],
                                                deviceKnowledge: knowledge)
            }
            // One process the store does not know is the device's own; two are made up — in its knowledge, or spread
            // over its revisions' vectors.
            let (first, second) = (UUID(), UUID())
            #expect(await failure { try await server.mergeRevisions([], deviceKnowledge: .init([first: 1, second: 1])) }?.isInvalidValue == true)
            #expect(await failure {
                try await server.mergeRevisions([OCKRevisionRecord(entities: [], knowledgeVector: .init([first: 1])),
                                                 OCKRevisionRecord(entities: [], knowledgeVector: .init([second: 1]))], deviceKnowledge: nil)
            }?.isInvalidValue == true)
            // Knowledge alone adds no process: a device joins with its first write.
            let before = try await server.knowledgeVector()
            for _ in 0..<5 { try await server.mergeRevisions([], deviceKnowledge: before.merging([UUID(): 1])) }
            #expect(try await server.knowledgeVector() == before)
            try await write(first, clock: 1, knowing: before.merging([first: 1]))
            #expect(try await server.knowledgeVector().clock(for: first) == 1)

            // A push in parts cut short: its first part's vector is kept though the store has not learnt it. A device
            // that pulled that part knows the first device's clock from it, and is not refused for it.
            try await write(first, clock: 4, knowing: nil)
            var other = try await server.knowledgeVector()
            other.merge(with: .init([first: 4, second: 1]))
            try await write(second, clock: 1, knowing: other)

            // A vector of more processes than a store keeps is refused before anything is read.
            let huge = OCKRevisionRecord.KnowledgeVector(Dictionary(uniqueKeysWithValues: (0...OCKStoreLimits.maximumSyncProcesses).map { _ in (UUID(), 1) }))
            #expect(await failure { try await server.mergeRevisions([], deviceKnowledge: huge) }?.reason.contains("more devices") == true)
            // Devices join one by one up to the limit (the store's own process is one of them), then no more.
            var known = try await server.knowledgeVector()
            while known.processes.count < OCKStoreLimits.maximumSyncProcesses {
                let device = UUID()
                try await write(device, clock: 1, knowing: known.merging([device: 1]))
                known = try await server.knowledgeVector()
            }
            let late = UUID()
            let refused = await failure { try await write(late, clock: 1, knowing: .init([late: 1])) }
            #expect(refused?.reason.contains("\(OCKStoreLimits.maximumSyncProcesses) devices") == true, "\(String(describing: refused))")
            #expect(try await server.knowledgeVector() == known)
            // A known device still writes; a push in parts from a device not known is refused too.
            try await write(first, clock: 5, knowing: known.merging([first: 5]))
            #expect(await failure { try await write(UUID(), clock: 1, knowing: nil) }?.reason.contains("devices") == true)
        },
        StoreCheck("pushesInPartsCannotPassTheBoundOnDevices") { store in
            // Parts of pushes carry no knowledge, so the store learns nothing from them; the vectors their versions
            // are kept under still count: a made-up process each, and the bound holds over what the store keeps.
            let server = try #require(store as? OCKStore)
            var refused: OCKStoreError?
            for index in 0..<OCKStoreLimits.maximumSyncProcesses + 1 {
                var contact = OCKContact(id: "contact-\(index)", givenName: "A", familyName: "B", carePlanUUID: nil)
                contact.createdDate = Fixture.date(1)
                refused = await failure {
                    try await server.mergeRevisions([OCKRevisionRecord(entities: [.contact(contact)], knowledgeVector: .init([UUID(): 1]))],
                                                    deviceKnowledge: nil)
                }
                if refused != nil { break }
            }
            #expect(refused?.reason.contains("\(OCKStoreLimits.maximumSyncProcesses) devices") == true, "\(String(describing: refused))")
            // Every vector a pull serves then names at most that many processes together.
            var served = OCKRevisionRecord.KnowledgeVector()
            for record in try await server.revisions(since: .init(), limit: 100_000).revisions { served.merge(with: record.knowledgeVector) }
            #expect(served.processes.count <= OCKStoreLimits.maximumSyncProcesses)
        },
        StoreCheck("aMergesVersionsBetweenItsCurrentOnesCountToo") { store in
            let record = try await RuledRecord(store)
            try await record.store.addOutcome(try record.consent())
            let device = UUID()
            func push(_ entities: [OCKEntity], authorizing: (@Sendable (Set<OCKStoreChange>) throws -> Void)? = nil) async throws {
                try await record.store.mergeRevisions([OCKRevisionRecord(entities: entities, knowledgeVector: .init([device: 1]))],
                                                      deviceKnowledge: nil, authorizing: authorizing)
            }
            // 42 tasks, each through a busy version in effect today, then a quiet one in a year: today is past the limit.
            var versions: [OCKEntity] = []
            for index in 0..<42 {
                var busy = OCKTask(id: "busy-\(index)", title: nil, carePlanUUID: nil, schedule: OCKSchedule(composing: [
                    OCKScheduleElement(start: Fixture.date(1), end: nil, interval: DateComponents(minute: 30), calendar: Fixture.calendar),
                ]))
                busy.createdDate = Fixture.date(1)
                var quiet = record.nextVersion(of: busy) { $0.schedule = OCKSchedule.dailyAtTime(hour: 8, minutes: 0, start: Fixture.date(1, month: 12),
                                                                                               end: nil, text: nil, calendar: Fixture.calendar) }
                quiet.effectiveDate = Fixture.date(1, month: 12)
                versions += [.task(busy), .task(quiet)]
            }
            let error = await failure { try await push(versions) }
            #expect(error?.reason == OCKStoreLimits.tooManyEventsPerDay, "\(String(describing: error))")
            // The same history of tasks deleted since counts for nothing now (a device's first push of years).
            let history: [OCKEntity] = versions.compactMap { entity in
                guard case let .task(quiet) = entity, quiet.effectiveDate == Fixture.date(1, month: 12) else { return nil }
                return .task(record.nextVersion(of: quiet) { $0.deletedDate = RuledRecord.now })
            }
            try await push(versions + history)
            // An older version filled in (the current one stays) changes the id all the same: authorization sees it.
            let plan = try await record.store.addTask(Fixture.daily("plan"))
            let missing = UUID()
            var after = record.nextVersion(of: plan) { $0.title = "Later" }
            after.previousVersionUUIDs = [plan.uuid, missing]
            var filler = plan
            filler.uuid = missing
            filler.title = "Filled in"
            filler.previousVersionUUIDs = []
            let seen = Mutex<Set<OCKStoreChange>>([])
            // First the later version names an older one the store lacks; then that one comes alone.
            try await push([.task(after)])
            try await push([.task(filler)]) { changes in seen.withLock { $0 = changes } }
            #expect(seen.withLock { $0 } == [OCKStoreChange(.task, .update)])
            // And a second patient is refused as `addPatient` refuses it.
            try await record.store.addPatient(OCKPatient(id: "p1", givenName: "A", familyName: "B"))
            var second = OCKPatient(id: "p2", givenName: "C", familyName: "D")
            second.createdDate = Fixture.date(1)
            #expect(await failure { try await push([.patient(second)]) }?.isAddFailed == true)
        },
    ]
}

/// The changes a merge reported, thrown back out of it.
private struct ReportedChanges: Error {
    let changes: Set<OCKStoreChange>
}

extension OCKRevisionRecord.KnowledgeVector {
    /// The vector with `processes` merged in.
    func merging(_ processes: [UUID: Int]) -> Self {
        var vector = self
        vector.merge(with: .init(processes))
        return vector
    }
}
