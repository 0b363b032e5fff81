import Foundation
import Testing
@testable import OpenCareKitStore

@Suite struct ProgressTests {
    static let calendar = ScheduleSemanticsTests.newYork
    static let start = ScheduleSemanticsTests.date(calendar, 2026, 1, 1, 8)

    private func event(targets: [OCKOutcomeValue] = [], values: [OCKOutcomeValue]?) -> OCKAnyEvent {
        let element = OCKScheduleElement(start: Self.start, end: nil, interval: DateComponents(day: 1),
                                         targetValues: targets, calendar: Self.calendar)
        let task = OCKTask(id: "t", title: nil, carePlanUUID: nil, schedule: OCKSchedule(composing: [element]))
        let outcome = values.map { OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: 0, values: $0) }
        return OCKAnyEvent(task: task, outcome: outcome, scheduleEvent: element[0])
    }

    @Test func checkingOutcomeExistsCountsAnyOutcome() {
        #expect(event(values: nil).computeProgress(by: .checkingOutcomeExists).isCompleted == false)
        #expect(event(values: []).computeProgress(by: .checkingOutcomeExists).isCompleted)
        #expect(event(values: []).computeProgress().fractionCompleted == 1)
    }

    @Test func summingOutcomeValuesComparesWithTargets() {
        let targets = [OCKOutcomeValue(200.0, units: "mg"), OCKOutcomeValue(200, units: "mg")]
        let half = event(targets: targets, values: [OCKOutcomeValue(200.0)]).computeProgress(by: .summingOutcomeValues)
        #expect(half.value == 200 && half.goal == 400 && half.fractionCompleted == 0.5 && !half.isCompleted)
        // Text and booleans count as 1, even `false`.
        let counted = event(targets: [OCKOutcomeValue(2)], values: [OCKOutcomeValue("note"), OCKOutcomeValue(false)])
            .computeProgress(by: .summingOutcomeValues)
        #expect(counted.value == 2 && counted.isCompleted)
        // Without targets any positive sum completes.
        let noGoal = event(values: [OCKOutcomeValue(0.5)]).computeProgress(by: .summingOutcomeValues)
        #expect(noGoal.goal == nil && noGoal.isCompleted)
        #expect(event(values: nil).computeProgress(by: .summingOutcomeValues).fractionCompleted == 0)
    }

    @Test func customStrategiesRun() {
        let strategy = CareTaskProgressStrategy<LinearCareTaskProgress> { event in
            LinearCareTaskProgress(value: Double(event.outcome?.values.count ?? 0), goal: 4)
        }
        #expect(event(values: [OCKOutcomeValue(1), OCKOutcomeValue(2)]).computeProgress(by: strategy).fractionCompleted == 0.5)
    }

    @Test func linearProgressEdgeCasesDoNotTrap() {
        #expect(LinearCareTaskProgress(value: 3, goal: 0).fractionCompleted == 1)
        #expect(LinearCareTaskProgress(value: 0, goal: nil).fractionCompleted == 0)
        #expect(LinearCareTaskProgress(value: 9, goal: 3).fractionCompleted == 1)
        #expect(LinearCareTaskProgress(value: -3, goal: 3).fractionCompleted == 0)
        #expect(LinearCareTaskProgress(value: .nan, goal: 3).fractionCompleted == 0)
    }

    @Test func aggregatedProgressWeighsEventsEquallyAndClamps() {
        #expect(AggregatedCareTaskProgress(combining: []).fractionCompleted == 1)
        let mixed = AggregatedCareTaskProgress(combining: [
            BinaryCareTaskProgress(isCompleted: true), BinaryCareTaskProgress(isCompleted: false),
            LinearCareTaskProgress(value: 1, goal: 4), LinearCareTaskProgress(value: 3, goal: 4),
        ])
        #expect(mixed.fractionCompleted == 0.5)
        let events = [event(values: []), event(values: nil)]
        #expect(AggregatedCareTaskProgress(events: events).fractionCompleted == 0.5)
    }

    @Test func eventsHaveStableIdentifiersAndOrderByStart() {
        let element = OCKScheduleElement(start: Self.start, end: nil, interval: DateComponents(day: 1), calendar: Self.calendar)
        let task = OCKTask(id: "t", title: nil, carePlanUUID: nil, schedule: OCKSchedule(composing: [element]))
        let first = OCKEvent<OCKTask, OCKOutcome>(task: task, outcome: nil, scheduleEvent: element[0])
        let second = OCKEvent<OCKTask, OCKOutcome>(task: task, outcome: nil, scheduleEvent: element[1])
        #expect(first.id == "\(task.uuid.uuidString)/0")
        #expect(first < second)
        #expect(first.anyEvent.id == first.id)
        #expect(first.computeProgress().isCompleted == false)
    }
}

@Suite struct QueryTests {
    @Test func queriesForADayCoverStartToLastSecond() {
        let calendar = ScheduleSemanticsTests.calendar("Asia/Seoul")
        let noon = ScheduleSemanticsTests.date(calendar, 2026, 11, 22, 12)
        let expected = DateInterval(start: ScheduleSemanticsTests.date(calendar, 2026, 11, 22),
                                    end: ScheduleSemanticsTests.date(calendar, 2026, 11, 23).addingTimeInterval(-1))
        #expect(OCKTaskQuery(for: noon, calendar: calendar).dateInterval == expected)
        #expect(OCKOutcomeQuery(for: noon, calendar: calendar).dateInterval == expected)
        #expect(OCKPatientQuery(for: noon, calendar: calendar).dateInterval == expected)
        #expect(OCKCarePlanQuery(for: noon, calendar: calendar).dateInterval == expected)
        #expect(OCKContactQuery(for: noon, calendar: calendar).dateInterval == expected)
        #expect(OCKEventQuery(for: noon, calendar: calendar).dateInterval == expected)
    }

    @Test func queriesHaveCareKitsFieldsAndDefaults() throws {
        var query = OCKTaskQuery(id: "ibuprofen")
        #expect(query.ids == ["ibuprofen"] && query.offset == 0 && query.limit == nil && query.dateInterval == nil)
        query.carePlanIDs = ["plan"]
        query.excludesTasksWithNoEvents = true
        query.sortDescriptors = [.title(ascending: true), .effectiveDate(ascending: false)]
        query.groupIdentifiers = [nil, "meds"]
        query.remoteIDs = [nil]
        query.tags = ["morning"]
        query.limit = 10
        #expect(try JSONDecoder().decode(OCKTaskQuery.self, from: JSONEncoder().encode(query)) == query)

        var outcomes = OCKOutcomeQuery()
        outcomes.taskIDs = ["a"]
        outcomes.taskUUIDs = [UUID()]
        outcomes.taskRemoteIDs = ["r"]
        var plans = OCKCarePlanQuery(id: "p")
        plans.patientIDs = ["patient"]
        plans.sortDescriptors = [.title(ascending: false)]
        var contacts = OCKContactQuery()
        contacts.sortDescriptors = [.familyName(ascending: true), .givenName(ascending: true)]
        var patients = OCKPatientQuery()
        patients.sortDescriptors = [.groupIdentifier(ascending: true)]
        #expect(Set([contacts, OCKContactQuery()]).count == 2)
        #expect(plans != OCKCarePlanQuery())
        #expect(outcomes != OCKOutcomeQuery() && patients != OCKPatientQuery())

        var events = OCKEventQuery(dateInterval: DateInterval(start: .distantPast, duration: 60))
        events.taskIDs = ["a"]
        events.taskGroupIdentifiers = ["g"]
        events.taskTags = ["t"]
        #expect(events.taskQuery.ids == ["a"] && events.taskQuery.groupIdentifiers == ["g"] && events.taskQuery.tags == ["t"])
    }

    @Test func adherenceQueryListsItsDays() {
        let calendar = ScheduleSemanticsTests.newYork
        let start = ScheduleSemanticsTests.date(calendar, 2026, 3, 7)
        let query = OCKAdherenceQuery(taskIDs: [], dateInterval: DateInterval(start: start, end: ScheduleSemanticsTests.date(calendar, 2026, 3, 10)))
        #expect(query.dates(calendar: calendar) == [start, ScheduleSemanticsTests.date(calendar, 2026, 3, 8), ScheduleSemanticsTests.date(calendar, 2026, 3, 9)])
    }
}

@Suite struct SyncValueTests {
    let a = UUID(uuidString: "0F1E2D3C-4B5A-4968-8776-A5B4C3D2E1F0")!
    let b = UUID(uuidString: "6A5B4C3D-2E1F-4A0B-9C8D-7E6F5A4B3C2D")!

    @Test func knowledgeVectorsIncrementMergeAndOrder() {
        var first = OCKKnowledgeVector()
        first.increment(clockFor: a)
        first.increment(clockFor: a)
        #expect(first.clock(for: a) == 2 && first.clock(for: b) == 0)
        var second = OCKKnowledgeVector([b: 3])
        #expect(!(first < second) && !(second < first)) // concurrent
        second.merge(with: first)
        #expect(second.processes == [a: 2, b: 3])
        #expect(first < second)
        #expect(!(second < second))
    }

    @Test func knowledgeVectorUsesCareKitsJSON() throws {
        let vector = OCKKnowledgeVector([b: 11, a: 4])
        let json = String(decoding: try Fixtures.encode(vector), as: UTF8.self)
        #expect(json == #"{"processes":[{"clock":4,"id":"0F1E2D3C-4B5A-4968-8776-A5B4C3D2E1F0"},{"clock":11,"id":"6A5B4C3D-2E1F-4A0B-9C8D-7E6F5A4B3C2D"}]}"#)
        #expect(try JSONDecoder().decode(OCKKnowledgeVector.self, from: Data(json.utf8)) == vector)
    }

    @Test func semanticVersionsParseAndCompare() throws {
        #expect(OCKSemanticVersion("2.1")?.description == "2.1.0")
        #expect(OCKSemanticVersion("2.1.3")! > OCKSemanticVersion("2.1")!)
        #expect(OCKSemanticVersion("1.2.3.4") == nil)
        #expect(throws: OCKSemanticVersion.ParsingError.invalidMinorVersion) { try OCKSemanticVersion.parse("1.x") }
        #expect(throws: OCKSemanticVersion.ParsingError.emptyString) { try OCKSemanticVersion.parse("") }
    }
}
