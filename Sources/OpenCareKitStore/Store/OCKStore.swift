import Foundation
import Synchronization

/// CareKitStore's store: patients, care plans, contacts, tasks and outcomes, versioned and kept in SQLite.
///
/// Same API and semantics as CareKit's `OCKStore`: every call is one transaction (all or nothing), updates append
/// versions, deletes append tombstones, queries with a date interval return the version in effect then. Events are
/// computed from the task versions and joined with their outcomes.
///
/// On disk, each store is one SQLite file, `<directory>/<name>.sqlite`, created with mode 0600 in a directory of mode
/// 0700. The directory is the one passed to
/// `init(name:type:directory:securityApplicationGroupIdentifier:remote:clock:uuids:)`, or by default
/// `$OPENCAREKIT_DATA_DIR`, else `$XDG_DATA_HOME/opencarekit`, else `~/.local/share/opencarekit`.
///
/// **Durability.** The file is in WAL mode with `synchronous = FULL`: when a call returns, its transaction is in the
/// write-ahead log and the log has been flushed to disk with `fsync`, so an acknowledged write survives the process
/// being killed and the machine losing power. (The test suite kills a writer with SIGKILL at random moments and checks
/// every acknowledged write and `PRAGMA integrity_check`.)
///
/// For example:
/// ```swift
/// let store = OCKStore(name: "care", type: .inMemory)
/// let schedule = OCKSchedule.dailyAtTime(hour: 8, minutes: 0, start: Date(), end: nil, text: nil)
/// try await store.addTask(OCKTask(id: "ibuprofen", title: "Ibuprofen", carePlanUUID: nil, schedule: schedule))
///
/// // Today's events; record the first one as done.
/// let events = try await store.fetchEvents(query: OCKEventQuery(for: Date()))
/// if let event = events.first {
///     try await store.addOutcome(OCKOutcome(taskUUID: event.task.uuid,
///                                           taskOccurrenceIndex: event.scheduleEvent.occurrence,
///                                           values: [OCKOutcomeValue(true)]))
/// }
///
/// // A live query: today's events now, then again after every change to them.
/// for try await events in store.events(matching: OCKEventQuery(for: Date())) {
///     print(events.filter { $0.outcome != nil }.count, "of", events.count, "done")
/// }
/// ```
public final class OCKStore: Sendable {
    /// Where a store keeps its data (CareKit's `OCKCoreDataStoreType`).
    public typealias StoreType = OCKCoreDataStoreType

    /// The store's name (its file name on disk, without `.sqlite`).
    public let name: String
    /// Where the store keeps its data.
    public let storeType: StoreType
    /// Accepted for CareKit compatibility; app groups do not exist on Linux.
    public let securityApplicationGroupIdentifier: String?

    let clock: @Sendable () -> Date
    /// Where the uuids of the versions the store appends come from (time-ordered by default).
    let newUUID: @Sendable () -> UUID
    let cache = DecodedEntityCache()
    /// Where a pull starts reading the store's knowledge vectors.
    let knowledgeIndex = SyncKnowledgeIndex()
    let changes = StoreChanges()
    /// The app's rules every write passes (`addRule(_:)`).
    let rules = StoreRules()
    /// Where the data is kept (SQLite here; PostgreSQL in OpenCareKitPostgres).
    package let engine: any OCKStoreEngine
    /// Where `synchronize()` sends and gets versions.
    public let remote: (any OCKRemoteSynchronizable)?
    let synchronization = SynchronizationRuns()
    private let reporting = Mutex<OCKStoreDiagnostics?>(nil)

    /// Where the store reports each call's duration and its slow calls; nil (the default) reports nothing.
    public var diagnostics: OCKStoreDiagnostics? {
        get { reporting.withLock { $0 } }
        set { reporting.withLock { $0 = newValue } }
    }

    /// CareKit's initializer. The store opens on first use; errors (a file from a newer OpenCareKit, a file that is
    /// not a store) are thrown by the first call.
    public convenience init(name: String, securityApplicationGroupIdentifier: String? = nil, type: StoreType = .onDisk()) {
        self.init(name: name, type: type, directory: nil, securityApplicationGroupIdentifier: securityApplicationGroupIdentifier)
    }

    /// A store in `directory` (the default data directory when nil), with an injectable clock for the dates the
    /// store stamps (created, updated, deleted) and an injectable source of the uuids of the versions it appends
    /// (time-ordered, version 7, when nil; sync converges whatever their order, which the tests check).
    public convenience init(name: String, type: StoreType = .onDisk(), directory: URL?,
                            securityApplicationGroupIdentifier: String? = nil, remote: (any OCKRemoteSynchronizable)? = nil,
                            clock: @escaping @Sendable () -> Date = { Date() },
                            uuids: (@Sendable () -> UUID)? = nil) {
        let engine: SQLiteEngine
        switch type {
        case .inMemory:
            engine = SQLiteEngine(fileURL: nil)
        case .onDisk:
            do {
                engine = SQLiteEngine(fileURL: try StoreFile.url(name: name, directory: directory ?? StoreFile.defaultDirectory()))
            } catch {
                engine = SQLiteEngine(fileURL: nil, directoryError: error)
            }
        }
        self.init(name: name, type: type, engine: engine, securityApplicationGroupIdentifier: securityApplicationGroupIdentifier,
                  remote: remote, clock: clock, uuids: uuids)
    }

    /// A store in memory whose SQLite engine is seen through `wrap` (the tests put faults in front of it).
    package static func inMemory(name: String, wrapping wrap: (any OCKStoreEngine) -> any OCKStoreEngine) -> OCKStore {
        OCKStore(name: name, type: .inMemory, engine: wrap(SQLiteEngine(fileURL: nil)))
    }

    /// A store kept by `engine` (OpenCareKitPostgres makes its stores this way).
    package init(name: String, type: StoreType, engine: any OCKStoreEngine, securityApplicationGroupIdentifier: String? = nil,
                 remote: (any OCKRemoteSynchronizable)? = nil, clock: @escaping @Sendable () -> Date = { Date() },
                 uuids: (@Sendable () -> UUID)? = nil) {
        self.name = name
        storeType = type
        self.securityApplicationGroupIdentifier = securityApplicationGroupIdentifier
        self.clock = clock
        newUUID = uuids ?? { UUID.timeOrdered() }
        self.engine = engine
        self.remote = remote
        remote?.delegate = self
    }

    /// The SQLite file, for stores kept in one.
    public var fileURL: URL? { engine.fileURL }

    /// A store that only reads the existing file `<directory>/<name>.sqlite`, through one read-only connection: it
    /// writes nothing to the file, not even on opening (a writing store's connection pool does, to set up the
    /// write-ahead log), so the file's size and time still tell whether anyone wrote since. Its writes fail.
    ///
    /// The first call throws if the file is absent or its schema is not this version's (a writing store migrates it).
    public static func reading(name: String, directory: URL) -> OCKStore {
        let engine: SQLiteEngine
        do {
            engine = SQLiteEngine(fileURL: try StoreFile.url(name: name, directory: directory), readOnly: true)
        } catch {
            engine = SQLiteEngine(fileURL: nil, directoryError: error, readOnly: true)
        }
        return OCKStore(name: name, type: .onDisk(), engine: engine)
    }

    /// Opens the store now instead of on first use, so problems with its data surface here.
    ///
    /// - Throws: `OCKStoreError` if the file was written by a newer OpenCareKit, is not an OpenCareKit store, or
    ///   cannot be created or read.
    public func open() throws {
        try engine.open()
    }

    /// Deletes the store: its data and, on disk, its files. The store can be used again afterwards and starts empty.
    public func delete() throws {
        try engine.delete()
        cache.removeAll()
        changes.publish(.all)
    }

    /// Removes every entity and version, keeping the store (and its file) in place.
    public func reset() throws {
        do {
            try engine.writeSynchronously { db in
                for table in Self.entityTables {
                    try await db.execute("DELETE FROM \(table)")
                }
            }
        } catch let error as OCKStoreError {
            throw error
        } catch let error as SQLFailure {
            throw Self.serverSide(error)
        } catch {
            throw OCKStoreError.resetFailed(reason: engine.describe(error))
        }
        cache.removeAll()
        changes.publish(.all)
    }

    /// Runs the engine's integrity check (SQLite's `PRAGMA integrity_check`): `["ok"]` for a sound store, otherwise
    /// the problems it found.
    public func checkIntegrity() throws -> [String] {
        try engine.checkIntegrity()
    }

    /// The tables of the store's entities, children first, and its sync clock.
    package static let entityTables = StoredTable.store.reversed().map(\.name) + ["sync_clock"]

    // MARK: - Transactions

    /// Runs `body` in one write transaction and announces the change to live queries after it commits; then, for
    /// the app's writes (`synchronizes`), starts a synchronization if the remote synchronizes automatically.
    func write<T: Sendable>(_ kinds: StoreChanges.Kinds, failure: @escaping @Sendable (String) -> OCKStoreError,
                            synchronizes: Bool = true,
                            function: String = #function,
                            _ body: @escaping @Sendable (any SQLDatabase, Date) async throws -> T) async throws -> T {
        let now = clock()
        let result: T
        let store = ObjectIdentifier(self)
        do {
            try Self.refuseReentry(store)
            result = try await measured(function, isWrite: true) {
                try await engine.write { db in try await Self.$transactionOwner.withValue(store) { try await body(db, now) } }
            }
        } catch let error as OCKStoreError {
            throw error
        } catch let refusal as AuthorizationRefusal {
            // The caller's own check refused the write: its error, as it threw it.
            throw refusal.error
        } catch let error as SQLFailure where error.kind != .uniqueViolation && error.kind != .foreignKeyViolation {
            // The database's trouble, not the call's: unreachable or contended (try again), or failing.
            throw Self.serverSide(error)
        } catch {
            // What the call asked for cannot be: an id that exists, a row it names that does not, an invalid value.
            throw failure(engine.describe(error))
        }
        changes.publish(kinds)
        if synchronizes, !kinds.isEmpty { synchronizeAutomatically() }
        return result
    }

    /// Runs `body` in a read transaction.
    func read<T: Sendable>(function: String = #function, _ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let store = ObjectIdentifier(self)
        do {
            try Self.refuseReentry(store)
            return try await measured(function, isWrite: false) {
                try await engine.read { db in try await Self.$transactionOwner.withValue(store) { try await body(db) } }
            }
        } catch let error as OCKStoreError {
            throw error
        } catch let error as SQLFailure {
            throw Self.serverSide(error)
        } catch {
            // A read fails only when what is stored cannot be read back: the server's fault, never "not found".
            throw StorageFaultError(reason: engine.describe(error))
        }
    }

    /// The store whose transaction the current task's work runs in: a rule (`OCKStoreRule`) or a transaction's body
    /// that called the same store again would wait for ever — for the connection the transaction holds (SQLite's
    /// writer, PostgreSQL's record lock) — so such a call is refused instead.
    @TaskLocal static var transactionOwner: ObjectIdentifier?

    /// Throws when the current task is inside a transaction of `store` (a rule that reads through the store rather
    /// than its `OCKStoreRuleContext`).
    private static func refuseReentry(_ store: ObjectIdentifier) throws {
        if transactionOwner == store {
            throw OCKStoreError.invalidValue(reason: "A store rule read the store it guards: read through the rule's context instead")
        }
    }

    /// Runs `call`, reporting its duration to the diagnostics, if any (failed calls too: a slow failure is slow).
    private func measured<T>(_ function: String, isWrite: Bool, _ call: () async throws -> T) async throws -> T {
        guard let diagnostics else { return try await call() }
        let start = ContinuousClock.now
        defer { diagnostics.record(function, isWrite: isWrite, duration: ContinuousClock.now - start) }
        return try await call()
    }

    /// A database failure as the caller sees it: `StorageUnavailableError` when it may pass (unreachable, contended),
    /// else `StorageFaultError`.
    static func serverSide(_ error: SQLFailure) -> any Error {
        switch error.kind {
        case .unavailable, .conflict: StorageUnavailableError(reason: error.description)
        default: StorageFaultError(reason: error.description)
        }
    }
}

extension OCKStore: Equatable {
    /// CareKit's equality: two stores are equal when they have the same name and store type (and here, being in
    /// one file, the same file when on disk). Two in-memory stores of one name are equal though they hold
    /// different data; `===` tells instances apart.
    public static func == (lhs: OCKStore, rhs: OCKStore) -> Bool {
        lhs.name == rhs.name && lhs.storeType == rhs.storeType && lhs.fileURL == rhs.fileURL
    }
}

/// Where a store keeps its data. The name is CareKit's, kept for source compatibility (there is no Core Data here).
public enum OCKCoreDataStoreType: Equatable, Sendable {
    /// In memory; gone when the store is released.
    case inMemory
    /// In an SQLite file. `protection` is accepted for CareKit compatibility and has no effect on Linux, where the
    /// file is protected by its mode (0600) instead.
    case onDisk(protection: FileProtectionType = .complete)

    public static func == (lhs: OCKCoreDataStoreType, rhs: OCKCoreDataStoreType) -> Bool {
        switch (lhs, rhs) {
        case (.inMemory, .inMemory): true
        case let (.onDisk(left), .onDisk(right)): left.rawValue == right.rawValue
        default: false
        }
    }
}

/// Tells live queries that the store changed, after each committed write.
final class StoreChanges: Sendable {
    /// What changed.
    struct Kinds: OptionSet, Sendable, Hashable {
        let rawValue: Int
        static let patients = Kinds(rawValue: 1)
        static let carePlans = Kinds(rawValue: 2)
        static let contacts = Kinds(rawValue: 4)
        static let tasks = Kinds(rawValue: 8)
        static let outcomes = Kinds(rawValue: 16)
        static let healthKitTasks = Kinds(rawValue: 32)
        static let all: Kinds = [.patients, .carePlans, .contacts, .tasks, .outcomes, .healthKitTasks]
    }

    /// A subscriber's changes since it last looked, and the signal that there are some. Changes that arrive while a
    /// live query is refetching are merged into one pending set, so a burst of writes costs one more fetch, and no
    /// kind of change is dropped.
    private final class Subscriber: Sendable {
        let pending = Mutex<Kinds>([])
        let signal: AsyncStream<Void>.Continuation
        init(signal: AsyncStream<Void>.Continuation) { self.signal = signal }
    }

    private let subscribers = Mutex<[UUID: Subscriber]>([:])
    private let published = Mutex(0)

    /// How many changes have been published.
    var count: Int { published.withLock { $0 } }

    /// A subscription: `signals` yields when something changed (one pending signal at most), `take()` returns and
    /// clears what changed since the last call, `cancel()` ends it.
    struct Subscription: Sendable {
        let signals: AsyncStream<Void>
        let take: @Sendable () -> Kinds
        let cancel: @Sendable () -> Void
    }

    func subscribe() -> Subscription {
        let id = UUID()
        let (signals, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let subscriber = Subscriber(signal: continuation)
        subscribers.withLock { $0[id] = subscriber }
        return Subscription(
            signals: signals,
            take: {
                subscriber.pending.withLock { pending in
                    defer { pending = [] }
                    return pending
                }
            },
            cancel: { [weak self] in
                let removed = self?.subscribers.withLock { $0.removeValue(forKey: id) }
                removed?.signal.finish()
            })
    }

    func publish(_ kinds: Kinds) {
        published.withLock { $0 += 1 }
        for subscriber in subscribers.withLock({ Array($0.values) }) {
            subscriber.pending.withLock { $0.formUnion(kinds) }
            subscriber.signal.yield()
        }
    }
}
