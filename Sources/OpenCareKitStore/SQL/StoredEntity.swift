import Foundation
import Synchronization

/// An entity kind the SQLite store keeps in a table with the shared version columns (see `StoreSchema`).
protocol StoredEntity: OCKVersionedObjectCompatible, OCKValidatable, Equatable, Sendable {
    /// The table.
    static var table: String { get }
    /// The entity's name in error messages ("task").
    static var kind: String { get }
    /// The columns after the version columns, in insert order.
    static var extraColumns: [String] { get }
    /// Appends this entity's values for `extraColumns`; `event` is the span of an outcome's event.
    func appendExtraValues(to values: inout [SQLValue], event: DateInterval?, _ dialect: SQLDialect) throws
    /// Adds the rows in other tables that belong to this version (outcome values, tags).
    func addDependentRows(to rows: inout VersionRows, _ dialect: SQLDialect)
    /// Reads a version from a row of `table` (selected with `*`).
    static func decode(_ row: any SQLRow, cache: DecodedEntityCache) throws -> Self
    /// Reads what decoded versions keep in other tables (an outcome's values).
    static func completeVersions(_ versions: inout [Self], _ db: any SQLDatabase) async throws
    /// The version as sync exchanges it.
    var entity: OCKEntity { get }
}

extension StoredEntity {
    static func completeVersions(_ versions: inout [Self], _ db: any SQLDatabase) async throws {}

    static var versionColumns: [String] {
        ["uuid", "id", "effective_date", "deleted_date", "created_date", "updated_date", "previous_uuids",
         "next_uuids", "next_effective_date", "group_identifier", "remote_id", "knowledge_id"]
    }

    /// The kind with its article, to begin a sentence ("An outcome", "A task").
    static var aKind: String {
        ("aeiou".contains(kind.first ?? "x") ? "An " : "A ") + kind
    }

    /// The columns a version's row is written with (`appendRow`).
    static var allColumns: [String] { versionColumns + extraColumns }

    /// Appends the values of this version's row, for `versionColumns + extraColumns` (with `nextEffectiveDate` for
    /// versions that already have successors, as sync may bring, `knowledge` for a version merged from a remote
    /// (`SyncSchema`), and, for outcomes, the span of their event). Appended one by one, with no array of the row's
    /// own: a batch of outcomes is written at a few microseconds each (`scripts/bench-store`).
    func appendRow(to values: inout [SQLValue], nextEffectiveDate: Date? = nil, knowledge: Int64? = nil, event: DateInterval?,
                   _ dialect: SQLDialect) throws {
        values.append(.uuid(uuid))
        values.append(.text(id))
        values.append(.real(effectiveDate.storeValue))
        values.append(deletedDate?.storeValue.sqlValue ?? .null)
        values.append(createdDate?.storeValue.sqlValue ?? .null)
        values.append(updatedDate?.storeValue.sqlValue ?? .null)
        values.append(.blob(PackedUUIDs.data(previousVersionUUIDs)))
        values.append(.blob(PackedUUIDs.data(nextVersionUUIDs)))
        values.append(nextEffectiveDate?.storeValue.sqlValue ?? .null)
        values.append(groupIdentifier?.sqlValue ?? .null)
        values.append(remoteID?.sqlValue ?? .null)
        values.append(knowledge?.sqlValue ?? .null)
        try appendExtraValues(to: &values, event: event, dialect)
    }

    /// Inserts this version and its dependent rows.
    func insert(_ db: any SQLDatabase, nextEffectiveDate: Date? = nil, event: DateInterval? = nil) async throws {
        var rows = VersionRows()
        try rows.add(self, nextEffectiveDate: nextEffectiveDate, event: event, db.dialect)
        try await rows.insert(Self.self, into: db)
    }

    /// One row per tag, so "any of these tags" queries use an index.
    func addTagRows(to rows: inout VersionRows) {
        for tag in Set(tags ?? []) { rows.tags += [.uuid(uuid), .text(tag)] }
    }

    /// Copies the version links from the row over whatever the payload said (links change after a version is
    /// written; the columns are the truth).
    mutating func applyVersionColumns(_ row: any SQLRow) throws {
        uuid = try row.uuid("uuid")
        previousVersionUUIDs = PackedUUIDs.uuids(try row.data("previous_uuids"))
        nextVersionUUIDs = PackedUUIDs.uuids(try row.data("next_uuids"))
    }
}

/// Entities stored as CareKit JSON in a `payload` column.
protocol PayloadStoredEntity: StoredEntity, Codable {
    /// Columns after `payload`.
    static var queryColumns: [String] { get }
    /// Values for `queryColumns`.
    var queryValues: [any SQLBindable] { get }
}

extension PayloadStoredEntity {
    static var extraColumns: [String] { ["payload"] + queryColumns }

    func appendExtraValues(to values: inout [SQLValue], event: DateInterval?, _ dialect: SQLDialect) throws {
        values.append(.blob(try StoreJSON.encoder.encode(self)))
        values += queryValues.map(\.sqlValue)
    }

    func addDependentRows(to rows: inout VersionRows, _ dialect: SQLDialect) {
        addTagRows(to: &rows)
    }

    static func decode(_ row: any SQLRow, cache: DecodedEntityCache) throws -> Self {
        let uuid = try row.uuid("uuid")
        var entity: Self
        if let cached = cache.entity(uuid, as: Self.self) {
            entity = cached
        } else {
            let payload = try row.data("payload")
            entity = try ScheduleLimits.unchecked { try StoreJSON.decoder.decode(Self.self, from: payload) }
            cache.store(entity, for: uuid)
        }
        try entity.applyVersionColumns(row)
        return entity
    }
}

/// The JSON coders the store uses for payloads (default date and data strategies, as CareKit's JSON).
enum StoreJSON {
    static var encoder: JSONEncoder { JSONEncoder() }
    static var decoder: JSONDecoder { JSONDecoder() }
}

/// Arrays of uuids packed as consecutive 16-byte values.
enum PackedUUIDs {
    private static let empty = Data()

    static func data(_ uuids: [UUID]) -> Data {
        guard !uuids.isEmpty else { return empty }
        var data = Data(capacity: uuids.count * 16)
        for uuid in uuids {
            withUnsafeBytes(of: uuid.uuid) { data.append(contentsOf: $0) }
        }
        return data
    }

    static func uuids(_ data: Data) -> [UUID] {
        guard data.count >= 16 else { return [] }
        return stride(from: 0, to: data.count - 15, by: 16).map { offset in
            data.withUnsafeBytes { bytes in
                UUID(uuid: bytes.loadUnaligned(fromByteOffset: offset, as: uuid_t.self))
            }
        }
    }
}

extension Date {
    /// How dates are stored: seconds since 2001-01-01.
    var storeValue: Double { timeIntervalSinceReferenceDate }

    init(storeValue: Double) { self.init(timeIntervalSinceReferenceDate: storeValue) }
}

/// Decoded payload entities by version uuid. A version's payload never changes once written, so entries stay valid
/// (version links are re-applied from the row on every read).
final class DecodedEntityCache: Sendable {
    private let entries = Mutex<[UUID: any Sendable]>([:])
    private let capacity = 20_000

    func entity<T: Sendable>(_ uuid: UUID, as type: T.Type) -> T? {
        entries.withLock { $0[uuid] as? T }
    }

    func store<T: Sendable>(_ entity: T, for uuid: UUID) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[uuid] = entity
        }
    }

    func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}

/// The rows of versions to insert, gathered so that many versions go in a few statements (`insertRows`): a batch of
/// 10,000 outcomes is then some thirty statements instead of 20,000 where each statement is a round trip
/// (PostgreSQL). Each table's rows are kept flat, value after value.
struct VersionRows {
    var versions: [SQLValue] = []
    var outcomeValues: [SQLValue] = []
    var tags: [SQLValue] = []

    mutating func add<E: StoredEntity>(_ version: E, nextEffectiveDate: Date? = nil, knowledge: Int64? = nil, event: DateInterval?,
                                       _ dialect: SQLDialect) throws {
        try version.appendRow(to: &versions, nextEffectiveDate: nextEffectiveDate, knowledge: knowledge, event: event, dialect)
        version.addDependentRows(to: &self, dialect)
    }

    func insert<E: StoredEntity>(_ type: E.Type, into db: any SQLDatabase) async throws {
        try await db.insertRows(into: E.table, columns: E.allColumns, values: versions, ignoringConflicts: false)
        let (values, tags) = (StoredTable.outcomeValues, StoredTable.entityTags)
        try await db.insertRows(into: values.name, columns: values.columns, values: outcomeValues, ignoringConflicts: false)
        try await db.insertRows(into: tags.name, columns: tags.columns, values: self.tags, ignoringConflicts: true)
    }
}
