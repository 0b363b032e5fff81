import Foundation

/// Why a store operation failed, as in CareKitStore. The reason says what was wrong (never patient data).
public enum OCKStoreError: Error, LocalizedError, Hashable, Sendable {
    case fetchFailed(reason: String)
    case addFailed(reason: String)
    case updateFailed(reason: String)
    case deleteFailed(reason: String)
    case resetFailed(reason: String)
    case invalidValue(reason: String)
    case timedOut(reason: String)
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
