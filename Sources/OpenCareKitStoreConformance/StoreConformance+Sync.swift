import Foundation
@testable import OpenCareKitStore
import Testing

extension StoreConformance {
    static let sync: [StoreCheck] = [
        StoreCheck("revisionsHoldWhatTheRemoteHasNotSeen") { store in
            let store = try #require(store as? OCKStore)
            // A store's own clock starts at 1.
            let start = try await store.knowledgeVector()
            let process = try #require(start.uuids.first)
            #expect(start == .init([process: 1]))
            let task = try await store.addTask(Fixture.daily("med"))
            let outcome = try await store.addOutcome(Fixture.done(task, 0))
            // A remote that knows nothing gets both, as one revision written under {me: 2}: the clock moved on first,
            // as what was written since the store last handed out its knowledge is new to whoever holds that.
            let first = try await store.revisions(since: .init())
            let sealed = OCKRevisionRecord.KnowledgeVector([process: 2])
            #expect(first.knowledge == sealed && first.next == nil)
            #expect(first.revisions.map(\.knowledgeVector) == [sealed])
            #expect(first.revisions.first?.entities.map(\.uuid) == [task.uuid, outcome.uuid])
            // Each entity whole, as a fetch gives it: an outcome with its values.
            #expect(first.revisions.first?.entities == [.task(try await store.fetchTask(withID: "med")),
                                                        .outcome(try #require(try await store.fetchOutcomes(query: OCKOutcomeQuery()).first))])
            #expect(try await store.knowledgeVector() == sealed)
            // A remote that knows {me: 2} has seen them; nothing new was written, so the clock stays.
            #expect(try await store.revisions(since: sealed) == OCKRevisionPage(revisions: [], next: nil, knowledge: sealed))
            // What is written after is newer than anything a remote was told: an update and a delete come alone.
            var renamed = task
            renamed.title = "Ibuprofen"
            renamed.effectiveDate = Fixture.date(2)
            let second = try await store.updateTask(renamed)
            let tombstone = try await store.deleteOutcome(outcome)
            let next = try await store.revisions(since: sealed)
            #expect(next.knowledge == .init([process: 3]))
            #expect(next.revisions.map(\.knowledgeVector) == [.init([process: 3])])
            #expect(next.revisions.first?.entities.map(\.uuid) == [second.uuid, tombstone.uuid])
            #expect(next.revisions.first?.entities.last?.value.deletedDate != nil)
            // A remote that knows only another device has seen none of them; one ahead on this store's clock, all.
            let stranger = try await store.revisions(since: .init([UUID(): 7]))
            #expect(stranger.revisions.map(\.knowledgeVector) == [sealed, .init([process: 3])])
            #expect(stranger.revisions.flatMap(\.entities).count == 4)
            // A remote that knows more of this store's writes than it made is refused (a store restored from an
            // older copy would otherwise write versions that remote believes it has seen).
            #expect(await failure { _ = try await store.revisions(since: .init([process: 99])) }?.isInvalidValue == true)
            #expect(await failure {
                try await store.mergeRevisions([], deviceKnowledge: .init([process: 99]))
            }?.isInvalidValue == true)
            // A reset store starts again as a new process that knows nothing.
            try store.reset()
            let again = try await store.knowledgeVector()
            #expect(again.processes.count == 1 && again.uuids.first != process && again.processes.values.first == 1)
            #expect(try await store.revisions(since: .init()).revisions.isEmpty)
        },
    ]
}

extension StoreConformance {
    /// Runs CareKit's blocking sync steps (`computeRevisions(since:)`, `mergeRevision(_:)`) off the concurrency
    /// pool, as CareKit's callers do from a thread of their own.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    /// `store.computeRevisions(since:)`, from a thread of its own.
    static func computeRevisions(_ store: OCKStore, since vector: OCKRevisionRecord.KnowledgeVector) async throws -> [OCKRevisionRecord] {
        try await onThread { Result { try store.computeRevisions(since: vector) } }.get()
    }

    /// CareKit's callback forms on this store: each delivers on the given queue what the async form gives.
    static let careKitCallbackForms: [StoreCheck] = [
        StoreCheck("careKitsCallbackFormsDeliverWhatTheAsyncFormsGive") { store in
            let store = try #require(store as? OCKStore)
            let queue = DispatchQueue(label: "conformance.callbacks")
            let task = Fixture.daily("med")
            let added: Result<OCKTask, OCKStoreError> = await withCheckedContinuation { continuation in
                store.addTask(task, callbackQueue: queue) { continuation.resume(returning: $0) }
            }
            #expect(try added.get().id == "med")
            let fetched: Result<[OCKTask], OCKStoreError> = await withCheckedContinuation { continuation in
                store.fetchTasks(query: OCKTaskQuery(), callbackQueue: queue) { continuation.resume(returning: $0) }
            }
            #expect(try fetched.get().map(\.uuid) == (try await store.fetchTasks(query: OCKTaskQuery())).map(\.uuid))
            // A refusal arrives as the operation's error, in the callback.
            let again: Result<[any OCKAnyTask], OCKStoreError> = await withCheckedContinuation { continuation in
                store.addAnyTasks([task], callbackQueue: queue) { continuation.resume(returning: $0) }
            }
            #expect({ if case .failure(.addFailed) = again { true } else { false } }())
        },
    ]

    /// CareKit's two sync steps on this store: the revisions a remote lacks, and one revision merged.
    static let careKitSyncSteps: [StoreCheck] = [
        StoreCheck("careKitsComputeRevisionsAndMergeRevision") { store in
            let store = try #require(store as? OCKStore)
            #expect(try await computeRevisions(store, since: .init()).isEmpty)
            // What was written is one record for a remote that knows nothing, and nothing for one that knows it all;
            // in it, CareKit's order: by kind, and in a kind the latest updated first.
            let task = try await store.addTask(Fixture.daily("med"))
            var retitled = task
            retitled.title = "Ibuprofen"
            let second = try await store.updateTask(retitled)
            let outcome = try await store.addOutcome(Fixture.done(second, 0))
            let all = try await computeRevisions(store, since: .init())
            #expect(all.count == 1 && all.first?.entities.map(\.uuid) == [second.uuid, task.uuid, outcome.uuid])
            let knowledge = try await store.knowledgeVector()
            #expect(try await computeRevisions(store, since: knowledge).isEmpty)
            // A deletion's tombstone leads its record.
            let tombstone = try await store.deleteOutcome(outcome)
            let deletion = try await computeRevisions(store, since: knowledge)
            #expect(deletion.first?.entities.first?.uuid == tombstone.uuid && deletion.first?.entities.first?.value.deletedDate != nil)

            // A new task from another device, kept with its own dates, and the device's knowledge learned.
            let device = UUID()
            var walk = Fixture.daily("walk")
            walk.uuid = UUID()
            walk.createdDate = Fixture.date(3)
            walk.updatedDate = walk.createdDate
            let added = OCKRevisionRecord(entities: [.task(walk)], knowledgeVector: .init([device: 1]))
            #expect(await onThread { store.mergeRevision(added) } == nil)
            #expect(try await store.fetchTask(withID: "walk").createdDate == Fixture.date(3))
            #expect(try await store.knowledgeVector().clock(for: device) == 1)
            // Its next version, effective later, becomes the version in effect then.
            var renamed = walk
            renamed.uuid = UUID()
            renamed.title = "Evening walk"
            renamed.effectiveDate = Fixture.date(5)
            renamed.createdDate = Fixture.date(4)
            renamed.updatedDate = renamed.createdDate
            renamed.previousVersionUUIDs = [walk.uuid]
            let next = OCKRevisionRecord(entities: [.task(renamed)], knowledgeVector: .init([device: 2]))
            #expect(await onThread { store.mergeRevision(next) } == nil)
            var query = OCKTaskQuery(for: Fixture.date(6))
            query.ids = ["walk"]
            #expect(try await store.fetchTasks(query: query).map(\.title) == ["Evening walk"])
            // A remote that knows that device has seen its versions, not this store's.
            let deviceKnows = OCKRevisionRecord.KnowledgeVector([device: 2])
            let lacking = try await computeRevisions(store, since: deviceKnows)
            #expect(Set(lacking.flatMap(\.entities).map(\.uuid)) == [task.uuid, outcome.uuid, tombstone.uuid, second.uuid])
            // A revision the store refuses (a version linking another id's) merges nothing and says why.
            var forged = Fixture.daily("other")
            forged.previousVersionUUIDs = [walk.uuid]
            let forgedRecord = OCKRevisionRecord(entities: [.task(forged)], knowledgeVector: .init([device: 3]))
            let refused = await onThread { store.mergeRevision(forgedRecord) }
            #expect((refused as? OCKStoreError)?.isInvalidValue == true, "\(String(describing: refused))")
            #expect(try await store.fetchTasks(query: OCKTaskQuery()).contains { $0.id == "other" } == false)
            // A record that several devices' versions came in together (a server relaying them) merges whole: a
            // pull's step is not a push, which may bring one new device only.
            let relayed = (0..<3).map { index in
                var contact = OCKContact(id: "relayed-\(index)", givenName: "R", familyName: "\(index)", carePlanUUID: nil)
                contact.uuid = UUID()
                return OCKEntity.contact(contact)
            }
            let many = OCKRevisionRecord(entities: relayed, knowledgeVector: .init([UUID(): 1, UUID(): 4, UUID(): 2]))
            #expect(await onThread { store.mergeRevision(many) } == nil)
            #expect(try await store.fetchContacts(query: OCKContactQuery()).filter { $0.id.hasPrefix("relayed-") }.count == 3)
        },
    ]

    /// Two devices (in-memory stores) synchronizing through the store under test as their server.
    static func devices(_ server: OCKStore, automatic: Bool = false) -> (a: OCKStore, b: OCKStore, remotes: [StoreRemote]) {
        let remotes = [StoreRemote(server: server, pageSize: 3), StoreRemote(server: server, pageSize: 3)]
        return (OCKStore(name: "a", type: .inMemory, directory: nil, remote: remotes[0]),
                OCKStore(name: "b", type: .inMemory, directory: nil, remote: remotes[1]), remotes)
    }

    /// a, b, then a again synchronize; every replica then holds the server's versions, which are returned.
    static func syncAndCompare(_ server: OCKStore, _ a: OCKStore, _ b: OCKStore) async throws -> [OCKEntity] {
        try await a.synchronize()
        try await b.synchronize()
        try await a.synchronize()
        let versions = try await allVersions(of: server)
        #expect(try await allVersions(of: a) == versions)
        #expect(try await allVersions(of: b) == versions)
        return versions
    }

    static let serving: [StoreCheck] = [
        StoreCheck("devicesConvergeThroughThisStoreAsTheirServer") { store in
            let server = try #require(store as? OCKStore)
            let (a, b, _) = devices(server)
            let task = try await a.addTask(Fixture.daily("med"))
            let first = try await a.addOutcome(Fixture.done(task, 0))
            try await a.synchronize()
            try await b.synchronize()
            #expect(try await b.fetchTask(withID: "med") == task)
            #expect(try await b.fetchOutcomes(query: OCKOutcomeQuery()).map(\.uuid) == [first.uuid])
            // Apart: both rename the task (b last), a deletes the first dose, b records the second.
            var renamed = task
            renamed.title = "From a"
            renamed.effectiveDate = Fixture.date(2)
            try await a.updateTask(renamed)
            renamed.title = "From b"
            try await b.updateTask(renamed)
            try await a.deleteOutcome(first)
            let second = try await b.addOutcome(Fixture.done(try await b.fetchTask(withID: "med"), 1))
            let versions = try await syncAndCompare(server, a, b)
            // The newest edit stands, after both; the delete and the new dose reached everyone.
            for replica in [server, a, b] {
                let current = try await replica.fetchTask(withID: "med")
                #expect(current.title == "From b")
                #expect(current.previousVersionUUIDs.count == 2)
                #expect(try await replica.fetchOutcomes(query: OCKOutcomeQuery()).map(\.uuid) == [second.uuid])
            }
            // Synchronizing again changes nothing.
            try await b.synchronize()
            #expect(try await allVersions(of: server) == versions)
        },
        StoreCheck("healthKitTasksOfACareKitDeviceAreKeptVersionedAndSynchronized") { store in
            let server = try #require(store as? OCKStore)
            let (a, b, _) = devices(server)
            // A task and a HealthKit task may share an id (CareKit keeps them as entities of their own).
            let linkage = OCKHealthKitLinkage(quantityIdentifier: "HKQuantityTypeIdentifierStepCount", quantityType: .cumulative,
                                              unitString: "count")
            let steps = try #require(try await a.addHealthKitTasks([
                OCKHealthKitTask(id: "steps", title: "Walk", carePlanUUID: nil, schedule: Fixture.daily("steps").schedule,
                                 healthKitLinkage: linkage),
            ]).first)
            #expect(steps.schemaVersion == OCKSemanticVersion.stamped && steps.createdDate != nil)
            let task = try await a.addTask(Fixture.daily("steps"))
            try await a.synchronize()
            try await b.synchronize()
            #expect(try await b.fetchHealthKitTasks(query: OCKTaskQuery(id: "steps")) == [steps])
            #expect(try await b.fetchTasks(query: OCKTaskQuery(id: "steps")) == [task])
            #expect(try await server.fetchHealthKitTasks(query: OCKTaskQuery(dateInterval: Fixture.day(3))) == [steps])
            // Apart: both change the goal's unit (b last); the newest stands everywhere, after both.
            var changed = steps
            changed.effectiveDate = Fixture.date(2)
            changed.healthKitLinkage.unitString = "km"
            try await a.updateHealthKitTasks([changed])
            changed.healthKitLinkage.quantityIdentifier = "HKQuantityTypeIdentifierDistanceWalkingRunning"
            try await b.updateHealthKitTasks([changed])
            _ = try await syncAndCompare(server, a, b)
            var later = OCKTaskQuery(dateInterval: Fixture.day(3))
            later.ids = ["steps"]
            for replica in [server, a, b] {
                let current = try await replica.fetchHealthKitTasks(query: later)
                #expect(current.map(\.healthKitLinkage) == [changed.healthKitLinkage])
                #expect(current.first?.previousVersionUUIDs.count == 2)
                #expect(try await replica.fetchTasks(query: OCKTaskQuery(id: "steps")) == [task])
            }
            // A delete on one device reaches the others.
            try await a.deleteHealthKitTasks(try await a.fetchHealthKitTasks(query: later))
            _ = try await syncAndCompare(server, a, b)
            #expect(try await b.fetchHealthKitTasks(query: OCKTaskQuery(id: "steps")).isEmpty)
            #expect(try await server.fetchHealthKitTasks(query: later).isEmpty)
            // An invalid one pushed is refused whole, as any entity.
            var blank = steps
            blank.uuid = UUID()
            blank.previousVersionUUIDs = []
            blank.healthKitLinkage.unitString = "\u{7}"
            let device = OCKRevisionRecord.KnowledgeVector([UUID(): 1])
            let before = try await allVersions(of: server)
            #expect(await failure {
                try await server.mergeRevisions([OCKRevisionRecord(entities: [.healthKitTask(blank)], knowledgeVector: device)],
                                                deviceKnowledge: device)
            }?.isInvalidValue == true)
            #expect(try await allVersions(of: server) == before)
        },
        StoreCheck("anEventRecordedOnTwoDevicesKeepsTheNewerOutcome") { store in
            let server = try #require(store as? OCKStore)
            let (a, b, _) = devices(server)
            let task = try await a.addTask(Fixture.daily("med"))
            try await a.synchronize()
            try await b.synchronize()
            let older = try await a.addOutcome(Fixture.done(task, 0))
            var newer = Fixture.done(task, 0)
            newer.values = [OCKOutcomeValue(false)]
            newer = try await b.addOutcome(newer)
            let versions = try await syncAndCompare(server, a, b)
            for replica in [server, a, b] {
                let current = try await replica.fetchOutcomes(query: OCKOutcomeQuery(dateInterval: Fixture.day(1)))
                #expect(current.map(\.uuid) == [newer.uuid])
            }
            // The older one is kept, deleted by a tombstone after it.
            #expect(versions.contains { $0.uuid == older.uuid })
            #expect(versions.contains { $0.value.previousVersionUUIDs == [older.uuid] && $0.value.deletedDate != nil })
        },
        StoreCheck("pullsComeInPagesThatHoldEveryVersionOnce") { store in
            let server = try #require(store as? OCKStore)
            for index in 0..<6 {
                let task = try await server.addTask(Fixture.daily("task \(index)"))
                try await server.addOutcomes((0..<3).map { Fixture.done(task, $0) })
            }
            let all = try await allVersions(of: server)
            #expect(all.count == 24)
            var seen: [UUID] = []
            var cursor: String?
            var pages = 0
            var knowledge: OCKRevisionRecord.KnowledgeVector?
            repeat {
                let page = try await server.revisions(since: .init(), after: cursor, limit: 5)
                #expect(page.revisions.flatMap(\.entities).count <= 5)
                seen += page.revisions.flatMap(\.entities).map(\.uuid)
                #expect((page.next == nil) == (page.knowledge != nil))
                knowledge = page.knowledge
                cursor = page.next
                pages += 1
            } while cursor != nil && pages < 20
            #expect(pages == 5)
            #expect(seen.count == 24 && Set(seen) == Set(all.map(\.uuid)))
            #expect(knowledge == (try await server.knowledgeVector()))
            // A cursor the store did not make is refused.
            #expect(await failure { _ = try await server.revisions(since: .init(), after: "7.9.x") }?.isInvalidValue == true)
        },
        StoreCheck("badRevisionsAreRefusedWithNothingMerged") { store in
            let server = try #require(store as? OCKStore)
            let device = UUID()
            let knowledge = OCKRevisionRecord.KnowledgeVector([device: 3])
            func push(_ entities: [OCKEntity], vector: OCKRevisionRecord.KnowledgeVector? = nil) async -> OCKStoreError? {
                await failure {
                    try await server.mergeRevisions([OCKRevisionRecord(entities: entities, knowledgeVector: vector ?? knowledge)],
                                                   deviceKnowledge: knowledge)
                }
            }
            var task = Fixture.daily("med")
            task.createdDate = Fixture.date(1)
            task.updatedDate = Fixture.date(1)
            var blank = Fixture.daily(" ")
            blank.uuid = UUID()
            // A valid task with an invalid one: neither is kept.
            #expect(await push([.task(task), .task(blank)])?.isInvalidValue == true)
            // An update that replaces a version of another id.
            var other = Fixture.daily("walk")
            other.previousVersionUUIDs = [task.uuid]
            #expect(await push([.task(task), .task(other)])?.isInvalidValue == true)
            // Versions that replace each other in a cycle.
            var first = Fixture.daily("cycle"), second = Fixture.daily("cycle")
            first.previousVersionUUIDs = [second.uuid]
            second.previousVersionUUIDs = [first.uuid]
            #expect(await push([.task(first), .task(second)])?.isInvalidValue == true)
            // An outcome of a task version the store does not have.
            #expect(await push([.outcome(Fixture.done(Fixture.daily("absent"), 0))])?.isInvalidValue == true)
            // A revision written under more than the device says it knows.
            #expect(await push([.task(task)], vector: .init([device: 4]))?.isInvalidValue == true)
            // One uuid for two different versions.
            var twin = task
            twin.title = "Twin"
            #expect(await push([.task(task), .task(twin)])?.isInvalidValue == true)
            #expect(try await allVersions(of: server).isEmpty)
            // The same task alone is taken, with its dates as written; pushed twice, it is there once.
            #expect(await push([.task(task)]) == nil)
            #expect(await push([.task(task)]) == nil)
            #expect(try await allVersions(of: server).map(\.uuid) == [task.uuid])
            let kept = try await server.fetchTask(withID: "med")
            #expect(kept.createdDate == Fixture.date(1) && kept.updatedDate == Fixture.date(1))
            #expect(try await server.knowledgeVector().clock(for: device) == 3)
        },
    ]
}
