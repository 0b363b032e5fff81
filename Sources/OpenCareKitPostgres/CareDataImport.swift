import Foundation
import Logging
import OpenCareKitDirectory
import OpenCareKitStore
import PostgresNIO

/// Copies the embedded default — a data directory's directory and every record's store, on SQLite — into a
/// PostgreSQL database (`opencarekit migrate`), row for row: every version, tombstone, uuid and date as it was, so
/// the records read the same on PostgreSQL.
///
/// - Accounts come first (an account already there under the same id is kept as it is), then the audit log as it is
///   (its hash chain intact), then each record: its store's rows, a check of the copy, and only then its directory
///   row, memberships, invitations and access tokens, so that a record the servers can see is always complete.
///   Sessions and surveys in progress are not copied: people sign in again.
/// - The check reads both sides again, table by table in key order: the row counts and a SHA-256 of every value
///   (`RecordCopy.checksum`) must be equal.
/// - A record whose directory row is already in the database is never overwritten: it is left alone when its
///   checksum is the data directory's (copied by an earlier run), and refused otherwise.
/// - Run again after an interruption, it copies what is missing, without duplicates: a record whose rows were only
///   partly copied (no directory row yet) has them removed and copied again, the audit log continues after its last
///   copied entry.
///
/// Stop the servers of the data directory first: what they write during the copy is not carried over (a record
/// written while it was copied fails its check, and is copied again by the next run).
public struct CareDataImport: Sendable {
    /// The data directory's directory (on SQLite) and the stores of its records.
    public let source: (directory: SQLCareDirectory, stores: any CareRecordStores)
    /// The PostgreSQL database copied into: its schema migrated (``PostgresCareRecords/migrate()``) and its pool
    /// running (``PostgresCareRecords/withRunning(_:)``) while ``CareDataImport/run(progress:)`` runs.
    public let target: PostgresCareRecords
    /// How many rows each read and each transaction carries (at most `maximumRowsPerTransaction`).
    public let rowsPerTransaction: Int
    /// Keeps a transaction's statements within PostgreSQL's 65,535 arguments.
    public static let maximumRowsPerTransaction = 10_000
    /// The advisory lock a run holds, so that two runs into one database do not interleave.
    static let runLock: Int64 = 0x4F43_4B00_0003

    /// A copy of a data directory into a database; nothing is read or written until
    /// ``CareDataImport/run(progress:)``.
    ///
    /// For example:
    /// ```swift
    /// let target = try PostgresCareRecords(url: databaseURL)
    /// let copy = CareDataImport(directory: directory, stores: stores, into: target)
    /// let summary = try await target.withRunning {
    ///     try await target.migrate()
    ///     return try await copy.run { print($0) }
    /// }
    /// print("\(summary.copied.count) copied, \(summary.refused.count) refused")
    /// ```
    ///
    /// - Parameters:
    ///   - directory: The data directory's directory, on SQLite.
    ///   - stores: The stores of the data directory's records.
    ///   - target: The database to copy into.
    ///   - rowsPerTransaction: How many rows each read and each transaction carries: 2,000 by default, held
    ///     between 1 and ``CareDataImport/maximumRowsPerTransaction``.
    public init(directory: SQLCareDirectory, stores: any CareRecordStores, into target: PostgresCareRecords, rowsPerTransaction: Int = 2_000) {
        source = (directory, stores)
        self.target = target
        self.rowsPerTransaction = min(max(1, rowsPerTransaction), Self.maximumRowsPerTransaction)
    }

    /// A record's store as copied and checked: the rows of each table and the checksum of them all.
    public struct RecordCopy: Sendable, Equatable {
        /// The record copied.
        public let record: CareRecordID
        /// Rows per table, in the store's table order.
        public let rows: [(table: String, count: Int)]
        /// SHA-256 of every value of every row, table by table in key order, as 64 hexadecimal digits.
        public let checksum: String

        /// The rows of every table together.
        public var rowCount: Int { rows.reduce(0) { $0 + $1.count } }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.record == rhs.record && lhs.checksum == rhs.checksum && lhs.rows.elementsEqual(rhs.rows) { $0 == $1 }
        }
    }

    /// What the copy is doing, as it goes.
    public enum Progress: Sendable {
        /// The accounts: copied now, and already in the database from an earlier run (or another source).
        case accounts(copied: Int, alreadyThere: Int)
        /// The audit log: entries copied now, and entries that were there already.
        case auditLog(copied: Int, alreadyThere: Int)
        /// Record `number` of `count` begins.
        case recordStarted(CareRecordID, number: Int, count: Int)
        /// So many rows of a table of the record are copied so far.
        case rowsCopied(CareRecordID, table: String, rows: Int)
        /// The record was copied and its copy checked.
        case recordCopied(RecordCopy)
        /// The record was in the database already, the same as in the data directory.
        case recordAlreadyThere(RecordCopy)
        /// The record is in the database and differs: it was left as it is there.
        case recordRefused(CareRecordID, reason: String)
    }

    /// What a run did.
    public struct Summary: Sendable {
        /// Accounts this run copied (with their browsers' push subscriptions).
        public var accountsCopied = 0
        /// Accounts the database already had under the same id, kept as they were there.
        public var accountsAlreadyThere = 0
        /// Audit log entries this run copied (after those the database already had).
        public var auditEntriesCopied = 0
        /// Records this run copied and checked, in the data directory's order.
        public var copied: [RecordCopy] = []
        /// Records the database already had, the same as in the data directory (copied by an earlier run).
        public var alreadyThere: [RecordCopy] = []
        /// Records left as they are in the database because they differ from the data directory's.
        public var refused: [(record: CareRecordID, reason: String)] = []
    }

    /// Runs the copy; `progress` is told of each step (and may throw to stop it, as an interruption would).
    ///
    /// - Throws: `CareDataImportError` when something in the database stands in the way (an account's email address
    ///   taken by another account, an audit log that is not this data directory's), or a record's copy does not
    ///   check; the engines' errors when either cannot be read or written.
    public func run(progress: @Sendable (Progress) async throws -> Void = { _ in }) async throws -> Summary {
        try await holdingRunLock {
            // Everything that would refuse the copy is checked before anything is written.
            try await checkAccounts()
            let auditThere = try await checkAuditLog()
            return try await copy(auditThere: auditThere, progress: progress)
        }
    }

    /// Runs `body` holding the run's advisory lock, on a connection of its own (the lock lasts as long as it).
    private func holdingRunLock<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let connection = try await PostgresConnection.connect(configuration: try target.address.connectionConfiguration(), id: 0,
                                                              logger: target.logger)
        do {
            var locked = false
            for try await acquired in try await connection.query("SELECT pg_try_advisory_lock(\(Self.runLock))", logger: target.logger)
                .decode(Bool.self) {
                locked = acquired
            }
            guard locked else {
                throw CareDataImportError("Another copy into this database is running: wait until it ends, then run the command again.")
            }
            // Released before the connection closes: a closed connection's backend ends, and lets go of its locks,
            // only some time after the client has gone, so a run started right after this one could be refused.
            func unlock() async throws {
                for try await _ in try await connection.query("SELECT pg_advisory_unlock(\(Self.runLock))", logger: target.logger) {}
            }
            let result: T
            do {
                result = try await body()
            } catch {
                try? await unlock()
                throw error
            }
            try await unlock()
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    private func copy(auditThere: (count: Int, last: Int?), progress: @Sendable (Progress) async throws -> Void) async throws -> Summary {
        var summary = Summary()
        let accounts = try await copyAccounts()
        summary.accountsCopied = accounts.copied
        summary.accountsAlreadyThere = accounts.alreadyThere
        try await progress(.accounts(copied: accounts.copied, alreadyThere: accounts.alreadyThere))
        // Values the servers share (the Web Push signing key, so browsers' subscriptions keep working); the database's
        // own, if it has one already, stays.
        let shared = try await allRows(of: .sharedValue, from: source.directory.runner)
        try await target.transactions.run(.directoryWrite) { db in try await StoredTable.sharedValue.insert(shared, into: db, ignoringConflicts: true) }
        let audit = try await copyAuditLog(after: auditThere)
        summary.auditEntriesCopied = audit.copied
        try await progress(.auditLog(copied: audit.copied, alreadyThere: audit.alreadyThere))

        let records = try await allRows(of: .record, from: source.directory.runner)
        for (index, row) in records.enumerated() {
            guard case let .text(text) = row[0], let id = CareRecordID(text) else {
                throw CareDataImportError("The data directory has a record whose id is not valid.")
            }
            try await progress(.recordStarted(id, number: index + 1, count: records.count))
            if try await target.transactions.run(.directoryRead, { db in
                try await db.scalar("SELECT 1 FROM record WHERE id = ?", [text]).isTrue
            }) {
                let here = try await sourceCopy(of: id), there = try await targetCopy(of: id)
                if here == there {
                    summary.alreadyThere.append(there)
                    try await progress(.recordAlreadyThere(there))
                } else {
                    let reason = "it exists in the database and differs from the data directory's (checksum \(there.checksum.prefix(12)) "
                        + "there, \(here.checksum.prefix(12)) here, \(there.rowCount) rows there, \(here.rowCount) here); it was not overwritten"
                    summary.refused.append((id, reason))
                    try await progress(.recordRefused(id, reason: reason))
                }
                continue
            }
            let copy = try await copyRecord(id, row: row, progress: progress)
            summary.copied.append(copy)
            try await progress(.recordCopied(copy))
        }
        return summary
    }

    // MARK: Accounts and the audit log

    /// Refuses an account of the data directory whose email address the database has under another id.
    private func checkAccounts() async throws {
        try await forEachChunk(of: .account, in: source.directory.runner) { rows in
            let emails = rows.map { $0[1] }
            let there = try await target.transactions.run(.directoryRead) { db in
                try await db.rows("SELECT id, email FROM account WHERE email IN (\(QuerySQL.placeholders(emails.count)))", emails) {
                    (id: $0.value(at: 0), email: $0.value(at: 1))
                }
            }
            for account in there where rows.first(where: { $0[1] == account.email })?[0] != account.id {
                guard case let .text(id) = account.id else { continue }
                throw CareDataImportError("An account of the data directory has the email address of account \(id) in the database, "
                                          + "under another id: remove one of them, then run the command again.")
            }
        }
    }

    private func copyAccounts() async throws -> (copied: Int, alreadyThere: Int) {
        var copied = 0, alreadyThere = 0
        try await forEachChunk(of: .account, in: source.directory.runner) { rows in
            let ids = rows.map { $0[0] }
            // The accounts' browsers' push subscriptions come with them.
            let subscriptions = try await allRows(of: .pushSubscription, from: source.directory.runner,
                                                  filter: (sql: "account IN (\(QuerySQL.placeholders(ids.count)))", arguments: ids))
            let (new, old) = try await target.transactions.run(.directoryWrite) { db in
                let present = await Set(try db.rows("SELECT id FROM account WHERE id IN (\(QuerySQL.placeholders(ids.count)))", ids) { $0.value(at: 0) })
                let missing = rows.filter { !present.contains($0[0]) }
                try await StoredTable.account.insert(missing, into: db)
                let added = Set(missing.map { $0[0] })
                try await StoredTable.pushSubscription.insert(subscriptions.filter { added.contains($0[1]) }, into: db, ignoringConflicts: true)
                return (missing.count, present.count)
            }
            copied += new
            alreadyThere += old
        }
        return (copied, alreadyThere)
    }

    /// The database's audit log: how many entries and the last one's number. It must be a part of the data
    /// directory's, or the data directory's of it (servers may have added entries since an earlier run): the entries
    /// where both end must be the same (each hash covers every entry before it).
    private func checkAuditLog() async throws -> (count: Int, last: Int?) {
        let (count, last) = try await target.transactions.run(.directoryRead) { db in
            try await db.firstRow("SELECT count(*), max(sequence) FROM audit_entry") { row in
                (row.value(at: 0).int ?? 0, row.value(at: 1).int)
            } ?? (0, nil)
        }
        guard let last,
              let sourceLast = try await source.directory.runner.read({ db in try await db.scalar("SELECT max(sequence) FROM audit_entry").int })
        else { return (count, last) }
        let common = min(last, sourceLast)
        let query = "SELECT hash FROM audit_entry WHERE sequence = ?"
        let there = try await target.transactions.run(.directoryRead) { db in try await db.scalar(query, [common]) }
        let here = try await source.directory.runner.read { db in try await db.scalar(query, [common]) }
        guard count == last, there == here else {
            throw CareDataImportError("The database's audit log is not this data directory's: audit logs cannot be merged, so copy "
                                      + "the data directory into a new database.")
        }
        return (count, last)
    }

    /// Copies the audit entries the database does not have yet (after `there`, as checked), with the chain's head,
    /// a transaction at a time.
    private func copyAuditLog(after there: (count: Int, last: Int?)) async throws -> (copied: Int, alreadyThere: Int) {
        let (count, last) = there
        var copied = 0
        try await forEachChunk(of: .auditEntry, in: source.directory.runner, after: last.map { [.integer(Int64($0))] }) { rows in
            guard let newest = rows.last else { return }
            try await target.transactions.run(.directoryWrite) { db in
                try await StoredTable.auditEntry.insert(rows, into: db)
                try await db.execute("""
                    INSERT INTO audit_head (id, sequence, hash) VALUES (1, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET sequence = excluded.sequence, hash = excluded.hash
                    """, [newest[0], newest[11]])
            }
            copied += rows.count
        }
        return (copied, count)
    }

    // MARK: Records

    /// Copies a record that is not in the database's directory: its store's rows (after removing any an interrupted
    /// run left), the check, then its directory rows.
    private func copyRecord(_ id: CareRecordID, row: [SQLValue], progress: @Sendable (Progress) async throws -> Void) async throws -> RecordCopy {
        let record = id.description
        try await target.transactions.run(.write(record: record, engine: UUID())) { db in
            for table in OCKStore.entityTables { try await db.execute("DELETE FROM \(table)") }
        }
        let store = try await sourceStore(of: id)
        for table in StoredTable.store {
            guard let store else { break }
            var copied = 0
            try await forEachChunk(of: table, in: store.engine) { rows in
                try await target.transactions.run(.write(record: record, engine: UUID())) { db in try await table.insert(rows, into: db) }
                copied += rows.count
                try await progress(.rowsCopied(id, table: table.name, rows: copied))
            }
        }
        let here = try await sourceCopy(of: id), there = try await targetCopy(of: id)
        guard here == there else {
            throw CareDataImportError("Record \(id): the copy in the database does not match the data directory (\(there.rowCount) rows "
                                      + "there, \(here.rowCount) here), so it was not added to the database's directory. Was a server "
                                      + "writing to the data directory? Stop it and run the command again: the partial copy is replaced.")
        }
        let filter = (sql: "record = ?", arguments: [SQLValue.text(record)])
        let memberships = try await allRows(of: .membership, from: source.directory.runner, filter: filter)
        let invitations = try await allRows(of: .invitation, from: source.directory.runner, filter: filter)
        let tokens = try await allRows(of: .accessToken, from: source.directory.runner, filter: filter)
        let reminders = try await allRows(of: .reminderSetting, from: source.directory.runner, filter: filter)
        let triage = try await allRows(of: .triageItem, from: source.directory.runner, filter: filter)
        let threads = try await allRows(of: .thread, from: source.directory.runner, filter: filter)
        let messages = try await allRows(of: .message, from: source.directory.runner, filter: filter)
        let reads = try await allRows(of: .threadRead, from: source.directory.runner,
                                      filter: (sql: "thread IN (SELECT id FROM thread WHERE record = ?)", arguments: [SQLValue.text(record)]))
        try await target.transactions.run(.directoryWrite) { db in
            try await StoredTable.record.insert([row], into: db)
            try await StoredTable.membership.insert(memberships, into: db)
            try await StoredTable.invitation.insert(invitations, into: db)
            try await StoredTable.accessToken.insert(tokens, into: db)
            try await StoredTable.reminderSetting.insert(reminders, into: db)
            try await StoredTable.triageItem.insert(triage, into: db)
            try await StoredTable.thread.insert(threads, into: db)
            try await StoredTable.message.insert(messages, into: db)
            try await StoredTable.threadRead.insert(reads, into: db)
        }
        return there
    }

    /// The record's store in the data directory, nil when nothing was ever written to it.
    private func sourceStore(of id: CareRecordID) async throws -> OCKStore? {
        guard let record = try await source.directory.record(id) else {
            throw CareDataImportError("Record \(id) went away from the data directory during the copy.")
        }
        guard try await source.stores.revision(of: record) != nil else { return nil }
        return try source.stores.openReadingStore(for: record)
    }

    /// The record's store in the data directory, read in full and summed up.
    private func sourceCopy(of id: CareRecordID) async throws -> RecordCopy {
        try await summarize(id, in: try await sourceStore(of: id)?.engine)
    }

    /// The record's store in the database, read in full and summed up.
    private func targetCopy(of id: CareRecordID) async throws -> RecordCopy {
        try await summarize(id, in: target.store(forRecord: id.description).engine)
    }

    /// The rows of every table of a store read through `runner` (none when nil): their counts and checksum.
    private func summarize(_ id: CareRecordID, in runner: (any SQLTransactionRunner)?) async throws -> RecordCopy {
        var digest = StoredRowsDigest()
        var counts: [(String, Int)] = []
        for table in StoredTable.store {
            digest.begin(table.name)
            let before = digest.rowCount
            if let runner {
                try await forEachChunk(of: table, in: runner) { rows in
                    for row in rows { digest.add(row: row) }
                }
            }
            counts.append((table.name, digest.rowCount - before))
        }
        return RecordCopy(record: id, rows: counts, checksum: digest.finalized())
    }

    // MARK: Reading

    /// Reads `table` through `runner`, `rowsPerTransaction` rows a transaction in key order (after the row whose key
    /// is `after`, or from the first), in the stored form of PostgreSQL, handing each chunk to `body`.
    private func forEachChunk(of table: StoredTable, in runner: any SQLTransactionRunner, after start: [SQLValue]? = nil,
                              filter: (sql: String, arguments: [SQLValue])? = nil,
                              _ body: ([[SQLValue]]) async throws -> Void) async throws {
        var after = start
        while true {
            let rows = try await runner.read { [after, rowsPerTransaction] db in
                try await table.rows(after: after, limit: rowsPerTransaction, filter: filter, in: db, for: .postgres)
            }
            guard let last = rows.last else { return }
            after = table.key(of: last)
            try await body(rows)
        }
    }

    /// Every row of a directory table (of the few kept in memory: records, and a record's memberships,
    /// invitations and tokens).
    private func allRows(of table: StoredTable, from runner: any SQLTransactionRunner,
                         filter: (sql: String, arguments: [SQLValue])? = nil) async throws -> [[SQLValue]] {
        var rows: [[SQLValue]] = []
        try await forEachChunk(of: table, in: runner, filter: filter) { rows += $0 }
        return rows
    }
}

/// Why `CareDataImport` stopped: something in the database stands in the way, or a copy did not check. Names no
/// patient data (ids only).
public struct CareDataImportError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
