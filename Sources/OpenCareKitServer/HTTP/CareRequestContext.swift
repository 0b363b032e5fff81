import Hummingbird
import NIOCore

/// The request context of the care app: Hummingbird's core storage, with request bodies capped at 64 KiB (larger
/// ones get 413), and the client's address.
public struct CareRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connected client's IP address ("unknown" when there is none, as in in-process tests).
    public let clientAddress: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    public var maxUploadSize: Int { 64 * 1024 }
}
