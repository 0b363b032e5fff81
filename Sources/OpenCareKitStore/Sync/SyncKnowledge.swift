import Foundation

extension OCKRevisionRecord.KnowledgeVector {
    /// Whether a remote whose knowledge is `other` has seen everything written under this vector: no process's clock
    /// here is ahead of its clock there. A version whose vector is not known so goes into the revisions for that
    /// remote — also when the remote knows the process that wrote it only from another (CareKit sends it only when
    /// it knows none of the vector's processes, or one of its own clocks is behind).
    package func isKnown(by other: Self) -> Bool {
        processes.allSatisfy { $0.value <= other.clock(for: $0.key) }
    }

    /// The vector as stored: each process's 16-byte uuid and its clock as 8 bytes big-endian (signed), in uuid byte order, so
    /// equal vectors are equal bytes.
    var packed: Data {
        var data = Data(capacity: processes.count * 24)
        for (uuid, clock) in processes.sorted(by: { $0.key.precedes($1.key) }) {
            withUnsafeBytes(of: uuid.uuid) { data.append(contentsOf: $0) }
            withUnsafeBytes(of: Int64(clock).bigEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    init(packed data: Data) throws {
        guard data.count % 24 == 0 else { throw SQLFailure(.other, "a stored knowledge vector is damaged") }
        var processes: [UUID: Int] = [:]
        data.withUnsafeBytes { bytes in
            for offset in stride(from: 0, to: bytes.count, by: 24) {
                let uuid = UUID(uuid: bytes.loadUnaligned(fromByteOffset: offset, as: uuid_t.self))
                processes[uuid] = Int(Int64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 16, as: Int64.self)))
            }
        }
        self.init(processes)
    }
}

/// The store's clock and the knowledge of its versions (`SyncSchema`), read and written inside the caller's
/// transaction.
enum SyncKnowledge {
    /// The store's own process and knowledge.
    struct Clock: Equatable {
        var process: UUID
        var vector: OCKRevisionRecord.KnowledgeVector
    }

    /// The store's clock, nil before the first synchronization.
    static func existingClock(_ db: any SQLDatabase) async throws -> Clock? {
        try await db.firstRow("SELECT process, vector FROM sync_clock WHERE clock_id = 1", [], { row in
            Clock(process: try row.uuid("process"), vector: try .init(packed: try row.data("vector")))
        })
    }

    /// The store's clock, made on first use with a new process whose clock is 1 (CareKit's start).
    static func clock(_ db: any SQLDatabase) async throws -> Clock {
        if let clock = try await existingClock(db) { return clock }
        let process = UUID()
        let clock = Clock(process: process, vector: .init([process: 1]))
        try await db.execute("INSERT INTO sync_clock (clock_id, process, vector) VALUES (1, ?, ?)", [process, clock.vector.packed])
        return clock
    }

    /// Refuses a remote's vector that knows more of this store's own writes than the store made: the store went
    /// backwards (restored from an older backup) or the remote synced with another copy of it. Serving or merging
    /// would lose writes: versions the store writes next would carry clocks the remote believes it has seen.
    static func requireNotAhead(_ vector: OCKRevisionRecord.KnowledgeVector, of clock: Clock) throws {
        guard vector.clock(for: clock.process) <= clock.vector.clock(for: clock.process) else {
            throw OCKStoreError.invalidValue(reason: """
                The knowledge vector knows more of this store's own writes than the store made: the store was restored \
                from an older copy, or the device synchronized with another copy of it
                """)
        }
    }

    /// Refuses a vector of more processes than a store keeps (before any transaction: its size alone).
    static func requireBounded(_ vector: OCKRevisionRecord.KnowledgeVector) throws {
        guard vector.processes.count <= OCKStoreLimits.maximumSyncProcesses else { throw tooManyProcesses }
    }

    static let tooManyProcesses = OCKStoreError.invalidValue(reason: """
        The knowledge vector names more devices than a store keeps (\(OCKStoreLimits.maximumSyncProcesses))
        """)

    /// Refuses a push whose vectors together (`union`: the device's knowledge and its revisions' vectors) are ahead
    /// of what the store has heard for more than one process, or would make the store hear of more processes than
    /// it keeps. A device knows other devices' clocks only from this store — its knowledge, or the vectors of the
    /// versions it pulled, which may be ahead of the store's own knowledge while a push in parts is unfinished — so the
    /// one clock it may know better is its own; a vector claiming more is made up, and its processes would be kept
    /// and served for good.
    static func requireOneNewProcess(_ union: OCKRevisionRecord.KnowledgeVector, beyond clock: Clock, _ db: any SQLDatabase) async throws {
        func ahead(of known: OCKRevisionRecord.KnowledgeVector) -> Int {
            union.processes.lazy.filter { $0.value > known.clock(for: $0.key) }.prefix(2).count
        }
        var heard = clock.vector
        if ahead(of: heard) > 1 || union.processes.keys.contains(where: { clock.vector.processes[$0] == nil }) {
            // Only when the push names a process the store's knowledge lacks (a new device, the parts of a push, or
            // one made up): what the store has heard also counts the vectors of versions it holds without having
            // learnt them, so the bound holds for every vector it keeps and serves. Each read once; ordinary pushes,
            // of devices the store knows, skip it.
            try await db.forEachRow("SELECT vector FROM sync_knowledge", []) { row in heard.merge(with: try .init(packed: try row.data("vector"))) }
        }
        guard ahead(of: heard) <= 1 else {
            throw OCKStoreError.invalidValue(reason: """
                The knowledge vector claims clocks of other devices that this store never gave: a device knows other \
                devices' writes only from the store it synchronizes with
                """)
        }
        var all = heard
        all.merge(with: union)
        guard all.processes.count <= OCKStoreLimits.maximumSyncProcesses else { throw tooManyDevices }
    }

    static let tooManyDevices = OCKStoreError.invalidValue(reason: """
        This store has synchronized with \(OCKStoreLimits.maximumSyncProcesses) devices, the most it keeps: a new device cannot join it
        """)

    /// Merges what a remote knows into the store's knowledge, once the store holds every version under it. With
    /// `joining` false (a push that wrote nothing), processes the store does not know yet are left out: a device
    /// joins the store's knowledge with its first write, so pushes of knowledge alone add nothing it keeps. Refuses
    /// (`OCKStoreLimits.maximumSyncProcesses`) knowledge of more processes than a store keeps.
    static func learn(_ vector: OCKRevisionRecord.KnowledgeVector, joining: Bool = true, _ db: any SQLDatabase) async throws {
        var clock = try await clock(db)
        let before = clock.vector
        clock.vector.merge(with: joining ? vector : .init(vector.processes.filter { before.processes[$0.key] != nil }))
        guard clock.vector.processes.count <= OCKStoreLimits.maximumSyncProcesses else { throw tooManyDevices }
        if clock.vector != before { try await save(clock, db) }
    }

    static func save(_ clock: Clock, _ db: any SQLDatabase) async throws {
        try await db.execute("UPDATE sync_clock SET vector = ? WHERE clock_id = 1", [clock.vector.packed])
    }

    /// The id versions about to be written under `vector` get in `sync_knowledge`: a new vector gets the next id; a
    /// known one is moved past every other (with the versions it holds) unless it is the newest already. Ids then
    /// only grow with what is written, so a pull that reads in id order and resumes after an id (`revisions(since:
    /// after:)`) misses nothing written meanwhile; moving a vector sends its versions again, and a merge skips them.
    static func id(of vector: OCKRevisionRecord.KnowledgeVector, _ db: any SQLDatabase) async throws -> Int64 {
        let newest = await Int64(try db.scalar("SELECT MAX(id) FROM sync_knowledge").int ?? 0)
        guard let existing = try await existingID(of: vector, db) else {
            try await db.execute("INSERT INTO sync_knowledge (id, vector) VALUES (?, ?)", [newest + 1, vector.packed])
            return newest + 1
        }
        guard existing != newest else { return existing }
        try await db.execute("UPDATE sync_knowledge SET id = ? WHERE id = ?", [newest + 1, existing])
        for table in SyncSchema.versionedTables {
            try await db.execute("UPDATE \(table) SET knowledge_id = ? WHERE knowledge_id = ?", [newest + 1, existing])
        }
        return newest + 1
    }

    /// The id of `vector` in `sync_knowledge`, if versions were written under it.
    static func existingID(of vector: OCKRevisionRecord.KnowledgeVector, _ db: any SQLDatabase) async throws -> Int64? {
        try await db.scalar("SELECT id FROM sync_knowledge WHERE vector = ?", [vector.packed]).int.map(Int64.init)
    }

    /// Moves the store's own clock on by one and saves it; returns the clock.
    static func advance(_ db: any SQLDatabase) async throws -> Clock {
        var clock = try await clock(db)
        clock.vector.increment(clockFor: clock.process)
        try await save(clock, db)
        return clock
    }

    /// Whether versions were written here since the last seal.
    static func hasUnsealed(_ db: any SQLDatabase) async throws -> Bool {
        for table in SyncSchema.versionedTables
        where try await db.scalar("SELECT 1 FROM \(table) WHERE knowledge_id IS NULL LIMIT 1").isTrue {
            return true
        }
        return false
    }

    /// Gives the versions written here since the last seal a vector of their own: the store's clock moves on first,
    /// so they are new to everyone who learned the store's knowledge before (the store hands out its vector as its
    /// knowledge, and what it writes after must be unknown to whoever holds it: CareKit's "the last increment must be
    /// saved"). Returns the clock, which is the store's knowledge including them.
    ///
    /// With `limit`, at most that many versions are sealed (kinds in dependency order), so that a store with very many
    /// (a record written before sync existed) is sealed in several transactions, each under a vector of its own.
    @discardableResult
    static func seal(_ db: any SQLDatabase, limit: Int? = nil) async throws -> Clock {
        guard try await hasUnsealed(db) else { return try await clock(db) }
        let clock = try await advance(db)
        let id = try await id(of: clock.vector, db)
        var budget = limit ?? .max
        for table in SyncSchema.versionedTables where budget > 0 {
            if limit == nil {
                try await db.execute("UPDATE \(table) SET knowledge_id = ? WHERE knowledge_id IS NULL", [id])
            } else {
                await budget -= try db.execute("""
                    UPDATE \(table) SET knowledge_id = ?
                    WHERE uuid IN (SELECT uuid FROM \(table) WHERE knowledge_id IS NULL LIMIT ?)
                    """, [id, budget])
            }
        }
        return clock
    }

    /// Where a page of revisions ends: the id of the vector, the kind (its place in `SyncSchema.versionedTables`: 0
    /// patients … 5 outcomes, 6 past them) and the uuid of the last version of that kind sent under the vector (pages go through a vector's versions in uuid order, and
    /// resume after it). A merge that adds versions to a vector moves it to a new id (`id(of:)`), so nothing written
    /// after a page was read hides behind its cursor.
    struct Cursor: Equatable {
        var knowledge: Int64
        var kind: Int
        var uuid: UUID

        var text: String { "\(knowledge).\(kind).\(uuid.uuidString)" }

        init(knowledge: Int64, kind: Int, uuid: UUID) {
            (self.knowledge, self.kind, self.uuid) = (knowledge, kind, uuid)
        }

        /// Past every version under the vector `knowledge` (the uuid is not read).
        static func after(_ knowledge: Int64) -> Cursor {
            Cursor(knowledge: knowledge, kind: SyncSchema.versionedTables.count, uuid: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        }

        init?(_ text: String) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, let knowledge = Int64(parts[0]), let kind = Int(parts[1]), let uuid = UUID(uuidString: String(parts[2])),
                  knowledge >= 0, (0...SyncSchema.versionedTables.count).contains(kind) else { return nil }
            self.init(knowledge: knowledge, kind: kind, uuid: uuid)
        }
    }

    /// The versions a remote whose knowledge is `remote` has not seen, one revision record per vector they were
    /// written under (oldest vector first; in each, patients, care plans, contacts, tasks, HealthKit tasks, then
    /// outcomes, each kind in uuid order), after `cursor` and at most `limit` versions; the cursor of the rest if any.
    /// A vector larger than a page is split over pages (records with the same vector). Each page costs the same
    /// wherever it starts: index range scans from the cursor, then the versions by uuid. Versions not sealed yet are
    /// left out: seal first.
    ///
    /// Vectors below `known` are known to the remote (`SyncKnowledgeIndex`) and not read.
    static func revisions(since remote: OCKRevisionRecord.KnowledgeVector, after cursor: Cursor?, limit: Int, known: Int64 = 0,
                          _ db: any SQLDatabase, cache: DecodedEntityCache) async throws -> (records: [OCKRevisionRecord], next: Cursor?) {
        let first = max(cursor?.knowledge ?? 0, known)
        let vectors = try await db.rows("SELECT id, vector FROM sync_knowledge WHERE id >= ? ORDER BY id", [first]) { row in
            (id: Int64(try row.int("id")), vector: try OCKRevisionRecord.KnowledgeVector(packed: try row.data("vector")))
        }.filter { !$0.vector.isKnown(by: remote) }
        let tables = SyncSchema.versionedTables
        let limit = max(1, limit)
        var records: [OCKRevisionRecord] = []
        var budget = limit
        for chunk in vectors.chunks(of: 500) {
            // The keys of the next versions of each kind (one more than fit, to know whether any are left), in
            // page order: vector, kind, uuid.
            var keys: [(knowledge: Int64, kind: Int, uuid: UUID)] = []
            for (kind, table) in tables.enumerated() {
                var sql = "SELECT knowledge_id, uuid FROM \(table) WHERE knowledge_id IN (\(QuerySQL.placeholders(chunk.count)))"
                var arguments = chunk.map(\.id.sqlValue)
                if let cursor, chunk.contains(where: { $0.id == cursor.knowledge }) {
                    if kind < cursor.kind {
                        sql += " AND knowledge_id > ?"
                        arguments.append(cursor.knowledge.sqlValue)
                    } else if kind == cursor.kind {
                        sql += " AND (knowledge_id > ? OR (knowledge_id = ? AND uuid > ?))"
                        arguments += [cursor.knowledge.sqlValue, cursor.knowledge.sqlValue, cursor.uuid.sqlValue]
                    }
                }
                sql += " ORDER BY knowledge_id, uuid LIMIT ?"
                arguments.append((budget + 1).sqlValue)
                try await db.forEachRow(sql, arguments) { row in
                    keys.append((Int64(try row.int("knowledge_id")), kind, try row.uuid("uuid")))
                }
            }
            keys.sort { ($0.knowledge, $0.kind) != ($1.knowledge, $1.kind) ? ($0.knowledge, $0.kind) < ($1.knowledge, $1.kind)
                : $0.uuid.precedes($1.uuid) }
            let taken = keys.prefix(budget)
            // The versions themselves, by uuid.
            var read: [UUID: OCKEntity] = [:]
            func fetch<E: StoredEntity>(_ type: E.Type) async throws {
                let kind = tables.firstIndex(of: E.table)!
                let uuids = taken.filter { $0.kind == kind }.map(\.uuid)
                for part in uuids.chunks(of: 500) {
                    var versions = try await db.rows("SELECT * FROM \(E.table) WHERE uuid IN (\(QuerySQL.placeholders(part.count)))",
                                               part.map(\.sqlValue)) { try E.decode($0, cache: cache) }
                    try await E.completeVersions(&versions, db)
                    for version in versions { read[version.uuid] = version.entity }
                }
            }
            try await fetch(OCKPatient.self)
            try await fetch(OCKCarePlan.self)
            try await fetch(OCKContact.self)
            try await fetch(OCKTask.self)
            try await fetch(OCKHealthKitTask.self)
            try await fetch(OCKOutcome.self)
            let vectorOf = Dictionary(uniqueKeysWithValues: chunk.map { ($0.id, $0.vector) })
            var start = taken.startIndex
            while start < taken.endIndex {
                let knowledge = taken[start].knowledge
                let end = taken[start...].firstIndex { $0.knowledge != knowledge } ?? taken.endIndex
                records.append(OCKRevisionRecord(entities: taken[start..<end].compactMap { read[$0.uuid] },
                                                 knowledgeVector: vectorOf[knowledge]!))
                start = end
            }
            budget -= taken.count
            if keys.count > taken.count, let last = taken.last {
                return (records, Cursor(knowledge: last.knowledge, kind: last.kind, uuid: last.uuid))
            }
            if budget == 0 {
                // The page is full and this chunk is done: go on after it, if anything follows.
                guard let last = taken.last, chunk.last?.id != vectors.last?.id else { return (records, nil) }
                return (records, .after(last.knowledge))
            }
        }
        return (records, nil)
    }
}
