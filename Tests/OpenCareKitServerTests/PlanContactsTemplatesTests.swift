import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OpenCareKit
@testable import OpenCareKitServer
import OpenCareKitStore
import OpenCareKitUI
import Testing

/// The care plan editor's contacts, notes, templates and the owner's setting, over HTTP.
@Suite struct PlanContactsTemplatesTests {
    typealias Routes = PlanEditorRoutesTests

    static func newContact(_ extra: [(String, String)] = []) -> [(String, String)] {
        var fields: [(String, String)] = [("csrf", ServerFixture.token), ("given-name", "Ana"), ("family-name", "Costa"),
                                          ("role", "Home nurse"), ("contact-title", "RN"), ("phone", "+1 (503) 555-0199"),
                                          ("email", "ana.costa@example.org"), ("category", "careProvider"), ("city", "Portland")]
        for (name, value) in extra {
            fields.removeAll { $0.0 == name }
            fields.append((name, value))
        }
        return fields
    }

    @Test func aClinicianAddsChangesAndDeletesAContactAndAStaleFormGets409() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        try await fixture.hosted(role: .clinician).test { client in
            let added = try await Routes.post(client, "/plan/contacts", Self.newContact())
            #expect(added.status == .seeOther)
            #expect(added.headers[.location]?.hasSuffix("/plan/contacts/ana-costa?saved=1") == true)
            var query = OCKContactQuery()
            query.ids = ["ana-costa"]
            let stored = try #require(try await fixture.store.fetchContacts(query: query).first)
            #expect(stored.phoneNumbers?.first?.value == "+1 (503) 555-0199")
            #expect(stored.category == .careProvider)
            #expect(stored.address?.city == "Portland")
            // The plan lists it; the app's contacts page shows it.
            #expect(String(buffer: try await client.execute(uri: "/plan", method: .get, headers: ServerFixture.cookie).body).contains("Ana Costa"))
            #expect(String(buffer: try await client.execute(uri: "/contacts", method: .get, headers: ServerFixture.cookie).body).contains("Ana"))

            // A change keeps a second number it had.
            var withTwo = stored
            withTwo.phoneNumbers = [OCKLabeledValue(label: "work", value: "111"), OCKLabeledValue(label: "home", value: "222")]
            let second = try await fixture.store.updateContacts([withTwo])[0]
            let changed = try await Routes.post(client, "/plan/contacts/ana-costa",
                                                Self.newContact([("version", second.uuid.uuidString), ("phone", "333"), ("role", "Wound nurse")]))
            #expect(changed.status == .seeOther)
            let newest = try #require(try await OCKPlanEditor(store: fixture.store, calendar: fixture.calendar).contact(withID: "ana-costa"))
            #expect(newest.role == "Wound nurse")
            #expect(newest.phoneNumbers == [OCKLabeledValue(label: "work", value: "333"), OCKLabeledValue(label: "home", value: "222")])

            // The form read from the older version is refused, and shows the current one.
            let stale = try await Routes.post(client, "/plan/contacts/ana-costa",
                                              Self.newContact([("version", second.uuid.uuidString), ("role", "Lost change")]))
            #expect(stale.status == .conflict)
            let page = String(buffer: stale.body)
            #expect(page.contains("Someone else changed this in the meantime"))
            #expect(page.contains("Wound nurse"))
            #expect(try await OCKPlanEditor(store: fixture.store, calendar: fixture.calendar).contact(withID: "ana-costa")?.role == "Wound nurse")

            // Adding the same id again is refused beside the identifier.
            let taken = try await Routes.post(client, "/plan/contacts", Self.newContact())
            #expect(taken.status == .conflict)
            #expect(String(buffer: taken.body).contains("id=\"contact-id-error\""))

            let deleted = try await Routes.post(client, "/plan/contacts/ana-costa/delete", [("csrf", ServerFixture.token), ("version", newest.uuid.uuidString)])
            #expect(deleted.status == .seeOther)
            #expect(try await OCKPlanEditor(store: fixture.store, calendar: fixture.calendar).contact(withID: "ana-costa") == nil)
        }
    }

    @Test(arguments: [
        ([("given-name", ""), ("family-name", "")], "given-name", "Enter a given or family name."),
        ([("email", "ana at example")], "email", "Enter an email address, such as name@example.org."),
        ([("phone", "call me")], "phone", "Enter a number with digits, spaces, +, -, ( or ) only."),
        ([("category", "enemies")], "category", "Choose one of the options."),
        ([("role", String(repeating: "x", count: 101))], "role", "This is too long (at most 100 characters)."),
    ])
    func aContactWithABadFieldIsRefusedBesideIt(extra: [(String, String)], field: String, message: String) async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        try await fixture.hosted(role: .clinician).test { client in
            let response = try await Routes.post(client, "/plan/contacts", Self.newContact(extra))
            #expect(response.status == .unprocessableContent)
            let page = String(buffer: response.body)
            #expect(page.contains("<p class=\"ock-field-error\" id=\"\(field)-error\">\(message)</p>"))
            #expect(page.contains("aria-describedby=\"\(field)-error\""))
            var query = OCKContactQuery()
            query.ids = ["ana-costa"]
            #expect(try await fixture.store.fetchContacts(query: query).isEmpty)
        }
    }

    @Test func aNoteIsSignedWithTheAccountsNameAndAnEmptyOneIsRefusedInKorean() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        try await fixture.hosted(role: .clinician).test { client in
            let added = try await Routes.post(client, "/plan/notes", [("csrf", ServerFixture.token), ("note-title", "Swelling"),
                                                                      ("note-content", "Ice for 20 minutes after the exercises.")])
            #expect(added.status == .seeOther)
            let notes = try await OCKPlanEditor(store: fixture.store, calendar: fixture.calendar).carePlan()?.notes ?? []
            #expect(notes.last == OCKNote(author: "Person", title: "Swelling", content: "Ice for 20 minutes after the exercises."))
            let plan = String(buffer: try await client.execute(uri: "/plan", method: .get, headers: ServerFixture.cookie).body)
            #expect(plan.contains("Ice for 20 minutes after the exercises."))
            #expect(plan.contains("By Person"))

            let empty = try await Routes.post(client, "/plan/notes", [("csrf", ServerFixture.token), ("note-title", "Kept"), ("note-content", " ")],
                                              language: "ko")
            #expect(empty.status == .unprocessableContent)
            let page = String(buffer: empty.body)
            #expect(page.contains("메모를 입력하세요."))
            #expect(page.contains("value=\"Kept\""), "what was typed stays")
            #expect((try await OCKPlanEditor(store: fixture.store, calendar: fixture.calendar).carePlan()?.notes ?? []).count == notes.count)
        }
    }

    @Test func notesAreBoundedPerPlan() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let editor = OCKPlanEditor(store: fixture.store, calendar: fixture.calendar)
        var plan = try #require(try await editor.carePlan())
        plan.notes = (0..<OCKPlanEditor.maximumNotes).map { OCKNote(author: nil, title: nil, content: "note \($0)") }
        try await fixture.store.updateCarePlans([plan])
        try await fixture.hosted(role: .clinician).test { client in
            let refused = try await Routes.post(client, "/plan/notes", [("csrf", ServerFixture.token), ("note-content", "One more")])
            #expect(refused.status == .unprocessableContent)
            #expect(String(buffer: refused.body).contains("This plan has the most notes it can keep (\(OCKPlanEditor.maximumNotes))."))
        }
        #expect(try await editor.carePlan()?.notes?.count == OCKPlanEditor.maximumNotes)
    }

    @Test func theOwnerTurnsPatientEditingOffAndThePatientGets403() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        try await fixture.hosted(role: .patient).test { client in
            #expect(try await client.execute(uri: "/plan", method: .get, headers: ServerFixture.cookie).status == .ok)
            let sharing = String(buffer: try await client.execute(uri: "/sharing", method: .get, headers: ServerFixture.cookie).body)
            #expect(sharing.contains("Who changes the care plan"))
            #expect(sharing.contains("id=\"plan-editing-on\" name=\"plan-editing\" type=\"radio\" value=\"on\"") || sharing.contains("plan-editing-on"))
            let off = try await Routes.post(client, "/sharing/plan-editing", [("csrf", ServerFixture.token), ("plan-editing", "off")])
            #expect(off.status == .seeOther)
            let denied = try await client.execute(uri: "/plan", method: .get, headers: ServerFixture.cookie)
            #expect(denied.status == .forbidden)
            #expect(String(buffer: denied.body).contains("Your role in this record does not allow changing the care plan."))
            let refused = try await Routes.post(client, "/plan/tasks", Routes.newTask())
            #expect(refused.status == .forbidden)
            #expect((try? await fixture.store.fetchTask(withID: "evening-walk")) == nil)
            let bad = try await Routes.post(client, "/sharing/plan-editing", [("csrf", ServerFixture.token), ("plan-editing", "maybe")])
            #expect(bad.status == .unprocessableContent)
        }
    }

    @Test func theEndFormTakesAChosenDayAndRefusesOneBeforeAnOutcome() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        _ = try await Routes.completeYesterday("enoxaparin", fixture)
        try await fixture.hosted(role: .clinician).test { client in
            let task = try await fixture.store.fetchTask(withID: "enoxaparin")
            let early = try await Routes.post(client, "/plan/tasks/enoxaparin/end", [("csrf", ServerFixture.token), ("version", task.uuid.uuidString),
                                                                                     ("effective", "date"), ("effective-date", "2026-11-14")])
            #expect(early.status == .unprocessableContent)
            #expect(String(buffer: early.body).contains("id=\"end-effective-error\""))
            let ended = try await Routes.post(client, "/plan/tasks/enoxaparin/end", [("csrf", ServerFixture.token), ("version", task.uuid.uuidString),
                                                                                     ("effective", "date"), ("effective-date", "2026-11-20")])
            #expect(ended.status == .seeOther)
            let end = try await fixture.store.fetchTask(withID: "enoxaparin").schedule.endDate()
            #expect(end == fixture.calendar.date(from: DateComponents(year: 2026, month: 11, day: 20)))
            // Events up to the 19th stay; none from the 20th.
            for (day, expected) in [(3, 1), (4, 0)] {
                var query = OCKEventQuery(for: fixture.calendar.date(byAdding: .day, value: day, to: fixture.now)!, calendar: fixture.calendar)
                query.taskIDs = ["enoxaparin"]
                #expect(try await fixture.store.fetchEvents(query: query).count == expected)
            }
        }
    }

    // MARK: Templates

    @Test func aBuiltInTemplateIsAppliedFromADayInAZoneAndTheCarePageShowsIt() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        try await fixture.hosted(role: .clinician).test { client in
            let page = try await client.execute(uri: "/plan/templates", method: .get, headers: ServerFixture.cookie)
            #expect(page.status == .ok)
            #expect(String(buffer: page.body).contains("Hypertension follow-up"))
            let applied = try await Routes.post(client, "/plan/templates/apply", [("csrf", ServerFixture.token), ("template", "wound-care"),
                                                                                  ("start", "2026-11-16"), ("time-zone", "Asia/Seoul")])
            #expect(applied.status == .seeOther)
            let cefalexin = try await fixture.store.fetchTask(withID: "cefalexin")
            #expect(cefalexin.schedule.endDate() == fixture.calendar.date(from: DateComponents(year: 2026, month: 11, day: 23)))
            #expect(cefalexin.userInfo?[OCKDailyTasksPage.cardStyleKey] == "checklist")
            var query = OCKEventQuery(for: fixture.now, calendar: fixture.calendar)
            query.taskIDs = ["cefalexin"]
            let events = try await fixture.store.fetchEvents(query: query)
            #expect(events.map { fixture.calendar.component(.hour, from: $0.scheduleEvent.start) } == [7, 13, 19])
            let care = String(buffer: try await client.execute(uri: "/care", method: .get, headers: ServerFixture.cookie).body)
            #expect(care.contains("Cefalexin"))
            var contacts = OCKContactQuery()
            contacts.ids = ["nurse-park"]
            #expect(try await fixture.store.fetchContacts(query: contacts).count == 1)

            // Applying it again would reuse its ids: refused beside the template, nothing written.
            let again = try await Routes.post(client, "/plan/templates/apply", [("csrf", ServerFixture.token), ("template", "wound-care"),
                                                                                ("start", "2026-11-16"), ("time-zone", "Asia/Seoul")])
            #expect(again.status == .unprocessableContent)
            let body = String(buffer: again.body)
            #expect(body.contains("tasks[0].id: The plan already has this identifier"))
            #expect(body.contains("contacts[0].id: The plan already has this identifier"))
        }
    }

    @Test func aTimeZoneMovesTheTemplatesTimes() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        try await fixture.hosted(role: .clinician).test { client in
            let applied = try await Routes.post(client, "/plan/templates/apply", [("csrf", ServerFixture.token), ("template", "hypertension-follow-up"),
                                                                                  ("start", "2026-11-16"), ("time-zone", "UTC")])
            #expect(applied.status == .seeOther)
            var query = OCKEventQuery(for: fixture.now, calendar: fixture.calendar)
            query.taskIDs = ["amlodipine"]
            // 08:00 UTC is 17:00 in Seoul.
            let events = try await fixture.store.fetchEvents(query: query)
            #expect(events.map { fixture.calendar.component(.hour, from: $0.scheduleEvent.start) } == [17])
        }
    }

    @Test(arguments: [
        ("{\"tasks\": ", "the template: This is not JSON."),
        (#"{"$schema": "x", "formatVersion": 1, "id": "t", "title": "T", "tasks": []}"#, "$schema: This is not a template of this format"),
        (#"{"$schema": "https://opencarekit.org/schemas/care-plan-template-1.json", "formatVersion": 1, "id": "t", "title": "T", "tasks": [], "extra": 1}"#,
         "extra: This field is not part of a template."),
        (#"{"$schema": "https://opencarekit.org/schemas/care-plan-template-1.json", "formatVersion": 1, "id": "t", "title": "T", "tasks": [{"id": "a", "title": "A", "schedule": {"repeat": "days", "every": 0, "startDay": 0}}]}"#,
         "tasks[0].schedule.every: Enter a whole number from 1 to 366 days, or 1 to 52 weeks."),
        (#"{"$schema": "https://opencarekit.org/schemas/care-plan-template-1.json", "formatVersion": 1, "id": "t", "title": "T", "tasks": [{"id": "a", "title": "A", "schedule": {"repeat": "days", "every": "2", "startDay": 0}}]}"#,
         "tasks[0].schedule.every: This value has the wrong type."),
        (#"{"$schema": "https://opencarekit.org/schemas/care-plan-template-1.json", "formatVersion": 1, "id": "t", "title": "T", "tasks": [{"id": "a", "title": "A", "schedule": {"repeat": "days", "every": 1, "startDay": 3, "lastDay": 1}}]}"#,
         "tasks[0].schedule.lastDay: The end must not be before the start."),
        (#"{"$schema": "https://opencarekit.org/schemas/care-plan-template-1.json", "formatVersion": 1, "id": "t", "title": "T", "tasks": [{"id": "a", "title": "A", "survey": "nope", "schedule": {"repeat": "days", "every": 1, "startDay": 0}}]}"#,
         "tasks[0].survey: This value is not one of the allowed ones."),
    ])
    func anImportedTemplateThatFailsIsRefusedWithWhereAndWhat(json: String, message: String) async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let before = try await fixture.store.fetchTasks(query: OCKTaskQuery()).count
        try await fixture.hosted(role: .clinician).test { client in
            let response = try await Routes.post(client, "/plan/templates/apply", [("csrf", ServerFixture.token), ("template", "json"),
                                                                                   ("template-json", json), ("start", "2026-11-16"),
                                                                                   ("time-zone", "Asia/Seoul")])
            #expect(response.status == .unprocessableContent)
            let page = String(buffer: response.body)
            #expect(page.contains(HTML.escape(message)), "\(message)")
            #expect(page.contains("Nothing was applied. The template has these problems:"))
        }
        #expect(try await fixture.store.fetchTasks(query: OCKTaskQuery()).count == before)
    }

    @Test func theExportedPlanIsATemplateThatAppliesToAnotherRecord() async throws {
        // With the demo's surveys: the onboarding is the study's, and its check-in survey is in the catalog.
        let fixture = ServerFixture(surveys: true)
        try await fixture.seed()
        try await fixture.hosted(role: .clinician).test { client in
            let response = try await client.execute(uri: "/plan/template.json", method: .get, headers: ServerFixture.cookie)
            #expect(response.status == .ok)
            #expect(response.headers[.contentDisposition]?.contains("attachment") == true)
            let exported = Data(buffer: response.body)
            let template = try OCKCarePlanTemplate(json: exported)
            #expect(Set(template.tasks.map(\.id)).isSuperset(of: ["ibuprofen", "hydration", "weigh-in", "knee-exercises", "check-in"]))
            #expect(!template.contacts.contains { $0.id == "sam-rivera" }, "friends and family stay out")
            #expect(!template.tasks.contains { $0.id == "onboarding" }, "the study's onboarding stays out")
            #expect(template.tasks.first { $0.id == "ibuprofen" }?.card == "checklist")
            #expect(template.tasks.first { $0.id == "check-in" }?.survey == "check-in")

            let other = ServerFixture()
            try await other.hosted(role: .clinician).test { client in
                let applied = try await Routes.post(client, "/plan/templates/apply", [("csrf", ServerFixture.token), ("template", "json"),
                                                                                      ("template-json", String(decoding: exported, as: UTF8.self)),
                                                                                      ("start", "2026-11-16"), ("time-zone", "Asia/Seoul")])
                #expect(applied.status == .seeOther)
                #expect(try await other.store.fetchTask(withID: "ibuprofen").instructions == "Take 400 mg with food to ease pain and swelling.")
            }
        }
    }

    @Test func theSchemaAndTheBuiltInTemplatesArePublicAndReadBack() async throws {
        let fixture = ServerFixture()
        try await fixture.hosted(role: .clinician).test { client in
            let schema = try await client.execute(uri: "/schemas/care-plan-template-1.json", method: .get, headers: [:])
            #expect(schema.status == .ok)
            let parsed = try JSONSerialization.jsonObject(with: Data(buffer: schema.body)) as? [String: Any]
            #expect(parsed?["$id"] as? String == OCKCarePlanTemplate.schemaURI)
            for template in OCKCarePlanTemplate.builtIn {
                let response = try await client.execute(uri: "/templates/\(template.id).json", method: .get, headers: [:])
                #expect(response.status == .ok)
                #expect(try OCKCarePlanTemplate(json: Data(buffer: response.body)) == template)
            }
        }
    }
}

extension PlanContactsTemplatesTests {
    @Test func anEndedTaskResumesWithANewScheduleAndItsPastStays() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let done = try await Routes.completeYesterday("enoxaparin", fixture)
        try await fixture.hosted(role: .clinician).test { client in
            let task = try await fixture.store.fetchTask(withID: "enoxaparin")
            let ended = try await Routes.post(client, "/plan/tasks/enoxaparin/end", [("csrf", ServerFixture.token), ("version", task.uuid.uuidString)])
            #expect(ended.status == .seeOther)
            let endedTask = try await fixture.store.fetchTask(withID: "enoxaparin")
            let page = String(buffer: try await client.execute(uri: "/plan/tasks/enoxaparin", method: .get, headers: ServerFixture.cookie).body)
            #expect(page.contains("value=\"replace-schedule\""))
            // The button opens the builder, from today at 08:00; saving gives the task a new schedule from tomorrow.
            let builder = try await Routes.post(client, "/plan/tasks/enoxaparin", [("csrf", ServerFixture.token), ("version", endedTask.uuid.uuidString),
                                                                                   ("title", "Enoxaparin"), ("counts", "true"), ("intent", "replace-schedule")])
            #expect(builder.status == .ok)
            #expect(String(buffer: builder.body).contains("name=\"replace-schedule\" type=\"hidden\" value=\"true\""))
            // A day before the ended version takes effect (tomorrow 09:00) would be hidden by it: refused.
            let hidden = try await Routes.post(client, "/plan/tasks/enoxaparin", Routes.newTask([
                ("version", endedTask.uuid.uuidString), ("title", "Enoxaparin"), ("replace-schedule", "true"), ("start", "2026-11-17"),
                ("effective", "date"), ("effective-date", "2026-11-17"),
            ], times: ["10:00"]))
            #expect(hidden.status == .unprocessableContent)
            #expect(String(buffer: hidden.body).contains("id=\"effective-error\""))
            let resumed = try await Routes.post(client, "/plan/tasks/enoxaparin", Routes.newTask([
                ("version", endedTask.uuid.uuidString), ("title", "Enoxaparin"), ("replace-schedule", "true"), ("start", "2026-11-17"),
            ], times: ["10:00"]))
            #expect(resumed.status == .seeOther, "\(String(buffer: resumed.body).components(separatedBy: "ock-field-error").dropFirst().map { $0.prefix(200) })")
            var query = OCKEventQuery(for: fixture.calendar.date(byAdding: .day, value: 1, to: fixture.now)!, calendar: fixture.calendar)
            query.taskIDs = ["enoxaparin"]
            let tomorrow = try #require(try await fixture.store.fetchEvents(query: query).first)
            #expect(fixture.calendar.component(.hour, from: tomorrow.scheduleEvent.start) == 10)
            let yesterday = try await fixture.event("enoxaparin", daysFromToday: -1)
            #expect(yesterday.scheduleEvent.start == done.scheduleEvent.start)
            #expect(yesterday.outcome != nil)
        }
    }
}

extension PlanContactsTemplatesTests {
    @Test func aTemplatesProblemsAreSaidInKoreanAndABadDayOrZoneBesideItsField() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        try await fixture.hosted(role: .clinician).test { client in
            var template = OCKCarePlanTemplate.woundCare
            template.tasks[0].schedule.every = 0
            let korean = try await Routes.post(client, "/plan/templates/apply", [("csrf", ServerFixture.token), ("template", "json"),
                                                                                 ("template-json", String(decoding: template.json(), as: UTF8.self)),
                                                                                 ("start", "2026-11-16"), ("time-zone", "Asia/Seoul")],
                                               language: "ko")
            #expect(korean.status == .unprocessableContent)
            let page = String(buffer: korean.body)
            #expect(page.contains("tasks[0].schedule.every: 1~366일 또는 1~52주의 정수를 입력하세요."))
            #expect(page.contains("적용하지 않았습니다. 템플릿에 다음 문제가 있습니다:"))
            let bad = try await Routes.post(client, "/plan/templates/apply", [("csrf", ServerFixture.token), ("template", "wound-care"),
                                                                              ("start", "2026-02-30"), ("time-zone", "Mars/Olympus")])
            #expect(bad.status == .unprocessableContent)
            let body = String(buffer: bad.body)
            #expect(body.contains("id=\"start-error\""))
            #expect(body.contains("<p class=\"ock-field-error\" id=\"time-zone-error\">Enter a time zone such as Asia/Seoul.</p>"))
        }
        #expect((try? await fixture.store.fetchTask(withID: "cefalexin")) == nil)
    }
}

extension PlanContactsTemplatesTests {
    @Test func aPlanHoldsABoundedNumberOfTasksAndContacts() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let editor = OCKPlanEditor(store: fixture.store, calendar: fixture.calendar)
        let existing = try await fixture.store.fetchTasks(query: OCKTaskQuery()).filter(\.nextVersionUUIDs.isEmpty).count
        let schedule = OCKSchedule.dailyAtTime(hour: 8, minutes: 0, start: fixture.now, end: nil, text: nil)
        try await fixture.store.addTasks((existing..<OCKPlanEditor.maximumTasks).map {
            OCKTask(id: "filler-\($0)", title: "Filler", carePlanUUID: nil, schedule: schedule)
        })
        try await fixture.hosted(role: .clinician).test { client in
            let refused = try await Routes.post(client, "/plan/tasks", Routes.newTask())
            #expect(refused.status == .conflict)
            #expect(String(buffer: refused.body).contains("This plan has the most it can keep (\(OCKPlanEditor.maximumTasks)). Delete one first."))
            let template = try await Routes.post(client, "/plan/templates/apply", [("csrf", ServerFixture.token), ("template", "wound-care"),
                                                                                   ("start", "2026-11-16"), ("time-zone", "Asia/Seoul")])
            #expect(template.status == .unprocessableContent)
            #expect(String(buffer: template.body).contains("the template: At most \(OCKPlanEditor.maximumTasks) are allowed."))
        }
        #expect(try await editor.task(withID: "evening-walk") == nil)
    }
}

extension PlanContactsTemplatesTests {
    @Test func theTemplatesPageNamesTasksTheDownloadLeavesOut() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let start = fixture.calendar.date(byAdding: .hour, value: 1, to: fixture.now)!
        let hourly = OCKSchedule(composing: [OCKScheduleElement(start: start, end: nil, interval: DateComponents(hour: 3), calendar: fixture.calendar)])
        try await fixture.store.addTask(OCKTask(id: "every-three-hours", title: "Eye drops", carePlanUUID: nil, schedule: hourly))
        try await fixture.hosted(role: .clinician).test { client in
            let page = String(buffer: try await client.execute(uri: "/plan/templates", method: .get, headers: ServerFixture.cookie).body)
            #expect(page.contains("cannot express their schedules, or the template format does not allow one of their values): Eye drops."))
            let exported = try await client.execute(uri: "/plan/template.json", method: .get, headers: ServerFixture.cookie)
            #expect(!String(buffer: exported.body).contains("every-three-hours"))
        }
    }
}

/// What the review of the editor found: each with its test.
extension PlanContactsTemplatesTests {
    @Test func theScriptsPreviewAnswersTheSectionOnlyAndWritesNothing() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let before = try await fixture.store.fetchTask(withID: "enoxaparin")
        try await fixture.hosted(role: .clinician).test { client in
            let response = try await Routes.post(client, "/plan/preview/tasks/enoxaparin",
                                                 Routes.newTask([("version", before.uuid.uuidString), ("title", "Enoxaparin")], times: ["10:30"]))
            #expect(response.status == .ok)
            let section = String(buffer: response.body)
            #expect(section.hasPrefix("<section"))
            #expect(section.contains("id=\"plan-preview\""))
            #expect(section.contains("10:30\u{202F}AM"))
            let new = try await Routes.post(client, "/plan/preview/tasks", Routes.newTask(times: ["06:45"]))
            #expect(String(buffer: new.body).contains("6:45\u{202F}AM"))
        }
        #expect(try await fixture.store.fetchTask(withID: "enoxaparin").uuid == before.uuid)
        #expect((try? await fixture.store.fetchTask(withID: "evening-walk")) == nil)
    }

    @Test func aTaskNotYetBegunMovesEarlierWithoutARefusal() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        try await fixture.hosted(role: .clinician).test { client in
            let added = try await Routes.post(client, "/plan/tasks", Routes.newTask([("start", "2026-11-20"), ("task-id", "later")]))
            #expect(added.status == .seeOther)
            let task = try await fixture.store.fetchTask(withID: "later")
            let moved = try await Routes.post(client, "/plan/tasks/later", Routes.newTask([("version", task.uuid.uuidString), ("start", "2026-11-18")]))
            #expect(moved.status == .seeOther, "\(String(buffer: moved.body).components(separatedBy: "ock-field-error").dropFirst().map { $0.prefix(160) })")
        }
    }

    @Test func givingANewScheduleOpensTheBuilderWithoutProblems() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let start = fixture.calendar.date(byAdding: .hour, value: 1, to: fixture.now)!
        let hourly = OCKSchedule(composing: [OCKScheduleElement(start: start, end: nil, interval: DateComponents(hour: 3), calendar: fixture.calendar)])
        let task = try await fixture.store.addTask(OCKTask(id: "drops", title: "Eye drops", carePlanUUID: nil, schedule: hourly))
        try await fixture.hosted(role: .clinician).test { client in
            let builder = try await Routes.post(client, "/plan/tasks/drops", [("csrf", ServerFixture.token), ("version", task.uuid.uuidString),
                                                                              ("title", "Eye drops"), ("keep-schedule", "true"), ("intent", "replace-schedule")])
            let page = String(buffer: builder.body)
            #expect(builder.status == .ok)
            #expect(!page.contains("ock-field-error"))
            #expect(page.contains("id=\"every\" inputmode=\"numeric\" max=\"366\" min=\"1\" name=\"every\" type=\"number\" value=\"1\""))
        }
    }

    @Test func aNoteIsBoundedInBytesAsWellAsCharacters() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        // 400 characters, each an "e" with twenty combining accents: 16,400 bytes.
        let heavy = String(repeating: "e" + String(repeating: "\u{301}", count: 20), count: 400)
        try await fixture.hosted(role: .clinician).test { client in
            let refused = try await Routes.post(client, "/plan/notes", [("csrf", ServerFixture.token), ("note-content", heavy)])
            #expect(refused.status == .unprocessableContent)
        }
    }

    @Test func theDownloadLeavesOutWhatTheFormatRefusesAndStillReadsBack() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        var ibuprofen = try await fixture.store.fetchTask(withID: "ibuprofen")
        ibuprofen.tags = (1...21).map { "tag\($0)" }
        try await fixture.store.updateTask(ibuprofen)
        try await fixture.hosted(role: .clinician).test { client in
            let response = try await client.execute(uri: "/plan/template.json", method: .get, headers: ServerFixture.cookie)
            let template = try OCKCarePlanTemplate(json: Data(buffer: response.body))
            #expect(!template.tasks.contains { $0.id == "ibuprofen" })
            #expect(template.tasks.contains { $0.id == "enoxaparin" })
            let page = String(buffer: try await client.execute(uri: "/plan/templates", method: .get, headers: ServerFixture.cookie).body)
            #expect(page.contains("does not allow one of their values): Ibuprofen."))
        }
    }
}
