import Foundation
import OpenCareKitDirectory
import OpenCareKitStore
import Synchronization

/// Tells the host's pages that follow many records (the clinician's home) which record just changed: every open
/// record's server publishes here after each change to its store, from this process or, while it is open, another.
typealias RecordChangeFeed = LiveFeed<CareRecordID>

/// Events of this process for whoever follows them from now on (open pages' streams, the push sender).
final class LiveFeed<Event: Sendable>: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<Event>.Continuation]>([:])

    /// Announces `event` to every follower.
    func publish(_ event: Event) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(event) }
    }

    /// The events from now on, until the stream is dropped. A slow reader keeps the newest 64.
    func subscribe() -> AsyncStream<Event> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(64))
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    /// How many streams follow the feed (for tests).
    var subscriberCount: Int { subscribers.withLock { $0.count } }
}
