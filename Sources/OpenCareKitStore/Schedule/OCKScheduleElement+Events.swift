import Foundation

/// Event windows and counts, shared with `OCKSchedule`.
extension OCKScheduleElement {

    /// The events that start before `limit` and end at or after `from`, and how many events start before `limit`
    /// in all (CareKit's rule, counting from occurrence 0).
    /// Stops after `maximum` events (the count then covers only those).
    func window(from: Date, to limit: Date, limit maximum: Int = .max) -> (events: [OCKScheduleEvent], countStartingBefore: Int) {
        let engine = engine
        guard let first = firstOccurrence(engine, endingAtOrAfter: from) else {
            return ([], countOfEvents(startingBefore: limit))
        }
        var taken = 0
        let events = events(engine, from: first) { event in
            taken += 1
            return taken <= maximum && startsBefore(limit: limit, event.start)
        }
        // Every occurrence before `first` ends before `from`, so it started before `limit` too — if it exists
        // (when the element ends before `first`, or a negative duration breaks that reasoning, count directly).
        if duration.seconds < 0 || (events.isEmpty && end != nil) {
            return (events, countOfEvents(startingBefore: limit))
        }
        return (events, first.index + events.count)
    }

    /// The first occurrence whose event ends at or after `date` (it may start after `date`), ignoring `end`.
    func firstOccurrence(_ engine: OccurrenceEngine, endingAtOrAfter date: Date) -> (index: Int, start: Date)? {
        // Candidates start at or after a lower bound; the occurrence before the first candidate may still end at or
        // after `date` (an all-day event on a day shortened by an offset change, or rounding of `date - seconds`),
        // so it is checked too, and the walk continues past candidates that end too early.
        let lowerBound: Date
        let endOf: (Date) -> Date
        switch duration {
        case .allDay:
            lowerBound = storage.calendar.calendar.startOfDay(for: date)
            endOf = { engine.endOfDay(startingAt: $0) }
        case let .seconds(seconds):
            guard seconds.isFinite else { return nil }
            lowerBound = date.addingTimeInterval(-seconds)
            endOf = { $0.addingTimeInterval(seconds) }
        }
        guard let found = engine.firstOccurrence(startingAtOrAfter: lowerBound) else { return nil }
        var (index, start) = (found.index, found.start)
        var knownPrevious = found.previous
        while index > 0, let previous = knownPrevious ?? engine.date(ofOccurrence: index - 1), endOf(previous) >= date {
            (index, start, knownPrevious) = (index - 1, previous, nil)
        }
        while endOf(start) < date, let next = engine.step(start) {
            (index, start) = (index + 1, next)
        }
        return (index, start)
    }

    /// Events from `first` on while `shouldContinue` holds and they start before the element's end.
    func events(_ engine: OccurrenceEngine, from first: (index: Int, start: Date),
                        while shouldContinue: (OCKScheduleEvent) -> Bool) -> [OCKScheduleEvent] {
        var events: [OCKScheduleEvent] = []
        var (occurrence, date) = first
        while startsBefore(limit: end, date) {
            let event = makeEvent(engine, start: date, occurrence: occurrence)
            guard shouldContinue(event) else { break }
            events.append(event)
            guard let next = engine.step(date) else { break }
            date = next
            occurrence += 1
        }
        return events
    }

    /// The number of events that start before `limit` (CareKit's rule, including the all-day same-day rule) and
    /// before the element's end.
    func countOfEvents(startingBefore limit: Date) -> Int {
        let bound = end.map { min($0, limit) } ?? limit
        let engine = engine
        guard let found = engine.firstOccurrence(startingAtOrAfter: bound) else { return 0 }
        var (index, start) = (found.index, found.start)
        // All-day events on the same day as the second before the bound also count.
        while duration == .allDay, startsBefore(limit: limit, start), startsBefore(limit: end, start),
              let next = engine.step(start) {
            (index, start) = (index + 1, next)
        }
        return index
    }

    /// The event after `event` (one step), or nil where the element ends.
    func event(after event: OCKScheduleEvent) -> OCKScheduleEvent? {
        let engine = engine
        guard let next = engine.step(event.start), startsBefore(limit: end, next) else { return nil }
        return makeEvent(engine, start: next, occurrence: event.occurrence + 1)
    }

    /// CareKit's `isEventStart(_:beforeLimit:)`: fixed-length events must start before the limit; all-day events may
    /// also start on the same day as the second before it. A nil limit means no limit.
    func startsBefore(limit: Date?, _ eventStart: Date) -> Bool {
        guard let limit else { return true }
        if eventStart < limit { return true }
        guard duration == .allDay else { return false }
        let calendar = storage.calendar.calendar
        guard let adjusted = calendar.date(byAdding: .second, value: -1, to: limit) else { return false }
        return calendar.isDate(eventStart, inSameDayAs: adjusted)
    }

    func makeEvent(_ engine: OccurrenceEngine, start: Date, occurrence: Int) -> OCKScheduleEvent {
        let end = switch duration {
        case .allDay: engine.endOfDay(startingAt: start)
        case let .seconds(seconds): start.addingTimeInterval(seconds)
        }
        return OCKScheduleEvent(start: start, end: end, element: self, occurrence: occurrence)
    }
}
