import Foundation
@testable import OpenCareKitStore

/// CareKit 4.0's schedule semantics written the slow, literal way: every occurrence is one
/// `calendar.date(byAdding: interval, to: previousStart)` from the one before. The fast engine must agree with it.
struct ReferenceElement {
    let element: OCKScheduleElement
    var calendar: Calendar { element.calendar }

    func isEventStart(_ start: Date, beforeLimit limit: Date) -> Bool {
        if start < limit { return true }
        guard element.duration == .allDay else { return false }
        let adjusted = calendar.date(byAdding: .second, value: -1, to: limit)!
        return calendar.isDate(start, inSameDayAs: adjusted)
    }

    private func makeEvent(_ date: Date, _ occurrence: Int) -> OCKScheduleEvent? {
        let start: Date, end: Date
        switch element.duration {
        case .allDay:
            start = calendar.startOfDay(for: date)
            end = calendar.date(byAdding: DateComponents(day: 1, second: -1), to: start)!
        case let .seconds(seconds):
            start = date
            end = date.addingTimeInterval(seconds)
        }
        if let scheduleEnd = element.end, !isEventStart(start, beforeLimit: scheduleEnd) { return nil }
        return OCKScheduleEvent(start: start, end: end, element: element, occurrence: occurrence)
    }

    /// Events from occurrence 0 while `shouldContinue` holds, at most `maximum`.
    func events(maximum: Int = 200_000, while shouldContinue: (OCKScheduleEvent) -> Bool) -> [OCKScheduleEvent] {
        var result: [OCKScheduleEvent] = []
        var next = makeEvent(element.start, 0)
        while let event = next, shouldContinue(event), result.count < maximum {
            result.append(event)
            guard let date = calendar.date(byAdding: element.interval, to: event.start), date > event.start,
                  abs(date.timeIntervalSinceReferenceDate) < 1e12 else { break }
            next = makeEvent(date, event.occurrence + 1)
        }
        return result
    }

    func events(from start: Date, to end: Date) -> [OCKScheduleEvent] {
        events { isEventStart($0.start, beforeLimit: end) }.filter { $0.end >= start }
    }

    func date(ofOccurrence occurrence: Int) -> Date? {
        let events = events { $0.occurrence <= occurrence }
        guard let last = events.last, last.occurrence == occurrence else { return nil }
        return last.start
    }
}

/// CareKit 4.0's `OCKSchedule.events(from:to:)` and `event(forOccurrenceIndex:)`, literally.
struct ReferenceSchedule {
    let schedule: OCKSchedule

    private func stableSorted(_ events: [(OCKScheduleEvent, Int)]) -> [OCKScheduleEvent] {
        events.enumerated()
            .sorted { ($0.element.0.start, $0.offset) < ($1.element.0.start, $1.offset) }
            .map(\.element.0)
    }

    /// The window's events numbered by their position among all events that start before `end` (stable by start),
    /// which is CareKit's numbering whenever no event that ended before `start` sits between the window's events.
    func events(from start: Date, to end: Date) -> [OCKScheduleEvent] {
        var all: [(OCKScheduleEvent, Int)] = []
        for (index, element) in schedule.elements.enumerated() where element.start < end {
            all += ReferenceElement(element: element).events(from: element.start, to: end).map { ($0, index) }
        }
        return stableSorted(all).enumerated().compactMap { position, event in
            guard event.end >= start, (event.element.end ?? .distantFuture) > start else { return nil }
            var numbered = event
            numbered.occurrence = position
            return numbered
        }
    }

    /// CareKit 4's own numbering: the count of events left out, then positions among those kept.
    func careKitNumbering(from start: Date, to end: Date) -> [OCKScheduleEvent] {
        var all: [(OCKScheduleEvent, Int)] = []
        for (index, element) in schedule.elements.enumerated() where element.start < end {
            all += ReferenceElement(element: element).events(from: element.start, to: end).map { ($0, index) }
        }
        let kept = all.filter { $0.0.end >= start }
        let first = all.count - kept.count
        return stableSorted(kept).enumerated().map { offset, event in
            var event = event
            event.occurrence = first + offset
            return event
        }.filter { ($0.element.end ?? .distantFuture) > start }
    }

    func event(forOccurrenceIndex occurrence: Int) -> OCKScheduleEvent? {
        var all: [(OCKScheduleEvent, Int)] = []
        for (index, element) in schedule.elements.enumerated() {
            all += ReferenceElement(element: element).events { $0.occurrence <= occurrence }.map { ($0, index) }
        }
        let sorted = stableSorted(all)
        guard occurrence < sorted.count else { return nil }
        var event = sorted[occurrence]
        event.occurrence = occurrence
        return event
    }
}
