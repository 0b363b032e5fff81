import Foundation
import OpenCareKitStore

// The care team's triage items (`CareTriageItem`), on every engine of the directory.
extension SQLCareDirectory {
    public func raiseTriage(_ alerts: [CareTriageAlert], record: CareRecordID, now: Date) async throws -> CareTriageRaise {
        // An alert out of bounds is dropped alone (the others of the record still count).
        let byCause = Dictionary(alerts.filter(\.isWithinBounds).map { ($0.cause, $0) }) { $1 }
        guard !byCause.isEmpty else { return CareTriageRaise() }
        let causes = byCause.keys.sorted()
        return try await write { db in
            var result = CareTriageRaise()
            var inserted = false
            for cause in causes {
                let alert = byCause[cause]!
                if let open = try await db.firstRow("SELECT * FROM triage_item WHERE record = ? AND cause = ? AND status <> 'resolved'",
                                              [record.description, cause], Self.triageItem) {
                    guard !Set(alert.evidence).isSubset(of: open.alert.evidence) else { continue }
                    // Something newer than what it held makes it new again, so that a worse reading is not hidden
                    // behind an acknowledgement of a milder one (older evidence coming to the fore, as a change
                    // rule's pair leaving the week, only updates it).
                    let renewed = alert.latest > open.alert.latest
                    try await db.execute("""
                        UPDATE triage_item SET task_title = ?, rule = ?, priority = ?, observed = ?, evidence = ?, outcome_ids = ?,
                          latest = ?, updated_date = ?, raised_count = raised_count + 1,
                          status = CASE WHEN ? = 1 THEN 'new' ELSE status END,
                          acknowledged_by = CASE WHEN ? = 1 THEN NULL ELSE acknowledged_by END,
                          acknowledged_date = CASE WHEN ? = 1 THEN NULL ELSE acknowledged_date END WHERE id = ?
                        """, [alert.taskTitle, alert.rule, alert.priority.rawValue, alert.observed, Self.json(alert.evidence),
                              Self.json(alert.outcomeIDs), alert.latest.timeIntervalSince1970, now.timeIntervalSince1970,
                              renewed, renewed, renewed, open.id.description])
                    var updated = open
                    updated.alert = alert
                    updated.updatedDate = now
                    updated.raisedCount += 1
                    if renewed { (updated.status, updated.acknowledgedBy, updated.acknowledgedDate) = (.new, nil, nil) }
                    result.updated.append(updated)
                    continue
                }
                let resolved = try await db.firstRow("""
                    SELECT evidence FROM triage_item WHERE record = ? AND cause = ? AND status = 'resolved' AND resolved_date IS NOT NULL
                    ORDER BY resolved_date DESC, id LIMIT 1
                    """, [record.description, cause]) { try Self.list($0.string("evidence")) }
                if let resolved, Set(alert.evidence).isSubset(of: resolved) { continue }
                // A record's open items are bounded (one per cause, whatever tasks come and go).
                guard try await db.scalar("SELECT count(*) FROM triage_item WHERE record = ? AND status <> 'resolved'", [record.description])
                    .int ?? 0 < CareTriageItem.maximumOpenPerRecord else { continue }
                let item = CareTriageItem(id: .random(), record: record, alert: alert, status: .new, raisedDate: now, updatedDate: now,
                                          raisedCount: 1)
                try await Self.insertTriageItem(item, db)
                result.raised.append(item)
                inserted = true
            }
            if inserted {
                // A record keeps its newest resolved items only, and always each cause's last one (what a new alert
                // is compared with).
                try await db.execute("""
                    DELETE FROM triage_item WHERE record = ? AND status = 'resolved' AND id NOT IN (
                      SELECT id FROM triage_item WHERE record = ? AND status = 'resolved' ORDER BY resolved_date DESC, id LIMIT ?)
                    AND id NOT IN (
                      SELECT id FROM triage_item t WHERE t.record = ? AND t.status = 'resolved' AND t.resolved_date IS NOT NULL AND NOT EXISTS (
                        SELECT 1 FROM triage_item later WHERE later.record = t.record AND later.cause = t.cause AND later.status = 'resolved'
                          AND (later.resolved_date > t.resolved_date OR (later.resolved_date = t.resolved_date AND later.id < t.id))))
                    """, [record.description, record.description, CareTriageItem.maximumResolvedPerRecord, record.description])
            }
            return result
        }
    }

    public func triageItems(records: [CareRecordID], open: Bool, limit: Int) async throws -> [CareTriageItem] {
        guard limit > 0, !records.isEmpty else { return [] }
        let ids = Array(Set(records.map(\.description))).sorted()
        let items = try await read { db in
            var items: [CareTriageItem] = []
            for chunk in ids.chunks(of: 500) {
                let placeholders = QuerySQL.placeholders(chunk.count)
                let (status, order) = open
                    ? ("status <> 'resolved'", "(priority = 'urgent') DESC, (status = 'new') DESC, latest DESC, id")
                    : ("status = 'resolved'", "resolved_date DESC, id")
                await items += try db.rows("SELECT * FROM triage_item WHERE record IN (\(placeholders)) AND \(status) ORDER BY \(order) LIMIT ?",
                                     chunk.map { $0 as any SQLBindable } + [limit], Self.triageItem)
            }
            return items
        }
        return Array(items.sorted(by: open ? Self.openFirst : Self.resolvedFirst).prefix(limit))
    }

    public func openTriageCounts(records: [CareRecordID]) async throws -> (open: Int, urgent: Int) {
        let ids = Array(Set(records.map(\.description))).sorted()
        return try await read { db in
            var counts = (open: 0, urgent: 0)
            for chunk in ids.chunks(of: 500) {
                let placeholders = QuerySQL.placeholders(chunk.count)
                try await db.forEachRow("""
                    SELECT count(*) AS open, coalesce(sum(CASE WHEN priority = 'urgent' THEN 1 ELSE 0 END), 0) AS urgent
                    FROM triage_item WHERE record IN (\(placeholders)) AND status <> 'resolved'
                    """, chunk.map(\.sqlValue)) { row in
                    counts.open += try row.int("open")
                    counts.urgent += try row.int("urgent")
                }
            }
            return counts
        }
    }

    public func openTriageCountsByRecord(records: [CareRecordID]) async throws -> [CareRecordID: CareTriageCounts] {
        let ids = Array(Set(records.map(\.description))).sorted()
        return try await read { db in
            var counts: [CareRecordID: CareTriageCounts] = [:]
            for chunk in ids.chunks(of: 500) {
                try await db.forEachRow("""
                    SELECT record, count(*) AS open, CAST(coalesce(sum(CASE WHEN priority = 'urgent' THEN 1 ELSE 0 END), 0) AS bigint) AS urgent
                    FROM triage_item WHERE record IN (\(QuerySQL.placeholders(chunk.count))) AND status <> 'resolved' GROUP BY record
                    """, chunk.map(\.sqlValue)) { row in
                    counts[RandomIdentifier(uncheckedText: try row.string("record"))] = CareTriageCounts(open: try row.int("open"),
                                                                                                     urgent: try row.int("urgent"))
                }
            }
            return counts
        }
    }

    public func triageItem(_ id: RandomIdentifier) async throws -> CareTriageItem? {
        try await read { db in try await db.firstRow("SELECT * FROM triage_item WHERE id = ?", [id.description], Self.triageItem) }
    }

    public func actOnTriageItem(_ id: RandomIdentifier, _ action: CareTriageAction, by account: CareAccountID, now: Date) async throws
        -> CareTriageItem {
        if case let .resolve(note) = action {
            guard !note.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, note.count <= CareTriageItem.maximumNoteLength else {
                throw CareDirectoryError(.conflict, "A resolution has a note of 1 to \(CareTriageItem.maximumNoteLength) characters.")
            }
        }
        return try await write { db in
            guard var item = try await db.firstRow("SELECT * FROM triage_item WHERE id = ?", [id.description], Self.triageItem) else {
                throw CareDirectoryError(.notFound, "There is no such item.")
            }
            guard item.isOpen else { throw CareDirectoryError(.conflict, "The item is resolved already.") }
            let stamp = now.timeIntervalSince1970
            switch action {
            case .acknowledge:
                guard item.status == .new else { throw CareDirectoryError(.conflict, "The item is acknowledged already.") }
                try await db.execute("UPDATE triage_item SET status = 'acknowledged', acknowledged_by = ?, acknowledged_date = ? WHERE id = ?",
                               [account.description, stamp, id.description])
                item.status = .acknowledged
                item.acknowledgedBy = account
                item.acknowledgedDate = now
            case let .assign(owner):
                if let owner {
                    guard try await db.scalar("SELECT 1 FROM membership WHERE record = ? AND account = ? AND role = 'clinician'",
                                        [item.record.description, owner.description]).isTrue else {
                        throw CareDirectoryError(.notFound, "The item can be assigned to a clinician of its record only.")
                    }
                }
                try await db.execute("UPDATE triage_item SET owner = ? WHERE id = ?", [owner?.description, id.description])
                item.owner = owner
            case let .resolve(note):
                try await db.execute("UPDATE triage_item SET status = 'resolved', resolved_by = ?, resolved_date = ?, resolution_note = ? WHERE id = ?",
                               [account.description, stamp, note, id.description])
                item.status = .resolved
                item.resolvedBy = account
                item.resolvedDate = now
                item.resolutionNote = note
            }
            return item
        }
    }

    /// Writes `item` as it is (a new one, or one imported).
    static func insertTriageItem(_ item: CareTriageItem, _ db: any SQLDatabase) async throws {
        let alert = item.alert
        try await db.execute("""
            INSERT INTO triage_item (id, record, cause, task_id, task_title, rule_id, rule, priority, status, observed, evidence, outcome_ids,
              latest, raised_date, updated_date, raised_count, owner, acknowledged_by, acknowledged_date, resolved_by, resolved_date, resolution_note)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [item.id.description, item.record.description, alert.cause, alert.taskID, alert.taskTitle, alert.ruleID, alert.rule,
                  alert.priority.rawValue, item.status.rawValue, alert.observed, json(alert.evidence), json(alert.outcomeIDs),
                  alert.latest.timeIntervalSince1970, item.raisedDate.timeIntervalSince1970, item.updatedDate.timeIntervalSince1970,
                  item.raisedCount, item.owner?.description, item.acknowledgedBy?.description, item.acknowledgedDate?.timeIntervalSince1970,
                  item.resolvedBy?.description, item.resolvedDate?.timeIntervalSince1970, item.resolutionNote])
    }

    /// Hands `account`'s items of `record` back to the record's clinicians.
    static func unassignTriage(record: CareRecordID, account: CareAccountID, in db: any SQLDatabase) async throws {
        try await db.execute("UPDATE triage_item SET owner = NULL WHERE record = ? AND owner = ?", [record.description, account.description])
    }

    // MARK: Rows

    static func json(_ list: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(list)) ?? Data("[]".utf8), as: UTF8.self)
    }

    static func list(_ text: String) throws -> [String] {
        try JSONDecoder().decode([String].self, from: Data(text.utf8))
    }

    static func triageItem(_ row: any SQLRow) throws -> CareTriageItem {
        func date(_ column: String) throws -> Date? { try row.optionalDouble(column).map(Date.init(timeIntervalSince1970:)) }
        func account(_ column: String) throws -> CareAccountID? { try row.optionalString(column).map(RandomIdentifier.init(uncheckedText:)) }
        let alert = CareTriageAlert(
            cause: try row.string("cause"), taskID: try row.string("task_id"), taskTitle: try row.optionalString("task_title"),
            ruleID: try row.string("rule_id"), rule: try row.string("rule"),
            priority: CareTriageItem.Priority(rawValue: try row.string("priority")) ?? .routine, observed: try row.double("observed"),
            evidence: try list(row.string("evidence")), outcomeIDs: try list(row.string("outcome_ids")),
            latest: Date(timeIntervalSince1970: try row.double("latest")))
        return CareTriageItem(
            id: RandomIdentifier(uncheckedText: try row.string("id")), record: RandomIdentifier(uncheckedText: try row.string("record")),
            alert: alert, status: CareTriageItem.Status(rawValue: try row.string("status")) ?? .new,
            raisedDate: try date("raised_date") ?? .distantPast, updatedDate: try date("updated_date") ?? .distantPast,
            raisedCount: try row.int("raised_count"), owner: try account("owner"), acknowledgedBy: try account("acknowledged_by"),
            acknowledgedDate: try date("acknowledged_date"), resolvedBy: try account("resolved_by"), resolvedDate: try date("resolved_date"),
            resolutionNote: try row.optionalString("resolution_note"))
    }

    /// Open items: urgent first, then new before acknowledged, then the newest evidence first.
    static func openFirst(_ lhs: CareTriageItem, _ rhs: CareTriageItem) -> Bool {
        let left = (lhs.alert.priority == .urgent ? 0 : 1, lhs.status == .new ? 0 : 1, -lhs.alert.latest.timeIntervalSince1970)
        let right = (rhs.alert.priority == .urgent ? 0 : 1, rhs.status == .new ? 0 : 1, -rhs.alert.latest.timeIntervalSince1970)
        return left != right ? left < right : lhs.id < rhs.id
    }

    static func resolvedFirst(_ lhs: CareTriageItem, _ rhs: CareTriageItem) -> Bool {
        let (left, right) = (lhs.resolvedDate ?? .distantPast, rhs.resolvedDate ?? .distantPast)
        return left != right ? left > right : lhs.id < rhs.id
    }
}
