import Foundation
import Logging
import NIOCore
import NIOPosix
import OpenCareKitDirectory
import OpenCareKitStore
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Every care record, and the directory beside them, in one PostgreSQL database shared by any number of app servers.
///
/// Each record's store is an `OCKStore` (the same API, semantics and conformance suite as on SQLite) whose rows carry
/// the record's id and are guarded by row-level security. Writes to one record are serialized across every server
/// (a row lock on the record's state); other records' writes go on in parallel. After each commit, the servers
/// following that record are told through LISTEN/NOTIFY, so their live pages update.
///
/// `run()` (a service-lifecycle `Service`) runs the connection pool and the listening connection; stores and the
/// directory work while it runs. For example:
/// ```swift
/// let records = try PostgresCareRecords(url: "postgres://opencarekit@db.internal/opencarekit", logger: logger)
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { try await records.run() }
///     try await records.migrate()
///     let store = records.store(forRecord: "r1")
///     try await store.addTask(task)
/// }
/// ```
public final class PostgresCareRecords: Service, CareRecordStores, Sendable {
    /// The database these records are in (its ``PostgresAddress/description`` names it without the password).
    public let address: PostgresAddress
    let client: PostgresClient
    let connectionWait: Duration
    let health = PostgresHealth()
    let logger: Logger
    let followers = RecordFollowers()

    /// The channel of the commit notifications; a payload is `<engine> <record>`.
    static let channel = "opencarekit_changes"

    /// The pool's size unless told: `opencarekit serve --database-connections`.
    public static let defaultMaximumConnections = 16

    /// The records in the database a URL names. Nothing connects until ``PostgresCareRecords/run()``.
    ///
    /// For example:
    /// ```swift
    /// let records = try PostgresCareRecords(url: "postgres://opencarekit@db.internal/opencarekit",
    ///                                       maximumConnections: 32, connectionWait: .seconds(2))
    /// ```
    ///
    /// - Parameters:
    ///   - url: The database, as `postgres://user[:password]@host[:port]/database` (see ``PostgresAddress``).
    ///   - maximumConnections: The most connections this process opens, at least 2 (one of them listens for other
    ///     servers' commits): ``PostgresCareRecords/defaultMaximumConnections`` unless told. Each transaction under
    ///     way holds one, and no thread while it waits for PostgreSQL: this is also the most transactions under way
    ///     at once.
    ///   - connectionWait: The longest a call waits for a connection (all in use, or the database down or
    ///     restarting): 5 seconds unless told; then it fails with `StorageUnavailableError`, having changed nothing.
    ///   - limits: How long a statement may wait for a lock, run, or leave its transaction idle
    ///     (``PostgresSessionLimits``; its defaults unless told).
    ///   - logger: Where this type's warnings go (`opencarekit.postgres` unless told). PostgresNIO's own messages
    ///     go there too, but only at error level and above.
    /// - Throws: ``PostgresAddressError`` for a URL that cannot be used.
    public convenience init(url: String, maximumConnections: Int = defaultMaximumConnections, connectionWait: Duration = .seconds(5),
                            limits: PostgresSessionLimits = .init(), logger: Logger = Logger(label: "opencarekit.postgres")) throws {
        self.init(address: try PostgresAddress(url: url), maximumConnections: maximumConnections, connectionWait: connectionWait,
                  limits: limits, logger: logger)
    }

    /// The records in the database at `address`. Nothing connects until ``PostgresCareRecords/run()``; each new
    /// connection allows 5 seconds to connect.
    ///
    /// - Parameters:
    ///   - address: The database.
    ///   - maximumConnections: The most connections this process opens, at least 2 (one of them listens for other
    ///     servers' commits): ``PostgresCareRecords/defaultMaximumConnections`` unless told. This is also the most
    ///     transactions under way at once.
    ///   - connectionWait: The longest a call waits for a connection: 5 seconds unless told; then it fails with
    ///     `StorageUnavailableError`, having changed nothing.
    ///   - limits: How long a statement may wait for a lock, run, or leave its transaction idle
    ///     (``PostgresSessionLimits``; its defaults unless told).
    ///   - logger: Where this type's warnings go (`opencarekit.postgres` unless told). PostgresNIO's own messages
    ///     go there too, but only at error level and above.
    public init(address: PostgresAddress, maximumConnections: Int = defaultMaximumConnections, connectionWait: Duration = .seconds(5),
                limits: PostgresSessionLimits = .init(), logger: Logger = Logger(label: "opencarekit.postgres")) {
        self.address = address
        self.connectionWait = connectionWait
        self.logger = logger
        var configuration = address.clientConfiguration
        configuration.options.maximumConnections = max(2, maximumConnections)
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = limits.startupParameters
        // PostgresNIO's own lines below error are not the operator's: queries at debug, and at warning a lease that
        // races the pool's start or stop (a server that cannot reach its database would print them before its one
        // line saying so). This type's own warnings still use `logger`.
        var background = logger
        background.logLevel = max(logger.logLevel, .error)
        client = PostgresClient(configuration: configuration, backgroundLogger: background)
    }

    /// Runs the connection pool and the listening connection until the task is cancelled (or the service group
    /// shuts down). A listening connection that is lost is opened again, and every followed record is then told to
    /// look again, since commits may have been missed meanwhile.
    public func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.client.run() }
            group.addTask { await self.listen() }
            // Until the task is cancelled or the service group shuts down; then the pool and the listener end.
            await cancelWhenGracefulShutdown { await waitForCancellation() }
            group.cancelAll()
        }
    }

    /// Runs `body` while the pool runs (for commands that use the database and end).
    public func withRunning<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.run() }
            defer { group.cancelAll() }
            return try await body()
        }
    }

    /// Creates or upgrades the schema: each migration this code knows and the database has not applied, in order,
    /// in one transaction under an advisory lock.
    ///
    /// - Throws: `SQLFailure` with a clear reason when the database was migrated by a newer OpenCareKit, or when the
    ///   role connected bypasses row-level security (a superuser, or BYPASSRLS): nothing is changed then.
    public func migrate() async throws {
        try await connections.withConnection { connection in
            try await PostgresMigrator.migrate(connection, logger: self.logger)
        }
    }

    /// The store of record `id`: an `OCKStore` over this database. Opening costs nothing; the record's rows are
    /// created by its first write.
    public func store(forRecord id: String, clock: @escaping @Sendable () -> Date = { Date() }) -> OCKStore {
        OCKStore(name: id, type: .onDisk(), engine: PostgresStoreEngine(record: id, records: self), clock: clock)
    }

    /// The directory (accounts, records, memberships, sessions, tokens, the audit chain).
    public func directory() -> SQLCareDirectory {
        SQLCareDirectory(runner: PostgresDirectoryRunner(records: self))
    }

    /// How many commits record `id` has had: a number that changes with every write to the record, from any server
    /// (0 when it was never written).
    ///
    /// - Throws: `StorageUnavailableError` while the database cannot be reached.
    public func revision(ofRecord id: String) async throws -> Int64 {
        do {
            return try await transactions.run(.directoryStatements) { db in
                try await db.scalar("SELECT \(PostgresSchema.schema).record_revision(?)", [id]).int.map(Int64.init) ?? 0
            }
        } catch {
            throw StorageUnavailableError.surfacing(error)
        }
    }

    /// What went wrong, in one line without statement arguments: PostgreSQL's code and message, that it cannot be
    /// reached, or the reason of this module's own errors.
    public static func describe(_ error: any Error) -> String {
        if let error = error as? StorageUnavailableError { return error.reason }
        return PostgresFailures.describe(error)
    }

    // MARK: CareRecordStores

    /// The store of `record`, whose rows carry its id.
    public func store(for record: CareRecord) -> OCKStore {
        store(forRecord: record.id.description)
    }

    /// The same store: a read runs in a read-only transaction, and opening it changes nothing.
    public func openReadingStore(for record: CareRecord) -> OCKStore {
        store(for: record)
    }

    /// The record's commit count; nil before its first commit.
    public func revision(of record: CareRecord) async throws -> CareRecordRevision? {
        let count = try await revision(ofRecord: record.id.description)
        return count == 0 ? nil : CareRecordRevision(stamp: [count])
    }

    var transactions: PostgresTransactions { PostgresTransactions(connections: connections, logger: logger) }

    var connections: PostgresConnections { PostgresConnections(client: client, wait: connectionWait, health: health) }

    // MARK: Listening

    private func listen() async {
        var delay = Duration.milliseconds(50)
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        // Listening again after a loss: whatever was committed meanwhile was not heard.
                        self.followers.announceToAll()
                        delay = .milliseconds(50)
                        for try await notification in notifications {
                            self.followers.announce(payload: notification.payload)
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("The connection listening for other servers' commits was lost; trying again",
                               metadata: ["error": "\(PostgresFailures.failure(error))"])
            }
            // A pause before trying again, growing to 2 s while the database stays away.
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(2))
        }
    }
}

/// The stores in this process that follow their record's commits by other servers and engines.
final class RecordFollowers: Sendable {
    private struct Follower {
        let engine: UUID
        let announce: @Sendable () -> Void
    }

    private let followers = Mutex<[String: [UUID: Follower]]>([:])

    func add(record: String, engine: UUID, announce: @escaping @Sendable () -> Void) -> UUID {
        let key = UUID()
        followers.withLock { $0[record, default: [:]][key] = Follower(engine: engine, announce: announce) }
        return key
    }

    func remove(record: String, key: UUID) {
        followers.withLock { followers in
            followers[record]?[key] = nil
            if followers[record]?.isEmpty == true { followers[record] = nil }
        }
    }

    /// A notification `<engine> <record>`: tells the record's followers, but the engine that wrote (it knows).
    func announce(payload: String) {
        guard let space = payload.firstIndex(of: " ") else { return }
        let engine = UUID(uuidString: String(payload[..<space]))
        let record = String(payload[payload.index(after: space)...])
        let targets = followers.withLock { $0[record].map { Array($0.values) } ?? [] }
        for follower in targets where follower.engine != engine { follower.announce() }
    }

    func announceToAll() {
        let targets = followers.withLock { $0.values.flatMap(\.values) }
        for follower in targets { follower.announce() }
    }

    var count: Int { followers.withLock { $0.values.reduce(0) { $0 + $1.count } } }
}

/// Waits until the task is cancelled.
func waitForCancellation() async {
    let (stream, continuation) = AsyncStream<Never>.makeStream()
    await withTaskCancellationHandler {
        for await _ in stream {}
    } onCancel: {
        continuation.finish()
    }
}
