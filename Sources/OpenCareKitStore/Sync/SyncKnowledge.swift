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
    static func existingClock(_ db: any SQLDatabase) throws -> Clock? {
        try db.firstRow("SELECT process, vector FROM sync_clock WHERE clock_id = 1", [], { row in
            Clock(process: try row.uuid("process"), vector: try .init(packed: try row.data("vector")))
        })
    }

    /// The store's clock, made on first use with a new process whose clock is 1 (CareKit's start).
    static func clock(_ db: any SQLDatabase) throws -> Clock {
        if let clock = try existingClock(db) { return clock }
        let process = UUID()
        let clock = Clock(process: process, vector: .init([process: 1]))
        try db.execute("INSERT INTO sync_clock (clock_id, process, vector) VALUES (1, ?, ?)", [process, clock.vector.packed])
        return clock
    }

    static func save(_ clock: Clock, _ db: any SQLDatabase) throws {
        try db.execute("UPDATE sync_clock SET vector = ? WHERE clock_id = 1", [clock.vector.packed])
    }

    /// The id of `vector` in `sync_knowledge`, added when new.
    static func id(of vector: OCKRevisionRecord.KnowledgeVector, _ db: any SQLDatabase) throws -> Int64 {
        let packed = vector.packed
        if let id = try db.scalar("SELECT id FROM sync_knowledge WHERE vector = ?", [packed]).int {
            return Int64(id)
        }
        let id = Int64(try db.scalar("SELECT COALESCE(MAX(id), 0) + 1 FROM sync_knowledge").int ?? 1)
        try db.execute("INSERT INTO sync_knowledge (id, vector) VALUES (?, ?)", [id, packed])
        return id
    }

    /// Gives the versions written here since the last seal the vector they were written under, `vector` (the
    /// store's, which changes only while synchronizing).
    static func seal(with vector: OCKRevisionRecord.KnowledgeVector, _ db: any SQLDatabase) throws {
        var id: Int64?
        for table in SyncSchema.versionedTables {
            guard try db.scalar("SELECT 1 FROM \(table) WHERE knowledge_id IS NULL LIMIT 1").isTrue else { continue }
            if id == nil { id = try self.id(of: vector, db) }
            try db.execute("UPDATE \(table) SET knowledge_id = ? WHERE knowledge_id IS NULL", [id])
        }
    }

    /// Every version a remote whose knowledge is `remote` has not seen, one revision record per vector they were
    /// written under (oldest vector first; in each, patients, care plans, contacts, tasks, then outcomes, each kind
    /// in the order it was written). Versions not sealed yet are left out: seal first.
    static func revisions(since remote: OCKRevisionRecord.KnowledgeVector, _ db: any SQLDatabase,
                          cache: DecodedEntityCache) throws -> [OCKRevisionRecord] {
        let vectors = try db.rows("SELECT id, vector FROM sync_knowledge ORDER BY id") { row in
            (id: Int64(try row.int("id")), vector: try OCKRevisionRecord.KnowledgeVector(packed: try row.data("vector")))
        }.filter { !$0.vector.isKnown(by: remote) }
        guard !vectors.isEmpty else { return [] }
        var entities: [Int64: [OCKEntity]] = [:]
        func collect<E: StoredEntity>(_ type: E.Type, complete: (inout [E]) throws -> Void = { _ in },
                                      _ wrap: (E) -> OCKEntity) throws {
            for first in stride(from: 0, to: vectors.count, by: 500) {
                let ids = vectors[first..<min(first + 500, vectors.count)].map(\.id)
                var found: [(knowledge: Int64, entity: E)] = []
                try db.forEachRow("""
                    SELECT * FROM \(E.table) WHERE knowledge_id IN (\(QuerySQL.placeholders(ids.count)))
                    ORDER BY \(db.dialect.order("updated_date", ascending: true)), uuid
                    """, ids.map(\.sqlValue)) { row in
                    found.append((Int64(try row.int("knowledge_id")), try E.decode(row, cache: cache)))
                }
                var versions = found.map(\.entity)
                try complete(&versions)
                for (index, version) in versions.enumerated() { entities[found[index].knowledge, default: []].append(wrap(version)) }
            }
        }
        try collect(OCKPatient.self, OCKEntity.patient)
        try collect(OCKCarePlan.self, OCKEntity.carePlan)
        try collect(OCKContact.self, OCKEntity.contact)
        try collect(OCKTask.self, OCKEntity.task)
        // An outcome's values are rows of their own.
        try collect(OCKOutcome.self, complete: { try OCKOutcome.attachValues(to: &$0, db) }, OCKEntity.outcome)
        return vectors.compactMap { known in
            entities[known.id].map { OCKRevisionRecord(entities: $0, knowledgeVector: known.vector) }
        }
    }
}
