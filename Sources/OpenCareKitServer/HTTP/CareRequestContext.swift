import Hummingbird

/// The request context of the care app: Hummingbird's core storage, with request bodies capped at 64 KiB (larger
/// ones get 413).
public struct CareRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: Source) {
        coreContext = .init(source: source)
    }

    public var maxUploadSize: Int { 64 * 1024 }
}
