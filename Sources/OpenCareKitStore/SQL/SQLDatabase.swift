import Foundation

/// A value bound to a statement or read from a row, in the types every store engine shares.
///
/// The store's SQL is written once for every engine: `?` placeholders, standard SQL, and the few engine differences
/// asked of `SQLDialect`. A uuid is its own case so that each engine keeps it in its own way (SQLite: a 16-byte blob;
/// PostgreSQL: `uuid`).
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case uuid(UUID)
}

/// Something that can be bound to a statement.
package protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

extension Int: SQLBindable { package var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Int64: SQLBindable { package var sqlValue: SQLValue { .integer(self) } }
extension Bool: SQLBindable { package var sqlValue: SQLValue { .integer(self ? 1 : 0) } }
extension Double: SQLBindable { package var sqlValue: SQLValue { .real(self) } }
extension String: SQLBindable { package var sqlValue: SQLValue { .text(self) } }
extension Data: SQLBindable { package var sqlValue: SQLValue { .blob(self) } }
extension UUID: SQLBindable { package var sqlValue: SQLValue { .uuid(self) } }
extension SQLValue: SQLBindable { package var sqlValue: SQLValue { self } }
extension Optional: SQLBindable where Wrapped: SQLBindable {
    package var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

/// One row of a result, read by column name.
package protocol SQLRow {
    /// The value of `column`, `.null` when the row has no such column.
    func value(_ column: String) -> SQLValue
    /// The value of the column at `index` (0 is the first).
    func value(at index: Int) -> SQLValue
}

/// Why a statement failed, in terms the store acts on whatever the engine.
package struct SQLFailure: Error, CustomStringConvertible, Sendable {
    package enum Kind: Sendable, Equatable {
        /// A uniqueness constraint refused the row.
        case uniqueViolation
        /// A row names another that does not exist.
        case foreignKeyViolation
        /// The database cannot be reached or is shutting down: try again later.
        case unavailable
        /// The transaction lost a race with another one and may be run again (serialization failure, deadlock).
        case conflict
        /// The database itself failed — an I/O error, a full disk, corruption, no memory: the server's fault, not the
        /// request's.
        case fault
        case other
    }

    package let kind: Kind
    /// The engine's error code and message, without statement arguments (which may hold patient data).
    package let description: String

    package init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

/// What differs between engines in the SQL the store writes.
package struct SQLDialect: Sendable {
    /// Whether `INDEXED BY` and `+column` (SQLite's planner hints) may be written.
    package var plannerHints: Bool
    /// Whether a column can hold values of any type (SQLite); otherwise outcome values are kept as bytes.
    package var dynamicTyping: Bool
    /// Whether `NULLS FIRST` / `NULLS LAST` must be written to order NULLs as SQLite does (first when ascending).
    package var explicitNullOrder: Bool
    /// The database function that chains and appends audit entries given as a JSON array, in one statement that
    /// serializes itself (`SQLTransactionRunner.writeAlone`); nil: the directory chains them in a write transaction.
    package var auditAppendFunction: String? = nil
    /// How the engine's messages name the uniqueness constraint a row broke: SQLite by its columns
    /// ("UNIQUE constraint failed: outcomes.uuid"), PostgreSQL by the constraint's name ("… constraint "outcomes_pkey"").
    package var namesConstraintsByColumn = false

    package static let sqlite = SQLDialect(plannerHints: true, dynamicTyping: true, explicitNullOrder: false, namesConstraintsByColumn: true)
    package static let postgres = SQLDialect(plannerHints: false, dynamicTyping: false, explicitNullOrder: true,
                                             auditAppendFunction: "opencarekit.append_audit")

    /// What the engine's message says when a row of versions in `table` repeats a uuid (its primary key).
    package func takenUUID(in table: String) -> String {
        namesConstraintsByColumn ? "constraint failed: \(table).uuid" : "unique constraint \"\(table)_pkey\""
    }

    /// An ORDER BY term that orders NULLs first when ascending, last when descending, on every engine.
    package func order(_ column: String, ascending: Bool) -> String {
        let direction = ascending ? "ASC" : "DESC"
        guard explicitNullOrder else { return "\(column) \(direction)" }
        return "\(column) \(direction) NULLS \(ascending ? "FIRST" : "LAST")"
    }
}

/// Runs transactions on one database: a store's, or the directory's.
package protocol SQLTransactionRunner: Sendable {
    /// The dialect of the engine's SQL.
    var dialect: SQLDialect { get }

    /// Runs `body` in one read transaction that sees one state of the database.
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T

    /// Runs `body` in one write transaction: all of it commits, or none. Writes are serialized. An engine may run
    /// `body` again when the transaction lost a race (so `body` must have no effects outside the database).
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T

    /// A description of an engine error without statement arguments (which may hold patient data).
    func describe(_ error: any Error) -> String

    /// Runs `body`, whose statements each commit on their own and are not serialized with other writes (for one
    /// statement that serializes itself). By default, `write`.
    func writeAlone<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T
}

extension SQLTransactionRunner {
    package func writeAlone<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await write(body)
    }
}

/// One open transaction of a store engine. Statements use `?` placeholders.
package protocol SQLDatabase {
    var dialect: SQLDialect { get }
    /// Runs a statement that returns no rows.
    /// - Returns: How many rows it inserted, changed or deleted.
    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLValue]) async throws -> Int
    /// Runs a query, calling `body` with each row. A row is valid only during its call.
    func forEachRow(_ sql: String, _ arguments: [SQLValue], _ body: (any SQLRow) throws -> Void) async throws
    /// Inserts rows into `table`: `values` holds `columns.count` values a row, row after row. With
    /// `ignoringConflicts`, a row that a uniqueness constraint refuses is left out. By default, several rows to a
    /// statement, for engines where each statement is a round trip.
    func insertRows(into table: String, columns: [String], values: [SQLValue], ignoringConflicts: Bool) async throws
}

extension SQLDatabase {
    @discardableResult
    package func execute(_ sql: String, _ arguments: [any SQLBindable] = []) async throws -> Int {
        try await execute(sql, arguments.map(\.sqlValue))
    }

    /// The rows a query returns, each read by `read`.
    package func rows<T>(_ sql: String, _ arguments: [any SQLBindable] = [], _ read: (any SQLRow) throws -> T) async throws -> [T] {
        var result: [T] = []
        try await forEachRow(sql, arguments.map(\.sqlValue)) { result.append(try read($0)) }
        return result
    }

    /// The first row a query returns, read by `read`; nil when there is none.
    package func firstRow<T>(_ sql: String, _ arguments: [any SQLBindable] = [], _ read: (any SQLRow) throws -> T) async throws -> T? {
        var result: T?
        try await forEachRow(sql, arguments.map(\.sqlValue)) { row in
            if result == nil { result = try read(row) }
        }
        return result
    }

    /// The first column of the first row (`.null` when there is no row).
    package func scalar(_ sql: String, _ arguments: [any SQLBindable] = []) async throws -> SQLValue {
        var result = SQLValue.null
        var first = true
        try await forEachRow(sql, arguments.map(\.sqlValue)) { row in
            if first { result = row.firstValue }
            first = false
        }
        return result
    }
}

extension SQLRow {
    /// The first column, for one-value queries.
    var firstValue: SQLValue { value(at: 0) }

    /// The value of a column that must not be NULL, read by `read`.
    private func required<T>(_ column: String, _ read: (String) throws -> T?) throws -> T {
        guard let value = try read(column) else { throw SQLFailure(.other, "Column \(column) is NULL") }
        return value
    }

    package func optionalString(_ column: String) throws -> String? {
        switch value(column) {
        case .null: nil
        case let .text(text): text
        case let .blob(data): String(decoding: data, as: UTF8.self)
        default: throw SQLFailure(.other, "Column \(column) is not text")
        }
    }

    package func string(_ column: String) throws -> String { try required(column, optionalString) }

    package func optionalInt(_ column: String) throws -> Int? {
        switch value(column) {
        case .null: nil
        case let .integer(value): Int(value)
        case let .real(value) where value.rounded() == value && abs(value) < 9e18: Int(value)
        default: throw SQLFailure(.other, "Column \(column) is not an integer")
        }
    }

    package func int(_ column: String) throws -> Int { try required(column, optionalInt) }

    package func optionalDouble(_ column: String) throws -> Double? {
        switch value(column) {
        case .null: nil
        case let .real(value): value
        case let .integer(value): Double(value)
        default: throw SQLFailure(.other, "Column \(column) is not a number")
        }
    }

    package func double(_ column: String) throws -> Double { try required(column, optionalDouble) }

    package func optionalData(_ column: String) throws -> Data? {
        switch value(column) {
        case .null: nil
        case let .blob(data): data
        case let .text(text): Data(text.utf8)
        default: throw SQLFailure(.other, "Column \(column) is not bytes")
        }
    }

    package func data(_ column: String) throws -> Data { try required(column, optionalData) }

    package func optionalUUID(_ column: String) throws -> UUID? {
        switch value(column) {
        case .null: return nil
        case let .uuid(uuid): return uuid
        case let .blob(data) where data.count == 16:
            return data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        case let .text(text):
            if let uuid = UUID(uuidString: text) { return uuid }
            throw SQLFailure(.other, "Column \(column) is not a uuid")
        default: throw SQLFailure(.other, "Column \(column) is not a uuid")
        }
    }

    package func uuid(_ column: String) throws -> UUID { try required(column, optionalUUID) }

    /// A stored date column (seconds since 2001-01-01).
    package func date(_ column: String) throws -> Date? {
        try optionalDouble(column).map(Date.init(storeValue:))
    }
}

extension SQLValue {
    /// Whether the value is an integer other than 0 (a stored boolean, `SELECT 1` of an existence check).
    package var isTrue: Bool {
        switch self {
        case let .integer(value): value != 0
        case let .real(value): value != 0
        default: false
        }
    }

    package var int: Int? {
        switch self {
        case let .integer(value): Int(value)
        case let .real(value): Int(exactly: value)
        default: nil
        }
    }

    package var double: Double? {
        switch self {
        case let .real(value): value
        case let .integer(value): Double(value)
        default: nil
        }
    }
}
