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

extension OCKStore {
    /// A page of outcome values found and counted in the database, without reading the others: the values of every
    /// version that is not deleted, of outcomes that were not deleted (what `fetchOutcomes` returns without a date
    /// interval), leaving out the outcomes of deleted tasks and of the tasks with `excludedTaskIDs`, and values holding
    /// bytes (`Data`),
    /// matching every date condition, in the order of their outcome's creation (then the outcome's uuid, then the
    /// value's place). What a FHIR search of Observations pages: its cost follows the page, not the record.
    ///
    /// `excludedOutcomes` leaves out the outcome versions of one task that match a test, read in the same transaction
    /// (a record's signed consents, which are no Observations though other outcomes of their task may be).
    ///
    /// - Returns: How many values match in all, the page's keys in order, and the outcome versions they belong to
    ///   with their task versions, read in one transaction.
    package func outcomeValuePage(excludingTaskIDs excludedTaskIDs: [String], excludingOutcomes excludedOutcomes: (taskID: String, test: @Sendable (OCKOutcome) -> Bool)? = nil,
                                  conditions: [OCKValueDateCondition], offset: Int, limit: Int) async throws
        -> (total: Int, keys: [OCKOutcomeValueKey], outcomes: [OCKOutcome], tasks: [OCKTask]) {
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
            let total = try await db.scalar("SELECT COUNT(*) " + sql, arguments).int ?? 0
            let order = db.dialect.order("o.created_date", ascending: true)
            var keys: [OCKOutcomeValueKey] = []
            try await db.forEachRow("SELECT v.outcome_uuid, v.position " + sql + " ORDER BY \(order), o.uuid, v.position LIMIT ? OFFSET ?",
                              arguments + [max(0, limit).sqlValue, max(0, offset).sqlValue]) { row in
                keys.append(OCKOutcomeValueKey(outcome: try row.uuid("outcome_uuid"), position: try row.int("position")))
            }
            guard !keys.isEmpty else { return (total, [], [], []) }
            // The page's outcome versions, read in the same transaction as the keys.
            var query = OCKOutcomeQuery()
            query.uuids = Array(Set(keys.map(\.outcome)))
            var outcomes = try await QuerySQL(query, db.dialect, dateIntervalApplies: false).fetch(OCKOutcome.self, db, cache: cache)
            try await OCKOutcome.attachValues(to: &outcomes, db)
            var taskQuery = OCKTaskQuery()
            taskQuery.uuids = Array(Set(outcomes.map(\.taskUUID)))
            let tasks = try await QuerySQL(taskQuery, db.dialect).fetch(OCKTask.self, db, cache: cache)
            return (total, keys, outcomes, tasks)
        }
    }
}
