import Foundation

/// Adding, updating and deleting versions the way CareKit does, for any stored entity kind. Each function runs inside
/// the caller's write transaction, so a failure rolls back the whole call.
enum VersionedWrites {
    /// Validates an entity from outside, turning a validation failure into `.invalidValue` naming the field.
    static func validate<E: StoredEntity>(_ entity: E) throws {
        do {
            try entity.validate()
        } catch {
            throw OCKStoreError.invalidValue(reason: "\(E.kind): \(error.description)")
        }
    }

    static func requireDistinctIDs<E: StoredEntity>(_ entities: [E]) throws {
        guard Set(entities.map(\.id)).count == entities.count else {
            throw OCKStoreError.invalidValue(reason: "Identifiers contains duplicate values: each \(E.kind) in one call needs its own id")
        }
    }

    /// Adds first versions. Fails if a version of the same id or the same uuid exists — unless `reusingDeletedIDs`
    /// and the id's newest version is a tombstone: then the entity starts again after the tombstone (CareKit #379).
    /// The deleted versions stay, with their outcomes, but no query walks back past the tombstone, so the new entity
    /// shows nothing of the old one's past.
    static func add<E: StoredEntity>(_ entities: [E], now: Date, _ db: any SQLDatabase, reusingDeletedIDs: Bool = false,
                                     cache: DecodedEntityCache? = nil,
                                     event: (E) async throws -> DateInterval? = { _ in nil }) async throws -> [E] {
        try requireDistinctIDs(entities)
        for entity in entities { try validate(entity) }
        var deletedIDs: Set<String> = []
        // One lookup per 500 entities for ids already taken. A taken uuid is refused by the table's primary key as
        // the rows go in (a lookup first would cost an index probe per entity, `scripts/bench-store`).
        for first in stride(from: 0, to: entities.count, by: 500) {
            let chunk = entities[first..<min(first + 500, entities.count)]
            let placeholders = QuerySQL.placeholders(chunk.count)
            let taken = try await db.rows("SELECT DISTINCT id FROM \(E.table) WHERE id IN (\(placeholders))", chunk.map(\.id)) {
                try $0.string("id")
            }
            guard !taken.isEmpty else { continue }
            guard reusingDeletedIDs, let cache else {
                throw OCKStoreError.addFailed(reason: "\(E.aKind) with the same id already exists (ids stay taken after a delete)")
            }
            for id in taken {
                guard let (_, tip) = try await tip(of: id, E.self, db, cache: cache), tip.deletedDate != nil else {
                    throw OCKStoreError.addFailed(reason: "\(E.aKind) with the same id already exists: update it, or delete it first")
                }
                deletedIDs.insert(id)
            }
        }
        // New entities are inserted together, a few statements for the whole call.
        do {
            var rows = VersionRows()
            var added: [E] = []
            added.reserveCapacity(entities.count)
            for entity in entities {
                if deletedIDs.contains(entity.id), let cache {
                    added.append(try await appendVersion(entity, deleting: false, now: now, newUUID: { entity.uuid }, db, cache: cache,
                                                         afterTombstone: true, event: event))
                    continue
                }
                var version = entity
                version.schemaVersion = .stamped
                version.previousVersionUUIDs = []
                version.nextVersionUUIDs = []
                version.createdDate = version.createdDate ?? now
                version.updatedDate = now
                try rows.add(version, event: try await event(version), db.dialect)
                added.append(version)
            }
            try await rows.insert(E.self, into: db)
            return added
        } catch let error as SQLFailure where error.kind == .uniqueViolation && error.description.contains(db.dialect.takenUUID(in: E.table)) {
            // A uuid taken before, or twice in this call.
            throw OCKStoreError.addFailed(reason: "\(E.aKind) with the same uuid already exists")
        }
    }

    /// The newest version of `id`: the version no other version replaces (the one most recently effective if sync
    /// left several).
    static func tip<E: StoredEntity>(of id: String, _ type: E.Type, _ db: any SQLDatabase, cache: DecodedEntityCache)
        async throws -> (nextUUIDs: Data, entity: E)? {
        try await db.firstRow("""
            SELECT * FROM \(E.table) WHERE id = ? AND next_effective_date IS NULL
            ORDER BY \(db.dialect.order("effective_date", ascending: false)), \(db.dialect.order("updated_date", ascending: false))
            LIMIT 1
            """, [id]) { row in (try row.data("next_uuids"), try E.decode(row, cache: cache)) }
    }

    /// Appends a new version after the newest one of the same id. `deleting` makes it a tombstone.
    ///
    /// The new version's uuid comes from `newUUID`. `afterTombstone` starts a deleted id again (see `add`, which
    /// passes the entity's own uuid): the new version follows the tombstone and is created now.
    static func appendVersion<E: StoredEntity>(_ entity: E, deleting: Bool, now: Date, newUUID: () -> UUID, _ db: any SQLDatabase,
                                               cache: DecodedEntityCache, afterTombstone: Bool = false,
                                               check: (E, E) async throws -> Void = { _, _ in },
                                               event: (E) async throws -> DateInterval? = { _ in nil }) async throws -> E {
        func failure(_ reason: String) -> OCKStoreError {
            deleting ? .deleteFailed(reason: reason) : .updateFailed(reason: reason)
        }
        guard let (nextUUIDs, current) = try await tip(of: entity.id, E.self, db, cache: cache) else {
            throw failure("No previous version exists: there is no \(E.kind) with that id")
        }
        if (current.deletedDate != nil) != afterTombstone {
            throw afterTombstone ? .addFailed(reason: "\(E.aKind) with the same id already exists")
                : failure("The \(E.kind) has been deleted already")
        }
        // Before the deleted id's last version took effect, its older versions still answer dated queries.
        if afterTombstone, entity.effectiveDate < current.effectiveDate {
            throw OCKStoreError.addFailed(reason: """
                \(E.aKind) added again after a delete takes effect on or after the deleted one's last version: \
                set its effectiveDate on or after that version's
                """)
        }
        var version = deleting ? current : entity
        if !deleting { try validate(version) }
        try await check(current, version)
        version.uuid = newUUID()
        version.schemaVersion = .stamped
        version.previousVersionUUIDs = [current.uuid]
        version.nextVersionUUIDs = []
        version.createdDate = afterTombstone ? (entity.createdDate ?? now) : (current.createdDate ?? now)
        version.updatedDate = now
        if deleting {
            version.deletedDate = now
        } else {
            version.deletedDate = nil
        }
        let effective = version.effectiveDate.storeValue
        try await db.execute("""
            UPDATE \(E.table) SET next_uuids = ?,
                next_effective_date = CASE WHEN next_effective_date IS NULL OR next_effective_date > ? THEN ?
                                      ELSE next_effective_date END
            WHERE uuid = ?
            """, [nextUUIDs + PackedUUIDs.data([version.uuid]), effective, effective, current.uuid])
        try await version.insert(db, event: try await event(version))
        return version
    }

    static func update<E: StoredEntity>(_ entities: [E], now: Date, newUUID: () -> UUID, _ db: any SQLDatabase, cache: DecodedEntityCache,
                                        check: (E, E) async throws -> Void = { _, _ in },
                                        event: (E) async throws -> DateInterval? = { _ in nil }) async throws -> [E] {
        try requireDistinctIDs(entities)
        var updated: [E] = []
        for entity in entities {
            updated.append(try await appendVersion(entity, deleting: false, now: now, newUUID: newUUID, db, cache: cache,
                                                  check: check, event: event))
        }
        return updated
    }

    static func delete<E: StoredEntity>(_ entities: [E], now: Date, newUUID: () -> UUID, _ db: any SQLDatabase, cache: DecodedEntityCache,
                                        check: (E) async throws -> Void = { _ in },
                                        event: (E) async throws -> DateInterval? = { _ in nil }) async throws -> [E] {
        try requireDistinctIDs(entities)
        var deleted: [E] = []
        for entity in entities {
            deleted.append(try await appendVersion(entity, deleting: true, now: now, newUUID: newUUID, db, cache: cache,
                                                  check: { current, _ in try await check(current) }, event: event))
        }
        return deleted
    }
}
