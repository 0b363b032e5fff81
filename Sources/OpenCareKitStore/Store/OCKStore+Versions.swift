import Foundation

/// The shared shape of every entity kind's operations: fetch through a `QuerySQL`, and add, update or delete versions
/// in one transaction that announces `kinds` to live queries.
extension OCKStore {
    func fetchVersions<E: StoredEntity>(_ type: E.Type, _ sql: @escaping @Sendable (SQLDialect) -> QuerySQL) async throws -> [E] {
        let cache = self.cache
        return try await read { db in try sql(db.dialect).fetch(E.self, db, cache: cache) }
    }

    /// `reusingDeletedIDs`: an id whose newest version is a tombstone may be added again (see `VersionedWrites.add`).
    func addVersions<E: StoredEntity>(_ entities: [E], _ kinds: StoreChanges.Kinds, reusingDeletedIDs: Bool = false,
                                      before: @escaping @Sendable (any SQLDatabase) throws -> Void = { _ in }) async throws -> [E] {
        let cache = self.cache
        return try await write(kinds, failure: OCKStoreError.addFailed) { db, now in
            try before(db)
            let added = try VersionedWrites.add(entities, now: now, db, reusingDeletedIDs: reusingDeletedIDs, cache: cache)
            // Counted after the add, inside its transaction: a batch that goes past the limit adds nothing.
            let live = try db.scalar("""
                SELECT COUNT(DISTINCT id) FROM \(E.table) WHERE next_effective_date IS NULL AND deleted_date IS NULL
                """).int ?? 0
            if live > OCKStoreLimits.maximumEntitiesOfAKind {
                throw OCKStoreError.addFailed(reason: OCKStoreLimits.tooMany(E.kind))
            }
            return added
        }
    }

    /// Throws the conflict of a conditional update (`onlyIfNewest`) when `proposed` was read from a version that is
    /// not `current`, the newest.
    static func checkNewest<E: StoredEntity>(_ onlyIfNewest: Bool, current: E, proposed: E) throws {
        if onlyIfNewest, current.uuid != proposed.uuid { throw OCKStoreError.updateFailed(reason: changedMeanwhile) }
    }

    func updateVersions<E: StoredEntity>(_ entities: [E], _ kinds: StoreChanges.Kinds,
                                         check: @escaping @Sendable (any SQLDatabase, E, E) throws -> Void = { _, _, _ in })
        async throws -> [E] {
        let (cache, newUUID) = (self.cache, self.newUUID)
        return try await write(kinds, failure: OCKStoreError.updateFailed) { db, now in
            try VersionedWrites.update(entities, now: now, newUUID: newUUID, db, cache: cache) { try check(db, $0, $1) }
        }
    }

    func deleteVersions<E: StoredEntity>(_ entities: [E], _ kinds: StoreChanges.Kinds,
                                         check: @escaping @Sendable (E) throws -> Void = { _ in }) async throws -> [E] {
        let (cache, newUUID) = (self.cache, self.newUUID)
        return try await write(kinds, failure: OCKStoreError.deleteFailed) { db, now in
            try VersionedWrites.delete(entities, now: now, newUUID: newUUID, db, cache: cache, check: check)
        }
    }
}
