import Foundation
import OpenCareKitStore
import Synchronization

/// A remote that is another store, as a server would be: pulls page through `revisions(since:after:limit:)` and end
/// with the store's knowledge as a record of no entities; pushes go to `mergeRevisions(_:deviceKnowledge:)`. Only the
/// stores' public API is used.
///
/// Faults for tests: `failPushes(_:)` refuses pushes; `injectFault(_:)` spoils the next pull; `choose(with:)` replaces
/// the default conflict resolution.
public final class StoreRemote: OCKAsyncRemoteSynchronizable {
    /// What goes wrong with the next pull.
    public enum PullFault: Sendable {
        /// The network is down: the pull fails before anything arrives.
        case unreachable
        /// The connection drops after the first record was merged (as a device that crashes between merging and
        /// saving its knowledge).
        case dropsAfterFirstRecord
        /// Every record arrives twice.
        case duplicates
        /// Each page's records arrive in reverse order.
        case reordered
    }

    public let server: OCKStore
    public let pageSize: Int
    public let automaticallySynchronizes: Bool

    private struct State {
        weak var delegate: (any OCKRemoteSynchronizationDelegate)?
        var failingPushes = 0
        var pulls = 0
        var pushes = 0
        var chooser: (@Sendable ([OCKEntity]) -> OCKEntity)?
        var fault: PullFault?
        var asked: [[OCKEntity]] = []
    }

    private let state = Mutex(State())

    public init(server: OCKStore, pageSize: Int = 5_000, automaticallySynchronizes: Bool = false) {
        self.server = server
        self.pageSize = pageSize
        self.automaticallySynchronizes = automaticallySynchronizes
    }

    public var delegate: (any OCKRemoteSynchronizationDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    /// How many pushes the remote refuses from now on.
    public func failPushes(_ count: Int) { state.withLock { $0.failingPushes = count } }

    /// Spoils the next pull.
    public func injectFault(_ fault: PullFault) { state.withLock { $0.fault = fault } }

    /// Chooses conflicts' outcomes instead of the default.
    public func choose(with chooser: @escaping @Sendable ([OCKEntity]) -> OCKEntity) { state.withLock { $0.chooser = chooser } }

    /// The conflicts the store asked about.
    public var asked: [[OCKEntity]] { state.withLock { $0.asked } }

    /// Pulls and pushes the remote answered.
    public var calls: (pulls: Int, pushes: Int) { state.withLock { ($0.pulls, $0.pushes) } }

    public func pullRevisions(since knowledgeVector: OCKRevisionRecord.KnowledgeVector,
                              mergeRevision: @escaping @Sendable (OCKRevisionRecord) async throws -> Void) async throws {
        let fault = state.withLock { state in
            state.pulls += 1
            defer { state.fault = nil }
            return state.fault
        }
        let lost = OCKStoreError.remoteSynchronizationFailed(reason: "The connection to the server was lost (test)")
        if fault == .unreachable { throw lost }
        var cursor: String?
        var merged = 0
        repeat {
            let page = try await server.revisions(since: knowledgeVector, after: cursor, limit: pageSize)
            var records = page.revisions
            switch fault {
            case .duplicates: records = records.flatMap { [$0, $0] }
            case .reordered: records.reverse()
            default: break
            }
            for record in records {
                if fault == .dropsAfterFirstRecord, merged == 1 { throw lost }
                try await mergeRevision(record)
                merged += 1
            }
            if let knowledge = page.knowledge { try await mergeRevision(OCKRevisionRecord(entities: [], knowledgeVector: knowledge)) }
            cursor = page.next
        } while cursor != nil
    }

    public func pushRevisions(deviceRevisions: [OCKRevisionRecord], deviceKnowledge: OCKRevisionRecord.KnowledgeVector) async throws {
        let refused = state.withLock { state in
            state.pushes += 1
            guard state.failingPushes > 0 else { return false }
            state.failingPushes -= 1
            return true
        }
        if refused { throw OCKStoreError.remoteSynchronizationFailed(reason: "The server refused the push (test)") }
        try await server.mergeRevisions(deviceRevisions, deviceKnowledge: deviceKnowledge)
    }

    public func chooseConflictResolution(conflicts: [OCKEntity], completion: @escaping OCKResultClosure<OCKEntity>) {
        let chooser = state.withLock { state in
            state.asked.append(conflicts)
            return state.chooser
        }
        if let chooser {
            completion(.success(chooser(conflicts)))
        } else if let newest = OCKEntity.newest(of: conflicts) {
            completion(.success(newest))
        }
    }
}

/// Every version a store holds, whole (links included), in uuid order: what replicas that converged agree on.
public func allVersions(of store: OCKStore) async throws -> [OCKEntity] {
    var entities: [OCKEntity] = []
    var cursor: String?
    repeat {
        let page = try await store.revisions(since: .init(), after: cursor)
        entities += page.revisions.flatMap(\.entities)
        cursor = page.next
    } while cursor != nil
    return entities.sorted { $0.uuid.uuidString < $1.uuid.uuidString }
}
