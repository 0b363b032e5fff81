import Foundation

extension OCKStore {
    /// When the outcome of the event at `occurrence` of the task version `taskUUID` was last deleted (its newest
    /// tombstone), or nil if it never was: the app tells a person whose change waited offline that the event was
    /// marked not done meanwhile, and when.
    public func lastOutcomeDeletion(taskUUID: UUID, occurrence: Int) async throws -> Date? {
        let cache = self.cache
        return try await read { db in
            try await db.rows("""
                SELECT * FROM outcomes WHERE task_uuid = ? AND occurrence = ? AND deleted_date IS NOT NULL
                ORDER BY deleted_date DESC LIMIT 1
                """, [taskUUID.sqlValue, occurrence.sqlValue]) { try OCKOutcome.decode($0, cache: cache) }.first?.deletedDate
        }
    }
}
