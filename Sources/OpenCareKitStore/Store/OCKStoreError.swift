import Foundation

/// Why a store operation failed, as in CareKitStore. The reason says what was wrong (never patient data).
///
/// Beside it, a store on a server database throws ``StorageUnavailableError`` (try again shortly) and
/// ``StorageFaultError`` (the database failed), which are the server's trouble rather than the call's.
///
/// For example:
/// ```swift
/// do {
///     try await store.addTask(task)
/// } catch let error as OCKStoreError {
///     print(error.localizedDescription) // "Failed to add: A task with the same id already exists: …"
/// }
/// ```
public enum OCKStoreError: Error, LocalizedError, Hashable, Sendable {
    /// A fetch could not answer: nothing matched a single-item fetch (by id, one event, one outcome), or the store
    /// could not be opened or read back.
    case fetchFailed(reason: String)
    /// An add was refused: an id or uuid is taken, the store already has its one patient, or a kind is at its limit
    /// (``OCKStoreLimits``). Nothing of the call was written.
    case addFailed(reason: String)
    /// An update was refused: no entity has the id, it is deleted, it changed since it was read (`onlyIfNewest`,
    /// ``OCKStore/changedMeanwhile``), or a task's new version would take effect before outcomes already recorded.
    /// Nothing of the call was written.
    case updateFailed(reason: String)
    /// A delete was refused: no entity has the id, or it is deleted already. Nothing of the call was written.
    case deleteFailed(reason: String)
    /// `reset()` could not empty the store.
    case resetFailed(reason: String)
    /// A value breaks a rule: it fails validation (the reason names the field), an outcome does not fit its task's
    /// schedule or versions, a store rule refused the write (``OCKStoreRule``), a plan would pass
    /// ``OCKStoreLimits/maximumEventsPerDay``, or an event query covers too many events.
    case invalidValue(reason: String)
    /// An operation took too long. CareKit's case, kept for compatibility; this module's stores do not throw it.
    case timedOut(reason: String)
    /// Synchronization failed: the store has no remote, the remote failed, or a step of the merge did.
    case remoteSynchronizationFailed(reason: String)

    /// The reason text.
    public var reason: String {
        switch self {
        case let .fetchFailed(reason), let .addFailed(reason), let .updateFailed(reason), let .deleteFailed(reason),
             let .resetFailed(reason), let .invalidValue(reason), let .timedOut(reason),
             let .remoteSynchronizationFailed(reason):
            reason
        }
    }

    public var errorDescription: String? {
        switch self {
        case .fetchFailed: "Failed to fetch: \(reason)"
        case .addFailed: "Failed to add: \(reason)"
        case .updateFailed: "Failed to update: \(reason)"
        case .deleteFailed: "Failed to delete: \(reason)"
        case .resetFailed: "Failed to reset: \(reason)"
        case .invalidValue: "Invalid value: \(reason)"
        case .timedOut: "Timed out: \(reason)"
        case .remoteSynchronizationFailed: "Synchronization failed: \(reason)"
        }
    }
}

extension OCKStore {
    /// The reason of the `updateFailed` error of a conditional update whose entity changed since it was read.
    public static let changedMeanwhile = "It was changed by someone else since it was read: read it again and retry."
}
