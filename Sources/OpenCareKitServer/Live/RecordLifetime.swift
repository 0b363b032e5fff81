import OpenCareKitStore

/// Follows a record's store while the record's server is in use (the open-record pool or a live page holds it):
/// other processes' writes to its file (the command line tool, another server), and, for the host, every change
/// to it. When the last holder lets go, the following stops.
final class RecordLifetime: Sendable {
    private let watcher: Task<Void, Never>?
    private let forwarder: Task<Void, Never>?

    /// - Parameters:
    ///   - interval: How often to look for other processes' writes; nil: never.
    ///   - onChange: Called after each change to the store (bursts collapse into one call).
    init?(store: OCKStore, interval: Duration? = .milliseconds(250), onChange: (@Sendable () -> Void)? = nil) {
        guard interval != nil || onChange != nil else { return nil }
        watcher = interval.map { interval in Task { await store.watchExternalChanges(every: interval) } }
        forwarder = onChange.map { onChange in
            let signals = store.changeSignals()
            return Task {
                for await _ in signals { onChange() }
            }
        }
    }

    deinit {
        watcher?.cancel()
        forwarder?.cancel()
    }
}
