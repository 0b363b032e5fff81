import Foundation
@testable import OpenCareKit
import OpenCareKitStore
import OpenCareKitUI
import Testing

/// Actions of an app that runs surveys: a start form and a delete confirmation page.
struct SurveyActions: OCKEventActions {
    let base = TestActions()
    func toggle(_ event: OCKAnyEvent) -> OCKFormAction { base.toggle(event) }
    func log(_ event: OCKAnyEvent) -> OCKFormAction { base.log(event) }
    func deleteLoggedValue(_ event: OCKAnyEvent, at index: Int) -> OCKFormAction { base.deleteLoggedValue(event, at: index) }
    func record(_ event: OCKAnyEvent) -> OCKFormAction { base.record(event) }
    func startSurvey(_ event: OCKAnyEvent) -> OCKFormAction? { base.form("/start", event) }
    func deleteSurveyAnswers(_ event: OCKAnyEvent) -> SafeURL? { SafeURL("/delete-answers?task=\(event.task.uuid)") }
}

@Suite struct OnboardingAndSurveyCardTests {
    func addOnboarding(to fixture: CarePlanFixture) async throws -> OCKTask {
        var onboarding = OCKTask(id: "onboarding", title: "Onboarding", carePlanUUID: nil,
                                 schedule: OCKSchedule(composing: [fixture.element(0, allDay: true)]))
        onboarding.impactsAdherence = false
        return try await fixture.store.addTask(onboarding)
    }

    @Test func untilOnboardingHasAnOutcomeOnlyItsCardShows() async throws {
        let fixture = CarePlanFixture()
        try await fixture.seed()
        var page = OCKDailyTasksPage(calendar: fixture.calendar, onboardingTaskID: "onboarding")
        // Without an onboarding task in the store there is nothing to gate.
        #expect(try await page.hasCompletedOnboarding(in: fixture.store))
        let onboarding = try await addOnboarding(to: fixture)
        #expect(try await !page.hasCompletedOnboarding(in: fixture.store))
        let earlier = fixture.calendar.date(byAdding: .day, value: -2, to: fixture.day)!
        for day in [fixture.day, earlier] {
            let feed = try await page.feedEvents(on: day, today: fixture.day, in: fixture.store)
            #expect(!feed.isOnboarded && feed.events.map(\.task.id) == ["onboarding"])
            #expect(fixture.calendar.isDate(feed.events[0].scheduleEvent.start, inSameDayAs: fixture.day))
        }
        // An outcome on any day opens the feed, without the onboarding card.
        let event = try await fixture.store.fetchEvent(forTask: onboarding, occurrence: 1)
        _ = try await fixture.store.addOutcome(OCKOutcome(taskUUID: onboarding.uuid, taskOccurrenceIndex: event.scheduleEvent.occurrence,
                                                          values: [OCKOutcomeValue(true)]))
        let feed = try await page.feedEvents(on: fixture.day, today: fixture.day, in: fixture.store)
        #expect(feed.isOnboarded && Set(feed.events.map(\.task.id)) == ["ibuprofen", "walk", "nausea", "weight"])
        page.onboardingTaskID = nil
        #expect(try await page.feedEvents(on: fixture.day, today: fixture.day, in: fixture.store).events.contains { $0.task.id == "onboarding" })
    }

    @Test func aOneTimeOnboardingStillShowsItsCardOnLaterDays() async throws {
        let fixture = CarePlanFixture()
        try await fixture.seed()
        let start = fixture.calendar.date(byAdding: .day, value: -3, to: fixture.day)!
        let element = OCKScheduleElement(start: start, end: fixture.calendar.date(byAdding: .day, value: 1, to: start)!,
                                         interval: DateComponents(day: 1), text: nil, targetValues: [], duration: .allDay,
                                         calendar: fixture.calendar)
        var onboarding = OCKTask(id: "onboarding", title: "Onboarding", carePlanUUID: nil, schedule: OCKSchedule(composing: [element]))
        onboarding.impactsAdherence = false
        _ = try await fixture.store.addTask(onboarding)
        let page = OCKDailyTasksPage(calendar: fixture.calendar, onboardingTaskID: "onboarding")
        let feed = try await page.feedEvents(on: fixture.day, today: fixture.day, in: fixture.store)
        #expect(!feed.isOnboarded && feed.events.map(\.task.id) == ["onboarding"])
        #expect(feed.events.first?.scheduleEvent.start == start)
    }

    @Test func aSurveyCardStartsThenShowsCompletedWithADeleteThatAsks() async throws {
        let fixture = CarePlanFixture()
        try await fixture.seed()
        let onboarding = try await addOnboarding(to: fixture)
        var environment = fixture.environment
        environment.actions = SurveyActions()
        var query = OCKEventQuery(for: fixture.day, calendar: fixture.calendar)
        query.taskIDs = ["onboarding"]
        var events = try await fixture.store.fetchEvents(query: query).map(\.anyEvent)
        let page = OCKDailyTasksPage(calendar: fixture.calendar, styles: ["onboarding": .survey])
        var html = page.cards(for: events, environment: environment)[0].view.render(in: environment.render).rendered
        #expect(html.contains(#"action="/start""#) && html.contains("Start survey") && !html.contains("Completed"))

        _ = try await fixture.store.addOutcome(OCKOutcome(taskUUID: onboarding.uuid, taskOccurrenceIndex: events[0].scheduleEvent.occurrence,
                                                          values: [OCKOutcomeValue(true)]))
        events = try await fixture.store.fetchEvents(query: query).map(\.anyEvent)
        html = page.cards(for: events, environment: environment)[0].view.render(in: environment.render).rendered
        #expect(html.contains("Completed") && html.contains("/delete-answers?task=") && !html.contains(#"action="/start""#))
        // An onboarding keeps its outcome: no delete.
        let kept = OCKSurveyTaskViewSynchronizer(allowsDeletingOutcome: false).view(for: events, environment: environment)
        #expect(!kept.render(in: environment.render).rendered.contains("/delete-answers"))
        // Read-only days cannot start a survey.
        environment.isReadOnly = true
        let future = OCKSurveyTaskViewSynchronizer().view(for: try await fixture.store.fetchEvents(query: OCKEventQuery(
            for: fixture.calendar.date(byAdding: .day, value: 1, to: fixture.day)!, calendar: fixture.calendar)).map(\.anyEvent)
            .filter { $0.task.id == "onboarding" }, environment: environment)
        #expect(future.render(in: environment.render).rendered.contains(#"disabled="disabled""#))
    }

    @Test func aChartSeriesCanChartOneQuestionOfASurvey() {
        let task = OCKTask(id: "check-in", title: "Check-in", carePlanUUID: nil, schedule: OCKSchedule.dailyAtTime(hour: 9, minutes: 0, start: Date(timeIntervalSince1970: 0), end: nil, text: nil))
        func value(_ number: Double, _ kind: String) -> OCKOutcomeValue {
            var value = OCKOutcomeValue(number)
            value.kind = kind
            return value
        }
        let outcome = OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: 0, values: [value(6, "pain"), value(7.5, "sleep"), value(4, "pain")])
        let event = OCKAnyEvent(task: task, outcome: outcome, scheduleEvent: task.schedule.event(forOccurrenceIndex: 0)!)
        let pain = OCKDataSeriesConfiguration(taskIDs: ["check-in"], legendTitle: "Pain", dailyValue: .average, kind: "pain")
        let everything = OCKDataSeriesConfiguration(taskIDs: ["check-in"], legendTitle: "All", dailyValue: .sum)
        #expect(pain.value(of: [event]) == 5)
        #expect(everything.value(of: [event]) == 17.5)
    }
}
