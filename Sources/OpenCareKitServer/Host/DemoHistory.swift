import Foundation
import OpenCareKit
import OpenCareKitStore
import OpenCareKitSurveys

/// A few weeks of made-up care for a demo patient on the demo care plan, so the Insights charts, the rings and the
/// clinician's flags have something to show on first run: the signed onboarding on the plan's first day, then each
/// day's doses, exercises, hydration, weigh-ins, nausea logs and check-ins, done or missed as the patient's habits
/// say. The same patient always gets the same history (a seeded generator), relative to the day it is written.
package struct DemoHistory {
    /// How a demo patient keeps to the plan.
    package struct Habits: Sendable {
        /// The share of days the patient keeps to the plan (on the others, each task is done half the time or less).
        var adherence: Double
        /// The usual pain score of the daily check-in, 0 to 10.
        var pain: Double
        /// Days since the patient last recorded anything (0: still active today).
        var quietDays = 0
        /// Whether the pain rose to 8 or more in the last days.
        var painSpike = false

        package init(adherence: Double, pain: Double, quietDays: Int = 0, painSpike: Bool = false) {
            (self.adherence, self.pain, self.quietDays, self.painSpike) = (adherence, pain, quietDays, painSpike)
        }
    }

    let calendar: Calendar
    let habits: Habits
    let signerName: String
    var random: SeededRandomNumberGenerator

    /// Writes the history from the plan's first day (`start`) up to `now` into `store`, which holds the demo plan.
    mutating func write(into store: OCKStore, start: Date, now: Date) async throws {
        let today = calendar.startOfDay(for: now)
        let lastActive = calendar.date(byAdding: .day, value: -habits.quietDays, to: now) ?? now
        let events = try await store.fetchEvents(query: OCKEventQuery(dateInterval: DateInterval(start: start, end: max(start, lastActive))))
        var outcomes: [OCKOutcome] = []
        var dayIsGood: [Date: Bool] = [:]
        var weight = 70 + random.next(in: 0..<25)
        for event in events where event.scheduleEvent.start < lastActive {
            let day = calendar.startOfDay(for: event.scheduleEvent.start)
            let good = dayIsGood[day] ?? {
                let good = random.next(in: 0..<1) < habits.adherence
                dayIsGood[day] = good
                return good
            }()
            // All-day tasks are done at some time in the day; the others within the hour after they start.
            let isAllDay = event.scheduleEvent.element.duration == .allDay
            var time = isAllDay ? day.addingTimeInterval(9 * 3600 + random.next(in: 0..<(11 * 3600)))
                : event.scheduleEvent.start.addingTimeInterval(random.next(in: 0..<3000))
            guard time < lastActive else { continue }
            time = min(time, now)
            let values: [OCKOutcomeValue]
            switch event.task.id {
            case OCKDemoSurveys.onboardingTaskID:
                guard day == calendar.startOfDay(for: start) else { continue }
                values = try onboarding(at: time)
            case "check-in":
                guard random.next(in: 0..<1) < (good ? 0.95 : 0.4) else { continue }
                let recent = calendar.dateComponents([.day], from: day, to: today).day ?? 0
                let pain = habits.painSpike && recent <= 2 ? 8 + random.next(in: 0..<2) : habits.pain + random.next(in: -1.5..<1.5)
                values = try checkIn(pain: Int(min(max(pain, 0), 10).rounded()), sleep: (5 + random.next(in: 0..<4)).rounded(),
                                     exercises: good, at: time)
            case "nausea":
                let episodes = random.next(in: 0..<1) < (good ? 0.2 : 0.5) ? 1 + Int(random.next(in: 0..<2)) : 0
                guard episodes > 0 else { continue }
                values = (0..<episodes).map { index in Self.value(true, at: time.addingTimeInterval(Double(index) * 5400)) }
            case "hydration":
                let glasses = good ? 6 + random.next(in: 0..<4) : 1 + random.next(in: 0..<5)
                values = [Self.value(glasses.rounded(), units: "glasses", at: time)]
            case "weigh-in":
                guard random.next(in: 0..<1) < (good ? 0.9 : 0.5) else { continue }
                weight -= random.next(in: 0..<0.6)
                values = [Self.value((weight * 10).rounded() / 10, units: "kg", at: time)]
            default:
                guard random.next(in: 0..<1) < (good ? 0.98 : 0.45) else { continue }
                values = [Self.value(true, at: time)]
            }
            var outcome = OCKOutcome(taskUUID: event.task.uuid, taskOccurrenceIndex: event.scheduleEvent.occurrence, values: values)
            outcome.createdDate = time
            outcomes.append(outcome)
        }
        try await store.addOutcomes(outcomes)
    }

    private static func value(_ value: some OCKOutcomeValueUnderlyingType, units: String? = nil, at time: Date) -> OCKOutcomeValue {
        OCKOutcomeValue(value, units: units, createdDate: time)
    }

    /// The onboarding survey, finished and signed (with the typed name; the demo draws no signature).
    private func onboarding(at time: Date) throws -> [OCKOutcomeValue] {
        try OCKDemoSurveys.signedOnboarding(signerName: signerName, at: time)
    }

    private func checkIn(pain: Int, sleep: Double, exercises: Bool, at time: Date) throws -> [OCKOutcomeValue] {
        var session = OCKSurveySession(survey: OCKDemoSurveys.checkIn)
        try session.record(.answer(.scale(pain)), for: "pain")
        try session.record(.answer(.number(sleep)), for: "sleep")
        try session.record(.answer(.yesNo(exercises)), for: "exercises")
        return try session.finish().outcomeValues(createdDate: time)
    }
}

extension SeededRandomNumberGenerator {
    /// A number in `range`, evenly spread.
    mutating func next(in range: Range<Double>) -> Double {
        Double.random(in: range, using: &self)
    }
}

extension DemoHistory {
    /// A demo patient's store: the demo plan from `days` days before `now`, with the history of a patient who keeps to
    /// it 85% of days (the report benchmark's record, and the clinic's patients').
    package static func seed(into store: OCKStore, calendar: Calendar, days: Int, now: Date, givenName: String = "Alex",
                             familyName: String = "Rivera", habits: Habits = Habits(adherence: 0.85, pain: 4), seed: UInt64 = 1) async throws {
        let start = calendar.date(byAdding: .day, value: -days, to: calendar.startOfDay(for: now)) ?? now
        var plan = OCKDemoCarePlan(calendar: calendar, start: start)
        plan.givenName = givenName
        plan.familyName = familyName
        try await plan.seed(into: store)
        var history = DemoHistory(calendar: calendar, habits: habits, signerName: givenName + " " + familyName,
                                  random: SeededRandomNumberGenerator(seed: seed))
        try await history.write(into: store, start: start, now: now)
    }
}
