import Crypto
import Foundation

/// A table of the store or the directory as every engine has it, for copying rows between engines
/// (`opencarekit migrate`): its columns (without PostgreSQL's `record_id`, which the transaction's record fills in),
/// its primary key, the order rows are read and compared in, and the columns whose stored form differs by engine.
package struct StoredTable: Sendable {
    package let name: String
    package let columns: [String]
    /// The primary key: unique, and in the same order on every engine (uuids and bytes compare as bytes, text as
    /// UTF-8 code points, which SQLite's BINARY and PostgreSQL's "C" collation both do).
    package let key: [String]
    /// Columns holding a uuid: a 16-byte blob on SQLite, `uuid` on PostgreSQL.
    package let uuidColumns: Set<String>
    /// The column of an outcome value, kept as itself on SQLite and as bytes on PostgreSQL.
    package let outcomeValueColumn: String?

    init(_ name: String, _ columns: [String], key: [String], uuids: Set<String> = [], outcomeValue: String? = nil) {
        self.name = name
        self.columns = columns
        self.key = key
        uuidColumns = uuids
        outcomeValueColumn = outcomeValue
    }

    /// A table of versions, with the columns its entity's rows are written with.
    private static func versions<E: StoredEntity>(of type: E.Type, uuids: Set<String>) -> StoredTable {
        StoredTable(E.table, E.versionColumns + E.extraColumns, key: ["uuid"], uuids: uuids.union(["uuid"]))
    }

    package static let outcomeValues = StoredTable("outcome_values", ["outcome_uuid", "position", "type", "value", "kind", "units",
                                                                     "created_date", "end_date"],
                                                   key: ["outcome_uuid", "position"], uuids: ["outcome_uuid"], outcomeValue: "value")
    package static let entityTags = StoredTable("entity_tags", ["owner_uuid", "tag"], key: ["tag", "owner_uuid"], uuids: ["owner_uuid"])

    /// A record's store, every version of every entity.
    package static let store: [StoredTable] = [
        versions(of: OCKPatient.self, uuids: []),
        versions(of: OCKCarePlan.self, uuids: ["patient_uuid"]),
        versions(of: OCKContact.self, uuids: ["care_plan_uuid"]),
        versions(of: OCKTask.self, uuids: ["care_plan_uuid"]),
        versions(of: OCKHealthKitTask.self, uuids: ["care_plan_uuid"]),
        versions(of: OCKOutcome.self, uuids: ["task_uuid"]),
        outcomeValues,
        entityTags,
        syncKnowledge,
    ]

    /// The vectors the store's versions were written under. (Its clock, `sync_clock`, is not copied: a copy that
    /// kept the process would advance the same clock as the original if that were ever written again, and a remote
    /// would take the one's versions for the other's; the copy makes a clock of its own, a new process, when it
    /// first synchronizes.)
    package static let syncKnowledge = StoredTable("sync_knowledge", ["id", "vector"], key: ["id"])

    package static let account = StoredTable("account", ["id", "email", "name", "password_hash", "totp_secret", "recovery_codes",
                                                        "failed_sign_ins", "locked_until", "created_date", "totp_last_step"], key: ["id"])
    package static let record = StoredTable("record", ["id", "store_name", "patient_name", "time_zone", "care_plan",
                                                      "patient_edits_plan", "created_date"], key: ["id"])
    package static let membership = StoredTable("membership", ["record", "account", "role", "is_owner", "created_date"],
                                                key: ["record", "account"])
    package static let invitation = StoredTable("invitation", ["secret_hash", "record", "role", "invited_by", "created_date",
                                                              "expiry_date", "accepted_date", "accepted_by"], key: ["secret_hash"])
    package static let accessToken = StoredTable("access_token", ["id", "secret_hash", "account", "record", "scope", "label",
                                                                 "created_date", "last_used_date", "revoked_date"], key: ["id"])
    package static let auditEntry = StoredTable("audit_entry", ["sequence", "recorded", "account", "token", "record", "resource",
                                                               "action", "outcome", "address", "detail", "previous_hash", "hash"],
                                                key: ["sequence"])
    package static let auditHead = StoredTable("audit_head", ["id", "sequence", "hash"], key: ["id"])
    package static let pushSubscription = StoredTable("push_subscription", ["id", "account", "endpoint", "public_key", "auth_secret",
                                                                           "created_date"], key: ["id"])
    package static let reminderSetting = StoredTable("reminder_setting", ["account", "record", "task_ids", "quiet_start", "quiet_end",
                                                                         "follow_up_minutes", "updated_date"], key: ["account", "record"])

    package static let sharedValue = StoredTable("shared_value", ["name", "value", "created_date"], key: ["name"])

    package static let triageItem = StoredTable("triage_item", ["id", "record", "cause", "task_id", "task_title", "rule_id", "rule",
                                                                "priority", "status", "observed", "evidence", "outcome_ids", "latest",
                                                                "raised_date", "updated_date", "raised_count", "owner", "acknowledged_by",
                                                                "acknowledged_date", "resolved_by", "resolved_date", "resolution_note"],
                                                key: ["id"])

    package static let thread = StoredTable("thread", ["id", "record", "audience", "subject", "triage_item", "started_by", "started_date",
                                                      "last_message_date", "message_count"], key: ["id"])
    package static let message = StoredTable("message", ["id", "thread", "record", "author", "author_name", "position", "body", "sent_date"], key: ["id"])
    package static let threadRead = StoredTable("thread_read", ["thread", "account", "read_through", "read_date"], key: ["thread", "account"])

    /// The directory's tables (sessions are not among what is copied: people sign in again).
    package static let directory = [account, record, membership, invitation, accessToken, auditEntry, auditHead, pushSubscription,
                                    reminderSetting, sharedValue, triageItem, thread, message, threadRead]

    /// Up to `limit` rows after the row whose key is `after` (from the first row when nil), in key order, `filter`
    /// (an SQL condition on the columns, with its arguments) limiting them further; each row's values are in
    /// `columns` order, in the stored form of `target`.
    package func rows(after: [SQLValue]?, limit: Int, filter: (sql: String, arguments: [SQLValue])? = nil,
                      in db: any SQLDatabase, for target: SQLDialect) async throws -> [[SQLValue]] {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        if let after {
            conditions.append(key.count == 1 ? "\(key[0]) > ?" : "(\(key.joined(separator: ", "))) > (\(QuerySQL.placeholders(key.count)))")
            arguments += after
        }
        if let filter {
            conditions.append("(\(filter.sql))")
            arguments += filter.arguments
        }
        let condition = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return try await db.rows("""
            SELECT \(columns.joined(separator: ", ")) FROM \(name)\(condition) ORDER BY \(key.joined(separator: ", ")) LIMIT \(limit)
            """, arguments) { row in
            try columns.indices.map { try converted(row.value(at: $0), column: columns[$0], for: target) }
        }
    }

    /// The key of a row read by `rows(after:limit:filter:in:for:)`.
    package func key(of row: [SQLValue]) -> [SQLValue] {
        key.map { row[columns.firstIndex(of: $0)!] }
    }

    /// A stored value in the form `target` stores it.
    private func converted(_ value: SQLValue, column: String, for target: SQLDialect) throws -> SQLValue {
        if uuidColumns.contains(column) {
            guard case .blob = value else { return value }
            return try OneValueRow(value).optionalUUID(column).map(SQLValue.uuid) ?? .null
        }
        if column == outcomeValueColumn { return OCKOutcomeValue.storedValue(value, for: target) }
        return value
    }

    /// Inserts rows (each with a value per column, as `rows(after:limit:filter:in:for:)` reads them), several to a
    /// statement; with `ignoringConflicts`, a row that a uniqueness constraint refuses is left out.
    package func insert(_ rows: [[SQLValue]], into db: any SQLDatabase, ignoringConflicts: Bool = false) async throws {
        try await db.insertRows(into: name, columns: columns, rows: rows, ignoringConflicts: ignoringConflicts)
    }
}

/// A row of one value, to read a value with `SQLRow`'s conversions.
private struct OneValueRow: SQLRow {
    let stored: SQLValue
    init(_ value: SQLValue) { stored = value }
    func value(_ column: String) -> SQLValue { stored }
    func value(at index: Int) -> SQLValue { stored }
}

extension SQLDatabase {
    /// Inserts `rows` (each with a value per column) into `table`; with `ignoringConflicts`, a row that a uniqueness
    /// constraint refuses is left out.
    package func insertRows(into table: String, columns: [String], rows: [[SQLValue]], ignoringConflicts: Bool = false) async throws {
        try await insertRows(into: table, columns: columns, values: Array(rows.joined()), ignoringConflicts: ignoringConflicts)
    }

    /// As many rows to a statement as the engines' limits on arguments allow.
    package func insertRows(into table: String, columns: [String], values: [SQLValue], ignoringConflicts: Bool) async throws {
        guard !columns.isEmpty, !values.isEmpty else { return }
        guard values.count % columns.count == 0 else { throw SQLFailure(.other, "Rows for \(table) have missing values") }
        // SQLite allows 32,766 arguments to a statement, PostgreSQL 65,535.
        let perStatement = max(1, min(1_000, 30_000 / columns.count)) * columns.count
        let row = "(" + QuerySQL.placeholders(columns.count) + ")"
        var first = 0
        while first < values.count {
            let chunk = values[first..<min(first + perStatement, values.count)]
            try await execute("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
                        + Array(repeating: row, count: chunk.count / columns.count).joined(separator: ", ")
                        + (ignoringConflicts ? " ON CONFLICT DO NOTHING" : ""), Array(chunk))
            first += chunk.count
        }
    }
}

/// A SHA-256 digest of rows, value by value, the same for the same values whatever engine they were read from (in
/// the stored form of one engine): a copy's checksum.
package struct StoredRowsDigest: Sendable {
    private var hash = SHA256()
    package private(set) var rowCount = 0

    package init() {}

    /// Starts the rows of a table.
    package mutating func begin(_ table: String) {
        add(.text(table))
    }

    package mutating func add(row: [SQLValue]) {
        rowCount += 1
        add(.integer(Int64(row.count)))
        for value in row { add(value) }
    }

    private mutating func add(_ value: SQLValue) {
        func put(_ tag: UInt8, _ bytes: some DataProtocol) {
            hash.update(data: [tag])
            withUnsafeBytes(of: UInt64(bytes.count).bigEndian) { hash.update(bufferPointer: $0) }
            hash.update(data: bytes)
        }
        switch value {
        case .null: put(0, Data())
        case let .integer(number): withUnsafeBytes(of: number.bigEndian) { put(1, Data($0)) }
        case let .real(number): withUnsafeBytes(of: number.bitPattern.bigEndian) { put(2, Data($0)) }
        case let .text(text): put(3, Data(text.utf8))
        case let .blob(data): put(4, data)
        case let .uuid(uuid): withUnsafeBytes(of: uuid.uuid) { put(5, Data($0)) }
        }
    }

    /// The digest, as 64 hexadecimal digits.
    package func finalized() -> String {
        hash.finalize().hexEncoded
    }
}
