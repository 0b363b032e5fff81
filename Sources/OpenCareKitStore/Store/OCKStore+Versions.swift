import Foundation

/// The shared shape of every entity kind's operations: fetch through a `QuerySQL`, and add, update or delete versions
/// in one transaction that announces `kinds` to live queries.
extension OCKStore {
    func fetchVersions<E: StoredEntity>(_ type: E.Type, _ sql: @escaping @Sendable (SQLDialect) -> QuerySQL) async throws -> [E] {
        let cache = self.cache
        return try await read { db in try await sql(db.dialect).fetch(E.self, db, cache: cache) }
    }

    /// `reusingDeletedIDs`: an id whose newest version is a tombstone may be added again (see `VersionedWrites.add`).
    /// `after` runs once the versions are in, inside the transaction (the store's rules).
    func addVersions<E: StoredEntity>(_ entities: [E], _ kinds: StoreChanges.Kinds, reusingDeletedIDs: Bool = false,
                                      before: @escaping @Sendable (any SQLDatabase) async throws -> Void = { _ in },
                                      after: @escaping @Sendable (any SQLDatabase, Date, [E]) async throws -> Void = { _, _, _ in })
        async throws -> [E] {
        let cache = self.cache
        return try await write(kinds, failure: OCKStoreError.addFailed) { db, now in
            try await before(db)
            let added = try await VersionedWrites.add(entities, now: now, db, reusingDeletedIDs: reusingDeletedIDs, cache: cache)
            // Counted after the add, inside its transaction: a batch that goes past the limit adds nothing.
            try await Self.checkLimits(E.self, db, cache: cache)
            try await after(db, now, added)
            return added
        }
    }

    /// Throws unless the store keeps its limits for entities of kind `E` (inside a write transaction, after the
    /// write): entities of a kind, and for tasks, events a day.
    static func checkLimits<E: StoredEntity>(_ type: E.Type, _ db: any SQLDatabase, cache: DecodedEntityCache,
                                             eventsIncluding: [OCKStoreLimits.TaskKey: Int] = [:]) async throws {
        let live = try await db.scalar("""
            SELECT COUNT(DISTINCT id) FROM \(E.table) WHERE next_effective_date IS NULL AND deleted_date IS NULL
            """).int ?? 0
        if live > OCKStoreLimits.maximumEntitiesOfAKind {
            throw OCKStoreError.addFailed(reason: OCKStoreLimits.tooMany(E.kind))
        }
        try await checkEventsPerDay(E.self, db, cache: cache, including: eventsIncluding)
    }

    /// For tasks of either kind, throws unless the store keeps `OCKStoreLimits.maximumEventsPerDay`.
    static func checkEventsPerDay<E: StoredEntity>(_ type: E.Type, _ db: any SQLDatabase, cache: DecodedEntityCache,
                                                   including: [OCKStoreLimits.TaskKey: Int] = [:]) async throws {
        guard E.self is any TaskFields.Type else { return }
        try await OCKStoreLimits.checkEventsPerDay(db, cache: cache, including: including)
    }

    /// Throws the conflict of a conditional update (`onlyIfNewest`) when `proposed` was read from a version that is
    /// not `current`, the newest.
    static func checkNewest<E: StoredEntity>(_ onlyIfNewest: Bool, current: E, proposed: E) throws {
        if onlyIfNewest, current.uuid != proposed.uuid { throw OCKStoreError.updateFailed(reason: changedMeanwhile) }
    }

    /// `check` sees each current version and its replacement before it is written; `after`, every pair once all
    /// are in, inside the transaction (the store's rules).
    func updateVersions<E: StoredEntity>(_ entities: [E], _ kinds: StoreChanges.Kinds,
                                         check: @escaping @Sendable (any SQLDatabase, E, E) async throws -> Void = { _, _, _ in },
                                         after: @escaping @Sendable (any SQLDatabase, Date, [(current: E, proposed: E)]) async throws -> Void
                                             = { _, _, _ in })
        async throws -> [E] {
        let (cache, newUUID) = (self.cache, self.newUUID)
        return try await write(kinds, failure: OCKStoreError.updateFailed) { db, now in
            var changes: [(current: E, proposed: E)] = []
            let updated = try await VersionedWrites.update(entities, now: now, newUUID: newUUID, db, cache: cache) {
                try await check(db, $0, $1)
                changes.append(($0, $1))
            }
            try await Self.checkEventsPerDay(E.self, db, cache: cache)
            try await after(db, now, changes)
            return updated
        }
    }

    /// `after` gets the versions deleted (as they were before), inside the transaction (the store's rules).
    func deleteVersions<E: StoredEntity>(_ entities: [E], _ kinds: StoreChanges.Kinds,
                                         after: @escaping @Sendable (any SQLDatabase, Date, [E]) async throws -> Void = { _, _, _ in })
        async throws -> [E] {
        let (cache, newUUID) = (self.cache, self.newUUID)
        return try await write(kinds, failure: OCKStoreError.deleteFailed) { db, now in
            var deleted: [E] = []
            let tombstones = try await VersionedWrites.delete(entities, now: now, newUUID: newUUID, db, cache: cache) { deleted.append($0) }
            try await after(db, now, deleted)
            return tombstones
        }
    }
}
