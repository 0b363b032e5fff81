import Foundation

extension OCKStore {
    /// The store's knowledge vector: what it knows of each process that wrote to it (its own clock is made on first
    /// use, at 1).
    package func knowledgeVector() async throws -> OCKRevisionRecord.KnowledgeVector {
        // A read, unless the clock is still to be made: a write counts as a change of the record (other servers'
        // pages would look again).
        if let clock = try await read({ db in try SyncKnowledge.existingClock(db) }) { return clock.vector }
        return try await write([], failure: OCKStoreError.remoteSynchronizationFailed) { db, _ in
            try SyncKnowledge.clock(db).vector
        }
    }

    /// The revisions a remote whose knowledge is `remote` has not seen, and the knowledge they carry this store to:
    /// the versions written here since the last synchronization get the store's vector, then its own clock moves on,
    /// so that what is written after is newer than anything the remote is told (CareKit's "compute revisions, then
    /// increment"; both saved in one transaction).
    package func computeRevisions(since remote: OCKRevisionRecord.KnowledgeVector) async throws
        -> (revisions: [OCKRevisionRecord], knowledge: OCKRevisionRecord.KnowledgeVector) {
        try await write([], failure: OCKStoreError.remoteSynchronizationFailed) { db, _ in
            var clock = try SyncKnowledge.clock(db)
            try SyncKnowledge.seal(with: clock.vector, db)
            let revisions = try SyncKnowledge.revisions(since: remote, db, cache: self.cache)
            let knowledge = clock.vector
            clock.vector.increment(clockFor: clock.process)
            try SyncKnowledge.save(clock, db)
            return (revisions, knowledge)
        }
    }
}
