import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// The SQLite engine of `OCKStore`: a file per store (WAL, `synchronous = FULL`), or a database in memory.
final class SQLiteEngine: OCKStoreEngine {
    let fileURL: URL?
    var dialect: SQLDialect { .sqlite }
    private let connection = Mutex<(any DatabaseWriter)?>(nil)
    /// The last `PRAGMA data_version` seen, to notice commits by other processes.
    private let externalDataVersion = Mutex<Int?>(nil)
    private let directoryError: OCKStoreError?
    /// Whether the engine only reads its file (`OCKStore.reading(name:directory:)`).
    private let isReadOnly: Bool

    /// An engine in memory (`fileURL` nil) or on the file `fileURL`; `directoryError` is thrown by every call when the
    /// file's place could not be worked out.
    init(fileURL: URL?, directoryError: OCKStoreError? = nil, readOnly: Bool = false) {
        self.fileURL = fileURL
        self.directoryError = directoryError
        isReadOnly = readOnly
    }

    func open() throws {
        _ = try database()
    }

    /// The open database, opening it on first use.
    private func database() throws(OCKStoreError) -> any DatabaseWriter {
        if let directoryError { throw directoryError }
        return try connection.withLock { (connection) throws(OCKStoreError) -> any DatabaseWriter in
            if let connection { return connection }
            let opened = try openDatabase()
            connection = opened
            return opened
        }
    }

    private func openDatabase() throws(OCKStoreError) -> any DatabaseWriter {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // 32 MiB of page cache per connection: the outcome table's indexes outgrow SQLite's 2 MiB default
            // quickly, and every insert then reads index pages back from the file.
            try db.execute(sql: "PRAGMA synchronous = FULL; PRAGMA cache_size = -32768")
        }
        guard let fileURL else {
            do {
                let queue = try DatabaseQueue(configuration: configuration)
                try Self.emptyStore().backup(to: queue)
                return queue
            } catch {
                throw .fetchFailed(reason: "Cannot create the in-memory store")
            }
        }
        if isReadOnly {
            guard case .store(StoreSchema.version) = try StoreFile.inspect(fileURL) else {
                throw .fetchFailed(reason: "The store is absent or not of this version's schema; open it for writing first")
            }
            do {
                configuration.readonly = true
                return try DatabaseQueue(path: fileURL.path, configuration: configuration)
            } catch {
                throw .fetchFailed(reason: "Cannot open the store: \(describe(error))")
            }
        }
        switch try StoreFile.inspect(fileURL) {
        case .absent:
            try StoreFile.create(fileURL)
        case let .store(schemaVersion) where schemaVersion > StoreSchema.version:
            throw .fetchFailed(reason: "The store was written by a newer OpenCareKit (schema "
                               + "\(schemaVersion), this version reads up to \(StoreSchema.version)); update OpenCareKit to open it")
        case .store:
            break
        }
        do {
            let pool = try DatabasePool(path: fileURL.path, configuration: configuration)
            if try pool.read(StoreSchema.migrator.hasBeenSuperseded) {
                try pool.close()
                throw OCKStoreError.fetchFailed(reason: "The store was written by a newer OpenCareKit; update OpenCareKit to open it")
            }
            try StoreSchema.migrate(pool)
            return pool
        } catch let error as OCKStoreError {
            throw error
        } catch {
            throw .fetchFailed(reason: "Cannot open the store: \(describe(error))")
        }
    }

    private static let template = Mutex<DatabaseQueue?>(nil)

    /// An empty store of this schema in memory, made once: a new in-memory store is a copy of it (SQLite's backup),
    /// some thirty times faster than running the migrations again (tests make thousands).
    private static func emptyStore() throws -> DatabaseQueue {
        try template.withLock { template in
            if let template { return template }
            let queue = try DatabaseQueue()
            try StoreSchema.migrate(queue)
            template = queue
            return queue
        }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let database = try database()
        // An in-memory store is one serial connection no other process sees: nothing can write between its
        // statements, so a read needs neither a transaction nor GRDB's read-only mode. That mode toggles
        // `PRAGMA query_only`, which expires every prepared statement: each read would compile its statements again.
        if fileURL == nil, let queue = database as? DatabaseQueue {
            return try await queue.unsafeRead { db in try GRDBDatabase.running(body, on: db) }
        }
        return try await database.read { db in try GRDBDatabase.running(body, on: db) }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await database().write { db in try GRDBDatabase.running(body, on: db) }
    }

    func writeSynchronously(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Void) throws {
        try database().write { db in try GRDBDatabase.running(body, on: db) }
    }

    func delete() throws {
        try connection.withLock { (connection) throws(OCKStoreError) in
            if let pool = connection as? DatabasePool { try? pool.close() }
            connection = nil
            if let fileURL {
                for file in StoreFile.allFiles(of: fileURL) where FileManager.default.fileExists(atPath: file.path) {
                    do { try FileManager.default.removeItem(at: file) } catch {
                        throw .deleteFailed(reason: "Cannot remove the store's files")
                    }
                }
            }
        }
    }

    func checkIntegrity() throws -> [String] {
        do {
            return try database().read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        } catch let error as OCKStoreError {
            throw error
        } catch {
            throw OCKStoreError.fetchFailed(reason: describe(error))
        }
    }

    /// One server's file (other processes are the command line tool, followed by polling).
    var isSharedByServers: Bool { false }

    /// SQLite's `data_version` changes only for commits made through other connections, so the store's own writes,
    /// which notify live queries already, do not count.
    func checkForExternalChanges(announce: @Sendable () -> Void) async throws -> Bool {
        let version = try await database().writeWithoutTransaction { db in
            try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
        }
        let previous = externalDataVersion.withLock { $0 }
        if let previous, previous != version { announce() }
        externalDataVersion.withLock { $0 = version }
        return previous.map { $0 != version } ?? false
    }

    /// Looks every `interval`; a look that fails (the file went away) is tried again at the next one.
    func followExternalChanges(every interval: Duration, announce: @escaping @Sendable () -> Void) async {
        while !Task.isCancelled {
            _ = try? await checkForExternalChanges(announce: announce)
            try? await Task.sleep(for: interval)
        }
    }

    func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return Self.describe(error) }
        if let error = error as? SQLFailure { return error.description }
        if let error = error as? OCKValidationError { return error.description }
        return "\(type(of: error))"
    }
}

extension SQLiteEngine {
    /// What an SQLite error means to the store: a constraint the request broke, a lock to wait out, or a fault of the
    /// database itself (its file, disk or memory).
    static func kind(of error: DatabaseError) -> SQLFailure.Kind {
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY: return .uniqueViolation
        case .SQLITE_CONSTRAINT_FOREIGNKEY: return .foreignKeyViolation
        default: break
        }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: return .conflict
        case .SQLITE_IOERR, .SQLITE_CORRUPT, .SQLITE_FULL, .SQLITE_CANTOPEN, .SQLITE_NOTADB, .SQLITE_NOMEM, .SQLITE_READONLY,
             .SQLITE_PERM, .SQLITE_PROTOCOL, .SQLITE_INTERNAL:
            return .fault
        default: return .other
        }
    }

    /// An SQLite error's code and message (SQLite's messages name no bound values).
    static func describe(_ error: DatabaseError) -> String {
        "SQLite error \(error.resultCode.rawValue): \(error.message ?? "unknown")"
    }
}

/// A GRDB connection inside a transaction, as the store's engine-neutral `SQLDatabase`.
///
/// Its statements run on the connection's thread (GRDB's rule): a transaction's asynchronous body runs there, on a
/// `CallingThreadExecutor`, while GRDB's synchronous transaction waits for it. SQLite answers in this process, so the
/// body's awaits of its statements never suspend.
package struct GRDBDatabase: SQLDatabase, @unchecked Sendable {
    let db: Database

    package init(_ db: Database) { self.db = db }

    /// Runs `body` on `db`, on the calling thread (the connection's, inside a GRDB transaction).
    package static func running<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T, on db: Database) throws -> T {
        let database = GRDBDatabase(db)
        return try CallingThreadExecutor.run { try await body(database) }
    }

    package var dialect: SQLDialect { .sqlite }

    @discardableResult
    package func execute(_ sql: String, _ arguments: [SQLValue]) async throws -> Int {
        try translatingErrors {
            let statement = try db.cachedStatement(sql: sql)
            // Bound here rather than through `StatementArguments`, which boxes every value (a third of a batch
            // insert's time in `scripts/bench-store`): GRDB is told the statement's arguments are set (none), and
            // SQLite keeps the bindings across the reset `execute()` does.
            statement.setUncheckedArguments([])
            try Self.bind(arguments, to: statement)
            try statement.execute()
            return db.changesCount
        }
    }

    /// One prepared statement of one row, run once a row: in SQLite, which runs in this process, a statement of a
    /// thousand rows saves no round trip, and its text and arguments cost more to build.
    package func insertRows(into table: String, columns: [String], values: [SQLValue], ignoringConflicts: Bool) async throws {
        guard !columns.isEmpty, !values.isEmpty else { return }
        guard values.count % columns.count == 0 else { throw SQLFailure(.other, "Rows for \(table) have missing values") }
        try translatingErrors {
            let statement = try db.cachedStatement(sql: "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES ("
                                                   + QuerySQL.placeholders(columns.count) + ")"
                                                   + (ignoringConflicts ? " ON CONFLICT DO NOTHING" : ""))
            // Stepped here, not through GRDB's `execute()`, whose bookkeeping per run (for statements that begin or end
            // transactions, and for its observers, which see inserts through SQLite's hooks anyway) costs as much as
            // the insert. The statement is inside the caller's transaction.
            let handle = statement.sqliteStatement
            defer { sqlite3_reset(handle) }
            var first = values.startIndex
            while first < values.endIndex {
                sqlite3_reset(handle)
                try Self.bind(values[first..<first + columns.count], to: statement)
                let code = sqlite3_step(handle)
                guard code == SQLITE_DONE else {
                    let connection = db.sqliteConnection
                    throw DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                                        message: String(cString: sqlite3_errmsg(connection)))
                }
                first += columns.count
            }
        }
    }

    /// Binds `values` to the statement's parameters, in order (SQLite copies texts and blobs).
    private static func bind(_ values: some Collection<SQLValue>, to statement: Statement) throws {
        let handle = statement.sqliteStatement
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (offset, value) in values.enumerated() {
            let position = Int32(offset + 1)
            let code: Int32 = switch value {
            case .null: sqlite3_bind_null(handle, position)
            case let .integer(number): sqlite3_bind_int64(handle, position, number)
            case let .real(number): sqlite3_bind_double(handle, position, number)
            case var .text(text):
                // From the string's own UTF-8 (no C string made for the call); an empty one from a non-null pointer,
                // which SQLite would otherwise bind as NULL.
                text.withUTF8 { bytes in
                    guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_text(handle, position, "", 0, transient) }
                    return sqlite3_bind_text(handle, position, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                                             Int32(bytes.count), transient)
                }
            case let .blob(data) where data.isEmpty: sqlite3_bind_zeroblob(handle, position, 0)
            case let .blob(data):
                data.withUnsafeBytes { sqlite3_bind_blob(handle, position, $0.baseAddress, Int32($0.count), transient) }
            case let .uuid(uuid):
                withUnsafeBytes(of: uuid.uuid) { sqlite3_bind_blob(handle, position, $0.baseAddress, 16, transient) }
            }
            guard code == SQLITE_OK else {
                throw SQLFailure(.fault, "SQLite error \(code): \(String(cString: sqlite3_errstr(code)))")
            }
        }
    }

    package func forEachRow(_ sql: String, _ arguments: [SQLValue], _ body: (any SQLRow) throws -> Void) async throws {
        // Cached: the same query shapes come back (every day's events), and preparing is most of a small query.
        let rows = try translatingErrors {
            try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: Self.arguments(arguments))
        }
        while let row = try translatingErrors({ try rows.next() }) {
            try body(GRDBRow(row: row))
        }
    }

    private static func arguments(_ values: [SQLValue]) -> StatementArguments {
        StatementArguments(values.map { value -> (any DatabaseValueConvertible)? in
            switch value {
            case .null: nil
            case let .integer(value): value
            case let .real(value): value
            case let .text(value): value
            case let .blob(value): value
            case let .uuid(value): value
            }
        })
    }

    private func translatingErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw SQLFailure(SQLiteEngine.kind(of: error), SQLiteEngine.describe(error))
        }
    }
}

struct GRDBRow: SQLRow {
    let row: Row

    func value(_ column: String) -> SQLValue {
        Self.convert(row[column] as DatabaseValue? ?? .null)
    }

    func value(at index: Int) -> SQLValue {
        Self.convert(row[index] as DatabaseValue)
    }

    private static func convert(_ value: DatabaseValue) -> SQLValue {
        switch value.storage {
        case .null: .null
        case let .int64(value): .integer(value)
        case let .double(value): .real(value)
        case let .string(value): .text(value)
        case let .blob(value): .blob(value)
        }
    }
}
