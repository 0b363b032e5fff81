import Foundation
import OpenCareKitDirectory
import OpenCareKitStore
import Synchronization

/// What a patient summary was made from, so that a summary is made again only when its record changed.
enum StoreRevision: Hashable, Sendable {
    /// A stored record (a file, or PostgreSQL's rows): its revision, which any process's commit changes.
    case stored(CareRecordRevision)
    /// A store in memory (tests): the open store and its change count.
    case memory(ObjectIdentifier, Int)
}

/// The patient summaries the clinicians' homes show, remembered per record with the revision of the store and the
/// day they were made for: a home with 200 patients opens only the stores that changed since it was last shown.
///
/// File times are only as fine as the kernel's clock tick, so a write landing in the same tick as the one a
/// summary saw could leave the signature unchanged; a summary made from a file written within `racyInterval` of
/// reading it is therefore not trusted and is made again next time (as git treats "racily clean" files).
final class PatientSummaries: Sendable {
    struct Entry: Sendable {
        var summary: PatientSummary
        var revision: StoreRevision
        var day: String
        var trusted: Bool
    }

    static let racyInterval = 0.05

    private let entries = Mutex<[CareRecordID: Entry]>([:])
    private let madeCount = Atomic<Int>(0)

    /// The summary of `record` made at `revision` for `day`, if it is remembered and can be trusted.
    func summary(of record: CareRecordID, revision: StoreRevision, day: String) -> PatientSummary? {
        entries.withLock { entries in
            guard let entry = entries[record], entry.trusted, entry.revision == revision, entry.day == day else { return nil }
            return entry.summary
        }
    }

    /// Remembers `summary`, made from `revision` read at `readTime` (seconds since 1970, the wall clock).
    func remember(_ summary: PatientSummary, of record: CareRecordID, revision: StoreRevision, day: String, readTime: Double) {
        let trusted = switch revision {
        case let .stored(revision): revision.lastModified.map { $0 < readTime - Self.racyInterval } ?? true
        case .memory: true
        }
        madeCount.add(1, ordering: .relaxed)
        entries.withLock { $0[record] = Entry(summary: summary, revision: revision, day: day, trusted: trusted) }
    }

    /// Remembers that `record`'s store could not be read (flagged as unreadable until it can be: never trusted).
    func rememberUnreadable(_ record: CareRecordID) {
        entries.withLock { $0[record] = Entry(summary: .unreadable, revision: .memory(ObjectIdentifier(self), -1), day: "", trusted: false) }
    }

    /// How many flags the last summary made of each of `records` had, whatever has changed since: what the home knows of
    /// their need without reading their stores (nothing after a restart, until a page shows them).
    func knownFlags(of records: [CareRecordID]) -> [CareRecordID: Int] {
        entries.withLock { entries in
            var flags: [CareRecordID: Int] = [:]
            for record in records { if let count = entries[record]?.summary.flags.count, count > 0 { flags[record] = count } }
            return flags
        }
    }

    /// How many summaries have been made (for tests and the benchmark: a second look at an unchanged home makes none).
    var made: Int { madeCount.load(ordering: .relaxed) }
}

/// Throttles the audit entries of summary views: a clinician's home shows each patient's summary on every view and
/// live refresh, and the audit log records it once per person, record and `interval`.
final class SummaryViewAudits: Sendable {
    private struct Key: Hashable {
        let account: CareAccountID
        let record: CareRecordID
    }

    private let lastAudited = Mutex<[Key: Date]>([:])
    let interval: TimeInterval
    /// At most this many remembered views; older ones are forgotten (and audited again) beyond it.
    static let capacity = 100_000

    init(interval: TimeInterval) {
        self.interval = interval
    }

    /// The records of `records` whose view by `account` at `now` must be audited, noting them as audited.
    func due(_ records: [CareRecordID], account: CareAccountID, now: Date) -> [CareRecordID] {
        lastAudited.withLock { seen in
            if seen.count + records.count > Self.capacity {
                seen = seen.filter { now.timeIntervalSince($0.value) < interval }
                if seen.count + records.count > Self.capacity { seen.removeAll() }
            }
            return records.filter { record in
                let key = Key(account: account, record: record)
                if let last = seen[key], now.timeIntervalSince(last) < interval, now >= last { return false }
                seen[key] = now
                return true
            }
        }
    }
}
