import Foundation

/// The database behind a store or a directory cannot be reached right now: it is down, restarting or refusing
/// connections. The same call may succeed once it is back (the server answers 503 with Retry-After meanwhile). A write
/// that failed for want of a connection was not made; one cut off at its commit may have been, so read before
/// writing again.
///
/// Beside CareKit's `OCKStoreError`, a store on a server database (PostgreSQL) throws this, so that an app can tell
/// "try again shortly" from a failure of the call itself. An embedded SQLite store never does.
public struct StorageUnavailableError: Error, LocalizedError, Hashable, Sendable {
    /// The engine's reason, without statement arguments (never patient data).
    public let reason: String

    /// An error with the engine's `reason`.
    public init(reason: String) {
        self.reason = reason
    }

    public var errorDescription: String? { "The database cannot be reached right now: \(reason)" }

    /// `error` as the caller sees it: an unreachable or contended database becomes this error, a failing one a
    /// `StorageFaultError`; anything else is unchanged.
    package static func surfacing(_ error: any Error) -> any Error {
        guard let failure = error as? SQLFailure else { return error }
        switch failure.kind {
        case .unavailable, .conflict: return StorageUnavailableError(reason: failure.description)
        case .fault: return StorageFaultError(reason: failure.description)
        default: return error
        }
    }
}

/// The database behind a store or a directory failed — an I/O error, a full disk, corruption, no memory: the server's
/// fault, never the request's (the server answers 500 with an error id that is also in its log). Beside CareKit's
/// `OCKStoreError`, which says what was wrong with the call.
public struct StorageFaultError: Error, LocalizedError, Hashable, Sendable {
    /// The engine's reason, without statement arguments (never patient data).
    public let reason: String

    /// An error with the engine's `reason`.
    public init(reason: String) {
        self.reason = reason
    }

    public var errorDescription: String? { "The database failed: \(reason)" }
}
