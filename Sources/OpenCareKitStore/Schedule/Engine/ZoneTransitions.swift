import Foundation
import Synchronization

/// The UTC-offset changes of one time zone, and the local wall-clock ranges they skip.
///
/// Built once per zone from `TimeZone.nextDaylightSavingTimeTransition(after:)` and cached; extended lazily when a
/// lookup reaches past what is covered. The schedule engine uses it to find the few occurrences whose wall-clock time
/// does not exist (a spring-forward gap), because only those change how later occurrences fall.
final class ZoneTransitions: Sendable {
    /// A span of local wall-clock time that does not exist, in local seconds since 2001-01-01 00:00 (local).
    struct Gap: Sendable, Hashable {
        var start: Int
        var end: Int
    }

    /// Instants (seconds since the reference date) at which the zone's offset changes, ascending.
    let instants: [Double]
    /// The offset from GMT in effect from each instant on.
    let offsets: [Int]
    /// The offset from GMT before the first instant.
    let initialOffset: Int
    /// Skipped wall-clock spans, ascending.
    let gaps: [Gap]
    /// Instants of offset changes of twelve hours or more (a time zone moving across the date line, such as Samoa
    /// skipping 2011-12-30), ascending. A step that crosses one moves by a different number of local days.
    let dateLineShifts: [Double]
    /// Transitions are known for instants below this value.
    let coveredUntil: Double

    /// Where every table starts: 1800-01-01, before the local-mean-time changes of the 1880s.
    static let origin: Double = -6_311_433_600
    /// What a table covers when first built: up to 2600-01-01.
    static let initialCoverage: Double = 18_934_156_800
    /// How far one extension reaches beyond what was asked for: 100 years.
    static let chunk: Double = 3_155_760_000

    private init(instants: [Double], offsets: [Int], initialOffset: Int, gaps: [Gap], dateLineShifts: [Double],
                 coveredUntil: Double) {
        self.instants = instants
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.gaps = gaps
        self.dateLineShifts = dateLineShifts
        self.coveredUntil = coveredUntil
    }

    /// This table extended with the transitions up to `limit` (plus a chunk).
    private func extended(to limit: Double, zone: TimeZone) -> ZoneTransitions {
        var instants = self.instants, offsets = self.offsets, gaps = self.gaps, shifts = dateLineShifts
        var cursor = Date(timeIntervalSinceReferenceDate: max(coveredUntil, instants.last ?? Self.origin))
        let end = limit + Self.chunk
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next.timeIntervalSinceReferenceDate < end {
            let t = next.timeIntervalSinceReferenceDate
            guard t > cursor.timeIntervalSinceReferenceDate else { break }
            let before = zone.secondsFromGMT(for: next.addingTimeInterval(-1))
            let after = zone.secondsFromGMT(for: next)
            instants.append(t)
            offsets.append(after)
            if abs(after - before) >= 43_200 {
                shifts.append(t)
            }
            if after > before {
                let local = Int(t.rounded(.down))
                gaps.append(Gap(start: local + before, end: local + after))
            }
            cursor = next
        }
        return ZoneTransitions(instants: instants, offsets: offsets, initialOffset: initialOffset, gaps: gaps,
                               dateLineShifts: shifts, coveredUntil: end)
    }

    private static let cache = Mutex<[String: ZoneTransitions]>([:])

    /// The table for `zone`, covering at least every instant below `limit`.
    static func table(for zone: TimeZone, covering limit: Double) -> ZoneTransitions {
        cache.withLock { tables in
            let existing = tables[zone.identifier] ?? ZoneTransitions(
                instants: [], offsets: [], initialOffset: zone.secondsFromGMT(for: Date(timeIntervalSinceReferenceDate: origin)),
                gaps: [], dateLineShifts: [], coveredUntil: origin)
            guard existing.coveredUntil <= limit else { return existing }
            let table = existing.extended(to: limit, zone: zone)
            tables[zone.identifier] = table
            return table
        }
    }

    /// The number of transitions at or before `t`.
    private func transitionCount(through t: Double) -> Int {
        var low = 0, high = instants.count
        while low < high {
            let mid = (low + high) / 2
            if instants[mid] <= t { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Whether the offset changes at some instant in `(after, through]`.
    func hasTransition(after lower: Double, through upper: Double) -> Bool {
        let next = transitionCount(through: lower)
        return next < instants.count && instants[next] <= upper
    }

    /// The zone's offset from GMT at `t` (seconds since the reference date), as `TimeZone.secondsFromGMT(for:)`
    /// gives it, for `t` from 1800 up to `coveredUntil`.
    func offset(at t: Double) -> Int {
        let count = transitionCount(through: t)
        return count == 0 ? initialOffset : offsets[count - 1]
    }

    /// The first date-line shift in `(after, through]`, if any.
    func dateLineShift(after lower: Double, through upper: Double) -> Double? {
        dateLineShifts.first { $0 > lower && $0 <= upper }
    }

    /// Index of the first gap that ends after `localSeconds`.
    func firstGap(endingAfter localSeconds: Int) -> Int {
        var low = 0, high = gaps.count
        while low < high {
            let mid = (low + high) / 2
            if gaps[mid].end <= localSeconds { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

/// A change of a time zone's offset from GMT, as calendars describe it (`VTIMEZONE`).
package struct ZoneOffsetChange: Hashable, Sendable {
    /// The instant of the change.
    package var instant: Date
    /// The offset before and after, in seconds.
    package var before: Int
    package var after: Int

    /// The offset changes of `zone` in `(after, through]`, from the table the schedule engine uses.
    package static func changes(of zone: TimeZone, after lower: Date, through upper: Date) -> [ZoneOffsetChange] {
        let (low, high) = (lower.timeIntervalSinceReferenceDate, upper.timeIntervalSinceReferenceDate)
        let table = ZoneTransitions.table(for: zone, covering: high)
        var changes: [ZoneOffsetChange] = []
        for index in table.instants.indices where table.instants[index] > low && table.instants[index] <= high {
            let before = index == 0 ? table.initialOffset : table.offsets[index - 1]
            // Foundation reports some transitions that change only the abbreviation or the DST flag.
            guard before != table.offsets[index] else { continue }
            changes.append(ZoneOffsetChange(instant: Date(timeIntervalSinceReferenceDate: table.instants[index]), before: before,
                                            after: table.offsets[index]))
        }
        return changes
    }

    /// The offset of `zone` at `date`.
    package static func offset(of zone: TimeZone, at date: Date) -> Int {
        ZoneTransitions.table(for: zone, covering: date.timeIntervalSinceReferenceDate).offset(at: date.timeIntervalSinceReferenceDate)
    }
}
