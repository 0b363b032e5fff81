import Foundation

/// A `WHERE … ORDER BY … LIMIT` clause built from a CareKit query.
package struct QuerySQL {
    var conditions: [String] = []
    var arguments: [SQLValue] = []
    /// Requested order: columns, ascending or not (NULLs first when ascending, on every engine).
    var order: [(column: String, ascending: Bool)] = []
    var limit: Int?
    var offset = 0
    /// Leave out every version of entities whose newest version is a tombstone (queries without a date interval).
    var excludesDeletedEntities = false
    /// An index SQLite must use (`INDEXED BY`), where its planner would otherwise scan the table to avoid sorting.
    /// Other engines ignore it.
    var index: String?
    /// Whether the SQL may carry SQLite's planner hints (`INDEXED BY`, `+column`).
    let plannerHints: Bool
    /// A relation the table is joined with, as `WITH <with> SELECT table.* FROM <leading> table ON <on>`, and the
    /// arguments of `with`, which come first (`OCKStore.fetchOutcomes`' occurrence ranges).
    var join: (with: String, leading: String, on: String, arguments: [SQLValue])?

    mutating func require(_ condition: String, _ values: [any SQLBindable] = []) {
        conditions.append(condition)
        arguments += values.map(\.sqlValue)
    }

    /// `column IN (values)`, skipped when `values` is empty (CareKit: an empty filter matches everything).
    mutating func match(_ column: String, _ values: [any SQLBindable]) {
        guard !values.isEmpty else { return }
        require("\(column) IN (\(Self.placeholders(values.count)))", values)
    }

    /// Like `match`, where a nil entry also matches NULL.
    mutating func matchOptional(_ column: String, _ values: [String?]) {
        guard !values.isEmpty else { return }
        let present = values.compactMap { $0 }
        var parts: [String] = []
        if !present.isEmpty { parts.append("\(column) IN (\(Self.placeholders(present.count)))") }
        if values.contains(where: { $0 == nil }) { parts.append("\(column) IS NULL") }
        require("(\(parts.joined(separator: " OR ")))", present)
    }

    /// A relation column matched through the related table's ids, uuids or remote ids. `indexed: false` keeps SQLite
    /// from using the column's index (written `+column`), for queries another index narrows better.
    mutating func matchRelated(_ column: String, table: String, ids: [String], uuids: [UUID], remoteIDs: [String],
                               indexed: Bool = true) {
        let column = indexed || !plannerHints ? column : "+\(column)"
        if !ids.isEmpty {
            require("\(column) IN (SELECT uuid FROM \(table) WHERE id IN (\(Self.placeholders(ids.count))))", ids)
        }
        match(column, uuids)
        if !remoteIDs.isEmpty {
            require("\(column) IN (SELECT uuid FROM \(table) WHERE remote_id IN (\(Self.placeholders(remoteIDs.count))))", remoteIDs)
        }
    }

    /// CareKit's common filters: no tombstones; ids, uuids, group and remote ids, tags; and, with a date interval,
    /// only the version in effect at the interval's end (effective before it, not replaced by a version effective
    /// before it). Without a date interval every version is returned, except (unlike CareKit, which returns them)
    /// the versions of deleted entities.
    init<Query: OCKQueryProtocol>(_ query: Query, _ dialect: SQLDialect, dateIntervalApplies: Bool = true) {
        plannerHints = dialect.plannerHints
        require("deleted_date IS NULL")
        match("id", query.ids)
        match("uuid", query.uuids)
        matchOptional("group_identifier", query.groupIdentifiers)
        matchOptional("remote_id", query.remoteIDs)
        if !query.tags.isEmpty {
            require("uuid IN (SELECT owner_uuid FROM entity_tags WHERE tag IN (\(Self.placeholders(query.tags.count))))", query.tags)
        }
        if let interval = query.dateInterval {
            if dateIntervalApplies {
                let end = interval.end.storeValue
                require("effective_date < ? AND (next_effective_date IS NULL OR next_effective_date >= ?)", [end, end])
            }
        } else {
            excludesDeletedEntities = true
        }
        limit = query.limit
        offset = query.offset
    }

    func sql(table: String, _ dialect: SQLDialect) -> String {
        let hint = index.map { plannerHints ? " INDEXED BY \($0)" : "" } ?? ""
        var sql = join.map { "WITH \($0.with) SELECT \(table).* FROM \($0.leading) \(table)\(hint) ON \($0.on)" }
            ?? "SELECT * FROM \(table)\(hint)"
        var conditions = conditions
        if excludesDeletedEntities {
            conditions.append("id NOT IN (SELECT id FROM \(table) WHERE deleted_date IS NOT NULL AND next_effective_date IS NULL)")
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        // CareKit's default order (newest created first) comes after any requested order; uuid makes it total.
        // Versions of one id share their first version's created date: the newer update comes first among them, and
        // of two saved at once (a sync's resolution is dated as the newest version it follows) the one that
        // replaces the other.
        let terms = order + [("created_date", false), ("updated_date", false)]
        sql += " ORDER BY " + terms.map { dialect.order($0.column, ascending: $0.ascending) }.joined(separator: ", ")
            + ", (next_effective_date IS NULL) DESC, uuid"
        if pageLimit != nil || offset > 0 { sql += " LIMIT ? OFFSET ?" }
        return sql
    }

    package static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ",")
    }

    /// CareKit's limit: nil or 0 means no limit.
    private var pageLimit: Int? { (limit ?? 0) > 0 ? limit : nil }

    /// The arguments, with LIMIT and OFFSET last when present.
    private var allArguments: [SQLValue] {
        var values = (join?.arguments ?? []) + arguments
        // No limit is the largest one (SQLite's -1 is refused by PostgreSQL).
        if pageLimit != nil || offset > 0 { values += [.integer(Int64(pageLimit ?? Int(Int64.max))), .integer(Int64(max(offset, 0)))] }
        return values
    }

    /// Fetches and decodes the matching versions.
    func fetch<E: StoredEntity>(_ type: E.Type, _ db: any SQLDatabase, cache: DecodedEntityCache) async throws -> [E] {
        var entities: [E] = []
        try await db.forEachRow(sql(table: E.table, db.dialect), allArguments) { row in
            entities.append(try E.decode(row, cache: cache))
        }
        return entities
    }
}
