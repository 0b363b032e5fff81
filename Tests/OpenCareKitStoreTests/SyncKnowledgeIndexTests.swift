import Foundation
@testable import OpenCareKitStore
import Testing

/// The index a pull starts from (`SyncKnowledgeIndex`) never lets a pull skip what its device does not know: a
/// snapshot older than the index reads everything and leaves the index as it was, and a write transaction's reads
/// (which may roll back) are not added to it.
@Suite struct SyncKnowledgeIndexTests {
    /// A store of `count` vectors of one device after the store's own, and the store's clock.
    static func store(vectors count: Int) async throws -> (OCKStore, SyncKnowledge.Clock) {
        let (store, _) = try await PullCostTests.server(vectors: count, device: UUID())
        let clock = try #require(try await store.read { db in try await SyncKnowledge.existingClock(db) })
        return (store, clock)
    }

    @Test func aSnapshotOlderThanTheIndexReadsEverythingAndChangesNothing() async throws {
        let (newer, clock) = try await Self.store(vectors: 600)
        let (older, _) = try await Self.store(vectors: 300)
        let index = SyncKnowledgeIndex()
        let knowledge = try await newer.knowledgeVector()
        #expect(try await newer.read { db in try await index.start(for: knowledge, clock: clock, db) } == 513)
        #expect(index.checkpointCount == 2)
        // The same process seen through a snapshot of fewer vectors (as a read begun before another pull sealed):
        // nothing skipped, the index kept.
        #expect(try await older.read { db in try await index.start(for: knowledge, clock: clock, db) } == 0)
        #expect(index.checkpointCount == 2)
        #expect(try await newer.read { db in try await index.start(for: knowledge, clock: clock, db) } == 513)
    }

    @Test func whatAWriteReadsIsNotAddedToTheIndex() async throws {
        let (store, clock) = try await Self.store(vectors: 600)
        let index = SyncKnowledgeIndex()
        let knowledge = try await store.knowledgeVector()
        #expect(try await store.read { db in try await index.start(for: knowledge, clock: clock, db, publishing: false) } == 513)
        #expect(index.checkpointCount == 0)
        #expect(try await store.read { db in try await index.start(for: knowledge, clock: clock, db) } == 513)
        #expect(index.checkpointCount == 2)
    }
}
