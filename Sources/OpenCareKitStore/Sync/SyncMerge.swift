import Crypto
import Foundation

/// Several newest versions of one id met in a merge (edits made apart); the store kept `resolution`, the default
/// choice, as a version after all of them.
package struct SyncConflict: Sendable, Hashable {
    /// The newest versions, in uuid byte order.
    package let tips: [OCKEntity]
    /// The version appended after them.
    package let resolution: OCKEntity
}

/// Merging a remote's revision records into the store, inside the caller's transaction.
///
/// Versions the store has (by uuid) are skipped, so merging is idempotent. The others are inserted as they were
/// written (uuid, dates, links to previous versions), each under its record's knowledge vector, kinds in dependency order
/// (patients, care plans, contacts, tasks, HealthKit tasks, outcomes). Each id's versions form a graph: a version's next versions are
/// those that name it as previous — also when they arrived first — so graphs join whatever order versions come in.
///
/// When an id ends with several newest versions (tips), the store appends one version after all of them with the
/// content of the newest (`OCKEntity.newest(of:)`), effective from the latest of their effective dates. That version's
/// uuid and dates are derived from the tips alone, so every store that meets the same conflict appends the same
/// version, and stores that resolved it apart agree when they meet. Outcomes of different ids for the same event
/// (recorded on two devices) are resolved the same way: the older is deleted by a tombstone derived from it.
/// Nothing is ever written with two current versions of an id, or two current outcomes of an event.
///
/// The records of one call are merged as one: forks are resolved once, over every version they bring. Resolving
/// record by record would resolve forks in graphs known to be partial (a pull's pages split an id's versions over
/// records, in uuid order), and each store would append resolutions of tips no other store meets, which the next
/// synchronization resolves again: how many rounds that took depended on the order of the uuids.
enum SyncMerge {
    /// Merges `records`, in order (a version in several is merged from the first); returns the conflicts resolved
    /// and the kinds of entity changed.
    ///
    /// With `renewingKnownVectors` (a store that serves others, merging a push), versions that come under a vector the
    /// store already holds versions of are written under that vector with the store's clock moved on: whoever
    /// learned the vector from the versions sent before (the earlier parts of a push in parts) does not know the new
    /// one, so they reach it too; and a pull paging through the old vector misses nothing.
    ///
    /// With `rules` (a push), the merge's net change of each id (its current version before and after) passes them
    /// and the store's limits once everything is written; without (a pull), neither. `authorize` sees the kinds of
    /// change it makes, as the same changes made by the store's own calls would. A refusal rolls back the caller's
    /// transaction.
    static func merge(_ records: [OCKRevisionRecord], renewingKnownVectors: Bool = false, _ db: any SQLDatabase,
                      cache: DecodedEntityCache, rules: StoreRules? = nil, now: Date = Date(),
                      authorize: ((Set<OCKStoreChange>) throws -> Void)? = nil)
        async throws -> (conflicts: [SyncConflict], changed: StoreChanges.Kinds) {
        var patients: [Incoming<OCKPatient>] = [], plans: [Incoming<OCKCarePlan>] = [], contacts: [Incoming<OCKContact>] = []
        var tasks: [Incoming<OCKTask>] = [], healthKitTasks: [Incoming<OCKHealthKitTask>] = [], outcomes: [Incoming<OCKOutcome>] = []
        var knowledge = KnowledgeSlots()
        for (index, record) in records.enumerated() {
            let slot = knowledge.slot(for: record.knowledgeVector)
            for entity in record.entities {
                switch entity {
                case let .patient(value): patients.append(Incoming(version: value, record: index, slot: slot))
                case let .carePlan(value): plans.append(Incoming(version: value, record: index, slot: slot))
                case let .contact(value): contacts.append(Incoming(version: value, record: index, slot: slot))
                case let .task(value): tasks.append(Incoming(version: value, record: index, slot: slot))
                case let .healthKitTask(value): healthKitTasks.append(Incoming(version: value, record: index, slot: slot))
                case let .outcome(value): outcomes.append(Incoming(version: value, record: index, slot: slot))
                }
            }
        }
        // Every kind's graphs and resolutions first (reads only), then the vectors' ids in record order, then the
        // writes. Ids in record order keep a pull's order (it serves vectors by id) that of the records: a record's
        // outcomes never come before the earlier record that holds their task.
        var conflicts: [SyncConflict] = []
        func prepared<E: StoredEntity>(_ versions: [Incoming<E>]) async throws -> KindMerge<E>? {
            guard !versions.isEmpty else { return nil }
            var merge = KindMerge<E>(db: db, cache: cache)
            guard try await merge.prepare(versions) else { return nil }
            conflicts += try await merge.resolveForks()
            return merge
        }
        var merges = (patients: try await prepared(patients), plans: try await prepared(plans), contacts: try await prepared(contacts),
                      tasks: try await prepared(tasks), healthKitTasks: try await prepared(healthKitTasks),
                      outcomes: try await prepared(outcomes))
        try await merges.outcomes?.settleOccupiedEvents()
        var used = Set<Int>()
        for slots in [merges.patients?.usedSlots, merges.plans?.usedSlots, merges.contacts?.usedSlots, merges.tasks?.usedSlots,
                      merges.healthKitTasks?.usedSlots, merges.outcomes?.usedSlots] {
            used.formUnion(slots ?? [])
        }
        // What each id becomes, read before the writes (the stored versions it had are still current then).
        var net: Set<OCKStoreChange> = []
        func collect<E: StoredEntity>(_ merge: inout KindMerge<E>?, _ kind: OCKStoreChange.Kind) async throws -> [NetChange<E>] {
            guard var prepared = merge else { return [] }
            let changes = try await prepared.netChanges()
            merge = prepared
            for change in changes { net.insert(OCKStoreChange(kind, change.action)) }
            return changes
        }
        _ = try await collect(&merges.patients, .patient)
        _ = try await collect(&merges.plans, .carePlan)
        _ = try await collect(&merges.contacts, .contact)
        let taskChanges = try await collect(&merges.tasks, .task)
        _ = try await collect(&merges.healthKitTasks, .healthKitTask)
        let outcomeChanges = try await collect(&merges.outcomes, .outcome)
        if let authorize {
            do { try authorize(net) } catch { throw AuthorizationRefusal(error: error) }
        }

        var ids: [Int: Int64] = [:]
        for slot in used.sorted() { ids[slot] = try await knowledge.id(slot, renewingIfKnown: renewingKnownVectors, db) }
        var changed: StoreChanges.Kinds = []
        func write<E: StoredEntity>(_ merge: KindMerge<E>?, _ kind: StoreChanges.Kinds,
                                    event: (E) async throws -> DateInterval? = { _ in nil }) async throws {
            guard let merge else { return }
            try await merge.write(knowledge: { ids[$0]! }, event: event)
            changed.formUnion(kind)
        }
        try await write(merges.patients, .patients)
        try await write(merges.plans, .carePlans)
        try await write(merges.contacts, .contacts)
        try await write(merges.tasks, .tasks)
        try await write(merges.healthKitTasks, .healthKitTasks)
        let events = OutcomeEvents(db, cache: cache)
        try await write(merges.outcomes, .outcomes, event: { try await events.event($0, checkingPlacement: false) })

        // The store's limits and rules, over the store as the merge leaves it (a merge given no rules copies a
        // remote's decisions: a pull).
        guard let rules else { return (conflicts, changed) }
        if merges.patients != nil {
            // CareKit's one patient per store, as `addPatients` keeps it.
            let patients = try await db.scalar("SELECT COUNT(DISTINCT id) FROM patients WHERE next_effective_date IS NULL AND deleted_date IS NULL").int ?? 0
            if patients > 1 { throw OCKStoreError.addFailed(reason: OCKStore.onePatientPerStore) }
        }
        if merges.plans != nil { try await OCKStore.checkLimits(OCKCarePlan.self, db, cache: cache) }
        if merges.contacts != nil { try await OCKStore.checkLimits(OCKContact.self, db, cache: cache) }
        // A task's versions between its current ones count too: each is in effect for a while.
        var brought: [OCKStoreLimits.TaskKey: Int] = [:]
        func bring<T: StoredEntity & TaskFields>(_ merge: KindMerge<T>?) {
            for version in merge?.addedVersions ?? [] where version.deletedDate == nil {
                let key = OCKStoreLimits.TaskKey(table: T.table, id: version.id)
                brought[key] = max(brought[key, default: 0], version.schedule.maximumEventsOnOneDay ?? .max)
            }
        }
        bring(merges.tasks)
        bring(merges.healthKitTasks)
        if merges.tasks != nil { try await OCKStore.checkLimits(OCKTask.self, db, cache: cache, eventsIncluding: brought) }
        if merges.healthKitTasks != nil { try await OCKStore.checkLimits(OCKHealthKitTask.self, db, cache: cache, eventsIncluding: brought) }
        if !rules.isEmpty {
            var writes: [OCKStoreWrite] = []
            for change in taskChanges {
                switch change {
                case let .add(task): writes.append(.addTask(task))
                case let .update(current, proposed): writes.append(.updateTask(current: current, proposed: proposed))
                case let .delete(task): writes.append(.deleteTask(task))
                case .other: break
                }
            }
            for change in outcomeChanges {
                switch change {
                case let .add(outcome): await writes.append(.addOutcome(outcome, task: try events.task(outcome.taskUUID)))
                case let .update(current, proposed): await writes += try OCKStoreWrite.outcomeUpdate(current: current, proposed: proposed, task: events.task)
                case let .delete(outcome): await writes.append(.deleteOutcome(outcome, task: try events.task(outcome.taskUUID)))
                case .other: break
                }
            }
            try await rules.check(writes, db, now: now, cache: cache)
        }
        return (conflicts, changed)
    }

    /// Appends the remote's choice for a conflict after the store's default resolution, unless the entity has
    /// changed since (a newer version then stands). Its uuid and dates derive from the resolution and the choice, so
    /// devices whose remotes choose alike append the same version.
    static func append(_ choice: OCKEntity, after resolution: OCKEntity, _ db: any SQLDatabase, cache: DecodedEntityCache) async throws {
        switch choice {
        case let .patient(value): try await append(value, after: resolution.uuid, db, cache: cache)
        case let .carePlan(value): try await append(value, after: resolution.uuid, db, cache: cache)
        case let .contact(value): try await append(value, after: resolution.uuid, db, cache: cache)
        case let .task(value): try await append(value, after: resolution.uuid, db, cache: cache)
        case let .healthKitTask(value): try await append(value, after: resolution.uuid, db, cache: cache)
        case let .outcome(value):
            let events = OutcomeEvents(db, cache: cache)
            try await append(value, after: resolution.uuid, db, cache: cache) { try await events.event($0, checkingPlacement: false) }
        }
    }

    private static func append<E: StoredEntity>(_ choice: E, after resolution: UUID, _ db: any SQLDatabase, cache: DecodedEntityCache,
                                                event: (E) async throws -> DateInterval? = { _ in nil }) async throws {
        guard let (_, tip) = try await VersionedWrites.tip(of: choice.id, E.self, db, cache: cache), tip.uuid == resolution else { return }
        try VersionedWrites.validate(choice)
        var version = choice
        version.uuid = derivedUUID("choice", [resolution, choice.uuid])
        version.previousVersionUUIDs = [resolution]
        version.nextVersionUUIDs = []
        version.createdDate = tip.createdDate
        version.updatedDate = tip.updatedDate
        version.effectiveDate = tip.effectiveDate
        try await db.execute("UPDATE \(E.table) SET next_uuids = ?, next_effective_date = ? WHERE uuid = ?",
                       [PackedUUIDs.data([version.uuid]), version.effectiveDate.storeValue, resolution])
        try await version.insert(db, event: try await event(version))
    }

    /// A uuid derived from `label` and `uuids` (SHA-256; version 8, RFC 9562's variant): the same inputs give the
    /// same uuid on every device.
    static func derivedUUID(_ label: String, _ uuids: [UUID]) -> UUID {
        var hash = SHA256()
        hash.update(data: Data(label.utf8))
        for uuid in uuids { withUnsafeBytes(of: uuid.uuid) { hash.update(bufferPointer: $0) } }
        var bytes = Array(hash.finalize().prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }
}

/// What a merge does to one id: its current version before (nil: none, or deleted) and after.
enum NetChange<E: StoredEntity> {
    case add(E)
    case update(current: E, proposed: E)
    case delete(E)
    /// A version that changes nothing current: a new id that comes deleted, or a deleted one's new tombstone.
    case other(OCKStoreChange.Action)

    var action: OCKStoreChange.Action {
        switch self {
        case .add: .add
        case .update: .update
        case .delete: .delete
        case let .other(action): action
        }
    }
}

/// A version a merge was given: from which record, under which of the merge's vectors.
private struct Incoming<E: StoredEntity> {
    let version: E
    let record: Int
    let slot: Int
}

/// The distinct vectors of a merge's records; a vector gets its id in `sync_knowledge` only if versions are written
/// under it (a vector whose versions are all known adds nothing).
private struct KnowledgeSlots {
    private var vectors: [OCKRevisionRecord.KnowledgeVector] = []
    private var slots: [Data: Int] = [:]
    /// The store's own process at its clock moved on once for the merge, when a vector was renewed.
    private var renewal: OCKRevisionRecord.KnowledgeVector?

    /// The slot of `vector`, the same for equal vectors.
    mutating func slot(for vector: OCKRevisionRecord.KnowledgeVector) -> Int {
        let packed = vector.packed
        if let slot = slots[packed] { return slot }
        vectors.append(vector)
        slots[packed] = vectors.count - 1
        return vectors.count - 1
    }

    /// The id for the versions about to be written under the vector of `slot` (asked once a slot); `renewingIfKnown`,
    /// the vector merged with the store's moved-on clock when the store already holds versions under it.
    mutating func id(_ slot: Int, renewingIfKnown: Bool, _ db: any SQLDatabase) async throws -> Int64 {
        var vector = vectors[slot]
        if renewingIfKnown, try await SyncKnowledge.existingID(of: vector, db) != nil {
            if renewal == nil {
                let clock = try await SyncKnowledge.advance(db)
                renewal = .init([clock.process: clock.vector.clock(for: clock.process)])
            }
            vector.merge(with: renewal!)
        }
        return try await SyncKnowledge.id(of: vector, db)
    }
}

extension SyncMerge {
    /// Whether two versions with one uuid are the same: their fields and, for an outcome, each value's moment too
    /// (values are equal whenever recorded).
    static func sameVersion<E: StoredEntity>(_ first: E, _ second: E) -> Bool {
        guard first == second else { return false }
        guard let first = first as? OCKOutcome, let second = second as? OCKOutcome else { return true }
        return first.values.map(\.createdDate) == second.values.map(\.createdDate)
    }
}

/// The versions of one id: those in the store (links as stored) and those being merged.
struct VersionGraph<E: StoredEntity> {
    struct Node {
        var previous: [UUID]
        var effective: Date
        /// The stored next versions and their earliest effective date; nil for a version being written.
        var stored: (next: Set<UUID>, nextEffective: Date?)?
        /// The version, for those being written (and stored tips once read).
        var entity: E?
    }

    var nodes: [UUID: Node] = [:]
    /// The versions being written, in the order they came.
    var added: [UUID] = []
    /// Those the store made (resolutions and tombstones).
    var derived: Set<UUID> = []

    mutating func add(_ entity: E) {
        nodes[entity.uuid] = Node(previous: entity.previousVersionUUIDs, effective: entity.effectiveDate, stored: nil, entity: entity)
        added.append(entity.uuid)
    }

    /// Each version's next versions (those naming it as previous), in uuid byte order.
    func nextVersions() -> [UUID: [UUID]] {
        var next: [UUID: [UUID]] = [:]
        for (uuid, node) in nodes {
            for previous in node.previous where nodes[previous] != nil { next[previous, default: []].append(uuid) }
        }
        return next.mapValues { $0.sorted { $0.precedes($1) } }
    }

    /// The versions nothing replaces, in uuid byte order.
    func tips() -> [UUID] {
        let next = nextVersions()
        return nodes.keys.filter { next[$0] == nil }.sorted { $0.precedes($1) }
    }

    /// Whether the links form no cycle (every version can be reached from a first one).
    func isAcyclic() -> Bool {
        let next = nextVersions()
        var waiting = nodes.mapValues { node in node.previous.filter { nodes[$0] != nil }.count }
        var ready = waiting.filter { $0.value == 0 }.map(\.key)
        var seen = 0
        while let uuid = ready.popLast() {
            seen += 1
            for following in next[uuid] ?? [] {
                waiting[following]! -= 1
                if waiting[following] == 0 { ready.append(following) }
            }
        }
        return seen == nodes.count
    }

    /// Adds a version the store made (a resolution or a tombstone).
    mutating func append(_ version: E) {
        add(version)
        derived.insert(version.uuid)
    }
}

/// One kind's part of a merge.
fileprivate struct KindMerge<E: StoredEntity> {
    let db: any SQLDatabase
    let cache: DecodedEntityCache
    var graphs: [String: VersionGraph<E>] = [:]
    var ids: [String] = []
    /// The knowledge slot of each version being merged.
    var slots: [UUID: Int] = [:]

    /// Reads the stored versions of the ids `versions` bring new versions of, and checks the new ones. False when
    /// every version is known.
    mutating func prepare(_ versions: [Incoming<E>]) async throws -> Bool {
        // Known uuids are skipped; a uuid twice in one record must be the same version (in a later record, the first
        // is kept, as if the records were merged one after the other).
        var incoming: [UUID: Incoming<E>] = [:]
        var order: [E] = []
        for given in versions {
            let version = given.version
            if let seen = incoming[version.uuid] {
                guard seen.record != given.record || SyncMerge.sameVersion(seen.version, version) else {
                    throw OCKStoreError.invalidValue(reason: "A revision holds two different \(E.kind) versions with one uuid")
                }
                continue
            }
            incoming[version.uuid] = given
            slots[version.uuid] = given.slot
            order.append(version)
        }
        var known = Set<UUID>()
        for chunk in order.chunks(of: 500) {
            try await db.forEachRow("SELECT uuid FROM \(E.table) WHERE uuid IN (\(QuerySQL.placeholders(chunk.count)))",
                              chunk.map(\.uuid.sqlValue)) { known.insert(try $0.uuid("uuid")) }
        }
        let new = order.filter { !known.contains($0.uuid) }
        guard !new.isEmpty else { return false }
        for version in new { try VersionedWrites.validate(version) }

        for version in new where graphs[version.id] == nil {
            graphs[version.id] = VersionGraph()
            ids.append(version.id)
        }
        for chunk in ids.chunks(of: 500) {
            try await db.forEachRow("""
                SELECT uuid, id, previous_uuids, next_uuids, next_effective_date, effective_date FROM \(E.table)
                WHERE id IN (\(QuerySQL.placeholders(chunk.count)))
                """, chunk.map(\.sqlValue)) { row in
                let node = VersionGraph<E>.Node(
                    previous: PackedUUIDs.uuids(try row.data("previous_uuids")), effective: try row.date("effective_date") ?? .distantPast,
                    stored: (Set(PackedUUIDs.uuids(try row.data("next_uuids"))), try row.date("next_effective_date")), entity: nil)
                graphs[try row.string("id")]?.nodes[try row.uuid("uuid")] = node
            }
        }
        for version in new { graphs[version.id]!.add(version) }

        // A version replaces versions of its own id only; the store may not have them yet (they join when they come).
        var elsewhere: [UUID] = []
        for version in new {
            for previous in version.previousVersionUUIDs where graphs[version.id]!.nodes[previous] == nil {
                if previous == version.uuid || incoming[previous] != nil {
                    throw OCKStoreError.invalidValue(reason: "A revision links a \(E.kind) version to a version of another id")
                }
                elsewhere.append(previous)
            }
        }
        for chunk in elsewhere.chunks(of: 500) {
            if try await db.scalar("SELECT 1 FROM \(E.table) WHERE uuid IN (\(QuerySQL.placeholders(chunk.count))) LIMIT 1",
                             chunk.map(\.sqlValue)).isTrue {
                throw OCKStoreError.invalidValue(reason: "A revision links a \(E.kind) version to a version of another id")
            }
        }
        for id in ids where !graphs[id]!.isAcyclic() {
            throw OCKStoreError.invalidValue(reason: "A revision's \(E.kind) versions replace each other in a cycle")
        }
        return true
    }

    /// Appends the default resolution after the tips of every id left with several.
    mutating func resolveForks() async throws -> [SyncConflict] {
        var conflicts: [SyncConflict] = []
        for id in ids {
            let tips = graphs[id]!.tips()
            guard tips.count > 1 else { continue }
            let versions = try await entities(tips, of: id)
            guard let winner = versions.max(by: { OCKEntity.isOlder($0, than: $1) }) else { continue }
            var resolution = winner
            resolution.uuid = SyncMerge.derivedUUID("resolution", tips)
            resolution.previousVersionUUIDs = tips
            resolution.nextVersionUUIDs = []
            resolution.updatedDate = versions.compactMap(\.updatedDate).max()
            resolution.effectiveDate = versions.map(\.effectiveDate).max()!
            if graphs[id]!.nodes[resolution.uuid] == nil {
                graphs[id]!.append(resolution)
            }
            conflicts.append(SyncConflict(tips: versions.map(\.entity), resolution: resolution.entity))
        }
        return conflicts
    }

    /// Each id's net change (before the writes, after the resolutions): the stored version that was current, and
    /// the one the merge leaves current. Ids whose current version stays are left out.
    mutating func netChanges() async throws -> [NetChange<E>] {
        var changes: [NetChange<E>] = []
        for id in ids {
            let graph = graphs[id]!
            let storedTip = graph.nodes.first { $0.value.stored.map { $0.next.isEmpty } ?? false }?.key
            guard let tip = graph.tips().first else { continue }
            guard tip != storedTip else {
                // Versions that change nothing current (an older version a device fills in) still change the id.
                if graph.added.contains(where: { !graph.derived.contains($0) }) { changes.append(.other(.update)) }
                continue
            }
            let after = try await entities([tip], of: id)[0]
            guard let storedTip else {
                changes.append(after.deletedDate == nil ? .add(after) : .other(.add))
                continue
            }
            let before = try await entities([storedTip], of: id)[0]
            switch (before.deletedDate == nil, after.deletedDate == nil) {
            case (true, true): changes.append(.update(current: before, proposed: after))
            case (true, false): changes.append(.delete(before))
            case (false, true): changes.append(.add(after))
            case (false, false): changes.append(.other(.update))
            }
        }
        return changes
    }

    /// The versions the records bring (not the store's own), in no particular order.
    var addedVersions: [E] {
        graphs.values.flatMap { graph in graph.added.filter { !graph.derived.contains($0) }.compactMap { graph.nodes[$0]?.entity } }
    }

    /// The versions `uuids` of `id`, read from the store where they are not being written.
    mutating func entities(_ uuids: [UUID], of id: String) async throws -> [E] {
        let stored = uuids.filter { graphs[id]!.nodes[$0]?.entity == nil }
        if !stored.isEmpty {
            var read = try await db.rows("SELECT * FROM \(E.table) WHERE uuid IN (\(QuerySQL.placeholders(stored.count)))",
                                   stored.map(\.sqlValue)) { try E.decode($0, cache: cache) }
            try await E.completeVersions(&read, db)
            for version in read { graphs[id]!.nodes[version.uuid]?.entity = version }
        }
        return try uuids.map { uuid in
            guard let entity = graphs[id]!.nodes[uuid]?.entity else {
                throw OCKStoreError.fetchFailed(reason: "\(E.aKind) version disappeared during a merge")
            }
            return entity
        }
    }

    /// The knowledge slots of the versions to write from the records (not those the store made).
    var usedSlots: Set<Int> {
        Set(graphs.values.flatMap { graph in graph.added.filter { !graph.derived.contains($0) }.compactMap { slots[$0] } })
    }

    /// Writes the links of stored versions that gained next versions, then the new versions, with the knowledge of
    /// their records (`knowledge` of their slots; resolutions are this store's own writes, sealed later).
    func write(knowledge: (Int) throws -> Int64, event: (E) async throws -> DateInterval?) async throws {
        var rows = VersionRows()
        for id in ids {
            let graph = graphs[id]!
            let next = graph.nextVersions()
            func nextEffective(_ uuid: UUID) -> Date? {
                next[uuid]?.compactMap { graph.nodes[$0]?.effective }.min()
            }
            // Links first: a stored version that stops being current does so before any new current one is written.
            for (uuid, node) in graph.nodes {
                guard let stored = node.stored else { continue }
                let following = next[uuid] ?? []
                let effective = nextEffective(uuid)
                guard Set(following) != stored.next || effective != stored.nextEffective else { continue }
                try await db.execute("UPDATE \(E.table) SET next_uuids = ?, next_effective_date = ? WHERE uuid = ?",
                               [PackedUUIDs.data(following), effective?.storeValue, uuid])
            }
            for uuid in graph.added {
                guard var version = graph.nodes[uuid]?.entity else { continue }
                version.nextVersionUUIDs = next[uuid] ?? []
                let knowledgeID = graph.derived.contains(uuid) ? nil : try knowledge(slots[uuid]!)
                try rows.add(version, nextEffectiveDate: nextEffective(uuid), knowledge: knowledgeID,
                             event: try await event(version), db.dialect)
            }
        }
        try await rows.insert(E.self, into: db)
    }

}

extension KindMerge where E == OCKOutcome {
    /// Deletes, by a tombstone, every current outcome that shares its event with a newer current one: outcomes of
    /// different ids recorded apart for one occurrence (the store keeps one current outcome per event). The newer is
    /// the newest by `OCKEntity.newest(of:)`. The tombstone's uuid and dates derive from the deleted version alone,
    /// so whichever newer outcome a store met first, every store deletes it with the same version.
    mutating func settleOccupiedEvents() async throws {
        var current: [OccurrenceKey: [OCKOutcome]] = [:]
        for id in ids {
            guard let tip = graphs[id]!.tips().first, let outcome = try await entities([tip], of: id).first,
                  outcome.deletedDate == nil else { continue }
            current[OccurrenceKey(task: outcome.taskUUID, occurrence: outcome.taskOccurrenceIndex), default: []].append(outcome)
        }
        // The current outcomes of other ids at the same events, by task version (an index range per task).
        for (task, occurrences) in Dictionary(grouping: current.keys, by: \.task) {
            for chunk in occurrences.map(\.occurrence).chunks(of: 500) {
                var stored = try await db.rows("""
                    SELECT * FROM outcomes WHERE task_uuid = ? AND occurrence IN (\(QuerySQL.placeholders(chunk.count)))
                    AND next_effective_date IS NULL AND deleted_date IS NULL
                    """, [task.sqlValue] + chunk.map(\.sqlValue)) { try OCKOutcome.decode($0, cache: cache) }
                stored.removeAll { graphs[$0.id] != nil }
                try await OCKOutcome.completeVersions(&stored, db)
                for outcome in stored {
                    current[OccurrenceKey(task: outcome.taskUUID, occurrence: outcome.taskOccurrenceIndex), default: []].append(outcome)
                }
            }
        }
        for (_, outcomes) in current where outcomes.count > 1 {
            let newest = outcomes.max { OCKEntity.isOlder($0, than: $1) }!
            for loser in outcomes where loser.uuid != newest.uuid {
                var tombstone = loser
                tombstone.uuid = SyncMerge.derivedUUID("tombstone", [loser.uuid])
                tombstone.previousVersionUUIDs = [loser.uuid]
                tombstone.nextVersionUUIDs = []
                let when = loser.updatedDate ?? loser.createdDate ?? loser.effectiveDate
                tombstone.updatedDate = when
                tombstone.deletedDate = when
                if graphs[loser.id] == nil {
                    // A stored outcome of another id: only its current version gains a next one.
                    var graph = VersionGraph<OCKOutcome>()
                    graph.nodes[loser.uuid] = .init(previous: loser.previousVersionUUIDs, effective: loser.effectiveDate,
                                                    stored: ([], nil), entity: loser)
                    graphs[loser.id] = graph
                    ids.append(loser.id)
                }
                graphs[loser.id]!.append(tombstone)
            }
        }
    }
}

/// An event of a task version, which has one current outcome at most.
private struct OccurrenceKey: Hashable {
    let task: UUID
    let occurrence: Int
}

extension Array {
    /// The array in consecutive slices of at most `size` elements.
    package func chunks(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
