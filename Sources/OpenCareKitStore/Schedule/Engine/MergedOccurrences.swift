import Foundation

/// Finds the *n*-th event of a composed schedule — the events of all elements merged in start order, ties broken
/// by element order — without enumerating the first *n*.
///
/// The number of events starting before a moment is a sum of per-element counts, each found directly by the element's
/// engine, so the *n*-th start is found by bisecting over time (over the ordered bit patterns of `Double`, so the
/// search ends on the exact start).
struct MergedOccurrences {
    let elements: [OCKScheduleElement]
    private let engines: [OccurrenceEngine]
    /// How many events each element has in all (nil when it repeats forever).
    private let totals: [Int?]

    init(elements: [OCKScheduleElement]) {
        self.elements = elements
        engines = elements.map(\.engine)
        totals = elements.map { $0.end == nil ? nil : $0.countOfEvents(startingBefore: .distantFuture) }
    }

    /// The number of events of all elements that start strictly before `date` (`Int.max` beyond what the engines
    /// compute).
    func count(startingBefore date: Date) -> Int {
        var total = 0
        for (engine, limit) in zip(engines, totals) {
            guard var index = engine.firstOccurrence(startingAtOrAfter: date)?.index else { return Int.max }
            if let limit { index = min(index, limit) }
            total = total.addingReportingOverflow(index).overflow ? Int.max : total + index
        }
        return total
    }

    func event(at occurrence: Int) -> OCKScheduleEvent? {
        // Bracket: no events start before the first start; find a moment before which more than `occurrence` start.
        var low = Self.key(elements.map(\.start).min() ?? .distantFuture)
        var high = Self.key(DateBounds.latest)
        guard count(startingBefore: Self.date(high)) > occurrence else { return nil }
        // Invariant: count(before low) <= occurrence < count(before high).
        while high.subtractingReportingOverflow(low).overflow || high - low > 1 {
            let middle = low / 2 + high / 2 + (low % 2 + high % 2) / 2
            if count(startingBefore: Self.date(middle)) > occurrence { high = middle } else { low = middle }
        }
        // The wanted event starts exactly at `low`; order the events starting there by element.
        let start = Self.date(low)
        var rank = count(startingBefore: start)
        for element in elements {
            guard let index = element.firstOccurrence(startingAtOrAfter: start),
                  let event = element.event(forOccurrenceIndex: index), event.start == start else { continue }
            if rank == occurrence {
                var merged = event
                merged.occurrence = occurrence
                return merged
            }
            rank += 1
        }
        return nil
    }

    /// An integer that orders like the date's time interval.
    private static func key(_ date: Date) -> Int64 {
        let t = date.timeIntervalSinceReferenceDate
        let magnitude = Int64(bitPattern: abs(t).bitPattern)
        return t < 0 ? -magnitude : magnitude
    }

    private static func date(_ key: Int64) -> Date {
        let magnitude = Double(bitPattern: UInt64(key.magnitude))
        return Date(timeIntervalSinceReferenceDate: key < 0 ? -magnitude : magnitude)
    }
}

extension OCKSchedule {
    /// The occurrences whose events may overlap `interval` — start before its end and end at or after its start —
    /// without computing them: a range holding every such occurrence and at most a few before or after it (events of
    /// the longest duration that end before the interval); nil when the schedule has none there. The store finds a
    /// task version's outcomes in an interval with it, by the index of one current outcome per occurrence.
    func occurrences(overlapping interval: DateInterval) -> ClosedRange<Int>? {
        guard !elements.isEmpty else { return nil }
        // An all-day event lasts to the end of its day: at most 25 hours where the clocks go back.
        let longest = elements.map { element -> TimeInterval in
            switch element.duration {
            case .allDay: 2 * 86_400
            case let .seconds(seconds): seconds.isFinite ? max(seconds, 0) : 0
            }
        }.max() ?? 0
        let merged = MergedOccurrences(elements: elements)
        // A second of margin on each side: the counts are of starts strictly before a moment.
        let low = merged.count(startingBefore: interval.start.addingTimeInterval(-longest - 1))
        let high = merged.count(startingBefore: interval.end.addingTimeInterval(1))
        guard high > low else { return nil }
        return low...(high - 1)
    }

    /// The event after `event` in this schedule's merged order, or nil where the schedule ends. One lookup per
    /// element, where finding an occurrence by index needs a search.
    func event(after event: OCKScheduleEvent) -> OCKScheduleEvent? {
        guard elements.count > 1 else {
            return elements.first?.event(after: event)
        }
        // Ties go to the earlier element, so elements before this one need a later start and elements after it
        // may start at the same moment. (With two identical elements that order is ambiguous: search instead.)
        guard let current = elements.firstIndex(of: event.element),
              elements.lastIndex(of: event.element) == current else {
            return self.event(forOccurrenceIndex: event.occurrence + 1)
        }
        var best: (start: Date, element: Int, index: Int)?
        for (index, element) in elements.enumerated() {
            guard let found = element.engine.firstOccurrence(startingAtOrAfter: event.start, inclusive: index > current),
                  element.startsBefore(limit: element.end, found.start) else { continue }
            if let chosen = best, (chosen.start, chosen.element) <= (found.start, index) { continue }
            best = (found.start, index, found.index)
        }
        guard let best, var next = elements[best.element].event(forOccurrenceIndex: best.index) else { return nil }
        next.occurrence = event.occurrence + 1
        return next
    }
}
