import CoreMetrics
import Foundation
import Synchronization

/// Live streams per client: at most `perClient` open at once from one address, so that one client cannot hold every
/// stream (or, through the days it follows, every one of `LiveCareHub`'s channels) and starve the others. A
/// stream's slot is freed when its response ends — at once when the client goes, since streams end on the
/// connection's close rather than at the next keep-alive.
public final class LiveStreamSlots: Sendable {
    /// The most live streams one client address may have open: a person's tabs and windows, with room to spare.
    public static let perClient = 16

    private let open = Mutex<[String: Int]>([:])
    let limit: Int
    /// Follows the streams open now, for the metrics.
    private let gauge: Meter?

    public init(limit: Int = LiveStreamSlots.perClient) {
        self.limit = limit
        gauge = nil
    }

    init(limit: Int = LiveStreamSlots.perClient, gauge: Meter) {
        self.limit = limit
        self.gauge = gauge
    }

    /// A slot for `client`, or nil when it has `limit` streams open. The slot frees itself when released.
    func take(for client: String) -> Slot? {
        let taken = open.withLock { counts -> Bool in
            guard counts[client, default: 0] < limit else { return false }
            counts[client, default: 0] += 1
            return true
        }
        guard taken else { return nil }
        gauge?.increment()
        return Slot(client: client, slots: self)
    }

    fileprivate func release(_ client: String) {
        gauge?.decrement()
        open.withLock { counts in
            counts[client, default: 1] -= 1
            if counts[client] == 0 { counts[client] = nil }
        }
    }

    /// One stream's place: released when the stream ends, or when the response holding it is dropped unsent.
    final class Slot: Sendable {
        private let client: String
        private let slots: LiveStreamSlots

        fileprivate init(client: String, slots: LiveStreamSlots) {
            self.client = client
            self.slots = slots
        }

        deinit {
            slots.release(client)
        }
    }
}
