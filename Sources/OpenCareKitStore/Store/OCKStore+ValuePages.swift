import Foundation

/// A condition on when an outcome value was recorded (its `createdDate`), for a search of values.
package enum OCKValueDateCondition: Sendable, Equatable {
    /// Before the date.
    case before(Date)
    /// At or after the date.
    case notBefore(Date)
    /// At or after the start and before the end.
    case within(Date, Date)
    /// Before the start, or at or after the end.
    case outside(Date, Date)
}

/// One value of one outcome version: the outcome's uuid and the value's place in its values.
package struct OCKOutcomeValueKey: Hashable, Sendable {
    package let outcome: UUID
    package let position: Int
}

/// Where a page of outcome values ends and the next begins: the last value's key and its outcome's creation date (as
/// stored), the order pages follow. A page after it starts at the index entry after it, whatever the record's size.
package struct OCKOutcomeValueCursor: Hashable, Sendable {
    /// The outcome's `createdDate` as stored (seconds since 2001-01-01), nil when it has none.
    package let createdDate: Double?
    package let key: OCKOutcomeValueKey

    package init(createdDate: Double?, key: OCKOutcomeValueKey) {
        (self.createdDate, self.key) = (createdDate, key)
    }

    /// The cursor as text for a link, of letters, digits, `-` and `_` only: the date's bits in hexadecimal (exact; `-`
    /// without a date), the outcome's uuid and the value's place.
    package var token: String {
        "\(createdDate.map { String($0.bitPattern, radix: 16) } ?? "-")_\(key.outcome.uuidString.lowercased())_\(key.position)"
    }

    /// A cursor read back from `token`; nil for any other text.
    package init?(token: String) {
        let parts = token.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 3, let outcome = UUID(uuidString: String(parts[1])),
              let position = Int(parts[2]), (0...1_000_000).contains(position) else { return nil }
        if parts[0] == "-" {
            createdDate = nil
        } else {
            guard parts[0].count <= 16, let bits = UInt64(parts[0], radix: 16), Double(bitPattern: bits).isFinite else { return nil }
            createdDate = Double(bitPattern: bits)
        }
        key = OCKOutcomeValueKey(outcome: outcome, position: position)
    }
}

/// A page of outcome values (`OCKStore.outcomeValuePage`).
package struct OCKOutcomeValuePage: Sendable {
    /// How many values match in all, when it was asked for (it costs a count of every match).
    package var total: Int?
    /// The page's values, in order.
    package var keys: [OCKOutcomeValueKey]
    /// The outcome versions the page's values belong to, and their task versions.
    package var outcomes: [OCKOutcome]
    package var tasks: [OCKTask]
    /// Where the next page starts; nil when this page is the last.
    package var next: OCKOutcomeValueCursor?
}

extension OCKStore {
    /// A page of outcome values found in the database, without reading the others: the values of every
    /// version that is not deleted, of outcomes that were not deleted (what `fetchOutcomes` returns without a date
    /// interval), leaving out the outcomes of deleted tasks and of the tasks with `excludedTaskIDs`, and values holding
    /// bytes (`Data`),
    /// matching every date condition, in the order of their outcome's creation (then the outcome's uuid, then the
    /// value's place). What a FHIR search of Observations pages: its cost follows the page, not the record.
    ///
    /// A page starts after `cursor` (the `next` of the page before), found on the outcomes' index of creation order, or
    /// `offset` values in (which walks the values before it). The total is counted only when `counting` is true: a
    /// count visits every match.
    ///
    /// `excludedOutcomes` leaves out the outcome versions of one task that match a test, read in the same transaction
    /// (a record's signed consents, which are no Observations though other outcomes of their task may be).
    package func outcomeValuePage(excludingTaskIDs excludedTaskIDs: [String], excludingOutcomes excludedOutcomes: (taskID: String, test: @Sendable (OCKOutcome) -> Bool)? = nil,
                                  conditions: [OCKValueDateCondition], after cursor: OCKOutcomeValueCursor? = nil, offset: Int = 0, limit: Int,
                                  counting: Bool = false) async throws -> OCKOutcomeValuePage {
        let cache = self.cache
        return try await read { db in
            var sql = """
                FROM outcome_values v JOIN outcomes o ON o.uuid = v.outcome_uuid
                WHERE o.deleted_date IS NULL
                AND o.id NOT IN (SELECT id FROM outcomes WHERE deleted_date IS NOT NULL AND next_effective_date IS NULL)
                AND v.type <> 4
                AND o.task_uuid NOT IN (SELECT uuid FROM tasks WHERE id IN
                    (SELECT id FROM tasks WHERE deleted_date IS NOT NULL AND next_effective_date IS NULL))
                """
            var arguments: [SQLValue] = []
            if !excludedTaskIDs.isEmpty {
                sql += " AND o.task_uuid NOT IN (SELECT uuid FROM tasks WHERE id IN (\(QuerySQL.placeholders(excludedTaskIDs.count))))"
                arguments += excludedTaskIDs.map(\.sqlValue)
            }
            if let excludedOutcomes {
                var query = OCKOutcomeQuery()
                query.taskIDs = [excludedOutcomes.taskID]
                var outcomesOfTask = QuerySQL(query, db.dialect, dateIntervalApplies: false)
                outcomesOfTask.matchRelated("task_uuid", table: "tasks", ids: query.taskIDs, uuids: [], remoteIDs: [])
                var candidates = try await outcomesOfTask.fetch(OCKOutcome.self, db, cache: cache)
                try await OCKOutcome.attachValues(to: &candidates, db)
                let excluded = candidates.filter(excludedOutcomes.test).map(\.uuid)
                if !excluded.isEmpty {
                    sql += " AND o.uuid NOT IN (\(QuerySQL.placeholders(excluded.count)))"
                    arguments += excluded.map(\.sqlValue)
                }
            }
            for condition in conditions {
                switch condition {
                case let .before(date):
                    sql += " AND v.created_date < ?"
                    arguments.append(date.storeValue.sqlValue)
                case let .notBefore(date):
                    sql += " AND v.created_date >= ?"
                    arguments.append(date.storeValue.sqlValue)
                case let .within(start, end):
                    sql += " AND v.created_date >= ? AND v.created_date < ?"
                    arguments += [start.storeValue.sqlValue, end.storeValue.sqlValue]
                case let .outside(start, end):
                    sql += " AND (v.created_date < ? OR v.created_date >= ?)"
                    arguments += [start.storeValue.sqlValue, end.storeValue.sqlValue]
                }
            }
            let total = counting ? try await db.scalar("SELECT COUNT(*) " + sql, arguments).int ?? 0 : nil
            // After the cursor, in the page's order (outcomes without a creation date first). The first comparison
            // alone is one the index can start a range at.
            if let cursor {
                let (outcome, position) = (cursor.key.outcome.sqlValue, cursor.key.position.sqlValue)
                let sameOutcomeAfter = "(o.uuid > ? OR (o.uuid = ? AND v.position > ?))"
                if let date = cursor.createdDate {
                    sql += " AND o.created_date >= ? AND (o.created_date > ? OR (o.created_date = ? AND \(sameOutcomeAfter)))"
                    arguments += [date.sqlValue, date.sqlValue, date.sqlValue, outcome, outcome, position]
                } else {
                    sql += " AND (o.created_date IS NOT NULL OR \(sameOutcomeAfter))"
                    arguments += [outcome, outcome, position]
                }
            }
            let order = db.dialect.order("o.created_date", ascending: true)
            var rows: [(key: OCKOutcomeValueKey, createdDate: Double?)] = []
            // One more than the page: whether there is a next page, without counting.
            try await db.forEachRow("SELECT v.outcome_uuid, v.position, o.created_date " + sql + " ORDER BY \(order), o.uuid, v.position LIMIT ? OFFSET ?",
                              arguments + [(max(0, limit) + 1).sqlValue, max(0, offset).sqlValue]) { row in
                rows.append((OCKOutcomeValueKey(outcome: try row.uuid("outcome_uuid"), position: try row.int("position")),
                             try row.optionalDouble("created_date")))
            }
            let more = rows.count > max(0, limit)
            rows = Array(rows.prefix(max(0, limit)))
            let keys = rows.map(\.key)
            let next = more ? rows.last.map { OCKOutcomeValueCursor(createdDate: $0.createdDate, key: $0.key) } : nil
            guard !keys.isEmpty else { return OCKOutcomeValuePage(total: total, keys: [], outcomes: [], tasks: [], next: nil) }
            // The page's outcome versions, read in the same transaction as the keys.
            var query = OCKOutcomeQuery()
            query.uuids = Array(Set(keys.map(\.outcome)))
            var outcomes = try await QuerySQL(query, db.dialect, dateIntervalApplies: false).fetch(OCKOutcome.self, db, cache: cache)
            try await OCKOutcome.attachValues(to: &outcomes, db)
            var taskQuery = OCKTaskQuery()
            taskQuery.uuids = Array(Set(outcomes.map(\.taskUUID)))
            let tasks = try await QuerySQL(taskQuery, db.dialect).fetch(OCKTask.self, db, cache: cache)
            return OCKOutcomeValuePage(total: total, keys: keys, outcomes: outcomes, tasks: tasks, next: next)
        }
    }
}
