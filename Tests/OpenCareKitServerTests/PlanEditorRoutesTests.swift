import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OpenCareKit
@testable import OpenCareKitServer
import OpenCareKitStore
import OpenCareKitUI
import Testing

/// The care plan editor over HTTP: who may use it, each rule and refusal, and what a saved change does.
@Suite struct PlanEditorRoutesTests {
    /// A form body with repeated fields, in order.
    static func body(_ fields: [(String, String)]) -> ByteBuffer {
        ByteBuffer(string: fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            .joined(separator: "&"))
    }

    /// The fields of a new daily task at `times`, with `extra` replacing fields of the same name.
    static func newTask(_ extra: [(String, String)] = [], times: [String] = ["18:00"]) -> [(String, String)] {
        var fields: [(String, String)] = [("csrf", ServerFixture.token), ("title", "Evening walk"), ("instructions", "Twenty minutes."),
                                          ("counts", "true"), ("repeat", "days"), ("every", "1"), ("timing", "times"),
                                          ("duration", "30"), ("start", "2026-11-16"), ("intent", "save")]
        fields += times.map { ("time", $0) }
        for (name, value) in extra {
            fields.removeAll { $0.0 == name }
            fields.append((name, value))
        }
        return fields
    }

    static func post(_ client: some TestClientProtocol, _ path: String, _ fields: [(String, String)],
                     language: String = "en") async throws -> TestResponse {
        var headers = ServerFixture.formHeaders
        headers[.acceptLanguage] = language
        return try await client.execute(uri: path, method: .post, headers: headers, body: body(fields))
    }

    /// Completes the first event of `taskID` yesterday, and returns it.
    static func completeYesterday(_ taskID: String, _ fixture: ServerFixture) async throws -> OCKEvent<OCKTask, OCKOutcome> {
        let event = try await fixture.event(taskID, daysFromToday: -1)
        try await fixture.store.addOutcome(OCKOutcome(taskUUID: event.task.uuid, taskOccurrenceIndex: event.scheduleEvent.occurrence,
                                                      values: [OCKOutcomeValue(true)]))
        return event
    }

    /// The version field of a task's page.
    static func version(in page: String) -> String? {
        guard let name = page.range(of: "name=\"version\""),
              let value = page[name.upperBound...].range(of: "value=\"") else { return nil }
        return String(page[value.upperBound...].prefix(36))
    }

    @Test func aClinicianAddsATaskThatTheCarePageShowsToday() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        try await fixture.hosted(role: .clinician).test { client in
            let response = try await Self.post(client, "/plan/tasks", Self.newTask())
            #expect(response.status == .seeOther)
            #expect(response.headers[.location]?.hasSuffix("/plan/tasks/evening-walk?saved=1") == true)
            let task = try await fixture.store.fetchTask(withID: "evening-walk")
            #expect(task.title == "Evening walk")
            #expect(OCKScheduleRule(schedule: task.schedule)?.times == [.init(hour: 18, minute: 0)])
            let events = try await fixture.store.fetchEvents(query: OCKEventQuery(for: fixture.now, calendar: fixture.calendar))
            #expect(events.contains { $0.task.id == "evening-walk" })
            // Its page says the rule in words and previews it, and the plan lists it.
            let page = try await client.execute(uri: "/plan/tasks/evening-walk", method: .get, headers: ServerFixture.cookie)
            #expect(String(buffer: page.body).contains("Every day at 6:00\u{202F}PM for 30 minutes, from Nov 16"))
            let plan = try await client.execute(uri: "/plan", method: .get, headers: ServerFixture.cookie)
            #expect(String(buffer: plan.body).contains("Evening walk"))
        }
    }

    @Test(arguments: [
        ([("title", "")], "title", "Enter a title."),
        ([("every", "0")], "every", "Enter a whole number from 1 to 366 days, or 1 to 52 weeks."),
        ([("every", "-2")], "every", "Enter a whole number from 1 to 366 days, or 1 to 52 weeks."),
        ([("end", "2026-11-10")], "end", "The end must not be before the start."),
        ([("repeat", "weeks")], "weekdays", "Choose at least one weekday."),
        ([("target-value", "four hundred"), ("target-units", "mg")], "targets", "Each target needs a number, such as 400."),
        ([("duration", "0")], "duration", "Enter a whole number of minutes from 1 to 1,440."),
        ([("start", "2026-02-30")], "start", "Enter a day on the calendar, such as 2026-11-24."),
    ])
    func badInputIsSaidBesideItsFieldAndNothingIsSaved(extra: [(String, String)], field: String, message: String) async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let before = try await fixture.store.fetchTasks(query: OCKTaskQuery()).count
        try await fixture.hosted(role: .clinician).test { client in
            let response = try await Self.post(client, "/plan/tasks", Self.newTask(extra))
            #expect(response.status == .unprocessableContent)
            let page = String(buffer: response.body)
            #expect(page.contains("id=\"\(field)-error\""))
            #expect(page.contains(HTML.escape(message)))
            #expect(page.contains("Nothing was saved."))
        }
        #expect(try await fixture.store.fetchTasks(query: OCKTaskQuery()).count == before)
    }

    @Test func aThousandTimesInADayAreRefusedInKorean() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let times = (0..<1000).map { TaskForm.clock(($0 / 60) % 24, $0 % 60) }
        try await fixture.hosted(role: .clinician).test { client in
            let response = try await Self.post(client, "/plan/tasks", Self.newTask(times: times), language: "ko")
            #expect(response.status == .unprocessableContent)
            #expect(String(buffer: response.body).contains("하루 최대 48개의 시각까지 입력할 수 있습니다."))
        }
        #expect(try await fixture.store.fetchTasks(query: OCKTaskQuery(id: "evening-walk")).isEmpty)
    }

    @Test func aChangeKeepsWhatWasDoneAndAStaleFormGetsTheCurrentVersion() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        // Yesterday's enoxaparin (09:00) was done.
        let yesterday = try await Self.completeYesterday("enoxaparin", fixture)
        try await fixture.hosted(role: .clinician).test { client in
            let page = String(buffer: try await client.execute(uri: "/plan/tasks/enoxaparin", method: .get, headers: ServerFixture.cookie).body)
            let version = try #require(Self.version(in: page))
            #expect(page.contains("Outcomes are recorded up to"))
            let change: [(String, String)] = [("csrf", ServerFixture.token), ("version", version), ("title", "Enoxaparin"), ("counts", "true"),
                                              ("repeat", "days"), ("every", "1"), ("timing", "times"), ("time", "10:00"), ("time-label", "Morning"),
                                              ("duration", "60"), ("start", "2026-11-10"), ("target-value", "40"), ("target-units", "mg"),
                                              ("target-kind", "dose"), ("effective", "next"), ("intent", "save")]
            #expect(try await Self.post(client, "/plan/tasks/enoxaparin", change).status == .seeOther)
            // Yesterday keeps its 09:00 event, done; tomorrow is at 10:00.
            let kept = try await fixture.event("enoxaparin", daysFromToday: -1)
            #expect(kept.outcome != nil && kept.task.uuid == yesterday.task.uuid)
            #expect(fixture.calendar.component(.hour, from: try await fixture.event("enoxaparin", daysFromToday: 1).scheduleEvent.start) == 10)
            // The history says what changed and who changed it.
            let history = String(buffer: try await client.execute(uri: "/plan/tasks/enoxaparin", method: .get, headers: ServerFixture.cookie).body)
            #expect(history.contains("time 9:00\u{202F}AM Morning → 10:00\u{202F}AM Morning"))
            #expect(history.contains("Person, "))
            // The same form sent again comes from a version that is no longer the newest.
            var stale = change
            stale.removeAll { $0.0 == "title" }
            stale.append(("title", "Stale title"))
            let refused = try await Self.post(client, "/plan/tasks/enoxaparin", stale)
            #expect(refused.status == .conflict)
            #expect(String(buffer: refused.body).contains("Someone else changed this in the meantime."))
            #expect(try await fixture.store.fetchTask(withID: "enoxaparin").title == "Enoxaparin")
        }
    }

    /// The care team's alerts are part of the task: shown in its form (the demo's enoxaparin alerts on missed doses),
    /// changed there with the rule's id kept (so its triage items stay one), refused beside their fields when out of
    /// range, and listed in the task's history.
    @Test func aClinicianSetsTheTasksAlertsAndTheirIDsStay() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        try await fixture.hosted(role: .clinician).test { client in
            let page = String(buffer: try await client.execute(uri: "/plan/tasks/enoxaparin", method: .get, headers: ServerFixture.cookie).body)
            #expect(page.contains("Alerts for the care team"))
            #expect(page.contains(#"name="alert-missed-days" type="number" value="2""#))
            #expect(page.contains(#"name="alert-missed-id" type="hidden" value="missed-doses""#))
            let version = try #require(Self.version(in: page))
            let change: [(String, String)] = [("csrf", ServerFixture.token), ("version", version), ("title", "Enoxaparin"), ("counts", "true"),
                                              ("repeat", "days"), ("every", "1"), ("timing", "times"), ("time", "09:00"), ("time-label", "Morning"),
                                              ("duration", "60"), ("start", "2026-11-10"), ("target-value", "40"), ("target-units", "mg"),
                                              ("target-kind", "dose"), ("effective", "next"), ("intent", "save"),
                                              ("alert-missed-id", "missed-doses"), ("alert-missed-days", "3"), ("alert-missed-of", "7"),
                                              ("alert-missed-urgent", "true"), ("alert-quiet-days", "4")]
            // Out of range: said beside the alert, and nothing saved.
            var bad = change.filter { $0.0 != "alert-missed-days" }
            bad.append(("alert-missed-days", "9"))
            let refused = try await Self.post(client, "/plan/tasks/enoxaparin", bad)
            #expect(refused.status == .unprocessableContent)
            #expect(String(buffer: refused.body).contains(#"id="alert-missed-error""#))
            #expect(String(buffer: refused.body).contains("Fill in this alert with numbers in range (1–31), or leave it empty."))
            #expect(try await fixture.store.fetchTask(withID: "enoxaparin").alertRules().first?.condition == .missedDoses(days: 2, ofDays: 7))

            #expect(try await Self.post(client, "/plan/tasks/enoxaparin", change).status == .seeOther)
            let saved = try await fixture.store.fetchTask(withID: "enoxaparin").alertRules()
            #expect(saved == [OCKAlertRule(id: "missed-doses", condition: .missedDoses(days: 3, ofDays: 7), priority: .urgent),
                              OCKAlertRule(id: "no-activity", condition: .noActivity(days: 4))])
            let history = String(buffer: try await client.execute(uri: "/plan/tasks/enoxaparin", method: .get, headers: ServerFixture.cookie).body)
            #expect(history.contains("; alerts, effective "))
        }
    }

    @Test func aTaskWithOutcomesIsEndedNotDeleted() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let event = try await Self.completeYesterday("omeprazole", fixture)
        try await fixture.hosted(role: .clinician).test { client in
            let version = event.task.uuid.uuidString
            let refused = try await Self.post(client, "/plan/tasks/omeprazole/delete", [("csrf", ServerFixture.token), ("version", version)])
            #expect(refused.status == .conflict)
            #expect(String(buffer: refused.body).contains("End it instead"))
            let ended = try await Self.post(client, "/plan/tasks/omeprazole/end", [("csrf", ServerFixture.token), ("version", version)])
            #expect(ended.status == .seeOther)
            #expect(try await fixture.event("omeprazole", daysFromToday: -1).outcome != nil)
            var query = OCKEventQuery(for: fixture.calendar.date(byAdding: .day, value: 2, to: fixture.now)!, calendar: fixture.calendar)
            query.taskIDs = ["omeprazole"]
            #expect(try await fixture.store.fetchEvents(query: query).isEmpty)
        }
    }

    @Test func aTaskWithoutOutcomesIsDeletedAndItsIDUsedAgain() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        try await fixture.hosted(role: .clinician).test { client in
            let task = try await fixture.store.fetchTask(withID: "hydration")
            let deleted = try await Self.post(client, "/plan/tasks/hydration/delete", [("csrf", ServerFixture.token), ("version", task.uuid.uuidString)])
            #expect(deleted.status == .seeOther)
            let again = try await Self.post(client, "/plan/tasks", Self.newTask([("task-id", "hydration"), ("title", "Water")]))
            #expect(again.status == .seeOther)
            #expect(try await fixture.store.fetchTask(withID: "hydration").title == "Water")
        }
    }
}
