import Hummingbird
import NIOCore

/// The request context of the care app: Hummingbird's core storage, with request bodies capped at 64 KiB (larger
/// ones get 413), and who is connected.
public struct CareRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connected client, as per-client limits count it: its IPv4 address, or the /64 network of its IPv6 address
    /// (one host usually holds a whole /64); "unknown" when there is none, as in in-process tests.
    public let clientAddress: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = Self.client(source.channel.remoteAddress)
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
