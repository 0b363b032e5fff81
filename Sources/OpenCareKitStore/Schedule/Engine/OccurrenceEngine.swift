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

    init(calendar: Calendar, first: Date, interval: DateComponents, plan: StepPlan, allDay: Bool) {
        self.calendar = calendar
        self.first = first
        self.interval = interval
        self.allDay = allDay
        self.plan = plan
        self.table = ZoneTransitions.table(for: calendar.timeZone, covering: ZoneTransitions.initialCoverage)
    }

    private func transitions(covering limit: Double) -> ZoneTransitions {
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

    /// The first step in `1...steps` after `anchor` at which a single step does not preserve what a jump preserves,
    /// or nil if there is none.
    private func firstIrregularStep(after anchor: Date, within steps: Int) -> Int? {
        guard let local = localDayAndTime(anchor) else { return 1 }
        let shiftStep = stepBeforeDateLineShift(after: anchor, local: local, within: steps)
        let regular = firstIrregularity(local: local, within: shiftStep.map { min(steps, $0) } ?? steps)
        switch (regular, shiftStep) {
        case let (regular?, shift?): return min(regular, shift)
        default: return regular ?? shiftStep
        }
    }

    /// A step at or before the one that crosses the next date-line shift within reach, so the crossing step itself
    /// is taken for real. Returns at least 1.
    private func stepBeforeDateLineShift(after anchor: Date, local: (day: Int, time: Int), within steps: Int) -> Int? {
        guard let period = plan.approximateSeconds else { return nil }
        let t = anchor.timeIntervalSinceReferenceDate
        let reach = min(Double(steps) * period * 1.1 + 172_800, Self.limit)
        guard let shift = transitions(covering: t + reach).dateLineShift(after: t, through: t + reach) else { return nil }
        // No step is longer than 1.15 times its average length plus two hours (a 31-day month is 1.02 times the
        // average; a daylight-saving change adds at most two hours), so this many steps stay before the shift.
        let longest = period * 1.15 + 7_200
        return max(1, Int(((shift - t) / longest).rounded(.down)))
    }

    private func firstIrregularity(local: (day: Int, time: Int), within steps: Int) -> Int? {
        switch plan {
        case let .days(total, partials):
            guard !allDay else { return nil }
            return firstGapLanding(local: local, steps: steps, daysPerStep: total) { day in
                var best: Int?
                for partial in partials {
                    let offset = day - local.day - partial
                    if offset >= 0, offset % total == 0 {
                        best = min(best ?? Int.max, offset / total + 1)
                    }
                }
                return best
            }
        case let .months(months):
            return firstMonthlyIrregularity(local: local, steps: steps, monthsPerStep: months)
        case let .years(years):
            return firstMonthlyIrregularity(local: local, steps: steps, monthsPerStep: years * 12)
        case .seconds, .stepwise:
            return nil
        }
    }

    private func firstMonthlyIrregularity(local: (day: Int, time: Int), steps: Int, monthsPerStep: Int) -> Int? {
        let civil = CivilDay.civil(local.day)
        let anchorMonth = CivilDay.monthIndex(year: civil.year, month: civil.month)
        var best: Int?
        if civil.day > 28 {
            // Month lengths repeat every 400 years (4,800 months): no capping within that means none ever.
            for step in 1...min(steps, 4_800) where CivilDay.daysInMonth(monthIndex: anchorMonth + step * monthsPerStep) < civil.day {
                best = step
                break
            }
        }
        guard !allDay else { return best }
        let gapStep = firstGapLanding(local: local, steps: min(steps, best ?? steps), daysPerStep: monthsPerStep * 31) { day in
            let landing = CivilDay.civil(day)
            guard landing.day == civil.day else { return nil }
            let months = CivilDay.monthIndex(year: landing.year, month: landing.month) - anchorMonth
            guard months > 0, months % monthsPerStep == 0 else { return nil }
            return months / monthsPerStep
        }
        switch (best, gapStep) {
        case let (best?, gap?): return min(best, gap)
        default: return best ?? gapStep
        }
    }

    /// Scans the zone's skipped wall-clock spans after `local` for a day on which a step lands at the anchor's
    /// wall-clock time. `stepOnDay` says which step (1-based) lands on a local day, if any; `daysPerStep` bounds how
    /// far each step can reach.
    private func firstGapLanding(local: (day: Int, time: Int), steps: Int, daysPerStep: Int,
                                 stepOnDay: (Int) -> Int?) -> Int? {
        let (reach, overflow) = steps.multipliedReportingOverflow(by: daysPerStep)
        // Beyond ±31,000 years nothing is computed (the jump itself returns nil).
        guard !overflow, reach < 1 << 40 else { return nil }
        let horizonDay = local.day + reach
        let anchorLocal = local.day * CivilDay.seconds + local.time
        let table = transitions(covering: Double(horizonDay + 2) * 86_400)
        var best: Int?
        var index = table.firstGap(endingAfter: anchorLocal)
        while index < table.gaps.count {
            let gap = table.gaps[index]
            index += 1
            let firstDay = ceilDiv(gap.start - local.time, CivilDay.seconds)
            if firstDay > horizonDay { break }
            if let best, firstDay > local.day + best * daysPerStep { break }
            let lastDay = ceilDiv(gap.end - local.time, CivilDay.seconds) - 1
            guard lastDay >= firstDay else { continue }
            for day in firstDay...lastDay where day > local.day {
                if let step = stepOnDay(day), step >= 1, step <= steps {
                    best = min(best ?? step, step)
                }
            }
        }
        return best
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
