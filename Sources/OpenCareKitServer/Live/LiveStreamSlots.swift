import CoreMetrics
import Foundation
import Synchronization

/// Live streams per client address and per person: at most `perClient` open at once from one address and
/// `perPerson` for one account (over all their addresses: a phone, a laptop, a tablet), so that no one can hold every
/// stream (or, through the days it follows, every one of `LiveCareHub`'s channels) and starve the others. A stream's
/// slot is freed when its response ends — at once when the client goes, since streams end on the connection's close
/// rather than at the next keep-alive.
public final class LiveStreamSlots: Sendable {
    /// The most live streams one client address may have open: a person's tabs and windows, with room to spare.
    public static let perClient = 16
    /// The most live streams one person may have open, from every address together.
    public static let perPerson = 32

    /// Who holds a stream: the client's address and the signed-in person, if any.
    public struct Owner: Sendable, Hashable {
        /// The client's address, as ``CareRequestContext`` counts clients: an IPv4 address, or an IPv6 address's /64.
        public let address: String
        /// The signed-in person's account id; nil when no one is signed in, and then only the address counts.
        public let person: String?

        /// The owner of a stream opened from `address` by `person`.
        ///
        /// - Parameters:
        ///   - address: The client's address (`CareRequestContext.clientAddress`).
        ///   - person: The account id of the person asking, or nil when no one is signed in.
        public init(address: String, person: String?) {
            self.address = address
            self.person = person
        }

        /// What the slots count for this owner.
        var keys: [String] { ["address:" + address] + (person.map { ["person:" + $0] } ?? []) }
    }

    private let open = Mutex<[String: Int]>([:])
    let limit: Int
    let personLimit: Int
    /// Follows the streams open now, for the metrics.
    private let gauge: Meter?

    /// Slots for at most `limit` streams from one client address and `personLimit` for one person; a stream beyond
    /// either is refused with 429 Too Many Requests and `Retry-After: 5`. The limits are taken as given (0 refuses
    /// every stream). Safe to share between tasks: a host shares one among all its records.
    ///
    /// - Parameters:
    ///   - limit: The most streams open at once from one address (`perClient`, 16, by default).
    ///   - personLimit: The most streams open at once for one account, from all its addresses together
    ///     (`perPerson`, 32, by default).
    public init(limit: Int = LiveStreamSlots.perClient, personLimit: Int = LiveStreamSlots.perPerson) {
        self.limit = limit
        self.personLimit = personLimit
        gauge = nil
    }

    init(limit: Int = LiveStreamSlots.perClient, personLimit: Int = LiveStreamSlots.perPerson, gauge: Meter) {
        self.limit = limit
        self.personLimit = personLimit
        self.gauge = gauge
    }

    /// A slot for `owner`, or nil when its address has `limit` streams open or its person `personLimit`. The slot
    /// frees itself when released.
    func take(for owner: Owner) -> Slot? {
        let keys = owner.keys
        let taken = open.withLock { counts -> Bool in
            guard counts["address:" + owner.address, default: 0] < limit,
                  owner.person.map({ counts["person:" + $0, default: 0] < personLimit }) ?? true else { return false }
            for key in keys { counts[key, default: 0] += 1 }
            return true
        }
        guard taken else { return nil }
        gauge?.increment()
        return Slot(keys: keys, slots: self)
    }

    fileprivate func release(_ keys: [String]) {
        gauge?.decrement()
        open.withLock { counts in
            for key in keys {
                counts[key, default: 1] -= 1
                if counts[key] == 0 { counts[key] = nil }
            }
        }
    }

    /// One stream's place: released when the stream ends, or when the response holding it is dropped unsent.
    final class Slot: Sendable {
        private let keys: [String]
        private let slots: LiveStreamSlots

        fileprivate init(keys: [String], slots: LiveStreamSlots) {
            self.keys = keys
            self.slots = slots
        }

        deinit {
            slots.release(keys)
        }
    }
}
