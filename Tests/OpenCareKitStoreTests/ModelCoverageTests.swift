import Foundation
import Testing
@testable import OpenCareKitStore

/// The remaining model types, and the schedule example of the OpenCareKitStore documentation's landing page
/// ("Schedules keep their time zone").
@Suite struct ModelCoverageTests {
    static let calendar = ScheduleSemanticsTests.newYork

    @Test func adherenceValuesRoundTrip() throws {
        let values: [OCKAdherence] = [.noTasks, .noEvents, .progress(0.75)]
        #expect(try JSONDecoder().decode([OCKAdherence].self, from: JSONEncoder().encode(values)) == values)
        #expect(OCKAdherence.progress(0.5) != .progress(0.75))
    }

    @Test func everyEntityKindRoundTripsWithItsType() throws {
        let schedule = OCKSchedule.dailyAtTime(hour: 9, minutes: 0, start: Date(timeIntervalSinceReferenceDate: 8e8),
                                               end: nil, text: nil, calendar: Self.calendar)
        let task = OCKTask(id: "t", title: "T", carePlanUUID: nil, schedule: schedule)
        var outcome = OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: 3, values: [OCKOutcomeValue(true)])
        outcome.notes = [OCKNote(author: nil, title: "Felt fine", content: nil)]
        let entities: [OCKEntity] = [
            .patient(OCKPatient(id: "p", givenName: "A", familyName: "B")),
            .carePlan(OCKCarePlan(id: "c", title: "Plan", patientUUID: UUID())),
            .contact(OCKContact(id: "k", givenName: "C", familyName: "D", carePlanUUID: nil)),
            .task(task),
            .healthKitTask(OCKHealthKitTask(id: "h", title: "Steps", carePlanUUID: nil, schedule: schedule,
                                            healthKitLinkage: OCKHealthKitLinkage(quantityIdentifier: "HKQuantityTypeIdentifierStepCount",
                                                                                  quantityType: .cumulative, unitString: "count"))),
            .outcome(outcome),
        ]
        let decoded = try JSONDecoder().decode([OCKEntity].self, from: JSONEncoder().encode(entities))
        #expect(decoded == entities)
        #expect(decoded.map(\.entityType) == OCKEntity.EntityType.allCases)
        #expect(decoded.map(\.uuid) == entities.map(\.value.uuid))
        let json = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(entities[3])) as? [String: Any])
        #expect(json["type"] as? String == "task")
        #expect((json["object"] as? [String: Any])?["id"] as? String == "t")
    }

    @Test func scheduleEventsRoundTrip() throws {
        let element = OCKScheduleElement(start: Date(timeIntervalSinceReferenceDate: 8e8), end: nil,
                                         interval: DateComponents(day: 2), calendar: Self.calendar)
        let event = element[4]
        #expect(try JSONDecoder().decode(OCKScheduleEvent.self, from: JSONEncoder().encode(event)) == event)
    }

    @Test func theDefaultCalendarIsFrozenWhenTheElementIsCreated() throws {
        let element = OCKScheduleElement(start: Date(timeIntervalSinceReferenceDate: 8e8), end: nil,
                                         interval: DateComponents(day: 1))
        #expect(element.timeZone.identifier == TimeZone.current.identifier)
        let json = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(element)) as? [String: Any])
        let calendar = try #require(json["calendar"] as? [String: Any])
        #expect(calendar["current"] as? Int == 0) // fixed, not autoupdating
        #expect((calendar["timeZone"] as? [String: Any])?["identifier"] as? String == TimeZone.current.identifier)
    }

    @Test func endDateIsTheLatestElementEndUnlessOneRepeatsForever() {
        let start = Date(timeIntervalSinceReferenceDate: 8e8)
        func element(_ end: Date?) -> OCKScheduleElement {
            OCKScheduleElement(start: start, end: end, interval: DateComponents(day: 1), calendar: Self.calendar)
        }
        let later = start.addingTimeInterval(86_400 * 30)
        #expect(OCKSchedule(composing: [element(start.addingTimeInterval(86_400)), element(later)]).endDate() == later)
        #expect(OCKSchedule(composing: [element(later), element(nil)]).endDate() == nil)
    }

    @Test func outcomeValueAccessorsDoNotConvert() {
        let integer = OCKOutcomeValue(7)
        #expect(integer.integerValue == 7 && integer.doubleValue == nil && integer.numberValue?.doubleValue == 7)
        let flag = OCKOutcomeValue(true)
        #expect(flag.booleanValue == true && flag.numberValue?.boolValue == true && flag.type == .boolean)
        #expect(OCKOutcomeValue("text").numberValue == nil)
        #expect(OCKOutcomeValue(Data([1, 2])).description == "2 bytes")
        #expect(OCKOutcomeValue(7, units: "mg", createdDate: .distantPast) != OCKOutcomeValue(7.0, units: "mg", createdDate: .distantPast))
    }

    @Test func readmeExampleHoldsAcrossTheChange() throws {
        var newYork = Calendar(identifier: .gregorian)
        newYork.timeZone = TimeZone(identifier: "America/New_York")!
        let start = newYork.date(from: DateComponents(year: 2026, month: 3, day: 1))!
        let ibuprofen = OCKSchedule.dailyAtTime(hour: 8, minutes: 0, start: start, end: nil, text: "With breakfast",
                                                targetValues: [OCKOutcomeValue(200.0, units: "mg")], calendar: newYork)
        var task = OCKTask(id: "ibuprofen", title: "Ibuprofen", carePlanUUID: nil, schedule: ibuprofen)
        task.instructions = "Take with food."
        try task.validate()
        let day = OCKEventQuery(for: newYork.date(byAdding: .day, value: 7, to: start)!, calendar: newYork)
        let events = task.schedule.events(from: day.dateInterval.start, to: day.dateInterval.end)
        #expect(events.map(\.occurrence) == [7])
        #expect(newYork.dateComponents([.month, .day, .hour], from: events[0].start) == DateComponents(month: 3, day: 8, hour: 8))
        #expect(newYork.timeZone.secondsFromGMT(for: events[0].start) == -4 * 3600)
    }
}
