import Foundation
import OpenCareKit
import OpenCareKitStore
import OpenCareKitUI
import Testing

/// Form actions that name the event, as a server's would.
struct TestActions: OCKEventActions {
    func form(_ path: String, _ event: OCKAnyEvent, _ extra: [String: String] = [:]) -> OCKFormAction {
        OCKFormAction(url: SafeURL(path)!, fields: ["task": event.task.uuid.uuidString, "occurrence": "\(event.scheduleEvent.occurrence)"]
            .merging(extra) { $1 })
    }
    func toggle(_ event: OCKAnyEvent) -> OCKFormAction { form("/toggle", event, ["complete": event.isComplete ? "false" : "true"]) }
    func log(_ event: OCKAnyEvent) -> OCKFormAction { form("/log", event) }
    func deleteLoggedValue(_ event: OCKAnyEvent, at index: Int) -> OCKFormAction { form("/delete", event, ["index": "\(index)"]) }
    func record(_ event: OCKAnyEvent) -> OCKFormAction { form("/record", event) }
}

/// A care plan of four tasks on 2026-11-16 in Seoul.
struct CarePlanFixture {
    let store = OCKStore(name: "page-\(UUID().uuidString)", type: .inMemory)
    let calendar: Calendar
    let day: Date
    let environment: OCKSynchronizationEnvironment

    init() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Seoul")!
        self.calendar = calendar
        day = calendar.date(from: DateComponents(year: 2026, month: 11, day: 16))!
        environment = OCKSynchronizationEnvironment(
            render: OCKRenderContext(localization: OCKLocalization(language: .english, timeZone: calendar.timeZone)),
            actions: TestActions())
    }

    func element(_ hour: Int, allDay: Bool = false, target: OCKOutcomeValue? = nil) -> OCKScheduleElement {
        let start = calendar.date(byAdding: .hour, value: hour, to: calendar.date(byAdding: .day, value: -3, to: day)!)!
        var element = OCKScheduleElement(start: start, end: nil, interval: DateComponents(day: 1),
                                         targetValues: target.map { [$0] } ?? [], duration: allDay ? .allDay : .hours(1))
        element.calendar = calendar
        return element
    }

    func seed() async throws {
        var ibuprofen = OCKTask(id: "ibuprofen", title: "Ibuprofen", carePlanUUID: nil,
                                schedule: OCKSchedule(composing: [element(8), element(14), element(20)]))
        ibuprofen.instructions = "Take with food."
        let walk = OCKTask(id: "walk", title: "Walk", carePlanUUID: nil, schedule: OCKSchedule(composing: [element(9)]))
        var nausea = OCKTask(id: "nausea", title: "Nausea", carePlanUUID: nil,
                             schedule: OCKSchedule(composing: [element(0, allDay: true)]))
        nausea.impactsAdherence = false
        let weight = OCKTask(id: "weight", title: "Weight", carePlanUUID: nil,
                             schedule: OCKSchedule(composing: [element(7, target: OCKOutcomeValue(70.0, units: "kg"))]))
        _ = try await store.addTasks([ibuprofen, walk, nausea, weight])
    }
}

@Suite struct DailyTasksPageTests {
    @Test func cardsFollowCareKitsChoiceUnlessOverridden() async throws {
        let fixture = CarePlanFixture()
        try await fixture.seed()
        var page = OCKDailyTasksPage(calendar: fixture.calendar)
        let events = try await page.events(on: fixture.day, in: fixture.store)
        #expect(events.count == 6)
        let cards = page.cards(for: events, environment: fixture.environment)
        #expect(cards.map(\.taskID) == ["nausea", "weight", "ibuprofen", "walk"])
        #expect(cards[0].view is OCKLogTaskView)
        #expect(cards[1].view is OCKSimpleTaskView)
        #expect(cards[2].view is OCKGridTaskView)
        page.styles = ["ibuprofen": .checklist, "weight": .labeledValue]
        let overridden = page.cards(for: events, environment: fixture.environment)
        #expect(overridden[2].view is OCKChecklistTaskView)
        #expect(overridden[1].view is OCKLabeledValueTaskView)
        let html = overridden[2].view.render(in: fixture.environment.render).rendered
        #expect(html.contains(#"id="task-ibuprofen""#))
        #expect(html.contains(#"aria-label="Mark Ibuprofen 8:00\#u{202F}AM as done""#) || html.contains(#"aria-label="Mark Ibuprofen 8:00 AM as done""#))
        #expect(html.contains("Take with food."))
        #expect(html.components(separatedBy: #"name="complete" type="hidden" value="true""#).count == 4)
    }

    @Test func aCustomSynchronizerDrivesAnyCard() async throws {
        struct DoseCountSynchronizer: OCKViewSynchronizing {
            func makeView() -> OCKLabeledValueTaskView { OCKLabeledValueTaskView(title: "", state: .incomplete(label: "")) }
            func updateView(_ view: inout OCKLabeledValueTaskView, context: OCKSynchronizationContext<OCKTaskEvents>) {
                let done = context.viewModel.filter(\.isComplete).count
                view.header.title = (context.viewModel.first?.task.title ?? "") + " today"
                view.state = .complete(value: "\(done) of \(context.viewModel.count)", label: "doses")
                view.identifier = "custom-card"
            }
        }
        let fixture = CarePlanFixture()
        try await fixture.seed()
        let page = OCKDailyTasksPage(calendar: fixture.calendar, synchronizers: ["ibuprofen": DoseCountSynchronizer()])
        let events = try await page.events(on: fixture.day, in: fixture.store)
        let first = try #require(events.first { $0.task.id == "ibuprofen" })
        try await fixture.store.setEventCompletion(true, taskUUID: first.task.uuid, occurrence: first.scheduleEvent.occurrence)
        let card = try #require(page.card(taskID: "ibuprofen", events: try await page.events(on: fixture.day, in: fixture.store),
                                          environment: fixture.environment))
        let html = card.view.render(in: fixture.environment.render).rendered
        #expect(html.contains("Ibuprofen today"))
        #expect(html.contains(#"<span class="ock-value">1 of 3</span>"#))
        #expect(html.contains(#"id="custom-card""#))
    }

    @Test func futureDaysAreReadOnly() async throws {
        let fixture = CarePlanFixture()
        try await fixture.seed()
        let page = OCKDailyTasksPage(calendar: fixture.calendar)
        var environment = fixture.environment
        environment.isReadOnly = true
        let html = page.cards(for: try await page.events(on: fixture.day, in: fixture.store), environment: environment)
            .map { $0.view.render(in: environment.render).rendered }.joined()
        #expect(!html.contains("<form"))
        #expect(html.contains(#"disabled="disabled""#))
    }

    @Test func theWeekRingsComeFromAdherenceWithoutTasksThatDoNotCount() async throws {
        let fixture = CarePlanFixture()
        try await fixture.seed()
        let page = OCKDailyTasksPage(calendar: fixture.calendar)
        let events = try await page.events(on: fixture.day, in: fixture.store)
        for event in events where ["ibuprofen", "walk"].contains(event.task.id) {
            try await fixture.store.setEventCompletion(true, taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence)
        }
        // Logging nausea (which does not count) changes nothing.
        let nausea = try #require(events.first { $0.task.id == "nausea" })
        try await fixture.store.appendOutcomeValue(OCKOutcomeValue(true), taskUUID: nausea.task.uuid, occurrence: nausea.scheduleEvent.occurrence)
        let week = try await page.week(containing: fixture.day, in: fixture.store)
        #expect(week.count == 7)
        let monday = try #require(week.first { fixture.calendar.isDate($0.day, inSameDayAs: fixture.day) })
        #expect(monday.completion == 4.0 / 5.0) // ibuprofen ×3 and walk done, weight not
        let sunday = try #require(week.first { fixture.calendar.component(.day, from: $0.day) == 15 })
        #expect(sunday.completion == 0)
        let earlier = try await page.week(containing: fixture.calendar.date(byAdding: .day, value: -7, to: fixture.day)!, in: fixture.store)
        let before = try #require(earlier.first { fixture.calendar.component(.day, from: $0.day) == 12 })
        #expect(before.completion == nil) // before the plan started
        let start = try #require(earlier.first { fixture.calendar.component(.day, from: $0.day) == 13 })
        #expect(start.completion == 0)
    }
}

@Suite struct EventActionTests {
    @Test func completeUncompleteLogDeleteAndRecord() async throws {
        let fixture = CarePlanFixture()
        try await fixture.seed()
        let page = OCKDailyTasksPage(calendar: fixture.calendar)
        let events = try await page.events(on: fixture.day, in: fixture.store)
        let walk = try #require(events.first { $0.task.id == "walk" })
        let done = try await fixture.store.setEventCompletion(true, taskUUID: walk.task.uuid, occurrence: walk.scheduleEvent.occurrence)
        #expect(done.outcome?.values.first?.booleanValue == true)
        // Sent twice, the form changes nothing more.
        let again = try await fixture.store.setEventCompletion(true, taskUUID: walk.task.uuid, occurrence: walk.scheduleEvent.occurrence)
        #expect(again.outcome?.uuid == done.outcome?.uuid)
        let undone = try await fixture.store.setEventCompletion(false, taskUUID: walk.task.uuid, occurrence: walk.scheduleEvent.occurrence)
        #expect(undone.outcome == nil)

        let nausea = try #require(events.first { $0.task.id == "nausea" })
        for level in [6.0, 3.0, 4.0] {
            try await fixture.store.appendOutcomeValue(OCKOutcomeValue(level), taskUUID: nausea.task.uuid, occurrence: nausea.scheduleEvent.occurrence)
        }
        var logged = try await fixture.store.deleteOutcomeValue(at: 1, taskUUID: nausea.task.uuid, occurrence: nausea.scheduleEvent.occurrence)
        #expect(logged.outcome?.values.compactMap(\.doubleValue) == [6, 4])
        await #expect(throws: OCKStoreError.self) {
            try await fixture.store.deleteOutcomeValue(at: 5, taskUUID: nausea.task.uuid, occurrence: nausea.scheduleEvent.occurrence)
        }
        logged = try await fixture.store.deleteOutcomeValue(at: 0, taskUUID: nausea.task.uuid, occurrence: nausea.scheduleEvent.occurrence)
        logged = try await fixture.store.deleteOutcomeValue(at: 0, taskUUID: nausea.task.uuid, occurrence: nausea.scheduleEvent.occurrence)
        #expect(logged.outcome == nil)

        let weight = try #require(events.first { $0.task.id == "weight" })
        try await fixture.store.recordOutcomeValue(OCKOutcomeValue(72.5, units: "kg"), taskUUID: weight.task.uuid, occurrence: weight.scheduleEvent.occurrence)
        let recorded = try await fixture.store.recordOutcomeValue(OCKOutcomeValue(72.0, units: "kg"), taskUUID: weight.task.uuid,
                                                                 occurrence: weight.scheduleEvent.occurrence)
        #expect(recorded.outcome?.values.count == 1 && recorded.outcome?.values.first?.doubleValue == 72)

        await #expect(throws: OCKStoreError.self) {
            try await fixture.store.setEventCompletion(true, taskUUID: UUID(), occurrence: 0)
        }
        await #expect(throws: (any Error).self) {
            try await fixture.store.setEventCompletion(true, taskUUID: walk.task.uuid, occurrence: -1)
        }
    }

    @Test func labeledValueAndProgressCardsShowWhatWasRecordedWithAnEntryForm() async throws {
        let fixture = CarePlanFixture()
        try await fixture.seed()
        let page = OCKDailyTasksPage(calendar: fixture.calendar, styles: ["weight": .labeledValue])
        var events = try await page.events(on: fixture.day, in: fixture.store)
        var html = try #require(page.card(taskID: "weight", events: events, environment: fixture.environment))
            .view.render(in: fixture.environment.render).rendered
        #expect(html.contains("Not recorded"))
        #expect(html.contains(#"<input class="ock-value-input" inputmode="decimal" max="700.0" min="0.0" name="value" required="required" step="any" type="number">"#))
        #expect(html.contains("Weight (kg)"))
        let weight = try #require(events.first { $0.task.id == "weight" })
        try await fixture.store.recordOutcomeValue(OCKOutcomeValue(72.5, units: "kg"), taskUUID: weight.task.uuid, occurrence: weight.scheduleEvent.occurrence)
        events = try await page.events(on: fixture.day, in: fixture.store)
        html = try #require(page.card(taskID: "weight", events: events, environment: fixture.environment))
            .view.render(in: fixture.environment.render).rendered
        #expect(html.contains(#"<span class="ock-value">72.5</span> <span class="ock-value-label">kg</span>"#))
        let progress = try #require(OCKDailyTasksPage(calendar: fixture.calendar, styles: ["weight": .numericProgress])
            .card(taskID: "weight", events: events, environment: fixture.environment)).view.render(in: fixture.environment.render).rendered
        #expect(progress.contains(#"<span class="ock-goal">70 kg</span>"#))
        #expect(progress.contains("ock-complete"))
    }
}

@Suite struct SynchronizedViewTests {
    @Test func aSynchronizedViewFollowsItsQuery() async throws {
        let fixture = CarePlanFixture()
        try await fixture.seed()
        let card = OCKSynchronizedView.events(of: "ibuprofen", on: fixture.day, calendar: fixture.calendar, in: fixture.store,
                                              synchronizer: OCKChecklistTaskViewSynchronizer(), environment: fixture.environment)
        var views = card.views().makeAsyncIterator()
        let first = try #require(try await views.next())
        #expect(first.items.count == 3 && first.items.allSatisfy { !$0.isComplete })
        let event = try #require(try await OCKDailyTasksPage(calendar: fixture.calendar).events(on: fixture.day, in: fixture.store)
            .last { $0.task.id == "ibuprofen" })
        try await fixture.store.setEventCompletion(true, taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence)
        let second = try #require(try await views.next())
        #expect(second.items.map(\.isComplete) == [false, false, true])
        #expect(second.header.title == "Ibuprofen")
    }
}
