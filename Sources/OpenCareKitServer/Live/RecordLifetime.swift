import OpenCareKitStore

/// Follows other processes' writes to a record's store file (the command line tool, another server) while the
/// record's server is in use: the open-record pool or a live page holds it; when the last holder lets go, the
/// watching stops.
final class RecordLifetime: Sendable {
    private let watcher: Task<Void, Never>

    init(store: OCKStore, interval: Duration = .milliseconds(250)) {
        watcher = Task { await store.watchExternalChanges(every: interval) }
    }

    deinit {
        watcher.cancel()
    }
}
