import Foundation
import OpenCareKitStore

/// A time zone as a `VTIMEZONE` component (RFC 5545 §3.6.5), from the zone's own offset changes.
///
/// Changes from the start of the feed's range until the zone's current rule took hold are listed one by one; the
/// rule itself is written as two yearly observances (`RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU`), checked against every
/// change Foundation reports for the next 30 years, so calendars that read the component rather than their own
/// time-zone database get the right offset far ahead too. A zone whose changes follow no such rule (or that has
/// none) is written as the changes themselves (or as one fixed offset).
struct CalendarTimeZone {
    let zone: TimeZone

    /// How far beyond the range a rule is checked (and changes are listed when there is no rule).
    static let ruleCheckYears = 30
    /// How far before the range the change in effect at its start is looked for.
    static let lookbackYears = 50

    /// A change with its onset as the wall clock before it reads it, and the yearly rule it would follow.
    private struct Change {
        var change: ZoneOffsetChange
        var isDaylight: Bool
        var name: String?
        /// Month, weekday (1 Sunday … 7 Saturday), the weekday's ordinal in the month (1…5), whether it is the
        /// month's last such weekday, and the time of day in seconds, all of the onset.
        var month: Int, weekday: Int, ordinal: Int, isLast: Bool, seconds: Int

        init(_ change: ZoneOffsetChange, zone: TimeZone) {
            self.change = change
            isDaylight = zone.isDaylightSavingTime(for: change.instant)
            name = zone.abbreviation(for: change.instant)
            let utc = ICalendarWriter.gregorian
            let onset = Date(timeIntervalSinceReferenceDate: (change.instant.timeIntervalSinceReferenceDate + Double(change.before)).rounded(.down))
            let parts = utc.dateComponents([.month, .day, .weekday, .hour, .minute, .second], from: onset)
            let days = utc.range(of: .day, in: .month, for: onset)?.count ?? 31
            month = parts.month ?? 0
            weekday = parts.weekday ?? 0
            ordinal = ((parts.day ?? 1) - 1) / 7 + 1
            isLast = (parts.day ?? 1) + 7 > days
            seconds = (parts.hour ?? 0) * 3_600 + (parts.minute ?? 0) * 60 + (parts.second ?? 0)
        }

        /// The rule's key, with the month's last weekday or the ordinal one.
        func key(last: Bool) -> [Int] {
            [month, weekday, last ? -1 : ordinal, seconds, change.before, change.after, isDaylight ? 1 : 0]
        }
    }

    /// The component's lines, covering `start` through `end`.
    func write(to writer: inout ICalendarWriter, from start: Date, through end: Date) {
        let gregorian = Calendar(identifier: .gregorian)
        let horizon = gregorian.date(byAdding: .year, value: Self.ruleCheckYears, to: end) ?? end
        // From the change in effect when the range starts (a real onset: readers such as dateutil derive the
        // daylight-saving amount from each observance's offsets, and a made-up first one with equal offsets misleads
        // them at the next change).
        let lookback = gregorian.date(byAdding: .year, value: -Self.lookbackYears, to: start) ?? start
        let all = ZoneOffsetChange.changes(of: zone, after: lookback, through: horizon)
        let current = all.lastIndex { $0.instant <= start }
        let changes = all[(current ?? all.startIndex)...].map { Change($0, zone: zone) }
        writer.line("BEGIN", "VTIMEZONE")
        writer.line("TZID", ICalendarWriter.text(zone.identifier))
        if current == nil {
            // No change for decades before the range: one fixed offset from its start, until the first change.
            let initial = ZoneOffsetChange.offset(of: zone, at: start)
            observance(&writer, daylight: false, onset: ICalendarWriter.local(start, offset: initial), from: initial, to: initial,
                       name: zone.abbreviation(for: start))
        }
        let (listed, rules) = split(changes, end: end)
        for item in listed {
            observance(&writer, daylight: item.isDaylight, onset: ICalendarWriter.local(item.change.instant, offset: item.change.before),
                       from: item.change.before, to: item.change.after, name: item.name)
        }
        for (first, last) in rules {
            let weekday = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"][first.weekday - 1]
            observance(&writer, daylight: first.isDaylight, onset: ICalendarWriter.local(first.change.instant, offset: first.change.before),
                       from: first.change.before, to: first.change.after, name: first.name,
                       rule: "FREQ=YEARLY;BYMONTH=\(first.month);BYDAY=\(last ? "-1" : String(first.ordinal))\(weekday)")
        }
        writer.line("END", "VTIMEZONE")
    }

    private func observance(_ writer: inout ICalendarWriter, daylight: Bool, onset: String, from: Int, to: Int, name: String?,
                            rule: String? = nil) {
        let kind = daylight ? "DAYLIGHT" : "STANDARD"
        writer.line("BEGIN", kind)
        writer.line("DTSTART", onset)
        writer.line("TZOFFSETFROM", ICalendarWriter.offset(from))
        writer.line("TZOFFSETTO", ICalendarWriter.offset(to))
        if let rule { writer.line("RRULE", rule) }
        if let name { writer.line("TZNAME", ICalendarWriter.text(name)) }
        writer.line("END", kind)
    }

    /// The changes to list one by one (all of them, through the check's horizon, when no rule follows) and the
    /// yearly rules of the tail:
    /// the longest run of changes at the end of `changes` that alternate between two rules, one change of each a year,
    /// reaching back to before `end` (so the rules cover the whole range after the listed changes).
    private func split(_ changes: [Change], end: Date) -> (listed: [Change], rules: [(first: Change, last: Bool)]) {
        guard changes.count >= 4 else { return (changes, []) }
        // Try the month's last weekday, then the ordinal, for each of the two alternating kinds.
        var best: (start: Int, rules: [(first: Change, last: Bool)])?
        for lastFirst in [true, false] {
            for lastSecond in [true, false] {
                let keys = [changes[changes.count - 2], changes[changes.count - 1]]
                let wanted = [keys[0].key(last: lastFirst), keys[1].key(last: lastSecond)]
                guard wanted[0] != wanted[1], (!lastFirst || keys[0].isLast), (!lastSecond || keys[1].isLast) else { continue }
                var index = changes.count
                while index > 0 {
                    let candidate = changes[index - 1]
                    // Position from the end decides which rule it must follow.
                    let which = (changes.count - index) % 2 == 0 ? 1 : 0
                    let useLast = which == 0 ? lastFirst : lastSecond
                    guard candidate.key(last: useLast) == wanted[which], !useLast || candidate.isLast else { break }
                    index -= 1
                }
                // Yearly: consecutive changes of one rule a year apart; the run must start at or before `end`.
                let run = Array(changes[index...])
                guard run.count >= 4, run[0].change.instant <= end, isYearly(run) else { continue }
                if best == nil || index < best!.start {
                    let first = run[0], second = run[1]
                    let firstLast = (changes.count - index) % 2 == 0 ? lastFirst : lastSecond
                    let secondLast = (changes.count - index) % 2 == 0 ? lastSecond : lastFirst
                    best = (index, [(first, firstLast), (second, secondLast)])
                }
            }
        }
        guard let best else { return (changes, []) }
        return (Array(changes[..<best.start]), best.rules)
    }

    private func isYearly(_ run: [Change]) -> Bool {
        let years = run.map { ICalendarWriter.gregorian.component(.year, from: $0.change.instant.addingTimeInterval(Double($0.change.before))) }
        for index in 2..<run.count where years[index] != years[index - 2] + 1 { return false }
        return true
    }
}
