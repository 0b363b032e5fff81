import Foundation
import Synchronization

/// Where a pull starts reading the store's vectors (`sync_knowledge`), so that its cost follows what the device has
/// not seen rather than the store's whole history: a device that pulled yesterday reads the vectors written since,
/// not every vector since the store began.
///
/// The index keeps, every `stride` vectors in id order, the merge of every vector up to there (a prefix merge). The
/// merges only grow with the id, so the last one a device's knowledge covers is found by binary search, and every
/// vector up to it is known to that device. The index is built from the table on a store's first pull (one pass) and
/// extended by the vectors written since on each later one.
///
/// It stays correct without watching every writer (another app server of a PostgreSQL record, a merge that moves a
/// vector to a new id): vectors only get ids above every existing one, committed in id order, so the vectors above
/// the last one read are what is new; a vector moved to a new id is still in the merges of its old place, which only
/// makes them larger — a device must know more to skip there, never less. A store that was reset (a new process) is
/// indexed again from the start; a pull whose snapshot is older than what the index has read reads every vector
/// (a vector moved since its snapshot could lie below a checkpoint there), and only committed reads are added.
final class SyncKnowledgeIndex: Sendable {
    typealias Vector = OCKRevisionRecord.KnowledgeVector

    struct State: Sendable {
        /// The store's process when the index was built: a reset store has a new one.
        var process: UUID?
        /// Each checkpoint: an id, and the merge of every vector with that id or a lower one.
        var checkpoints: [(id: Int64, prefix: Vector)] = []
        /// The highest id read, and the merge of every vector read.
        var read: Int64 = 0
        var merged = Vector([:])
        var sinceCheckpoint = 0
    }

    /// How many vectors lie between two checkpoints: what a pull reads at most beyond what its device has not seen.
    let stride: Int
    private let state = Mutex(State())

    init(stride: Int = 256) {
        self.stride = max(1, stride)
    }

    /// The lowest id of `sync_knowledge` a remote whose knowledge is `remote` may not know: it knows every vector below.
    ///
    /// `publishing` false (inside a write transaction, which may still roll back or run again) uses the index without
    /// adding what this transaction reads to it: rows it sees may never be committed.
    func start(for remote: Vector, clock: SyncKnowledge.Clock, _ db: any SQLDatabase, publishing: Bool = true) async throws -> Int64 {
        var current = state.withLock { $0 }
        let newest = await Int64(try db.scalar("SELECT MAX(id) FROM sync_knowledge").int ?? 0)
        if current.process != clock.process {
            current = State(process: clock.process)
        } else if newest < current.read {
            // This transaction's snapshot is older than what the index has read (another pull sealed meanwhile); a
            // vector moved since might sit below a checkpoint here and not there. Read everything, change nothing.
            return 0
        }
        if newest > current.read {
            let stride = self.stride
            try await db.forEachRow("SELECT id, vector FROM sync_knowledge WHERE id > ? ORDER BY id", [current.read.sqlValue]) { row in
                let id = Int64(try row.int("id"))
                current.merged.merge(with: try Vector(packed: try row.data("vector")))
                current.read = id
                current.sinceCheckpoint += 1
                if current.sinceCheckpoint >= stride {
                    current.checkpoints.append((id, current.merged))
                    current.sinceCheckpoint = 0
                }
            }
            if publishing {
                let updated = current
                state.withLock { stored in
                    // Another pull may have read further meanwhile; keep whichever index reaches further.
                    if stored.process != updated.process || stored.read < updated.read { stored = updated }
                }
            }
        }
        // The last checkpoint the remote's knowledge covers (covered ones come first: the merges only grow).
        var (low, high) = (0, current.checkpoints.count)
        while low < high {
            let middle = (low + high) / 2
            if current.checkpoints[middle].prefix.isKnown(by: remote) { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? 0 : current.checkpoints[low - 1].id + 1
    }

    /// How many checkpoints the index holds (for tests).
    var checkpointCount: Int { state.withLock { $0.checkpoints.count } }
}
