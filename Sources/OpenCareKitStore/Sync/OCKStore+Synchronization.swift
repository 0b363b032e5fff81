import Foundation
import Synchronization

/// A page of the revisions a remote has not seen (`OCKStore.revisions(since:after:limit:)`). JSON:
/// `{"revisions": [OCKRevisionRecord…], "next": "…"}` on pages before the last, `{"revisions": […], "knowledge": {…}}`
/// on the last.
public struct OCKRevisionPage: Codable, Hashable, Sendable {
    /// Revision records, oldest first; a vector larger than a page comes as several records.
    public var revisions: [OCKRevisionRecord]
    /// Where the next page starts (pass it as `after`); nil on the last page.
    public var next: String?
    /// On the last page, the store's knowledge: everything it holds under this vector has been sent. The puller
    /// merges it once it has every page (CareKit's remotes send it as a last record with no entities).
    public var knowledge: OCKRevisionRecord.KnowledgeVector?

    /// A page of `revisions`; `next` on every page but the last, `knowledge` on the last.
    public init(revisions: [OCKRevisionRecord], next: String?, knowledge: OCKRevisionRecord.KnowledgeVector?) {
        self.revisions = revisions
        self.next = next
        self.knowledge = knowledge
    }
}

extension OCKStore {
    /// CareKit's initializer with a remote: the store becomes the remote's delegate, and `synchronize()` syncs with it.
    public convenience init(name: String, securityApplicationGroupIdentifier: String? = nil, type: StoreType = .onDisk(),
                            remote: (any OCKRemoteSynchronizable)?) {
        self.init(name: name, type: type, directory: nil, securityApplicationGroupIdentifier: securityApplicationGroupIdentifier,
                  remote: remote)
    }

    /// Synchronizes with the remote (CareKit's `synchronize()`): pulls what the store does not know and merges it,
    /// lets the remote choose how conflicts end, then pushes what the remote does not know. A push the remote
    /// refuses fails the synchronization (CareKit reports it as a success); nothing is lost, the next synchronization
    /// sends it again.
    ///
    /// One synchronization runs at a time: a call while one runs waits for it and then runs another (calls that
    /// arrive meanwhile share that one), so what was written before the call is always pushed by the time it returns.
    ///
    /// - Throws: `OCKStoreError.remoteSynchronizationFailed` without a remote, or the remote's error, or
    ///   `OCKStoreError.invalidValue` for a revision the store refuses (nothing of that revision is kept).
    public func synchronize() async throws {
        guard let remote else {
            throw OCKStoreError.remoteSynchronizationFailed(reason: "The store has no remote to synchronize with")
        }
        try await synchronization.run { try await self.pullThenPush(remote) }
    }

    /// `synchronize()` with a completion closure, as in CareKit.
    public func synchronize(completion: @escaping @Sendable ((any Error)?) -> Void) {
        _Concurrency.Task {
            do {
                try await synchronize()
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }

    /// The store's knowledge vector: what it knows of each process that wrote to it. Its own process is made on first
    /// use.
    public func knowledgeVector() async throws -> OCKRevisionRecord.KnowledgeVector {
        // A read, unless the clock is still to be made.
        if let clock = try await read({ db in try await SyncKnowledge.existingClock(db) }) { return clock.vector }
        return try await write([], failure: OCKStoreError.remoteSynchronizationFailed, synchronizes: false) { db, _ in
            try await SyncKnowledge.clock(db).vector
        }
    }

    // MARK: - The serving side

    /// The revisions a remote whose knowledge is `remote` has not seen, a page at a time: what a server answers to a
    /// device's pull. Pass each page's `next` as `after` for the next one; the last page carries the store's
    /// knowledge.
    ///
    /// Versions written here since the last synchronization are first given a new vector (the store's clock moves
    /// on, so they are new to everyone who learned its knowledge before); otherwise this only reads.
    ///
    /// - Throws: `OCKStoreError.invalidValue` for a cursor this store did not make, or a vector that knows more of
    ///   this store's own writes than it made (`SyncKnowledge.requireNotAhead`).
    public func revisions(since remote: OCKRevisionRecord.KnowledgeVector, after cursor: String? = nil,
                          limit: Int = 5_000) async throws -> OCKRevisionPage {
        try await revisions(since: remote, after: cursor, limit: limit, sealingAtMost: Self.versionsSealedPerTransaction)
    }

    /// The first id of the store's knowledge vectors a pull for `remote` reads (`SyncKnowledgeIndex`): every vector
    /// below it is known to the remote. Zero before the first synchronization.
    package func firstVectorRead(since remote: OCKRevisionRecord.KnowledgeVector) async throws -> Int64 {
        let index = knowledgeIndex
        return try await read { db in
            guard let clock = try await SyncKnowledge.existingClock(db) else { return 0 }
            return try await index.start(for: remote, clock: clock, db)
        }
    }

    /// How many versions one transaction seals when a page is served: a record with more (written before sync
    /// existed, or by a burst of imports) is sealed in several, so that no writer waits for the whole of it (a
    /// million versions took 9 s in one transaction).
    package static let versionsSealedPerTransaction = 20_000

    package func revisions(since remote: OCKRevisionRecord.KnowledgeVector, after cursor: String?, limit: Int,
                           sealingAtMost sealLimit: Int) async throws -> OCKRevisionPage {
        let start = try cursor.map { text in
            guard let parsed = SyncKnowledge.Cursor(text) else {
                throw OCKStoreError.invalidValue(reason: "The page cursor is not one this store made")
            }
            return parsed
        }
        let (cache, index) = (self.cache, self.knowledgeIndex)
        let page: @Sendable (any SQLDatabase, SyncKnowledge.Clock, Bool) async throws -> OCKRevisionPage = { db, clock, committed in
            try SyncKnowledge.requireNotAhead(remote, of: clock)
            // A later page resumes at its cursor; the first skips the vectors the remote already knows (the index
            // learns only from reads of committed data, not from a write that may roll back).
            let known = await start == nil ? try index.start(for: remote, clock: clock, db, publishing: committed) : 0
            let (records, next) = try await SyncKnowledge.revisions(since: remote, after: start, limit: limit, known: known, db, cache: cache)
            return OCKRevisionPage(revisions: records, next: next?.text, knowledge: next == nil ? clock.vector : nil)
        }
        // A read, unless versions written here wait for their vector (or the clock is still to be made): they are
        // sealed first, `sealLimit` per transaction. Writes arriving all along could keep that going; after a
        // thousand rounds (twenty million versions at the default) the rest is sealed in the transaction that reads
        // the page.
        for _ in 0..<1_000 {
            if let result = try await read({ db -> OCKRevisionPage? in
                guard let clock = try await SyncKnowledge.existingClock(db), try await !SyncKnowledge.hasUnsealed(db) else { return nil }
                return try await page(db, clock, true)
            }) {
                return result
            }
            _ = try await write([], failure: OCKStoreError.remoteSynchronizationFailed, synchronizes: false) { db, _ in
                try await SyncKnowledge.seal(db, limit: sealLimit)
            }
        }
        return try await write([], failure: OCKStoreError.remoteSynchronizationFailed, synchronizes: false) { db, _ in
            try await page(db, try SyncKnowledge.seal(db), false)
        }
    }

    /// Merges the revisions a device pushed, and the device's knowledge, in one transaction: what a server does with
    /// a device's push. Conflicts are resolved the default way (`OCKEntity.newest(of:)`). A push in parts sends the
    /// knowledge with the last part only (nil before): the store learns it once it holds every version. Versions a
    /// later part brings under a vector an earlier part brought are kept under that vector with this store's clock
    /// moved on, so that a device that pulled between the parts, and learned the vector, gets them too.
    ///
    /// The merge passes the store's rules and limits as any other write does (`addRule(_:)`), over the net change of
    /// each id it touches; `authorize` (the server's check of who pushes) gets the kinds of change it makes — outcomes
    /// added, tasks deleted … — and throws to refuse them. Whatever refuses, nothing is merged.
    ///
    /// What a device may claim to know is bounded (`OCKStoreLimits.maximumSyncProcesses`): a push's vectors together
    /// may be ahead of what this store has heard for one process only (the device's own; every other clock it knows,
    /// it learned here), the store hears of at most that many processes, and a device joins its knowledge with its
    /// first write (a push of knowledge alone adds no process).
    ///
    /// - Throws: `OCKStoreError.invalidValue`, with nothing merged, for a revision that fails validation or a rule,
    ///   links versions of different ids, or claims knowledge the device's knowledge does not include or this store
    ///   cannot have given, or when the device knows more of this store's own writes than it made; whatever
    ///   `authorize` throws.
    public func mergeRevisions(_ revisions: [OCKRevisionRecord], deviceKnowledge: OCKRevisionRecord.KnowledgeVector?,
                               authorizing authorize: (@Sendable (Set<OCKStoreChange>) throws -> Void)? = nil) async throws {
        if let deviceKnowledge {
            for revision in revisions where !revision.knowledgeVector.isKnown(by: deviceKnowledge) {
                throw OCKStoreError.invalidValue(reason: "A revision's knowledge vector is ahead of the device's knowledge")
            }
        }
        let vectors = [deviceKnowledge].compactMap({ $0 }) + revisions.map(\.knowledgeVector)
        for vector in vectors { try SyncKnowledge.requireBounded(vector) }
        let kinds = StoreChanges.Kinds(revisions.flatMap(\.entities).map(\.changeKind))
        let (cache, rules) = (self.cache, self.rules)
        try await write(kinds, failure: OCKStoreError.remoteSynchronizationFailed, synchronizes: false) { db, now in
            let clock = try await SyncKnowledge.clock(db)
            var union = OCKRevisionRecord.KnowledgeVector()
            for vector in vectors {
                try SyncKnowledge.requireNotAhead(vector, of: clock)
                union.merge(with: vector)
            }
            try await SyncKnowledge.requireOneNewProcess(union, beyond: clock, db)
            let merged = try await SyncMerge.merge(revisions, renewingKnownVectors: true, db, cache: cache, rules: rules, now: now, authorize: authorize)
            if let deviceKnowledge { try await SyncKnowledge.learn(deviceKnowledge, joining: !merged.changed.isEmpty, db) }
        }
    }

    /// One revision merged as a pull merges it, under the store's rules, and its vector learned (`mergeRevision(_:)`).
    func mergePulled(_ revision: OCKRevisionRecord) async throws {
        try SyncKnowledge.requireBounded(revision.knowledgeVector)
        let kinds = StoreChanges.Kinds(revision.entities.map(\.changeKind))
        let (cache, rules) = (self.cache, self.rules)
        try await write(kinds, failure: OCKStoreError.remoteSynchronizationFailed, synchronizes: false) { db, now in
            try await SyncKnowledge.requireNotAhead(revision.knowledgeVector, of: try SyncKnowledge.clock(db))
            _ = try await SyncMerge.merge([revision], db, cache: cache, rules: rules, now: now)
            try await SyncKnowledge.learn(revision.knowledgeVector, db)
        }
    }

    // MARK: - Synchronizing with the remote

    private func pullThenPush(_ remote: any OCKRemoteSynchronizable) async throws {
        let local = try await knowledgeVector()
        let merging = PulledRevisions(store: self)
        if let remote = remote as? any OCKAsyncRemoteSynchronizable {
            try await remote.pullRevisions(since: local) { record in try await merging.merge(record) }
            try await merging.flush()
        } else {
            let queue = merging.queue()
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                remote.pullRevisions(since: local, mergeRevision: { queue.add($0) }, completion: { error in
                    queue.finish()
                    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                })
            }
            try await queue.drained()
        }
        let (remoteKnowledge, conflicts) = merging.result
        if !conflicts.isEmpty {
            // What the remote has is known here once every page of it was merged; then the remote chooses.
            try await write([], failure: OCKStoreError.remoteSynchronizationFailed, synchronizes: false) { db, _ in
                try await SyncKnowledge.learn(remoteKnowledge, db)
            }
            for conflict in conflicts.prefix(Self.conflictsAskedPerSynchronization) {
                try await ask(remote, about: conflict)
            }
        }
        // Everything the remote does not know, with the store's knowledge (the clock moves on first if versions
        // were written here since the last synchronization).
        let (revisions, knowledge) = try await write([], failure: OCKStoreError.remoteSynchronizationFailed,
                                                     synchronizes: false) { [cache] db, _ in
            try await SyncKnowledge.learn(remoteKnowledge, db)
            let clock = try await SyncKnowledge.seal(db)
            var records: [OCKRevisionRecord] = []
            var cursor: SyncKnowledge.Cursor?
            repeat {
                let page = try await SyncKnowledge.revisions(since: remoteKnowledge, after: cursor, limit: 50_000, db, cache: cache)
                records += page.records
                cursor = page.next
            } while cursor != nil
            return (records, clock.vector)
        }
        // Nothing to tell a remote that has every version this store has (its knowledge of this store's own clock
        // would change nothing it does).
        guard !revisions.isEmpty else { return }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            remote.pushRevisions(deviceRevisions: revisions, deviceKnowledge: knowledge) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    /// How many of a pull's conflicts the remote is asked about; the rest keep the default choice (a bound on the
    /// work one synchronization does for conflicts).
    static let conflictsAskedPerSynchronization = 1_000

    /// Asks the remote to choose between the versions of a conflict; a choice other than the default one is appended
    /// after the default, unless the entity changed since.
    private func ask(_ remote: any OCKRemoteSynchronizable, about conflict: SyncConflict) async throws {
        let choice = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<OCKEntity, any Error>) in
            remote.chooseConflictResolution(conflicts: conflict.tips) { result in continuation.resume(with: result) }
        }
        guard choice.uuid != OCKEntity.newest(of: conflict.tips)?.uuid else { return }
        guard choice.entityType == conflict.resolution.entityType, choice.id == conflict.resolution.id else {
            throw OCKStoreError.remoteSynchronizationFailed(reason: "The remote chose a version of another entity to resolve a conflict")
        }
        let cache = self.cache
        try await write(StoreChanges.Kinds([choice.changeKind]), failure: OCKStoreError.remoteSynchronizationFailed,
                        synchronizes: false) { db, _ in
            try await SyncMerge.append(choice, after: conflict.resolution, db, cache: cache)
        }
    }

    /// Merges pulled revision records, in order, in one transaction.
    ///
    /// A pull copies what the remote holds, which the remote's own rules decided: the store's rules are not asked
    /// (a rule that depends on order, as onboarding first, could refuse a part of a pull for good — a large pull comes
    /// in transactions, in the remote's order — and the device would never catch up). What the device writes itself,
    /// and pushes, passes them.
    fileprivate func merge(_ records: [OCKRevisionRecord]) async throws -> [SyncConflict] {
        let kinds = StoreChanges.Kinds(records.flatMap(\.entities).map(\.changeKind))
        let cache = self.cache
        return try await write(kinds, failure: OCKStoreError.remoteSynchronizationFailed, synchronizes: false) { db, _ in
            try await SyncMerge.merge(records, db, cache: cache).conflicts
        }
    }
}

extension OCKStore: OCKRemoteSynchronizationDelegate {
    /// Synchronizes when the remote asks, if it synchronizes automatically (as CareKit).
    public func didRequestSynchronization(_ remote: any OCKRemoteSynchronizable) {
        synchronizeAutomatically()
    }

    /// Progress is the remote's to report; the store has nothing to do with it.
    public func remote(_ remote: any OCKRemoteSynchronizable, didUpdateProgress progress: Double) {}

    /// Starts a synchronization after a write, if the remote synchronizes automatically. A failure is dropped: the
    /// next synchronization sends the same again.
    func synchronizeAutomatically() {
        guard let remote, remote.automaticallySynchronizes else { return }
        _Concurrency.Task { try? await synchronization.run { try await self.pullThenPush(remote) } }
    }
}

extension OCKEntity {
    var changeKind: StoreChanges.Kinds {
        switch self {
        case .patient: .patients
        case .carePlan: .carePlans
        case .contact: .contacts
        case .task: .tasks
        case .healthKitTask: .healthKitTasks
        case .outcome: .outcomes
        }
    }
}

/// The records of one pull as they are merged: gathered into transactions of up to `batch` versions, what the remote
/// knows (their vectors), and the conflicts they brought.
private final class PulledRevisions: Sendable {
    let store: OCKStore
    static let batch = 2_000

    private struct State {
        var knowledge = OCKRevisionRecord.KnowledgeVector()
        var conflicts: [SyncConflict] = []
        var waiting: [OCKRevisionRecord] = []
        var waitingVersions = 0
    }

    private let state = Mutex(State())

    init(store: OCKStore) {
        self.store = store
    }

    var result: (knowledge: OCKRevisionRecord.KnowledgeVector, conflicts: [SyncConflict]) {
        state.withLock { ($0.knowledge, $0.conflicts) }
    }

    /// Takes a record; merges what waits once it holds a batch.
    func merge(_ record: OCKRevisionRecord) async throws {
        let full = state.withLock { state in
            state.knowledge.merge(with: record.knowledgeVector)
            if !record.entities.isEmpty {
                state.waiting.append(record)
                state.waitingVersions += record.entities.count
            }
            return state.waitingVersions >= Self.batch
        }
        if full { try await flush() }
    }

    /// Merges the records that wait, in one transaction.
    func flush() async throws {
        let records = state.withLock { state in
            defer { (state.waiting, state.waitingVersions) = ([], 0) }
            return state.waiting
        }
        guard !records.isEmpty else { return }
        let conflicts = try await store.merge(records)
        state.withLock { $0.conflicts += conflicts }
    }

    /// A queue for CareKit's merge closure, which cannot wait: records are merged in order as they come; the first
    /// failure stops the rest.
    func queue() -> MergeQueue { MergeQueue(self) }
}

private final class MergeQueue: Sendable {
    private let continuation: AsyncStream<OCKRevisionRecord>.Continuation
    private let worker: Task<Void, any Error>

    init(_ pulled: PulledRevisions) {
        let (records, continuation) = AsyncStream<OCKRevisionRecord>.makeStream()
        self.continuation = continuation
        worker = Task {
            for await record in records { try await pulled.merge(record) }
            try await pulled.flush()
        }
    }

    func add(_ record: OCKRevisionRecord) { continuation.yield(record) }
    func finish() { continuation.finish() }

    /// Waits until every record added has been merged; throws the first failure.
    func drained() async throws {
        continuation.finish()
        try await worker.value
    }
}

/// Runs one synchronization at a time: a call while one runs waits for it, then runs one more, shared by every call
/// that arrives before it starts.
final class SynchronizationRuns: Sendable {
    private struct State {
        var last: Task<Void, Never>?
        var waiting: Task<Void, any Error>?
    }

    private let state = Mutex(State())

    func run(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let run = state.withLock { state -> Task<Void, any Error> in
            if let waiting = state.waiting { return waiting }
            let before = state.last
            let run = Task {
                await before?.value
                self.state.withLock { $0.waiting = nil }
                try await body()
            }
            state.waiting = run
            state.last = Task { _ = await run.result }
            return run
        }
        try await run.value
    }
}
