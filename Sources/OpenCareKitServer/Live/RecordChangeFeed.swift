import Foundation
import OpenCareKitStore
import Synchronization

/// Tells the host's pages that follow many records (the clinician's home) which record just changed: every open
/// record's server publishes here after each change to its store, from this process or, while it is open, another.
final class RecordChangeFeed: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<CareRecordID>.Continuation]>([:])

    /// Announces a change to `record`.
    func publish(_ record: CareRecordID) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(record) }
    }

    /// The records that change from now on, until the stream is dropped. A slow reader keeps the newest 64.
    func subscribe() -> AsyncStream<CareRecordID> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<CareRecordID>.makeStream(bufferingPolicy: .bufferingNewest(64))
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    /// How many streams follow the feed (for tests).
    var subscriberCount: Int { subscribers.withLock { $0.count } }
}
