import Foundation

/// Finding the steps at which one calendar addition of *n* steps stops equalling *n* single steps.
extension OccurrenceEngine {
    /// The first step in `1...steps` after `anchor` at which a single step does not preserve what a jump preserves,
    /// or nil if there is none.
    func firstIrregularStep(after anchor: Date, within steps: Int) -> Int? {
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
}
