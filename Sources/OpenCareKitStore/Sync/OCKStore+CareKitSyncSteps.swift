import Foundation

// CareKit's two steps of a synchronization, as CareKit's `OCKStore` names them (internal there, reached by its own
// tests and by code written against them): the revisions a remote lacks, and the merge of one revision. Both run
// this store's sync — the same vectors, the same deterministic merge (forks resolved by `OCKEntity.newest(of:)`),
// the same rules and limits — and block the calling thread until it is done, as CareKit's Core Data
// `performAndWait` does. The work runs on Swift's concurrency pool, so call them from a thread of your own (the main
// thread, a test's, a dispatch queue's), never from the pool's (an async function, or a completion that runs there,
// as `synchronize(completion:)`'s): with every pool thread blocked the work could not run. They are unavailable
// from async code, which uses `revisions(since:after:limit:)` and `mergeRevisions(_:deviceKnowledge:)`.
extension OCKStore {
    /// Every version a remote whose knowledge is `vector` has not seen, one revision record per knowledge vector
    /// (CareKit's `computeRevisions(since:)`): the pages of `revisions(since:after:limit:)`, joined, each record's
    /// versions in CareKit's order — by kind (patients, care plans, contacts, tasks, outcomes), and in a kind the
    /// latest updated first, so that a deletion's tombstone leads its entity's versions.
    ///
    /// - Throws: what `revisions(since:after:limit:)` throws.
    @available(*, noasync, message: "Use revisions(since:after:limit:) in async code")
    public func computeRevisions(since vector: OCKRevisionRecord.KnowledgeVector) throws -> [OCKRevisionRecord] {
        try CallingThreadExecutor.run {
            // One record per vector: a vector larger than a page comes in parts, and one that a merge between two
            // pages moved on comes again later (its versions once).
            var records: [OCKRevisionRecord] = []
            var index: [OCKRevisionRecord.KnowledgeVector: Int] = [:]
            var seen: Set<UUID> = []
            var cursor: String?
            repeat {
                let page = try await self.revisions(since: vector, after: cursor)
                for record in page.revisions {
                    let fresh = record.entities.filter { seen.insert($0.uuid).inserted }
                    if let at = index[record.knowledgeVector] {
                        records[at] = OCKRevisionRecord(entities: records[at].entities + fresh, knowledgeVector: record.knowledgeVector)
                    } else {
                        index[record.knowledgeVector] = records.count
                        records.append(OCKRevisionRecord(entities: fresh, knowledgeVector: record.knowledgeVector))
                    }
                }
                cursor = page.next
            } while cursor != nil
            return records.map { record in
                // Stable: versions of a kind updated at the same moment keep the page's order (uuid).
                let kinds = OCKEntity.EntityType.allCases
                let ordered = record.entities.enumerated().sorted { first, second in
                    let (kindA, kindB) = (kinds.firstIndex(of: first.element.entityType)!, kinds.firstIndex(of: second.element.entityType)!)
                    if kindA != kindB { return kindA < kindB }
                    let (a, b) = (first.element.value.updatedDate ?? .distantPast, second.element.value.updatedDate ?? .distantPast)
                    return a != b ? a > b : first.offset < second.offset
                }.map(\.element)
                return OCKRevisionRecord(entities: ordered, knowledgeVector: record.knowledgeVector)
            }
        }
    }

    /// Merges one revision record, as a pull merges what the remote sent, and learns its knowledge vector (CareKit's
    /// `mergeRevision(_:)`), in one transaction. Unlike a pull's own merge, the store's rules are asked (the caller
    /// writes directly). CareKit's cannot fail; this one refuses what every merge refuses (a version that fails
    /// validation or a rule, a vector of more devices than a store keeps or that knows more of this store's writes
    /// than it made), merging nothing, and returns that error — nil once merged.
    ///
    /// As CareKit's, it learns the revision's vector at once: a caller that replays a pull page by page claims the
    /// whole vector once one part of it is merged, so it must merge every part (`synchronize()` learns the remote's
    /// knowledge only once a pull is whole). A server's merge of a device's push (`mergeRevisions(_:deviceKnowledge:)`)
    /// is bounded further: a push may bring one new device only.
    @available(*, noasync, message: "Use mergeRevisions(_:deviceKnowledge:) in async code")
    @discardableResult
    public func mergeRevision(_ revision: OCKRevisionRecord) -> (any Error)? {
        do {
            try CallingThreadExecutor.run { try await self.mergePulled(revision) }
            return nil
        } catch {
            return error
        }
    }
}
