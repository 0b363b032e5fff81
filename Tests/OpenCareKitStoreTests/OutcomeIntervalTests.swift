import Foundation
import Testing
@testable import OpenCareKitStore

/// Outcomes in an interval are found by the occurrences their task versions' schedules have there (the store keeps no
/// index on event times): the result must be exactly the outcomes whose events overlap the interval, for schedules of
/// every shape.
@Suite struct OutcomeIntervalTests {
    static let calendar = ScheduleSemanticsTests.newYork
    static let start = ScheduleSemanticsTests.date(calendar, 2026, 3, 1, 0)

    /// A small deterministic generator (the same intervals every run).
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
    }

    static func element(_ start: Date, hour: Int, interval: DateComponents, duration: OCKScheduleElement.Duration,
                        end: Date? = nil) -> OCKScheduleElement {
        OCKScheduleElement(start: calendar.date(byAdding: .hour, value: hour, to: start)!, end: end, interval: interval,
                           duration: duration, calendar: calendar)
    }

    /// Schedules of every shape: one element; several with different durations (an all-day one across the change to
    /// daylight saving time); overlapping events; one that ends.
    static let schedules: [OCKSchedule] = [
        OCKSchedule(composing: [element(start, hour: 8, interval: DateComponents(day: 1), duration: .hours(1))]),
        OCKSchedule(composing: [
            element(start, hour: 8, interval: DateComponents(day: 1), duration: .minutes(30)),
            element(start, hour: 0, interval: DateComponents(day: 3), duration: .allDay),
            element(start, hour: 2, interval: DateComponents(hour: 6), duration: .hours(2)),
        ]),
        OCKSchedule(composing: [element(start, hour: 1, interval: DateComponents(hour: 1), duration: .seconds(5_400))]),
        OCKSchedule(composing: [
            element(start, hour: 9, interval: DateComponents(day: 2), duration: .hours(20),
                    end: calendar.date(byAdding: .day, value: 12, to: start)),
            element(start, hour: 21, interval: DateComponents(weekOfYear: 1), duration: .seconds(0)),
        ]),
    ]

    @Test func intervalsFindExactlyTheOutcomesWhoseEventsOverlapThem() async throws {
        let store = OCKStore(name: "intervals", type: .inMemory)
        let end = Self.calendar.date(byAdding: .day, value: 30, to: Self.start)!
        var tasks = try await store.addTasks(Self.schedules.indices.map { index in
            OCKTask(id: "task-\(index)", title: nil, carePlanUUID: nil, schedule: Self.schedules[index])
        })
        // A second version of the first task from day 15, with the third task's schedule: its outcomes before then
        // are the first version's, after it the second's.
        var second = tasks[0]
        second.schedule = Self.schedules[2]
        second.effectiveDate = Self.calendar.date(byAdding: .day, value: 15, to: Self.start)!
        tasks += try await store.updateTasks([second])

        // An outcome for every event of every version until it is replaced (or the end), and its event.
        var expected: [UUID: DateInterval] = [:]
        for (index, task) in tasks.enumerated() {
            let until = index == 0 ? second.effectiveDate : end
            let outcomes = task.schedule.events(from: Self.start, to: until).filter { $0.start < until }.map {
                OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: $0.occurrence, values: [OCKOutcomeValue(1)])
            }
            for outcome in try await store.addOutcomes(outcomes) {
                let event = try #require(task.schedule.event(forOccurrenceIndex: outcome.taskOccurrenceIndex))
                expected[outcome.uuid] = DateInterval(start: event.start, end: max(event.start, event.end))
            }
        }
        #expect(expected.count > 1_000)

        var generator = Generator(state: 2026)
        let lengths: [TimeInterval] = [0, 1, 60, 3_600, 5_400, 86_400, 3 * 86_400, 20 * 86_400, 60 * 86_400]
        for round in 0..<120 {
            let offset = TimeInterval.random(in: -86_400 * 3...86_400 * 33, using: &generator).rounded()
            let interval = DateInterval(start: Self.start.addingTimeInterval(offset), duration: lengths[round % lengths.count])
            let overlapping = Set(expected.filter { $0.value.end >= interval.start && $0.value.start < interval.end }.keys)

            let all = try await store.fetchOutcomes(query: OCKOutcomeQuery(dateInterval: interval))
            #expect(Set(all.map(\.uuid)) == overlapping, "interval \(interval)")
            #expect(all.count == overlapping.count)
            // By task version and by task id, the same outcomes of those tasks.
            let task = tasks[round % tasks.count]
            var byVersion = OCKOutcomeQuery(dateInterval: interval)
            byVersion.taskUUIDs = [task.uuid]
            let ofVersion = try await store.fetchOutcomes(query: byVersion)
            #expect(Set(ofVersion.map(\.uuid)) == overlapping.filter { uuid in all.first { $0.uuid == uuid }?.taskUUID == task.uuid })
            var byID = OCKOutcomeQuery(dateInterval: interval)
            byID.taskIDs = [task.id]
            let versions = Set(tasks.filter { $0.id == task.id }.map(\.uuid))
            let ofID = try await store.fetchOutcomes(query: byID)
            #expect(Set(ofID.map(\.uuid)) == Set(all.filter { versions.contains($0.taskUUID) }.map(\.uuid)))
        }
    }

    @Test func occurrenceRangesHoldEveryOverlappingEvent() {
        // The ranges themselves: every event that overlaps is inside, and the range is not much wider than the events.
        var generator = Generator(state: 7)
        for schedule in Self.schedules {
            for _ in 0..<200 {
                let from = Self.start.addingTimeInterval(TimeInterval.random(in: -86_400 * 2...86_400 * 40, using: &generator).rounded())
                let interval = DateInterval(start: from, duration: TimeInterval.random(in: 0...86_400 * 4, using: &generator).rounded())
                let events = schedule.events(from: interval.start.addingTimeInterval(-3 * 86_400), to: interval.end.addingTimeInterval(1))
                    .filter { max($0.start, $0.end) >= interval.start && $0.start < interval.end }
                guard let range = schedule.occurrences(overlapping: interval) else {
                    #expect(events.isEmpty, "no range for \(interval), but events overlap it")
                    continue
                }
                for event in events { #expect(range.contains(event.occurrence), "\(event.occurrence) outside \(range)") }
                if let first = events.first, let last = events.last {
                    #expect(range.count <= last.occurrence - first.occurrence + 1 + 40)
                }
            }
        }
    }
}
