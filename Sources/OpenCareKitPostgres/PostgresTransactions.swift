import Foundation
import Logging
import NIOCore
import NIOPosix
import OpenCareKitStore
import PostgresNIO
import Synchronization

/// Transactions on the pool's connections: a transaction holds a connection, never a thread, while it waits for
/// PostgreSQL; how many run at once is the pool's number of connections.
struct PostgresTransactions: Sendable {
    let connections: PostgresConnections
    let logger: Logger

    /// What a transaction is for, which decides its isolation, search path, record and lock.
    enum Kind: Sendable {
        /// A read of one record's store: one snapshot (REPEATABLE READ, READ ONLY).
        case read(record: String)
        /// A write to one record's store, serialized with every other write to it by the record's state row (which
        /// counts the record's commits), announcing the commit to other servers as `engine`.
        case write(record: String, engine: UUID)
        /// A read of the directory.
        case directoryRead
        /// A write to the directory, serialized with every other directory write (an advisory lock), as SQLite's
        /// one writer does.
        case directoryWrite
        /// Directory statements that each commit on their own and serialize themselves (the audit log's function).
        case directoryStatements
    }

    /// How often a transaction that lost a race (serialization failure, deadlock) is tried before failing.
    static let attempts = 5

    /// The advisory lock of directory writes.
    static let directoryLock: Int64 = 0x4F43_4B00_0002

    /// Runs `body` in a transaction of `kind`, again after a lost race; `committed` is told a write's revision of
    /// its record once it commits.
    func run<T: Sendable>(_ kind: Kind, committed: (@Sendable (Int64) -> Void)? = nil,
                          _ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await connections.withConnection { connection in
                    try await Self.transaction(kind, on: connection, logger: logger, committed: committed, body)
                }
            } catch let error as SQLFailure where error.kind == .conflict && attempt < Self.attempts {
                attempt += 1
            } catch {
                throw PostgresFailures.failure(error)
            }
        }
    }

    /// Runs `body` in one transaction on `connection`.
    static func transaction<T>(_ kind: Kind, on connection: PostgresConnection, logger: Logger,
                               committed: ((Int64) -> Void)? = nil, _ body: (any SQLDatabase) async throws -> T) async throws -> T {
        let db = PostgresTransaction(connection: connection, logger: logger)
        let schema = PostgresSchema.schema, setting = PostgresSchema.recordSetting
        switch kind {
        case .read, .directoryRead: try await db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", [SQLValue]())
        case .write, .directoryWrite: try await db.execute("BEGIN", [SQLValue]())
        case .directoryStatements: return try await body(db)
        }
        var revision: Int64?
        do {
            switch kind {
            case let .read(record), let .write(record, _):
                try await db.execute("SELECT set_config('\(setting)', ?, true), set_config('search_path', '\(PostgresSchema.recordSchema)', true)", [record])
                if case .write = kind {
                    revision = try await db.scalar("""
                        INSERT INTO \(schema).record_state (record_id, revision) VALUES (?, 1)
                        ON CONFLICT (record_id) DO UPDATE SET revision = \(schema).record_state.revision + 1
                        RETURNING revision
                        """, [record]).int.map(Int64.init)
                }
            case .directoryRead, .directoryStatements:
                // The connection's search_path is the directory's schema already (`PostgresSessionLimits`).
                break
            case .directoryWrite:
                try await db.execute("SELECT pg_advisory_xact_lock(?)", [directoryLock])
            }
            let result = try await body(db)
            if case let .write(record, engine) = kind {
                try await db.execute("SELECT pg_notify(?, ?)", [PostgresCareRecords.channel, "\(engine.uuidString) \(record)"])
            }
            try await db.execute("COMMIT", [SQLValue]())
            if let revision { committed?(revision) }
            return result
        } catch {
            _ = try? await db.execute("ROLLBACK", [SQLValue]())
            throw error
        }
    }
}

/// The engine of one record's `OCKStore` on PostgreSQL.
final class PostgresStoreEngine: OCKStoreEngine {
    let record: String
    let records: PostgresCareRecords
    /// This engine, in its commits' notifications (so it does not hear its own).
    let id = UUID()

    /// Reads of the record's commit count, one for every caller that asked while the last was under way (a Care
    /// page under load asks once per request).
    private let revisionReads: GroupedCalls<Never, Int64>

    init(record: String, records: PostgresCareRecords) {
        self.record = record
        self.records = records
        revisionReads = GroupedCalls { _ in try await records.revision(ofRecord: record) }
    }

    var dialect: SQLDialect { .postgres }
    var fileURL: URL? { nil }

    /// Nothing to open: the schema is the database's (`PostgresCareRecords.migrate()`).
    func open() throws {}

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await records.transactions.run(.read(record: record), body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await records.transactions.run(.write(record: record, engine: id), committed: noteOwnCommit, body)
    }

    /// The record's revision this store's readers have caught up with (`checkForExternalChanges`); nil before the
    /// first look.
    private let seenRevision = Mutex<Int64?>(nil)

    /// A commit of this store's own (which announced itself) is seen, unless another commit came between it and the
    /// last one seen, which the next look must announce.
    private func noteOwnCommit(_ revision: Int64) {
        seenRevision.withLock { seen in
            if seen == revision - 1 { seen = revision }
        }
    }

    /// For CareKit's synchronous calls (`reset()`), which must wait: on a connection of its own, outside the pool,
    /// with the calling thread running the transaction (`CallingThreadExecutor`), so that a caller on a task's thread
    /// waits for neither the pool's tasks nor another thread of the cooperative pool.
    func writeSynchronously(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Void) throws {
        let (address, logger, kind) = (records.address, records.logger, PostgresTransactions.Kind.write(record: record, engine: id))
        try CallingThreadExecutor.run {
            let connection = try await PostgresConnection.connect(configuration: try address.connectionConfiguration(), id: 0, logger: logger)
            do {
                try await PostgresTransactions.transaction(kind, on: connection, logger: logger, body)
            } catch {
                try? await connection.close()
                throw error
            }
            // Committed: a connection that fails to close (the server dropped it already) changes nothing of that.
            try? await connection.close()
        }
    }

    /// Deleting a record's store removes its rows.
    func delete() throws {
        try writeSynchronously { db in
            for table in OCKStore.entityTables { try await db.execute("DELETE FROM \(table)") }
        }
    }

    func checkIntegrity() throws -> [String] { ["ok"] }

    /// Whether the record's commit count moved past the one this caller knew when it asked, other than by this
    /// store's own commits (the first look announces: a request may have cached a page meanwhile). Each caller
    /// compares with what it knew, and announces before the count it read is recorded as seen, so that a caller
    /// that finds nothing new always comes after the announcement of what it would have found.
    func checkForExternalChanges(announce: @Sendable () -> Void) async throws -> Bool {
        let known = seenRevision.withLock { $0 }
        let current = try await revisionReads.call()
        guard known != current else { return false }
        announce()
        seenRevision.withLock { seen in
            if seen.map({ $0 < current }) ?? true { seen = current }
        }
        return true
    }

    var isSharedByServers: Bool { true }

    /// Tells `announce` of each commit to the record by another engine (another server, the command line), heard on
    /// the listening connection; and once when the following begins, since a commit just before it was not heard.
    func followExternalChanges(every interval: Duration, announce: @escaping @Sendable () -> Void) async {
        let key = records.followers.add(record: record, engine: id, announce: announce)
        announce()
        await waitForCancellation()
        records.followers.remove(record: record, key: key)
    }

    func describe(_ error: any Error) -> String { PostgresFailures.describe(error) }
}

/// The directory's transactions on PostgreSQL.
struct PostgresDirectoryRunner: SQLTransactionRunner {
    let records: PostgresCareRecords

    var dialect: SQLDialect { .postgres }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await records.transactions.run(.directoryRead, body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await records.transactions.run(.directoryWrite, body)
    }

    func writeAlone<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await records.transactions.run(.directoryStatements, body)
    }

    func describe(_ error: any Error) -> String { PostgresFailures.describe(error) }
}
