import Crypto
import Foundation
import Hummingbird
import OpenCareKitDirectory
import OpenCareKitStore
import Synchronization

/// A signed-in browser's session, kept in the directory under a hash of its cookie's id.
public struct CareSession: Codable, Sendable, Equatable {
    /// Who signed in.
    public var account: CareAccountID
    /// False between the password and the second step of a two-step sign-in: such a session opens nothing.
    public var isComplete: Bool
    /// When this session was made: at sign-in (a two-step sign-in makes one at its password step, then a new,
    /// complete one after the code), or when a password change gives the browser a fresh session.
    public var signedInDate: Date
    /// The last time the person did something (not a live update): the idle sign-out counts from here.
    public var lastActiveDate: Date
    /// The secret of two-step sign-in being set up, until a code from the authenticator app confirms it.
    public var pendingTwoStepSecret: String?
    /// For a sign-in waiting for its second step: which password opened it (`CareSession.passwordStamp`). A new
    /// password voids it (such a session is no one's, so ending the account's sessions does not reach it).
    public var passwordStamp: String?

    /// A short digest of `passwordHash`: it changes with the password, and tells nothing of it.
    static func passwordStamp(_ passwordHash: String) -> String {
        SHA256.hash(data: Data(passwordHash.utf8)).prefix(8).hexEncoded
    }

    /// A session for `account`, last active at `signedInDate`, with no two-step secret being set up and no password
    /// stamp. ``CareHost`` makes one at each sign-in and stores it through Hummingbird's session middleware.
    ///
    /// - Parameters:
    ///   - account: The account that signed in.
    ///   - isComplete: Whether sign-in is finished; false while a two-step sign-in waits for its code, when the
    ///     session opens nothing.
    ///   - signedInDate: When the session begins; `lastActiveDate` starts at the same moment.
    public init(account: CareAccountID, isComplete: Bool, signedInDate: Date) {
        self.account = account
        self.isComplete = isComplete
        self.signedInDate = signedInDate
        lastActiveDate = signedInDate
    }
}

/// Who is asking: a signed-in person, or the holder of one of their access tokens.
public struct CareIdentity: Sendable {
    /// The account asking: the signed-in person's, or the one the access token was issued to, as the directory
    /// held it when the request began.
    public let account: CareAccount
    /// The token the request came with; nil for a browser session.
    public let token: CareAccessToken?
}

/// Hummingbird's session storage over the directory, so that sessions survive a restart and are shared by every
/// server on one directory. Keys are stored as SHA-256 hashes: the directory alone does not give anyone a session.
struct DirectorySessionDriver: PersistDriver {
    let directory: any CareDirectory
    let now: @Sendable () -> Date
    /// Sessions decoded before, by their stored bytes: every signed-in request reads its session, and the bytes
    /// change only when the session does.
    let decoded = DecodedSessions()

    static func hash(_ key: String) -> String {
        SHA256.hash(data: Data(key.utf8)).hexEncoded
    }

    func create<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        if try await directory.session(keyHash: Self.hash(key), now: now()) != nil { throw PersistError.duplicate }
        try await set(key: key, value: value, expires: expires)
    }

    func set<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        let now = now()
        let expiry = expires.map { now.addingTimeInterval(Double($0.components.seconds)) }
        // A sign-in waiting for its second step is nobody's yet: it neither counts towards the account's sessions
        // (someone with the password alone could otherwise end the person's real ones) nor needs ending with them.
        let session = value as? CareSession
        try await directory.setSession(keyHash: Self.hash(key), account: session?.isComplete == true ? session?.account : nil,
                                       value: try JSONEncoder().encode(value), expiryDate: expiry, now: now)
    }

    func get<Object: Codable & Sendable>(key: String, as: Object.Type) async throws -> Object? {
        try await getWithTTL(key: key, as: Object.self)?.object
    }

    func getWithTTL<Object: Codable & Sendable>(key: String, as: Object.Type) async throws -> (object: Object, ttl: Duration?)? {
        let now = now()
        let found: (value: Data, expiryDate: Date?)?
        do {
            found = try await directory.session(keyHash: Self.hash(key), now: now)
        } catch let error as StorageUnavailableError {
            // hummingbird-auth's session middleware takes any failure to load for "no session"; the authenticator
            // answers 503 instead of sending the person to sign in again.
            SessionLoadFailure.current?.record(error)
            throw error
        }
        guard let stored = found else { return nil }
        let object: Object
        if let known = decoded.object(for: stored.value, as: Object.self) {
            object = known
        } else {
            guard let fresh = try? JSONDecoder().decode(Object.self, from: stored.value) else { throw PersistError.invalidConversion }
            decoded.remember(fresh, for: stored.value)
            object = fresh
        }
        return (object, stored.expiryDate.map { .seconds(max(0, $0.timeIntervalSince(now))) })
    }

    func remove(key: String) async throws {
        try await directory.removeSession(keyHash: Self.hash(key))
    }
}

/// The sessions `DirectorySessionDriver` decoded, by their stored JSON: at most `capacity`, forgotten all at once
/// beyond (the next requests decode again).
final class DecodedSessions: Sendable {
    private let objects = Mutex<[Data: any Sendable]>([:])
    static let capacity = 4_096

    func object<Object>(for data: Data, as type: Object.Type) -> Object? {
        objects.withLock { $0[data] } as? Object
    }

    func remember(_ object: some Sendable, for data: Data) {
        objects.withLock { objects in
            if objects.count >= Self.capacity { objects.removeAll() }
            objects[data] = object
        }
    }
}

/// A session that could not be loaded because the directory's database was unreachable, noted for the request being
/// answered (`SessionLoadFailureMiddleware` sets one per request; `CareAuthenticator` throws it).
final class SessionLoadFailure: Sendable {
    @TaskLocal static var current: SessionLoadFailure?

    private let error = Mutex<StorageUnavailableError?>(nil)

    func record(_ failure: StorageUnavailableError) {
        error.withLock { $0 = failure }
    }

    var recorded: StorageUnavailableError? { error.withLock { $0 } }
}

/// Gives each request a place to note a session that could not be loaded; it runs before the session middleware.
struct SessionLoadFailureMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await SessionLoadFailure.$current.withValue(SessionLoadFailure()) {
            try await next(request, context)
        }
    }
}
