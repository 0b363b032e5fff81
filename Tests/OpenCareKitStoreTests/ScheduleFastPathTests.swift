import Foundation
import Testing
@testable import OpenCareKitStore

/// The fast lookups must equal CareKit's step-by-step definition exactly, on many random schedules.
@Suite struct ScheduleFastPathTests {
    static let elementCount = 1_200

    private func describe(_ element: OCKScheduleElement) -> String {
        "start=\(element.start.timeIntervalSinceReferenceDate) zone=\(element.timeZone.identifier) "
            + "interval=\(element.interval) duration=\(element.duration) end=\(String(describing: element.end))"
    }

    @Test func occurrenceDatesMatchTheStepByStepDefinition() {
        var rng = SeededGenerator(seed: 0xCA2E_C0DE)
        var mismatches = 0
        for caseIndex in 0..<Self.elementCount where mismatches < 5 {
            let element = RandomSchedules.element(using: &rng)
            let reference = ReferenceElement(element: element)
            let maximum = 3_000
            let steps = reference.events(maximum: maximum) { _ in true }
            let complete = steps.count < maximum
            var indices = (0..<6).map { _ in Int.random(in: 0..<steps.count, using: &rng) }
            indices.append(steps.count - 1)
            if complete { indices.append(steps.count) }
            for index in indices {
                let expected = index < steps.count ? steps[index].start : nil
                let actual = element.date(ofOccurrence: index)
                if actual != expected {
                    mismatches += 1
                    Issue.record("case \(caseIndex) occurrence \(index): \(String(describing: actual)) != \(String(describing: expected)) — \(describe(element))")
                    break
                }
            }
        }
    }

    @Test func eventWindowsMatchTheStepByStepDefinition() {
        var rng = SeededGenerator(seed: 0xE7E_0A11)
        var mismatches = 0
        for caseIndex in 0..<Self.elementCount where mismatches < 5 {
            let element = RandomSchedules.element(using: &rng)
            let reference = ReferenceElement(element: element)
            let steps = reference.events(maximum: 3_000) { _ in true }
            guard let last = steps.last else { continue }
            for _ in 0..<4 {
                let anchor = steps[Int.random(in: 0..<steps.count, using: &rng)].start
                let from = anchor.addingTimeInterval(Double(Int.random(in: -200_000...100_000, using: &rng)))
                let to = from.addingTimeInterval(Double(Int.random(in: 1...900_000, using: &rng)))
                guard to < last.start else { continue }
                let expected = steps.filter { reference.isEventStart($0.start, beforeLimit: to) && $0.end >= from }
                let actual = element.events(from: from, to: to)
                if actual != expected {
                    mismatches += 1
                    Issue.record("case \(caseIndex) window \(from)…\(to): \(actual.map(\.occurrence)) != \(expected.map(\.occurrence)) — \(describe(element))")
                    break
                }
            }
        }
    }

    @Test func firstOccurrenceOnOrAfterADateMatchesTheDefinition() {
        var rng = SeededGenerator(seed: 0xF1257)
        for caseIndex in 0..<400 {
            let element = RandomSchedules.element(using: &rng)
            let steps = ReferenceElement(element: element).events(maximum: 3_000) { _ in true }
            guard steps.count > 2 else { continue }
            let index = Int.random(in: 1..<(steps.count - 1), using: &rng)
            // Just after the previous start, exactly at this start: both must find `index`.
            let justAfter = Date(timeIntervalSinceReferenceDate: steps[index - 1].start.timeIntervalSinceReferenceDate.nextUp)
            #expect(element.firstOccurrence(startingAtOrAfter: justAfter) == index, "case \(caseIndex) \(describe(element))")
            #expect(element.firstOccurrence(startingAtOrAfter: steps[index].start) == index, "case \(caseIndex) \(describe(element))")
        }
    }

    @Test func composedSchedulesMatchCareKitsMergedNumbering() {
        var rng = SeededGenerator(seed: 0xC0_4405E)
        var mismatches = 0
        for caseIndex in 0..<300 where mismatches < 5 {
            let count = Int.random(in: 2...3, using: &rng)
            var elements = (0..<count).map { _ in RandomSchedules.element(using: &rng) }
            // Keep the elements near each other in time so their events interleave.
            let base = elements[0].start
            elements = elements.enumerated().map { index, element in
                index == 0 ? element : element.offset(by: DateComponents(second: Int(base.timeIntervalSince(element.start)) + Int.random(in: -86_400...86_400, using: &rng)))
            }
            if Int.random(in: 0..<3, using: &rng) == 0 { elements.append(elements[0]) } // identical starts tie
            let schedule = OCKSchedule(composing: elements)
            let reference = ReferenceSchedule(schedule: schedule)
            let from = base.addingTimeInterval(Double(Int.random(in: 0...2_000_000, using: &rng)))
            let to = from.addingTimeInterval(Double(Int.random(in: 3_600...300_000, using: &rng)))
            let expected = reference.events(from: from, to: to)
            let actual = schedule.events(from: from, to: to)
            if actual != expected {
                mismatches += 1
                Issue.record("case \(caseIndex): \(actual.map { ($0.occurrence, $0.start) }) != \(expected.map { ($0.occurrence, $0.start) })")
                continue
            }
            let occurrence = Int.random(in: 0..<150, using: &rng)
            let expectedEvent = reference.event(forOccurrenceIndex: occurrence)
            let actualEvent = schedule.event(forOccurrenceIndex: occurrence)
            if actualEvent != expectedEvent {
                mismatches += 1
                Issue.record("case \(caseIndex) occurrence \(occurrence): \(String(describing: actualEvent?.start)) != \(String(describing: expectedEvent?.start))")
            }
            // Stepping to the next event in merged order agrees with looking it up by index.
            if let expectedEvent, schedule.event(after: expectedEvent) != reference.event(forOccurrenceIndex: occurrence + 1) {
                mismatches += 1
                Issue.record("case \(caseIndex) event after occurrence \(occurrence) differs")
            }
        }
    }
}
