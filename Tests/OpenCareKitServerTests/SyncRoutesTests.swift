import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
@testable import OpenCareKitServer
import OpenCareKitStore
import Testing

/// The sync API (`/api/v1/sync/pull` and `/push`) through the host: tokens and roles, paging, bad input.
@Suite struct SyncRoutesTests {
    struct Push: Encodable {
        let revisions: [OCKRevisionRecord]
        let knowledgeVector: OCKRevisionRecord.KnowledgeVector?
    }

    struct Pull: Encodable {
        let knowledgeVector: OCKRevisionRecord.KnowledgeVector
        let after: String?
        let limit: Int?
    }

    func headers(_ world: AuthorizationTests.World, _ asker: AuthorizationTests.Asker) -> HTTPFields {
        var headers: HTTPFields = [.contentType: "application/json", .accept: "application/json"]
        if let token = world.tokens[asker] { headers[.authorization] = "Bearer \(token)" }
        if let session = world.sessions[asker] {
            // A session's push or pull carries the reader's CSRF token, as the app's own scripts do.
            headers[.cookie] = "ock_session=\(session); ock_csrf=\(ServerFixture.token)"
            headers[CSRF.headerName] = ServerFixture.token
        }
        return headers
    }

    func message(_ response: TestResponse) -> String {
        let object = try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: [String: Any]]
        return object?["error"]?["message"] as? String ?? ""
    }

    @Test func aDevicePullsInPagesAndPushesWhatItRecorded() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let world = try await AuthorizationTests().makeWorld(fixture)
        let base = "/records/\(world.record)/api/v1/sync"
        let versions = try await fixture.store.revisions(since: .init(), limit: 100_000).revisions.flatMap(\.entities)
        let event = try await fixture.event("ibuprofen")
        try await Application(router: world.host.router()).test(.router) { client in
            // Everything, two versions a page.
            var pulled: [OCKEntity] = []
            var after: String?
            var knowledge: OCKRevisionRecord.KnowledgeVector?
            repeat {
                let response = try await client.execute(uri: base + "/pull", method: .post, headers: headers(world, .tokenReadAll),
                                                        body: ByteBuffer(bytes: try JSONEncoder().encode(Pull(knowledgeVector: .init(), after: after, limit: 2))))
                #expect(response.status == .ok)
                let page = try JSONDecoder().decode(OCKRevisionPage.self, from: Data(buffer: response.body))
                #expect(page.revisions.flatMap(\.entities).count <= 2)
                pulled += page.revisions.flatMap(\.entities)
                (after, knowledge) = (page.next, page.knowledge)
            } while after != nil
            #expect(Set(pulled.map(\.uuid)) == Set(versions.map(\.uuid)) && pulled.count == versions.count)
            let serverKnowledge = try #require(knowledge)

            // A device records a dose and pushes it.
            let device = UUID()
            var outcome = OCKOutcome(taskUUID: event.task.uuid, taskOccurrenceIndex: event.scheduleEvent.occurrence, values: [OCKOutcomeValue(true)])
            outcome.createdDate = fixture.now
            outcome.updatedDate = fixture.now
            var deviceKnowledge = serverKnowledge
            deviceKnowledge.merge(with: .init([device: 2]))
            let push = Push(revisions: [OCKRevisionRecord(entities: [.outcome(outcome)], knowledgeVector: .init([device: 2]))],
                            knowledgeVector: deviceKnowledge)
            // A read-only token may not; the caregiver's token-less session may; so may a token with write scope.
            let refused = try await client.execute(uri: base + "/push", method: .post, headers: headers(world, .tokenReadAll),
                                                   body: ByteBuffer(bytes: try JSONEncoder().encode(push)))
            #expect(refused.status == .forbidden && message(refused).contains("scope"))
            let pushed = try await client.execute(uri: base + "/push", method: .post, headers: headers(world, .tokenEverything),
                                                  body: ByteBuffer(bytes: try JSONEncoder().encode(push)))
            #expect(pushed.status == .ok, "\(message(pushed))")
            let answer = try JSONSerialization.jsonObject(with: Data(buffer: pushed.body)) as? [String: Any]
            #expect(answer?["knowledgeVector"] != nil)
            #expect(try await fixture.store.fetchOutcomes(query: OCKOutcomeQuery()).contains { $0.uuid == outcome.uuid })
            #expect(try await fixture.store.knowledgeVector().clock(for: device) == 2)
        }
        // The push is in the record's audit log, without patient data.
        let entries = try await world.directory.auditEntries(after: 0, limit: 10_000)
        #expect(entries.contains { $0.draft.resource == "sync" && $0.draft.detail == "1 revision records, 1 versions" })
    }

    @Test func whatAPushChangesDecidesTheRoleItNeeds() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let world = try await AuthorizationTests().makeWorld(fixture)
        let base = "/records/\(world.record)/api/v1/sync"
        let event = try await fixture.event("ibuprofen")
        let outcome = OCKRevisionRecord(entities: [.outcome(OCKOutcome(taskUUID: event.task.uuid, taskOccurrenceIndex: 0, values: []))],
                                        knowledgeVector: .init([UUID(): 1]))
        var task = event.task
        task.uuid = UUID()
        task.previousVersionUUIDs = [event.task.uuid]
        task.title = "Changed"
        let plan = OCKRevisionRecord(entities: [.task(task)], knowledgeVector: .init([UUID(): 1]))
        try await Application(router: world.host.router()).test(.router) { client in
            // A clinician changes plans but does not record outcomes for the patient; a caregiver the other way round.
            // (Refusals first: once merged, the same versions change nothing, and need nothing.)
            for (asker, record, allowed) in [(AuthorizationTests.Asker.clinician, outcome, false), (.caregiver, plan, false),
                                             (.clinician, plan, true), (.caregiver, outcome, true)] {
                let response = try await client.execute(uri: base + "/push", method: .post, headers: headers(world, asker),
                                                        body: ByteBuffer(bytes: try JSONEncoder().encode(Push(revisions: [record], knowledgeVector: nil))))
                #expect((response.status == .ok) == allowed, "\(asker) \(response.status) \(message(response))")
                if !allowed { #expect(response.status == .forbidden && message(response).contains("does not allow")) }
            }
        }
    }

    @Test func aCareKitDevicesHealthKitTasksArePushedAndPulledBack() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let world = try await AuthorizationTests().makeWorld(fixture)
        let base = "/records/\(world.record)/api/v1/sync"
        let event = try await fixture.event("ibuprofen")
        var steps = OCKHealthKitTask(id: "steps", title: "Steps", carePlanUUID: event.task.carePlanUUID, schedule: event.task.schedule,
                                     healthKitLinkage: OCKHealthKitLinkage(quantityIdentifier: "HKQuantityTypeIdentifierStepCount",
                                                                           quantityType: .cumulative, unitString: "count"))
        steps.createdDate = fixture.now
        steps.updatedDate = fixture.now
        let pushed = steps
        let device = OCKRevisionRecord.KnowledgeVector([UUID(): 1])
        let push = Push(revisions: [OCKRevisionRecord(entities: [.healthKitTask(steps)], knowledgeVector: device)], knowledgeVector: device)
        try await Application(router: world.host.router()).test(.router) { client in
            // A plan change: the caregiver may not push it, the clinician may.
            for (asker, allowed) in [(AuthorizationTests.Asker.caregiver, false), (.clinician, true)] {
                let response = try await client.execute(uri: base + "/push", method: .post, headers: headers(world, asker),
                                                        body: ByteBuffer(bytes: try JSONEncoder().encode(push)))
                #expect((response.status == .ok) == allowed, "\(asker) \(response.status) \(message(response))")
            }
            #expect(try await fixture.store.fetchHealthKitTasks(query: OCKTaskQuery()) == [pushed])
            // Another device that knows nothing pulls it back as CareKit wrote it.
            let response = try await client.execute(uri: base + "/pull", method: .post, headers: headers(world, .tokenReadAll),
                                                    body: ByteBuffer(bytes: try JSONEncoder().encode(Pull(knowledgeVector: .init(),
                                                                                                          after: nil, limit: 1_000))))
            #expect(response.status == .ok)
            let page = try JSONDecoder().decode(OCKRevisionPage.self, from: Data(buffer: response.body))
            #expect(page.revisions.flatMap(\.entities).filter { $0.entityType == .healthKitTask } == [.healthKitTask(pushed)])
            let json = String(decoding: Data(buffer: response.body), as: UTF8.self)
            #expect(json.contains("\"type\":\"healthKitTask\"") && json.contains("HKQuantityTypeIdentifierStepCount"))
        }
    }

    @Test func badPushesAndPullsAreRefusedWithTheStoreUnchanged() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let world = try await AuthorizationTests().makeWorld(fixture)
        let base = "/records/\(world.record)/api/v1/sync"
        let before = try await fixture.store.revisions(since: .init(), limit: 100_000).revisions.flatMap(\.entities)
        let device = UUID()
        var blank = OCKTask(id: " ", title: nil, carePlanUUID: nil, schedule: try await fixture.event("ibuprofen").task.schedule)
        blank.effectiveDate = fixture.now
        let serverProcess = try #require(try await fixture.store.knowledgeVector().uuids.first)
        let cases: [(String, ByteBuffer, HTTPResponse.Status, String)] = [
            ("not JSON", ByteBuffer(string: "{\"revisions\": ["), .badRequest, "not valid JSON"),
            ("a malformed revision", ByteBuffer(string: #"{"revisions": [{"entities": [{"type": "task"}], "knowledgeVector": {"processes": []}}]}"#),
             .badRequest, "object"),
            ("a negative clock", ByteBuffer(string: #"{"revisions": [], "knowledgeVector": {"processes": [{"id": "\#(device)", "clock": -1}]}}"#),
             .badRequest, "knowledgeVector"),
            ("an entity that fails validation",
             ByteBuffer(bytes: try JSONEncoder().encode(Push(revisions: [OCKRevisionRecord(entities: [.task(blank)], knowledgeVector: .init([device: 1]))],
                                                             knowledgeVector: .init([device: 1])))), .unprocessableContent, "id"),
            ("a vector ahead of the device's knowledge",
             ByteBuffer(bytes: try JSONEncoder().encode(Push(revisions: [OCKRevisionRecord(entities: [], knowledgeVector: .init([device: 5]))],
                                                             knowledgeVector: .init([device: 1])))), .unprocessableContent, "ahead"),
            ("knowledge of the server's own writes it never made",
             ByteBuffer(bytes: try JSONEncoder().encode(Push(revisions: [], knowledgeVector: .init([serverProcess: 1_000])))),
             .unprocessableContent, "more of this store's own writes"),
            ("a push of 100 MB", ByteBuffer(repeating: UInt8(ascii: " "), count: 100 * 1024 * 1024), .contentTooLarge, "8192 KiB"),
        ]
        try await Application(router: world.host.router()).test(.router) { client in
            for (name, body, status, words) in cases {
                let response = try await client.execute(uri: base + "/push", method: .post, headers: headers(world, .tokenEverything), body: body)
                #expect(response.status == status, "\(name): \(response.status) \(message(response))")
                #expect(message(response).contains(words), "\(name): \(message(response))")
            }
            for (name, body, words) in [
                ("a limit too large", try JSONEncoder().encode(Pull(knowledgeVector: .init(), after: nil, limit: 1_000_000)), "limit"),
                ("a cursor the server did not make", try JSONEncoder().encode(Pull(knowledgeVector: .init(), after: "x.y", limit: nil)), "cursor"),
            ] {
                let response = try await client.execute(uri: base + "/pull", method: .post, headers: headers(world, .tokenEverything),
                                                        body: ByteBuffer(bytes: body))
                #expect([.badRequest, .unprocessableContent].contains(response.status), "\(name): \(response.status)")
                #expect(message(response).contains(words), "\(name): \(message(response))")
            }
        }
        #expect(try await fixture.store.revisions(since: .init(), limit: 100_000).revisions.flatMap(\.entities) == before)
    }
}
