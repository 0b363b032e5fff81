import Foundation
import OpenCareKitStore
import OpenCareKitStoreConformance
import Synchronization
import Testing

/// A remote written the CareKit way, with completion closures and a merge closure called from another thread.
final class ClosureRemote: OCKRemoteSynchronizable {
    let server: OCKStore
    private let delegateBox = Mutex<WeakDelegate>(WeakDelegate())
    let automaticallySynchronizes = false

    struct WeakDelegate { weak var value: (any OCKRemoteSynchronizationDelegate)? }

    init(server: OCKStore) { self.server = server }

    var delegate: (any OCKRemoteSynchronizationDelegate)? {
        get { delegateBox.withLock { $0.value } }
        set { delegateBox.withLock { $0.value = newValue } }
    }

    func pullRevisions(since knowledgeVector: OCKRevisionRecord.KnowledgeVector, mergeRevision: @escaping (OCKRevisionRecord) -> Void,
                       completion: @escaping @Sendable ((any Error)?) -> Void) {
        nonisolated(unsafe) let merge = mergeRevision
        Task {
            do {
                let page = try await server.revisions(since: knowledgeVector, limit: 100_000)
                DispatchQueue.global().async {
                    for record in page.revisions { merge(record) }
                    merge(OCKRevisionRecord(entities: [], knowledgeVector: page.knowledge ?? .init()))
                    completion(nil)
                }
            } catch {
                completion(error)
            }
        }
    }

    func pushRevisions(deviceRevisions: [OCKRevisionRecord], deviceKnowledge: OCKRevisionRecord.KnowledgeVector,
                       completion: @escaping @Sendable ((any Error)?) -> Void) {
        Task {
            do {
                try await server.mergeRevisions(deviceRevisions, deviceKnowledge: deviceKnowledge)
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }
}

@Suite struct SyncTests {
    static func task(_ id: String) -> OCKTask {
        SyncWorld.task(id)
    }

    @Test func synchronizingWithoutARemoteFails() async throws {
        let store = OCKStore(name: "alone", type: .inMemory)
        await #expect(throws: OCKStoreError.remoteSynchronizationFailed(reason: "The store has no remote to synchronize with")) {
            try await store.synchronize()
        }
    }

    @Test func theStoreIsItsRemotesDelegate() {
        let remote = StoreRemote(server: OCKStore(name: "server", type: .inMemory))
        let store = OCKStore(name: "device", type: .inMemory, directory: nil, remote: remote)
        #expect(remote.delegate === store)
        #expect(store.remote === remote)
    }

    /// CareKit completes a sync whose push failed as a success; here it fails, and the next sync sends it again.
    @Test func aRefusedPushFailsTheSynchronizationAndTheNextOneSendsItAgain() async throws {
        let server = OCKStore(name: "server", type: .inMemory)
        let remote = StoreRemote(server: server)
        let device = OCKStore(name: "device", type: .inMemory, directory: nil, remote: remote)
        try await device.addTask(Self.task("med"))
        remote.failPushes(1)
        await #expect(throws: OCKStoreError.remoteSynchronizationFailed(reason: "The server refused the push (test)")) {
            try await device.synchronize()
        }
        #expect(try await server.fetchTasks(query: OCKTaskQuery()).isEmpty)
        try await device.synchronize()
        #expect(try await server.fetchTasks(query: OCKTaskQuery()).map(\.id) == ["med"])
        // Nothing left to tell: the next sync pulls and does not push.
        let pushes = remote.calls.pushes
        try await device.synchronize()
        #expect(remote.calls.pushes == pushes)
    }

    /// The remote is asked about each conflict; a choice other than the newest is appended after the default
    /// resolution, and reaches the server with the next push.
    @Test func theRemoteChoosesHowAConflictEnds() async throws {
        let server = OCKStore(name: "server", type: .inMemory)
        let remotes = [StoreRemote(server: server), StoreRemote(server: server)]
        let a = OCKStore(name: "a", type: .inMemory, directory: nil, remote: remotes[0])
        let b = OCKStore(name: "b", type: .inMemory, directory: nil, remote: remotes[1])
        let task = try await a.addTask(Self.task("med"))
        try await a.synchronize()
        try await b.synchronize()
        var edit = task
        edit.title = "First"
        try await a.updateTask(edit)
        edit.title = "Second"
        try await b.updateTask(edit)
        try await a.synchronize()
        // b's remote keeps the oldest edit.
        remotes[1].choose { conflicts in conflicts.min { ($0.value.updatedDate ?? .distantPast) < ($1.value.updatedDate ?? .distantPast) }! }
        try await b.synchronize()
        #expect(remotes[1].asked.count == 1)
        #expect(Set(remotes[1].asked.first?.compactMap { entity -> String? in
            if case let .task(task) = entity { task.title } else { nil }
        } ?? []) == ["First", "Second"])
        #expect(try await b.fetchTask(withID: "med").title == "First")
        try await a.synchronize()
        for replica in [server, a] { #expect(try await replica.fetchTask(withID: "med").title == "First") }
    }

    /// (It waits for the server's live query: a sync that never comes would hang it, hence the limit.)
    @Test(.timeLimit(.minutes(1))) func aRemoteThatSynchronizesAutomaticallyGetsEachWrite() async throws {
        let server = OCKStore(name: "server", type: .inMemory)
        let device = OCKStore(name: "device", type: .inMemory, directory: nil,
                              remote: StoreRemote(server: server, automaticallySynchronizes: true))
        var updates = server.tasks(matching: OCKTaskQuery()).makeAsyncIterator()
        #expect(try await updates.next()?.isEmpty == true)
        try await device.addTask(Self.task("med"))
        while let tasks = try await updates.next(), tasks.isEmpty {}
        #expect(try await server.fetchTasks(query: OCKTaskQuery()).map(\.id) == ["med"])
    }

    @Test func aRemoteWrittenWithCareKitsClosuresSynchronizes() async throws {
        let server = OCKStore(name: "server", type: .inMemory)
        let a = OCKStore(name: "a", type: .inMemory, directory: nil, remote: ClosureRemote(server: server))
        let b = OCKStore(name: "b", type: .inMemory, directory: nil, remote: ClosureRemote(server: server))
        let task = try await a.addTask(Self.task("med"))
        try await a.addOutcome(OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: 0, values: [OCKOutcomeValue(true)]))
        try await a.synchronize()
        try await b.synchronize()
        #expect(try await allVersions(of: b) == (try await allVersions(of: a)))
        #expect(try await b.fetchOutcomes(query: OCKOutcomeQuery()).count == 1)
    }

    /// A pull serves vectors in the order a merge wrote them, so the records of one merge go out in their own order: a
    /// record's outcomes never come before the earlier record that holds their task (a merge that numbered vectors
    /// kind by kind put the later record first, for its patient, and a device pulling it in two transactions could
    /// not merge the outcomes).
    @Test func theRecordsOfOneMergeAreServedInTheirOrder() async throws {
        let device = UUID()
        let task = Self.task("med")
        let outcome = OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: 0, values: [OCKOutcomeValue(true)])
        let first = OCKRevisionRecord(entities: [.task(task)], knowledgeVector: .init([device: 1]))
        let second = OCKRevisionRecord(entities: [.patient(OCKPatient(id: "alex", givenName: "Alex", familyName: "Rivera")),
                                                  .outcome(outcome)],
                                       knowledgeVector: .init([device: 2]))
        let server = OCKStore(name: "server", type: .inMemory)
        try await server.mergeRevisions([first, second], deviceKnowledge: .init([device: 2]))
        let served = try await server.revisions(since: .init(), limit: 100)
        #expect(served.revisions.map(\.knowledgeVector) == [first.knowledgeVector, second.knowledgeVector])
        #expect(served.revisions.map { $0.entities.map(\.uuid) } == [[task.uuid], [second.entities[0].uuid, outcome.uuid]])
    }

    /// A push in parts (`OCKHTTPRemote` splits a large one, a record's versions over several parts under its vector)
    /// merged on the server while another device pulls between the parts: that device learns the vector from the
    /// first part, so the versions the later parts bring under it must reach it under a vector it does not know.
    @Test func versionsALaterPartOfAPushBringsReachADeviceThatPulledBetweenTheParts() async throws {
        let server = OCKStore(name: "server", type: .inMemory)
        let device = UUID()
        let vector = OCKRevisionRecord.KnowledgeVector([device: 1])
        let (a, b) = (Self.task("a"), Self.task("b"))
        try await server.mergeRevisions([OCKRevisionRecord(entities: [.task(a)], knowledgeVector: vector)], deviceKnowledge: nil)
        let other = OCKStore(name: "other", type: .inMemory, directory: nil, remote: StoreRemote(server: server))
        try await other.synchronize()
        #expect(try await other.fetchTasks(query: OCKTaskQuery()).map(\.id) == ["a"])
        try await server.mergeRevisions([OCKRevisionRecord(entities: [.task(b)], knowledgeVector: vector)], deviceKnowledge: vector)
        try await other.synchronize()
        #expect(try await other.fetchTasks(query: OCKTaskQuery()).map(\.id).sorted() == ["a", "b"])
        #expect(try await allVersions(of: other) == (try await allVersions(of: server)))
    }

    /// A pull cut off after a record was merged keeps that record (merging is idempotent) but not the remote's
    /// knowledge, so the next pull sends the rest.
    @Test func aPullCutOffMidwayIsCompletedByTheNextOne() async throws {
        let server = OCKStore(name: "server", type: .inMemory)
        for id in ["a", "b", "c", "d"] { try await server.addTask(Self.task(id)) }
        let remote = StoreRemote(server: server, pageSize: 1)
        let device = OCKStore(name: "device", type: .inMemory, directory: nil, remote: remote)
        remote.injectFault(.dropsAfterFirstRecord)
        await #expect(throws: OCKStoreError.self) { try await device.synchronize() }
        #expect(try await device.knowledgeVector().processes.count == 1)
        try await device.synchronize()
        #expect(try await device.fetchTasks(query: OCKTaskQuery()).map(\.id).sorted() == ["a", "b", "c", "d"])
        #expect(try await allVersions(of: device) == (try await allVersions(of: server)))
    }

    @Test func aLargeBacklogIsSealedInSeveralTransactionsAndServedWhole() async throws {
        // 25 versions written before anyone synchronized: a task and 24 outcomes.
        let server = OCKStore(name: "server", type: .inMemory)
        let task = try await server.addTask(Self.task("walk"))
        try await server.addOutcomes((0..<24).map { OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: $0, values: [OCKOutcomeValue(true)]) })
        let page = try await server.revisions(since: .init(), after: nil, limit: 1_000, sealingAtMost: 10)
        // Sealed ten at a time: three vectors, one record each, every version once.
        #expect(page.revisions.count == 3)
        #expect(page.revisions.map(\.entities.count) == [10, 10, 5])
        #expect(Set(page.revisions.flatMap(\.entities).map(\.uuid)).count == 25)
        let knowledge = try #require(page.knowledge)
        #expect(knowledge == (try await server.knowledgeVector()))
        // The clock starts at 1 and moved on once per transaction.
        #expect(knowledge.processes.values.sorted() == [4])
        // Nothing is left to seal: the next page is a read, and a device gets everything.
        #expect(try await server.revisions(since: knowledge).revisions.isEmpty)
        let device = OCKStore(name: "device", type: .inMemory, directory: nil, remote: StoreRemote(server: server, pageSize: 4))
        try await device.synchronize()
        #expect(try await allVersions(of: device) == (try await allVersions(of: server)))
    }
}

/// A pull reads the store's knowledge vectors from the first one its device may not know, so that its cost follows
/// what changed since the device's last pull, not the store's whole history (issue 38, finding 3).
@Suite struct PullCostTests {
    /// A store holding `count` vectors: one device's pushes, each a record of one outcome under its own clock.
    static func server(vectors count: Int, device: UUID) async throws -> (OCKStore, OCKTask) {
        let server = OCKStore(name: "server", type: .inMemory)
        let start = Calendar.current.date(byAdding: .day, value: -(count + 10), to: Date())!
        let task = try await server.addTask(OCKTask(id: "walk", title: "Walk", carePlanUUID: nil,
                                                    schedule: .dailyAtTime(hour: 9, minutes: 0, start: start, end: nil, text: nil)))
        // The task's own version is sealed under the server's first vector.
        _ = try await server.revisions(since: .init())
        let records = (1...count).map { clock in
            OCKRevisionRecord(entities: [.outcome(OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: clock, values: [OCKOutcomeValue(true)]))],
                              knowledgeVector: .init([device: clock]))
        }
        try await server.mergeRevisions(records, deviceKnowledge: .init([device: count]))
        return (server, task)
    }

    static func occurrences(_ page: OCKRevisionPage) -> Set<Int> {
        Set(page.revisions.flatMap(\.entities).compactMap { entity in
            if case let .outcome(outcome) = entity { outcome.taskOccurrenceIndex } else { nil }
        })
    }

    @Test func aDeviceThatIsUpToDateReadsOnlyTheLastVectors() async throws {
        let device = UUID()
        let (server, _) = try await Self.server(vectors: 600, device: device)
        let knowledge = try await server.knowledgeVector()
        #expect(try await server.revisions(since: knowledge).revisions.isEmpty)
        // 601 vectors (the server's, then the device's 600): the index's checkpoints are every 256, so the pull starts
        // after the 512th and reads at most 89 of them.
        #expect(try await server.firstVectorRead(since: knowledge) == 513)
        // A device that knows nothing reads them all.
        #expect(try await server.firstVectorRead(since: .init()) == 0)
    }

    @Test func aDeviceBehindGetsExactlyWhatItMissed() async throws {
        let device = UUID()
        let (server, _) = try await Self.server(vectors: 600, device: device)
        let full = try await server.knowledgeVector()
        var behind = full
        behind.processes[device] = 300
        // It knows the first checkpoint (the server's vector and the device's first 255), not the second.
        #expect(try await server.firstVectorRead(since: behind) == 257)
        let page = try await server.revisions(since: behind, limit: 10_000)
        #expect(Self.occurrences(page) == Set(301...600))
        #expect(page.knowledge == full)
    }

    @Test func aResetStoreIsIndexedAfresh() async throws {
        let device = UUID()
        let (server, _) = try await Self.server(vectors: 300, device: device)
        let old = try await server.knowledgeVector()
        #expect(try await server.firstVectorRead(since: old) == 257)
        try server.reset()
        let task = try await server.addTask(OCKTask(id: "walk", title: "Walk", carePlanUUID: nil,
                                                    schedule: .dailyAtTime(hour: 9, minutes: 0, start: Date(timeIntervalSinceNow: -86_400 * 5),
                                                                           end: nil, text: nil)))
        try await server.addOutcome(OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: 1, values: [OCKOutcomeValue(true)]))
        // The old device's knowledge names none of the reset store's vectors: it gets everything, none skipped.
        let page = try await server.revisions(since: old)
        #expect(Self.occurrences(page) == [1])
        #expect(try await server.firstVectorRead(since: old) == 0)
    }
}
