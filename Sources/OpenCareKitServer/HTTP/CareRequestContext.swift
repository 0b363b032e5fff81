import HTTPTypes
import Hummingbird
import HummingbirdAuth
import NIOCore
import OpenCareKitDirectory
import OpenCareKitStore

/// The request context of the care app: Hummingbird's core storage, with request bodies capped at 64 KiB (larger
/// ones get 413), who is connected, their session and who they are.
public struct CareRequestContext: RequestContext, AuthRequestContext, SessionRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The signed-in person (from the session cookie) or the holder of an access token (from `Authorization`).
    public var identity: CareIdentity?
    /// The session behind the cookie, loaded and saved by `SessionMiddleware`.
    public let sessions = SessionContext<CareSession>()
    /// The connected client, as per-client limits count it: its IPv4 address, or the /64 network of its IPv6 address
    /// (one host usually holds a whole /64); "unknown" when there is none, as in in-process tests.
    public let clientAddress: String
    /// Whether the client connected from this machine (127.0.0.0/8 or ::1) — which a reverse proxy on the same
    /// machine also does, so `isLoopbackClient` also asks that the request not be forwarded.
    let isLoopbackConnection: Bool

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        identity = nil
        clientAddress = Self.client(source.channel.remoteAddress)
        isLoopbackConnection = Self.isLoopback(source.channel.remoteAddress)
    }

    /// Who a live stream opened by this request belongs to, as `LiveStreamSlots` counts them.
    var liveStreamOwner: LiveStreamSlots.Owner {
        LiveStreamSlots.Owner(address: clientAddress, person: identity?.account.id.description)
    }

    static func isLoopback(_ address: SocketAddress?) -> Bool {
        switch address {
        case let .v4(v4): withUnsafeBytes(of: v4.address.sin_addr) { $0.first == 127 }
        case let .v6(v6): withUnsafeBytes(of: v6.address.sin6_addr) { bytes in
            // ::1, or 127.x.y.z mapped into IPv6 (::ffff:127.x.y.z).
            (bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1)
                || (bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff && bytes[12] == 127)
        }
        default: false
        }
    }

    /// Whether the request came from this machine itself, not through a proxy (which adds `Forwarded`,
    /// `X-Forwarded-For` or `X-Real-IP`).
    func isLoopbackClient(_ request: Request) -> Bool {
        isLoopbackConnection && ["Forwarded", "X-Forwarded-For", "X-Real-IP"].allSatisfy { name in
            request.headers[HTTPField.Name(name)!] == nil
        }
    }

    public var maxUploadSize: Int { 64 * 1024 }

    static func client(_ address: SocketAddress?) -> String {
        guard let address else { return "unknown" }
        if case let .v6(v6) = address {
            let prefix = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0.prefix(8)) }
            // An IPv4 address mapped into IPv6 (::ffff:a.b.c.d) is that IPv4 client.
            let mapped = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            if mapped.prefix(10).allSatisfy({ $0 == 0 }), mapped[10] == 0xff, mapped[11] == 0xff {
                return mapped.suffix(4).map(String.init).joined(separator: ".")
            }
            return stride(from: 0, to: 8, by: 2).map { String(format: "%x", Int(prefix[$0]) << 8 | Int(prefix[$0 + 1])) }
                .joined(separator: ":") + "::/64"
        }
        return address.ipAddress ?? "unknown"
    }
}

/// A live stream's recurring question: may the person still see the record?
struct AccessCheck: Sendable {
    let interval: Duration
    let isAllowed: @Sendable () async -> Bool
}

/// A record's audit trail as a record route sees it: entries written for the person asking, and entries read back
/// (a task's history names who changed it, and when).
struct RecordAuditTrail: Sendable {
    /// Appends an entry for the person asking: the resource, the action and a detail without patient data.
    let write: @Sendable (_ resource: String, _ action: AuditEntry.Action, _ detail: String) async throws -> Void
    /// The record's latest entries of a resource, newest first.
    let read: @Sendable (_ resource: String, _ limit: Int) async throws -> [AuditEntry]
    /// The name of an account, if it still exists.
    let accountName: @Sendable (CareAccountID) async throws -> String?
    /// The name of an account that is a member of the record, else nil (for a name taken from the record's own data,
    /// which any writer may have put there).
    let memberName: @Sendable (CareAccountID) async throws -> String?
    /// The name of the person asking (a note they add is signed with it).
    let askerName: String
}
