import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import OpenCareKit
import OpenCareKitDirectory
import OpenCareKitFHIR
import OpenCareKitPostgresTesting
@testable import OpenCareKitServer
import OpenCareKitStore
import OpenCareKitSurveys
import Testing

/// One gate: every rule of a care record against every writer that reaches its store over HTTP — the Care page's
/// forms, a survey answered as one form (what the app queues offline), the JSON API, a sync push and a FHIR import — each refused with the same rule, and nothing kept, with the
/// record on SQLite and on PostgreSQL. (The command line's writes: `StoreCommandLineTests`; the store's own calls and
/// merges: the conformance suite's `recordRules`.)
@Suite struct RecordRulesMatrixTests {
    enum Writer: String, CaseIterable {
        case careForm, surveyForm, api, syncPush, fhirImport
    }

    enum Rule: String, CaseIterable {
        case onboardingFirst, consentKept, surveyAnswers, futureEvents, planLimits, alertRules
    }

    /// How a writer's refusal looks: its status, and words it must say.
    struct Refusal {
        let status: HTTPResponse.Status
        let words: String
    }

    /// Where the record is kept.
    enum Backend: String, CaseIterable {
        case sqlite, postgres
    }

    /// A record of the demo plan with its surveys, on a store of `backend` (SQLite in memory, or a record of its own
    /// in the tests' PostgreSQL database), served to its patient (signed in).
    struct Case {
        let fixture: ServerFixture
        let host: TestHost

        init(_ backend: Backend) async throws {
            switch backend {
            case .sqlite: fixture = ServerFixture(surveys: true)
            case .postgres:
                let store = try await PostgresTestDatabase.shared().records.store(forRecord: "matrix-\(UUID().uuidString)")
                fixture = ServerFixture(surveys: true, store: store)
            }
            host = fixture.hosted(role: .patient)
        }

        /// What the store holds, to see a refused write kept nothing.
        func snapshot() async throws -> [UUID] {
            let outcomes = try await fixture.store.fetchOutcomes(query: OCKOutcomeQuery()).map(\.uuid)
            let tasks = try await fixture.store.fetchTasks(query: OCKTaskQuery()).map(\.uuid)
            return (outcomes + tasks).sorted { $0.uuidString < $1.uuidString }
        }
    }

    /// The outcome each rule is tried with, on a record prepared for it (onboarded, unless the rule is onboarding).
    static func prepare(_ rule: Rule, _ fixture: ServerFixture) async throws -> OCKOutcome? {
        if rule != .onboardingFirst { try await fixture.onboard(daysFromToday: -1) }
        switch rule {
        case .onboardingFirst:
            let dose = try await fixture.event("ibuprofen")
            return OCKOutcome(taskUUID: dose.task.uuid, taskOccurrenceIndex: dose.scheduleEvent.occurrence, values: [OCKOutcomeValue(true)])
        case .futureEvents:
            let dose = try await fixture.event("ibuprofen", daysFromToday: 10)
            return OCKOutcome(taskUUID: dose.task.uuid, taskOccurrenceIndex: dose.scheduleEvent.occurrence, values: [OCKOutcomeValue(true)])
        case .surveyAnswers:
            let checkIn = try await fixture.event(OCKDemoSurveys.checkInTaskID)
            var pain = OCKOutcomeValue(99)
            pain.kind = "pain"
            var sleep = OCKOutcomeValue(7.0)
            sleep.kind = "sleep"
            var exercises = OCKOutcomeValue(true)
            exercises.kind = "exercises"
            return OCKOutcome(taskUUID: checkIn.task.uuid, taskOccurrenceIndex: checkIn.scheduleEvent.occurrence, values: [pain, sleep, exercises])
        case .consentKept:
            return try await fixture.event(OCKDemoSurveys.onboardingTaskID, daysFromToday: -1).outcome
        case .planLimits, .alertRules:
            return nil
        }
    }

    /// A task whose alert rules break a bound (a quiet of 0 days).
    static func badAlertTask(_ fixture: ServerFixture) -> OCKTask {
        var task = busyTasks(fixture)[0]
        task.id = "alerting"
        task.uuid = UUID()
        task.userInfo = [OCKTask.alertRulesKey: #"[{"id":"quiet","when":"noActivity","days":0}]"#]
        return task
    }

    /// 42 tasks of 48 events a day: each within a schedule's limits, together past the record's.
    static func busyTasks(_ fixture: ServerFixture) -> [OCKTask] {
        let start = fixture.calendar.startOfDay(for: fixture.now)
        return (0..<42).map { index in
            var task = OCKTask(id: "busy-\(index)", title: "Busy", carePlanUUID: nil, schedule: OCKSchedule(composing: [
                OCKScheduleElement(start: start, end: nil, interval: DateComponents(minute: 30), calendar: fixture.calendar),
            ]))
            task.createdDate = fixture.now
            task.updatedDate = fixture.now
            return task
        }
    }

    /// The rule's reason as the store gives it (the API, a push and an import quote it).
    static func reason(_ rule: Rule) -> String {
        switch rule {
        case .onboardingFirst: OCKSurveyStoreRule.onboardingFirst.reason
        case .consentKept: OCKSurveyStoreRule.consentKept.reason
        case .surveyAnswers: "A survey task's outcome comes from its survey"
        case .futureEvents: OCKFutureEventsRule.violation.reason
        case .planLimits: OCKStoreLimits.tooManyEventsPerDay
        case .alertRules: "Alert rules: rule 1: days: must be 1 to 90"
        }
    }

    /// Makes `rule`'s write with `writer`; nil when the writer cannot make such a write at all.
    static func attempt(_ writer: Writer, _ rule: Rule, outcome: OCKOutcome?, _ fixture: ServerFixture,
                        _ client: any TestClientProtocol) async throws -> Refusal? {
        let json: HTTPFields = [.contentType: "application/json", .accept: "application/json"]
        func answer(_ response: TestResponse) -> Refusal {
            // A JSON error's message as its reader reads it; anything else as it is.
            let object = try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
            let message = (object?["error"] as? [String: Any])?["message"] as? String
            return Refusal(status: response.status, words: message ?? String(buffer: response.body))
        }
        switch writer {
        case .careForm:
            // The page's forms record outcomes of ordinary tasks; survey answers come only through the survey, and
            // the plan from the editor.
            guard let outcome, rule != .surveyAnswers, rule != .consentKept else { return nil }
            let fields = ["task": outcome.taskUUID.uuidString, "occurrence": "\(outcome.taskOccurrenceIndex)",
                          "date": "2026-11-16", "csrf": ServerFixture.token, "complete": "true"]
            var headers = ServerFixture.formHeaders
            headers[.accept] = "application/json"
            return answer(try await client.execute(uri: "/care/events/toggle", method: .post, headers: headers, body: ServerFixture.form(fields)))
        case .surveyForm:
            // A check-in's answers: before onboarding, out of range, or for a day ahead.
            guard [.onboardingFirst, .surveyAnswers, .futureEvents].contains(rule) else { return nil }
            let checkIn = try await fixture.event(OCKDemoSurveys.checkInTaskID, daysFromToday: rule == .futureEvents ? 10 : 0)
            let fields = ServerFixture.fields(checkIn, ["pain.answer": rule == .surveyAnswers ? "99" : "6", "sleep.answer": "7",
                                                        "exercises.answer": "true"])
            var headers = ServerFixture.formHeaders
            headers[.accept] = "application/json"
            return answer(try await client.execute(uri: CareServer.onePageSurveyPath, method: .post, headers: headers,
                                                   body: ServerFixture.form(fields)))
        case .api:
            switch rule {
            case .planLimits:
                var last: TestResponse?
                for task in busyTasks(fixture) {
                    let response = try await client.execute(uri: "/api/v1/tasks", method: .post, headers: json,
                                                            body: ByteBuffer(bytes: try JSONEncoder().encode(task)))
                    last = response
                    if response.status != .created { break }
                }
                return answer(try #require(last))
            case .alertRules:
                return answer(try await client.execute(uri: "/api/v1/tasks", method: .post, headers: json,
                                                       body: ByteBuffer(bytes: try JSONEncoder().encode(badAlertTask(fixture)))))
            case .consentKept:
                return answer(try await client.execute(uri: "/api/v1/outcomes/\(try #require(outcome).uuid.uuidString)", method: .delete, headers: json))
            default:
                return answer(try await client.execute(uri: "/api/v1/outcomes", method: .post, headers: json,
                                                       body: ByteBuffer(bytes: try JSONEncoder().encode(try #require(outcome)))))
            }
        case .syncPush:
            var entities: [OCKEntity]
            switch rule {
            case .planLimits: entities = busyTasks(fixture).map { .task($0) }
            case .alertRules: entities = [.task(badAlertTask(fixture))]
            case .consentKept:
                let consent = try #require(outcome)
                var tombstone = consent
                tombstone.uuid = UUID()
                tombstone.previousVersionUUIDs = [consent.uuid]
                tombstone.updatedDate = fixture.now
                tombstone.deletedDate = fixture.now
                entities = [.outcome(tombstone)]
            default: entities = [.outcome(try #require(outcome))]
            }
            var knowledge = try await fixture.store.knowledgeVector()
            let device = UUID()
            knowledge.merge(with: .init([device: 1]))
            let push = SyncRoutesTests.Push(revisions: [OCKRevisionRecord(entities: entities, knowledgeVector: .init([device: 1]))],
                                            knowledgeVector: knowledge)
            return answer(try await client.execute(uri: "/api/v1/sync/push", method: .post, headers: json,
                                                   body: ByteBuffer(bytes: try JSONEncoder().encode(push))))
        case .fhirImport:
            // A new record of the same plan: what the Bundle holds is written under the record's rules.
            guard rule != .consentKept else { return nil }
            let scratch = OCKStore(name: "bundle-\(UUID())", type: .inMemory)
            try await OCKDemoCarePlan(calendar: fixture.calendar, start: fixture.calendar.date(byAdding: .day, value: -6, to: fixture.now)!)
                .seed(into: scratch)
            if rule == .planLimits {
                // A store cannot hold such a plan, so the Bundle gets the rest of it by hand: 20 busy tasks
                // exported, and 22 more activities written like theirs.
                try await scratch.addTasks(busyTasks(fixture).prefix(20).map { $0 })
            } else if rule == .alertRules {
                // The scratch store has no rules: the task's user info travels in the Bundle to the new record's.
                try await scratch.addTask(badAlertTask(fixture))
            } else {
                // The same event in the scratch store's plan (its own task versions).
                let source = try #require(outcome)
                let task = try await fixture.store.fetchTasks(query: OCKTaskQuery()).first { $0.uuid == source.taskUUID }
                var query = OCKTaskQuery()
                query.ids = [try #require(task).id]
                let same = try #require(try await scratch.fetchTasks(query: query).first)
                var copied = source
                copied.taskUUID = same.uuid
                if rule != .onboardingFirst {
                    let onboarding = try await scratch.fetchTasks(query: { var q = OCKTaskQuery(); q.ids = [OCKDemoSurveys.onboardingTaskID]; return q }())
                    try await scratch.addOutcome(OCKOutcome(taskUUID: try #require(onboarding.first).uuid, taskOccurrenceIndex: 0,
                                                            values: try OCKDemoSurveys.signedOnboarding(signerName: "Alex Rivera", at: fixture.now)))
                }
                try await scratch.addOutcome(copied)
            }
            let bundle = try await FHIRExport(patientID: "scratch", surveys: OCKDemoSurveys.byTaskID, consentTaskID: OCKDemoSurveys.onboardingTaskID,
                                              timeZone: fixture.calendar.timeZone.identifier, carePlanName: CarePlanCatalog.demo,
                                              now: fixture.now).bundle(of: scratch)
            var body = Data(bundle.text.utf8)
            if rule == .planLimits { body = try withMoreBusyTasks(body, count: 22) }
            return answer(try await client.execute(uri: "/records/import", method: .post, headers: [.contentType: "application/fhir+json"],
                                                   body: ByteBuffer(bytes: body)))
        }
    }

    /// `bundle` with `count` more tasks in its care plan of busy tasks: copies of the first busy task's activity.
    static func withMoreBusyTasks(_ bundle: Data, count: Int) throws -> Data {
        var root = try #require(try JSONSerialization.jsonObject(with: bundle) as? [String: Any])
        var entries = try #require(root["entry"] as? [[String: Any]])
        func isBusy(_ activity: [String: Any]) -> Bool {
            let extensions = (activity["detail"] as? [String: Any])?["extension"] as? [[String: Any]]
            return (extensions?.first?["valueString"] as? String)?.hasPrefix("busy-") == true
        }
        let index = try #require(entries.firstIndex { entry in
            ((entry["resource"] as? [String: Any])?["activity"] as? [[String: Any]])?.contains(where: isBusy) == true
        })
        var resource = try #require(entries[index]["resource"] as? [String: Any])
        var activities = try #require(resource["activity"] as? [[String: Any]])
        let model = try #require(activities.first(where: isBusy))
        for copy in 0..<count {
            var activity = model
            var detail = try #require(activity["detail"] as? [String: Any])
            var extensions = try #require(detail["extension"] as? [[String: Any]])
            extensions[0]["valueString"] = "busy-copy-\(copy)"
            detail["extension"] = extensions
            activity["detail"] = detail
            activities.append(activity)
        }
        resource["activity"] = activities
        entries[index]["resource"] = resource
        root["entry"] = entries
        return try JSONSerialization.data(withJSONObject: root)
    }

    /// What `writer` must answer for `rule`.
    static func expected(_ writer: Writer, _ rule: Rule) -> Refusal {
        switch (writer, rule) {
        case (.careForm, .onboardingFirst), (.surveyForm, .onboardingFirst):
            Refusal(status: .conflict, words: PageMessage(ErrorText.finishOnboardingFirst).text(.english))
        case (.surveyForm, .surveyAnswers):
            // The survey's own words for an answer out of its scale, as a step would say them.
            Refusal(status: .unprocessableContent, words: outOfScale.message)
        case (.careForm, _), (.surveyForm, _):
            Refusal(status: .unprocessableContent, words: FormError(field: "occurrence", reason: .fieldFutureEvent).message.text(.english))
        case (.fhirImport, _): Refusal(status: .unprocessableContent, words: reason(rule))
        default: Refusal(status: .unprocessableContent, words: reason(rule))
        }
    }

    /// What the check-in's survey says of a pain of 99.
    static let outOfScale: OCKSurveyError = {
        var session = OCKSurveySession(survey: OCKDemoSurveys.checkIn)
        do throws(OCKSurveyError) {
            try session.record(.answer(.scale(99)), for: "pain")
        } catch {
            return error
        }
        return .notFinished
    }()

    @Test(arguments: Writer.allCases, Rule.allCases)
    func everyWriterIsRefusedByEveryRule(writer: Writer, rule: Rule) async throws {
        try await expectRefused(writer, rule, on: .sqlite)
    }

    /// The same on PostgreSQL, one case after another: twenty cases at once, each a record of its own, beside the
    /// PostgreSQL suites' own databases, left other tests without a connection in time on a 2-core machine.
    @Test func everyWriterIsRefusedByEveryRuleOnPostgreSQL() async throws {
        for writer in Writer.allCases {
            for rule in Rule.allCases {
                try await expectRefused(writer, rule, on: .postgres)
            }
        }
    }

    func expectRefused(_ writer: Writer, _ rule: Rule, on backend: Backend) async throws {
        let testCase = try await Case(backend)
        // The record is where the case says.
        let engine = String(describing: type(of: testCase.fixture.store.engine))
        #expect(engine.contains(backend == .postgres ? "Postgres" : "SQLite"), "\(engine)")
        try await testCase.fixture.seed()
        try await testCase.host.test { client in
            // The record opens, and its store gets the record's rules, at its first request.
            try await client.execute(uri: "/care", method: .get) { #expect($0.status == .ok) }
            let homes = try await client.execute(uri: "/", method: .get).body.readableBytes
            let outcome = try await Self.prepare(rule, testCase.fixture)
            let before = try await testCase.snapshot()
            guard let refusal = try await Self.attempt(writer, rule, outcome: outcome, testCase.fixture, client) else { return }
            let expected = Self.expected(writer, rule)
            #expect(refusal.status == expected.status, "\(backend): \(writer) × \(rule): \(refusal.status) \(refusal.words.prefix(300))")
            #expect(refusal.words.contains(expected.words), "\(backend): \(writer) × \(rule): \(refusal.words.prefix(300))")
            // Nothing kept, and no record made by a refused import.
            let after = try await testCase.snapshot()
            if writer == .api && rule == .planLimits {
                // The API adds tasks one by one until the plan is full; the refused one is not among them.
                #expect(!(try await testCase.fixture.store.fetchTasks(query: OCKTaskQuery()).contains { $0.id == "busy-41" }))
            } else {
                #expect(after == before, "\(backend): \(writer) × \(rule) changed the record")
            }
            if writer == .fhirImport {
                #expect(try await client.execute(uri: "/", method: .get).body.readableBytes == homes)
            }
        }
    }

    @Test func aPushNeedsExactlyTheScopesOfTheAPICallsMakingTheSameChanges() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let world = try await AuthorizationTests().makeWorld(fixture)
        // A token for updates only, as the probe made: no create, no delete.
        let secret = AccessTokens.make()
        let patient = try #require(try await world.directory.members(of: world.record).first { $0.membership.role == .patient })
        try await world.directory.addAccessToken(CareAccessToken(secretHash: AccessTokens.hash(secret), account: patient.account.id,
                                                                 record: world.record, scope: "patient/*.u", label: "updates",
                                                                 createdDate: fixture.now))
        let event = try await fixture.event("ibuprofen")
        let existing = try await fixture.store.addOutcome(OCKOutcome(taskUUID: event.task.uuid, taskOccurrenceIndex: event.scheduleEvent.occurrence,
                                                                     values: [OCKOutcomeValue(true)]))
        let yesterday = try await fixture.event("ibuprofen", daysFromToday: -1)
        func version<E: OCKVersionedObjectCompatible>(of entity: E, _ change: (inout E) -> Void) -> E {
            var next = entity
            next.uuid = UUID()
            next.previousVersionUUIDs = [entity.uuid]
            next.updatedDate = fixture.now
            change(&next)
            return next
        }
        let cases: [(String, [OCKEntity], String?)] = [
            ("a new outcome", [.outcome(OCKOutcome(taskUUID: yesterday.task.uuid, taskOccurrenceIndex: yesterday.scheduleEvent.occurrence,
                                                   values: [OCKOutcomeValue(true)]))], "patient/Observation.c"),
            ("a deleted outcome", [.outcome(version(of: existing) { $0.deletedDate = fixture.now })], "patient/Observation.d"),
            ("a deleted task", [.task(version(of: event.task) { $0.deletedDate = fixture.now })], "patient/CarePlan.d"),
            ("a new task", [.task(OCKTask(id: "new", title: "New", carePlanUUID: nil, schedule: event.task.schedule))], "patient/CarePlan.c"),
            ("a changed outcome", [.outcome(version(of: existing) { $0.values = [OCKOutcomeValue(false)] })], nil),
        ]
        try await Application(router: world.host.router()).test(.router) { client in
            for (name, entities, needed) in cases {
                let before = try await fixture.store.fetchOutcomes(query: OCKOutcomeQuery()).count
                let push = SyncRoutesTests.Push(revisions: [OCKRevisionRecord(entities: entities, knowledgeVector: .init([UUID(): 1]))], knowledgeVector: nil)
                let response = try await client.execute(uri: "/records/\(world.record)/api/v1/sync/push", method: .post,
                                                        headers: [.contentType: "application/json", .authorization: "Bearer \(secret)"],
                                                        body: ByteBuffer(bytes: try JSONEncoder().encode(push)))
                if let needed {
                    #expect(response.status == .forbidden, "\(name): \(response.status)")
                    let message = String(buffer: response.body).replacingOccurrences(of: "\\/", with: "/")
                    #expect(message.contains(needed), "\(name): \(message)")
                    #expect(try await fixture.store.fetchOutcomes(query: OCKOutcomeQuery()).count == before, "\(name)")
                } else {
                    #expect(response.status == .ok, "\(name): \(String(buffer: response.body))")
                }
            }
            // The JSON API answers the same token the same way.
            let created = try await client.execute(uri: "/records/\(world.record)/api/v1/outcomes", method: .post,
                                                   headers: [.contentType: "application/json", .authorization: "Bearer \(secret)"],
                                                   body: ByteBuffer(bytes: try JSONEncoder().encode(OCKOutcome(taskUUID: yesterday.task.uuid,
                                                                                                              taskOccurrenceIndex: yesterday.scheduleEvent.occurrence,
                                                                                                              values: [])))) 
            #expect(created.status == .forbidden
                    && String(buffer: created.body).replacingOccurrences(of: "\\/", with: "/").contains("patient/Observation.c"))
        }
    }

    @Test func everyAPIWriteRouteNeedsWhatItsChangeNeeds() {
        // The table a push is checked with is the one the JSON API's routes are declared with.
        let routes = Dictionary(uniqueKeysWithValues: CareHost.recordRouteList.map { ($0.key, $0.policy) })
        let changes: [(String, OCKStoreChange)] = [
            ("POST /api/v1/outcomes", OCKStoreChange(.outcome, .add)), ("DELETE /api/v1/outcomes/:uuid", OCKStoreChange(.outcome, .delete)),
            ("POST /api/v1/tasks", OCKStoreChange(.task, .add)), ("PUT /api/v1/tasks/:id", OCKStoreChange(.task, .update)),
            ("DELETE /api/v1/tasks/:id", OCKStoreChange(.task, .delete)),
        ]
        for (key, change) in changes {
            let policy = routes[key]
            #expect(policy != nil, "\(key)")
            let needed = RecordWriteAccess.requirement(for: change)
            #expect(policy?.permission == needed.permission, "\(key)")
            #expect(policy?.tokenAccess == .init(resourceTypes: [needed.resourceType], operation: needed.operation), "\(key)")
        }
    }
}
