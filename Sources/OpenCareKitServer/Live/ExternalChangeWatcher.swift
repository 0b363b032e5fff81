import OpenCareKitStore
import ServiceLifecycle

/// A service that notices commits to the store file by other processes (the command line tool, a second server) and
/// lets live queries, and so every open page, follow them within a quarter of a second.
public struct ExternalChangeWatcher: Service {
    public let store: OCKStore
    public let interval: Duration

    public init(store: OCKStore, interval: Duration = .milliseconds(250)) {
        self.store = store
        self.interval = interval
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await store.watchExternalChanges(every: interval)
        }
    }
}
