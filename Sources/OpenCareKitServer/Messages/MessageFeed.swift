import Foundation
import OpenCareKitDirectory
import OpenCareKitStore
import Synchronization

/// Something that happened in a record's threads, for open pages and push: a message sent, or a thread read further.
/// It carries no words of the message: whoever hears of it fetches what they may see through the directory.
struct MessageEvent: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// A message, by `author`.
        case message(author: CareAccountID)
        /// Someone read the thread further (a receipt to show).
        case read
    }

    let record: CareRecordID
    let thread: RandomIdentifier
    /// Who may hear of it: a team note's events never reach a patient's or caregiver's stream.
    let audience: CareThread.Audience
    let kind: Kind
}


/// When each record's threads last changed in this process, for the moments just past: a page made before a change
/// whose live stream connects after it is told at once (the stream could not have carried it). Only the last minute is
/// kept; a page older than that refreshes on connecting, since nothing is known of it.
final class RecentRecordActivity: Sendable {
    private struct Key: Hashable {
        let record: CareRecordID
        let audience: CareThread.Audience
    }

    private let changes = Mutex<(dates: [Key: Date], pruneAbove: Int)>(([:], RecentRecordActivity.pruneAbove))
    /// How long a change is remembered.
    static let window: TimeInterval = 60
    /// Past this many records, entries older than the window are dropped.
    static let pruneAbove = 1_000

    func note(_ record: CareRecordID, audience: CareThread.Audience, at date: Date = Date()) {
        changes.withLock { changes in
            changes.dates[Key(record: record, audience: audience)] = date
            if changes.dates.count > changes.pruneAbove {
                changes.dates = changes.dates.filter { $0.value > date.addingTimeInterval(-Self.window) }
                // Many changes within the window: the next pruning waits for as many again (each note stays cheap).
                changes.pruneAbove = max(Self.pruneAbove, changes.dates.count * 2)
            }
        }
    }

    /// Whether the threads of `record` that `audiences` see may have changed after `since` (a page's making): yes when
    /// they did, and when `since` is too long ago to know.
    func changed(_ record: CareRecordID, audiences: [CareThread.Audience], since: Date, now: Date = Date()) -> Bool {
        guard since > now.addingTimeInterval(-Self.window + 5) else { return true }
        return changes.withLock { changes in
            audiences.contains { changes.dates[Key(record: record, audience: $0)].map { $0 > since } ?? false }
        }
    }

    /// How many changes are remembered (for tests).
    var count: Int { changes.withLock { $0.dates.count } }
}
