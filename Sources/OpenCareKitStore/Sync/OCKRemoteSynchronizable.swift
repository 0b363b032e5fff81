import Foundation

/// A result handed to a completion closure (CareKit's name): the value, or the ``OCKStoreError`` that says why the call
/// failed.
///
/// It is the completion of CareKit's callback forms of the store API (`fetchTasks(query:callbackQueue:completion:)`,
/// `addOutcome(_:callbackQueue:completion:)` …), kept for code written before async/await. Each runs the async form and
/// calls the completion on `callbackQueue`. The queue defaults to the main queue, as in CareKit, which runs blocks only
/// in a process that runs its main loop (`dispatchMain()`, `RunLoop.main.run()`): a server or command-line tool passes
/// a queue of its own. A store's callback calls run one after the other in the order they were made, so a write is in
/// place for the call made after it. Errors that are not `OCKStoreError`s arrive as the operation's case
/// (`.fetchFailed`, `.addFailed` …) with the error's description. A write may pass a nil completion, or use the forms
/// without one, to run without waiting for the result.
///
/// For example:
/// ```swift
/// store.addOutcome(outcome, callbackQueue: queue) { result in
///     switch result {
///     case let .success(saved): print("saved", saved.uuid)
///     case let .failure(error): print(error.localizedDescription)
///     }
/// }
/// ```
public typealias OCKResultClosure<T> = @Sendable (Result<T, OCKStoreError>) -> Void

/// Told by a remote when it wants the store to synchronize, and how far a synchronization has come (CareKit's
/// protocol). `OCKStore` is one: made with a remote, it becomes the remote's delegate.
public protocol OCKRemoteSynchronizationDelegate: AnyObject, Sendable {
    /// The remote learned of changes (a push notification, a message from a peer): synchronize when convenient.
    func didRequestSynchronization(_ remote: any OCKRemoteSynchronizable)
    /// How much of the current synchronization is done, from 0 to 1.
    func remote(_ remote: any OCKRemoteSynchronizable, didUpdateProgress progress: Double)
}

/// Where an `OCKStore` sends and gets versions when it synchronizes (CareKit's protocol): a server, another device,
/// another store. The store calls it during `synchronize()`; `OCKHTTPRemote`-style remotes that can wait for each merge
/// implement ``OCKAsyncRemoteSynchronizable`` instead.
///
/// Synchronization exchanges revision records (``OCKRevisionRecord``): batches of versions with the knowledge vector
/// they were written under. A pull asks the remote for everything the store's vector does not cover; a push sends what the remote's
/// knowledge lacks. Versions are only ever appended, so both sides converge: edits made apart become several newest
/// versions of one id, which the store resolves (`chooseConflictResolution(conflicts:completion:)`).
///
/// A remote should hold its delegate weakly: the store holds its remote.
///
/// For example, a remote that is another store, as a server would be:
/// ```swift
/// final class ServerRemote: OCKAsyncRemoteSynchronizable, @unchecked Sendable {
///     weak var delegate: (any OCKRemoteSynchronizationDelegate)?
///     let automaticallySynchronizes = false
///     let server: OCKStore
///
///     init(server: OCKStore) { self.server = server }
///
///     func pullRevisions(since knowledgeVector: OCKRevisionRecord.KnowledgeVector,
///                        mergeRevision: @escaping @Sendable (OCKRevisionRecord) async throws -> Void) async throws {
///         var cursor: String?
///         repeat {
///             let page = try await server.revisions(since: knowledgeVector, after: cursor)
///             for record in page.revisions { try await mergeRevision(record) }
///             if let knowledge = page.knowledge {
///                 // The server's whole knowledge, last, as a record with no entities.
///                 try await mergeRevision(OCKRevisionRecord(entities: [], knowledgeVector: knowledge))
///             }
///             cursor = page.next
///         } while cursor != nil
///     }
///
///     func pushRevisions(deviceRevisions: [OCKRevisionRecord],
///                        deviceKnowledge: OCKRevisionRecord.KnowledgeVector) async throws {
///         try await server.mergeRevisions(deviceRevisions, deviceKnowledge: deviceKnowledge)
///     }
/// }
///
/// let device = OCKStore(name: "device", type: .inMemory, remote: ServerRemote(server: server))
/// try await device.synchronize()
/// ```
public protocol OCKRemoteSynchronizable: AnyObject, Sendable {
    /// Told when the remote wants a synchronization. Set by `OCKStore(name:type:remote:)`.
    var delegate: (any OCKRemoteSynchronizationDelegate)? { get set }

    /// Whether the store synchronizes after each of its writes (and when the remote asks).
    var automaticallySynchronizes: Bool { get }

    /// Sends every version the store does not know, as revision records whose knowledge vector says what the writer
    /// knew, oldest first: `mergeRevision` once per record, then `completion`. The last record should be the remote's
    /// whole knowledge with no entities, so the store learns what the remote has (the store then sends only what the
    /// remote lacks; without it, everything).
    func pullRevisions(since knowledgeVector: OCKRevisionRecord.KnowledgeVector,
                       mergeRevision: @escaping (OCKRevisionRecord) -> Void,
                       completion: @escaping @Sendable ((any Error)?) -> Void)

    /// Receives the versions the remote lacks and the knowledge of the device that sends them. An error must be
    /// reported: the store then reports the synchronization as failed (CareKit reports success).
    func pushRevisions(deviceRevisions: [OCKRevisionRecord], deviceKnowledge: OCKRevisionRecord.KnowledgeVector,
                       completion: @escaping @Sendable ((any Error)?) -> Void)

    /// Picks the version to keep when one entity has several newest versions after a merge (edits made on two
    /// devices before they synchronized). The store has already kept the default choice (`OCKEntity.newest(of:)`);
    /// a different choice is appended as a newer version. The default implementation makes the default choice.
    func chooseConflictResolution(conflicts: [OCKEntity], completion: @escaping OCKResultClosure<OCKEntity>)
}

extension OCKRemoteSynchronizable {
    /// The default choice: the newest version (`OCKEntity.newest(of:)`), the same on every device.
    public func chooseConflictResolution(conflicts: [OCKEntity], completion: @escaping OCKResultClosure<OCKEntity>) {
        if let newest = OCKEntity.newest(of: conflicts) {
            completion(.success(newest))
        } else {
            completion(.failure(.remoteSynchronizationFailed(reason: "No conflicting versions to choose from")))
        }
    }
}

/// A remote whose pull waits for each merge (so a large pull holds one page in memory at a time) and whose calls
/// are `async`. Implement these; the completion forms of `OCKRemoteSynchronizable` are then provided.
public protocol OCKAsyncRemoteSynchronizable: OCKRemoteSynchronizable {
    /// As `pullRevisions(since:mergeRevision:completion:)`, waiting for each merge; a merge that throws ends the pull
    /// with that error.
    func pullRevisions(since knowledgeVector: OCKRevisionRecord.KnowledgeVector,
                       mergeRevision: @escaping @Sendable (OCKRevisionRecord) async throws -> Void) async throws

    /// As `pushRevisions(deviceRevisions:deviceKnowledge:completion:)`.
    func pushRevisions(deviceRevisions: [OCKRevisionRecord], deviceKnowledge: OCKRevisionRecord.KnowledgeVector) async throws
}

extension OCKAsyncRemoteSynchronizable {
    /// The completion form, made from the async `pullRevisions(since:mergeRevision:)`: runs it in a task, then calls
    /// `completion` with its error, or nil.
    public func pullRevisions(since knowledgeVector: OCKRevisionRecord.KnowledgeVector,
                              mergeRevision: @escaping (OCKRevisionRecord) -> Void,
                              completion: @escaping @Sendable ((any Error)?) -> Void) {
        // The closure is CareKit's (not Sendable); the store's own is safe to call from any thread.
        nonisolated(unsafe) let merge = mergeRevision
        Task {
            do {
                try await pullRevisions(since: knowledgeVector) { merge($0) }
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }

    /// The completion form, made from the async `pushRevisions(deviceRevisions:deviceKnowledge:)`: runs it in a task,
    /// then calls `completion` with its error, or nil.
    public func pushRevisions(deviceRevisions: [OCKRevisionRecord], deviceKnowledge: OCKRevisionRecord.KnowledgeVector,
                              completion: @escaping @Sendable ((any Error)?) -> Void) {
        Task {
            do {
                try await pushRevisions(deviceRevisions: deviceRevisions, deviceKnowledge: deviceKnowledge)
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }
}

extension OCKEntity {
    /// The default resolution of a conflict: the version saved last (`updatedDate`, else `createdDate`), then the one
    /// that takes effect last, then the one with the greater uuid (in byte order), so every device keeps the same.
    /// A tombstone competes like any version: a delete newer than an edit wins.
    public static func newest(of conflicts: [OCKEntity]) -> OCKEntity? {
        conflicts.max { isOlder($0.value, than: $1.value) }
    }

    /// The order of `newest(of:)`.
    static func isOlder(_ left: any OCKVersionedObjectCompatible, than right: any OCKVersionedObjectCompatible) -> Bool {
        let leftSaved = left.updatedDate ?? left.createdDate ?? left.effectiveDate
        let rightSaved = right.updatedDate ?? right.createdDate ?? right.effectiveDate
        if leftSaved != rightSaved { return leftSaved < rightSaved }
        if left.effectiveDate != right.effectiveDate { return left.effectiveDate < right.effectiveDate }
        return left.uuid.precedes(right.uuid)
    }

    /// The entity's id (shared by its versions).
    public var id: String { value.id }
}
