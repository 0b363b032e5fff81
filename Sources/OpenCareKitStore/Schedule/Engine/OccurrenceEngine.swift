import Foundation

/// Finds the occurrences of one schedule element without walking from its start.
///
/// CareKit defines occurrence *k + 1* as `calendar.date(byAdding: interval, to: start(k))` (snapped to the start of
/// the day for all-day elements). Stepping like that costs one calendar call per occurrence since the schedule began,
/// so a ten-year-old daily schedule pays 3,650 calls to find today's event. The engine gets the same dates directly:
///
/// - From an *anchor* occurrence, one `Calendar` addition of *n* steps lands where *n* single steps land, as long as
///   no step in between changes the two things a step preserves: the wall-clock time (changed only when a step lands in
///   a skipped spring-forward hour and Foundation moves it forward) and, for months and years, the day of the month
///   (changed only when a shorter month caps it).
/// - Those irregular steps are few (a handful of daylight-saving gaps a schedule can hit at all, at most three
///   month-end cappings) and can be found arithmetically: the zone's gaps come from a cached transition table and
///   month lengths from `CivilDay`. At each one the engine takes the real step and makes the result the new anchor.
///
/// The result equals the step-by-step definition exactly; the test suite checks that on thousands of random
/// schedules against a literal implementation of CareKit's loop.
struct OccurrenceEngine: Sendable {
    let calendar: Calendar
    /// The start of occurrence 0 (already at the start of its day for all-day elements).
    let first: Date
    let interval: DateComponents
    let plan: StepPlan
    let allDay: Bool
    /// The zone's transitions, fetched once; `transitions(covering:)` extends them for far-future lookups.
    private let table: ZoneTransitions

    init(calendar: Calendar, first: Date, interval: DateComponents, plan: StepPlan, allDay: Bool, table: ZoneTransitions? = nil) {
        self.calendar = calendar
        self.first = first
        self.interval = interval
        self.allDay = allDay
        self.plan = plan
        self.table = table ?? ZoneTransitions.table(for: calendar.timeZone, covering: ZoneTransitions.initialCoverage)
    }

    /// The zone's transition table this engine holds.
    var zoneTable: ZoneTransitions { table }

    func transitions(covering limit: Double) -> ZoneTransitions {
        limit < table.coveredUntil ? table : ZoneTransitions.table(for: calendar.timeZone, covering: limit)
    }

    /// The end of an all-day event starting at `start` (the last second of its day), without a calendar call when
    /// no offset change is near.
    func endOfDay(startingAt start: Date) -> Date {
        let t = start.timeIntervalSinceReferenceDate
        if abs(t) < Self.limit, !transitions(covering: t + 172_800).hasTransition(after: t - 86_400, through: t + 172_800) {
            return Date(timeIntervalSinceReferenceDate: t + 86_399)
        }
        return calendar.date(byAdding: DateComponents(day: 1, second: -1), to: start) ?? start
    }

    /// Dates further than this from the reference date are outside what the engine computes (about ±31,000 years).
    static let limit: Double = 1e12

    // MARK: - The definition

    /// One step of CareKit's definition, or nil where Foundation cannot compute it or the step does not move forward.
    func referenceStep(_ date: Date) -> Date? {
        guard let next = calendar.date(byAdding: interval, to: date) else { return nil }
        let start = allDay ? calendar.startOfDay(for: next) : next
        guard start > date, abs(start.timeIntervalSinceReferenceDate) < Self.limit else { return nil }
        return start
    }

    // MARK: - Stepping

    /// The occurrence after the one that starts at `date`: the same value as `referenceStep`, computed with plain
    /// arithmetic when nothing between the two can change the wall-clock time.
    func step(_ date: Date) -> Date? {
        let t = date.timeIntervalSinceReferenceDate
        switch plan {
        case let .days(total, _):
            let span = Double(total) * 86_400
            guard abs(t) + span < Self.limit else { return nil }
            // Without an offset change nearby, a step is exactly `span` seconds. (All-day starts are then at
            // local midnight: a day starting later than midnight has an offset change at its start.)
            if !transitions(covering: t + span + 86_400).hasTransition(after: t - 86_400, through: t + span + 86_400) {
                return Date(timeIntervalSinceReferenceDate: t + span)
            }
        case let .seconds(seconds) where !allDay:
            let next = t + Double(seconds)
            if t == t.rounded(.down), abs(next) < Self.limit {
                return Date(timeIntervalSinceReferenceDate: next)
            }
        default:
            break
        }
        return referenceStep(date)
    }

    // MARK: - Direct lookup

    /// The start of occurrence `n`, or nil if it cannot be computed (out of range, or the interval stops moving).
    func date(ofOccurrence n: Int) -> Date? {
        guard n >= 0 else { return nil }
        guard n > 0 else { return first }
        // Occurrences beyond the computable range: every plan moves at least half its average step per occurrence.
        if let period = plan.approximateSeconds, Double(n) * period * 0.5 > 2 * Self.limit { return nil }
        switch plan {
        case .stepwise:
            return stepwise(from: first, count: n)
        case let .seconds(seconds):
            guard !allDay else { return stepwise(from: first, count: n) }
            let (offset, overflow) = n.multipliedReportingOverflow(by: seconds)
            guard !overflow, Double(offset) < Self.limit else { return nil }
            let (whole, fraction) = Self.split(first)
            return Self.recombine(whole: whole + Double(offset), fraction: fraction, origin: whole)
        case .days, .months, .years:
            return anchoredDate(ofOccurrence: n)
        }
    }

    /// The smallest occurrence index whose start is at or after `date` (`inclusive`) or after it, with that
    /// occurrence's start and, when the search passed it, the previous occurrence's start; nil if the schedule
    /// cannot reach that far.
    func firstOccurrence(startingAtOrAfter date: Date, inclusive: Bool = true)
        -> (index: Int, start: Date, previous: Date?)? {
        func before(_ start: Date) -> Bool { inclusive ? start < date : start <= date }
        guard before(first) else { return (0, first, nil) }
        var index = 0
        var start = first
        if let period = plan.approximateSeconds {
            // Estimate from the average step, aim one step early, then walk forward with cheap steps.
            let estimate = (date.timeIntervalSince(first) / period).rounded(.down) - 1
            guard estimate < Double(Int32.max) * 1024 else { return nil }
            index = max(0, Int(estimate))
            guard var guess = self.date(ofOccurrence: index) else { return nil }
            while index > 0, !before(guess) {
                index = max(0, index - 2)
                guard let earlier = self.date(ofOccurrence: index) else { return nil }
                guess = earlier
            }
            start = guess
        }
        var previous: Date?
        let walkLimit = index + Self.maximumStepwiseSteps
        while before(start) {
            guard index < walkLimit, let next = step(start) else { return nil }
            previous = start
            start = next
            index += 1
        }
        return (index, start, previous)
    }

    // MARK: - Anchored jumps

    /// How many single steps the step-by-step fallback takes at most before giving up (it only serves intervals
    /// with no direct formula, such as "every 1 day and 2 hours").
    static let maximumStepwiseSteps = 1_000_000

    private func stepwise(from start: Date, count: Int) -> Date? {
        guard count <= Self.maximumStepwiseSteps else { return nil }
        var date = start
        for _ in 0..<count {
            guard let next = step(date) else { return nil }
            date = next
        }
        return date
    }

    private func anchoredDate(ofOccurrence n: Int) -> Date? {
        var anchorIndex = 0
        var anchor = first
        while anchorIndex < n {
            let remaining = n - anchorIndex
            guard let irregular = firstIrregularStep(after: anchor, within: remaining) else {
                return jump(from: anchor, steps: remaining)
            }
            guard let before = irregular == 1 ? anchor : jump(from: anchor, steps: irregular - 1),
                  let landed = referenceStep(before) else { return nil }
            anchor = landed
            anchorIndex += irregular
        }
        return anchor
    }

    /// One Foundation addition of `steps` whole steps, with CareKit's all-day snapping.
    private func jump(from anchor: Date, steps: Int) -> Date? {
        let unit: Calendar.Component
        let perStep: Int
        switch plan {
        case let .days(total, _): (unit, perStep) = (.day, total)
        case let .months(months): (unit, perStep) = (.month, months)
        case let .years(years): (unit, perStep) = (.year, years)
        case .seconds, .stepwise: return nil
        }
        let (amount, overflow) = steps.multipliedReportingOverflow(by: perStep)
        guard !overflow, amount < 1 << 40 else { return nil }
        if unit == .day, let landed = dayJump(from: anchor, days: amount) {
            // An all-day anchor at local midnight lands on midnight; one that starts later (a day whose midnight was
            // skipped) lands at that later time and still needs snapping.
            guard allDay, localDayAndTime(anchor)?.time != 0 else { return landed }
            return calendar.startOfDay(for: landed)
        }
        let (whole, fraction) = Self.split(anchor)
        guard let landed = calendar.date(byAdding: unit, value: amount,
                                         to: Date(timeIntervalSinceReferenceDate: whole)) else { return nil }
        let start = allDay ? calendar.startOfDay(for: landed) : landed
        let t = start.timeIntervalSinceReferenceDate
        guard abs(t) < Self.limit else { return nil }
        return Self.recombine(whole: t, fraction: fraction, origin: whole)
    }

    /// Foundation's addition of `days` days, done with two offset lookups when no offset change is within two days
    /// of the result: then the result keeps the anchor's wall-clock time under a single offset, which is exactly
    /// what Foundation computes. Nil near offset changes (the caller then asks `Calendar`).
    private func dayJump(from anchor: Date, days: Int) -> Date? {
        let (whole, fraction) = Self.split(anchor)
        let raw = whole + Double(days) * 86_400
        guard abs(raw) < Self.limit - 1e7 else { return nil }
        let table = transitions(covering: max(raw, whole) + 2 * 86_400)
        let landed = raw + Double(offset(anchor, table) - table.offset(at: raw))
        let low = min(raw, landed) - 172_800, high = max(raw, landed) + 86_400
        guard !table.hasTransition(after: low, through: high) else { return nil }
        return Self.recombine(whole: landed, fraction: fraction, origin: whole)
    }

    // MARK: - Local time and fractions

    /// The local day number (days since 2001-01-01) and whole seconds into that day of `date`, in the calendar's zone.
    func localDayAndTime(_ date: Date) -> (day: Int, time: Int)? {
        let t = date.timeIntervalSinceReferenceDate
        guard abs(t) < Self.limit else { return nil }
        let local = Int(t.rounded(.down)) + offset(date, transitions(covering: t + 1))
        let day = floorDiv(local, CivilDay.seconds)
        return (day, local - day * CivilDay.seconds)
    }

    /// The zone's offset at `date`: from the transition table where it reaches (1800 on), else from `TimeZone`.
    private func offset(_ date: Date, _ table: ZoneTransitions) -> Int {
        let t = date.timeIntervalSinceReferenceDate
        guard t >= ZoneTransitions.origin, t < table.coveredUntil else { return calendar.timeZone.secondsFromGMT(for: date) }
        return table.offset(at: t)
    }

    /// Splits a date the way Foundation's calendar arithmetic does: whole seconds and a fraction in `0..<1`.
    static func split(_ date: Date) -> (whole: Double, fraction: Double) {
        let t = date.timeIntervalSinceReferenceDate
        var fraction = t.truncatingRemainder(dividingBy: 1)
        var whole = t - fraction
        if fraction < 0 {
            fraction += 1
            whole -= 1
        }
        return (whole, fraction)
    }

    /// Adds a fraction back to a whole-second result as step-by-step arithmetic would: every step re-adds the
    /// fraction to a larger whole number, so it is rounded to the precision of each binade it passes through.
    static func recombine(whole: Double, fraction: Double, origin: Double) -> Date {
        var fraction = fraction
        if fraction != 0, whole > origin, whole >= 2 {
            var exponent = max(origin, 1).exponent + 1
            while exponent <= whole.exponent {
                let power = Double(sign: .plus, exponent: exponent, significand: 1)
                fraction = (power + fraction) - power
                exponent += 1
            }
        }
        return Date(timeIntervalSinceReferenceDate: whole + fraction)
    }
}
