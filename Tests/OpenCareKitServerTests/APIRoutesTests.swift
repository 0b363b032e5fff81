import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import OpenCareKit
@testable import OpenCareKitServer
import OpenCareKitStore
import Testing

@Suite struct APIRoutesTests {
    static let json: HTTPFields = [.contentType: "application/json"]

    func body(_ value: some Encodable) throws -> ByteBuffer { ByteBuffer(bytes: try JSONEncoder().encode(value)) }

    func problem(_ response: TestResponse) throws -> (status: Int?, field: String?) {
        let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: [String: Any]]
        return (object?["error"]?["status"] as? Int, object?["error"]?["field"] as? String)
    }

    func newTask(_ id: String, _ fixture: ServerFixture) -> OCKTask {
        var element = OCKScheduleElement(start: fixture.calendar.startOfDay(for: fixture.now), end: nil,
                                         interval: DateComponents(day: 1))
        element.calendar = fixture.calendar
        return OCKTask(id: id, title: "Walk", carePlanUUID: nil, schedule: OCKSchedule(composing: [element]))
    }

    @Test func theOpenAPIDocumentDescribesEveryRoute() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            try await client.execute(uri: "/api/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
                let document = try #require(JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(document["openapi"] as? String == "3.1.0")
                let paths = try #require(document["paths"] as? [String: [String: Any]])
                for operation in OpenAPIDocument.operations {
                    let entry = paths["/records/{record}" + operation.path]?[operation.method] as? [String: Any]
                    #expect(entry != nil, "\(operation.method) \(operation.path)")
                    // Each operation names the token scope it needs.
                    let security = entry?["security"] as? [[String: [String]]]
                    #expect(security?.first?["bearer"]?.first?.hasPrefix("patient/") == true, "\(operation.method) \(operation.path)")
                }
            }
            // Every documented operation is routed: none answers the router's own 404 for an unknown route.
            for operation in OpenAPIDocument.operations {
                let path = operation.path.replacingOccurrences(of: "{id}", with: "ibuprofen")
                    .replacingOccurrences(of: "{uuid}", with: UUID().uuidString)
                try await client.execute(uri: path, method: HTTPRequest.Method(operation.method.uppercased())!, headers: Self.json,
                                         body: ByteBuffer(string: "{}")) { response in
                    #expect(response.headers[.contentType] == "application/json" || response.status == .noContent,
                            "\(operation.method) \(path)")
                }
            }
        }
    }

    @Test func readsInCareKitsJSON() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/tasks", method: .get) { response in
                let tasks = try JSONDecoder().decode([OCKTask].self, from: Data(buffer: response.body))
                #expect(Set(tasks.map(\.id)) == ["onboarding", "check-in", "ibuprofen", "enoxaparin", "omeprazole", "knee-exercises", "nausea", "hydration", "weigh-in"])
            }
            try await client.execute(uri: "/api/v1/tasks/ibuprofen", method: .get) { response in
                let decoded = try JSONDecoder().decode(OCKTask.self, from: Data(buffer: response.body))
                #expect(decoded.title == "Ibuprofen")
            }
            try await client.execute(uri: "/api/v1/events?date=2026-11-16&taskID=ibuprofen", method: .get) { response in
                let events = try #require(JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]])
                #expect(events.count == 3)
                #expect(events.first?["scheduleEvent"] != nil && events.first?["task"] != nil)
            }
            try await client.execute(uri: "/api/v1/contacts/dr-okafor", method: .get) { response in
                let decoded = try JSONDecoder().decode(OCKContact.self, from: Data(buffer: response.body))
                #expect(decoded.title == "Orthopedic Surgeon")
            }
            for (uri, field) in [("/api/v1/tasks?date=16-11-2026", "date"), ("/api/v1/events?date=x", "date")] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .badRequest)
                    let reported = try problem(response); #expect(reported.field == field)
                }
            }
            for uri in ["/api/v1/tasks/nobody", "/api/v1/contacts/nobody"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound)
                    let reported = try problem(response); #expect(reported.status == 404)
                }
            }
        }
    }

    @Test func theAPIAddsNoTaskBeyondTheStoresLimit() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let schedule = OCKSchedule.dailyAtTime(hour: 8, minutes: 0, start: fixture.now, end: nil, text: nil)
        let existing = try await fixture.store.fetchTasks(query: OCKTaskQuery()).filter(\.nextVersionUUIDs.isEmpty).count
        try await fixture.store.addTasks((existing..<OCKStoreLimits.maximumEntitiesOfAKind).map {
            OCKTask(id: "filler-\($0)", title: "Filler", carePlanUUID: nil, schedule: schedule)
        })
        try await fixture.hosted().test { client in
            try await client.execute(uri: "/api/v1/tasks", method: .post, headers: Self.json, body: try body(newTask("walk", fixture))) { response in
                // What the store holds refuses it (as an id that exists would): 409, with the reason.
                #expect(response.status == .conflict)
                #expect(String(buffer: response.body).contains(OCKStoreLimits.tooMany("task")))
            }
        }
    }

    @Test func writesAddVersionsAndBadBodiesNameTheirField() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            let walk = newTask("walk", fixture)
            try await client.execute(uri: "/api/v1/tasks", method: .post, headers: Self.json, body: try body(walk)) { response in
                #expect(response.status == .created)
            }
            try await client.execute(uri: "/api/v1/tasks", method: .post, headers: Self.json, body: try body(walk)) { response in
                #expect(response.status == .conflict) // the id exists
            }
            var renamed = walk
            renamed.title = "Evening walk"
            try await client.execute(uri: "/api/v1/tasks/walk", method: .put, headers: Self.json, body: try body(renamed)) { response in
                #expect(response.status == .ok)
                let updated = try JSONDecoder().decode(OCKTask.self, from: Data(buffer: response.body))
                #expect(updated.title == "Evening walk" && updated.previousVersionUUIDs.count == 1)
            }
            try await client.execute(uri: "/api/v1/tasks/other", method: .put, headers: Self.json, body: try body(renamed)) { response in
                #expect(response.status == .unprocessableContent)
                let reported = try problem(response); #expect(reported.field == "id")
            }
            // Malformed, missing, mistyped and invalid fields; wrong content type; oversized.
            var object = try #require(JSONSerialization.jsonObject(with: try JSONEncoder().encode(newTask("x", fixture))) as? [String: Any])
            object.removeValue(forKey: "schedule")
            let missing = try JSONSerialization.data(withJSONObject: object)
            object["schedule"] = "daily"
            let mistyped = try JSONSerialization.data(withJSONObject: object)
            var zero = newTask("zero", fixture)
            zero.schedule = OCKSchedule(composing: [OCKScheduleElement(start: fixture.now, end: nil, interval: DateComponents(day: 1))])
            var zeroObject = try #require(JSONSerialization.jsonObject(with: try JSONEncoder().encode(zero)) as? [String: Any])
            var schedule = try #require(zeroObject["schedule"] as? [String: Any])
            var elements = try #require(schedule["elements"] as? [[String: Any]])
            elements[0]["interval"] = ["day": 0]
            schedule["elements"] = elements
            zeroObject["schedule"] = schedule
            let invalid = try JSONSerialization.data(withJSONObject: zeroObject)
            let cases: [(ByteBuffer, HTTPFields, HTTPResponse.Status, String?)] = [
                (ByteBuffer(string: "{not json"), Self.json, .badRequest, nil),
                (ByteBuffer(bytes: missing), Self.json, .badRequest, "schedule"),
                (ByteBuffer(bytes: mistyped), Self.json, .badRequest, "schedule"),
                (ByteBuffer(bytes: invalid), Self.json, .unprocessableContent, "schedule.elements[0].interval"),
                (try body(newTask("plain", fixture)), [.contentType: "text/plain"], .badRequest, nil),
                (ByteBuffer(string: "[" + String(repeating: "1,", count: 40_000) + "1]"), Self.json, .contentTooLarge, nil),
            ]
            for (payload, headers, status, field) in cases {
                try await client.execute(uri: "/api/v1/tasks", method: .post, headers: headers, body: payload) { response in
                    #expect(response.status == status, "\(status)")
                    #expect(response.headers[.contentType] == "application/json")
                    if let field { let reported = try problem(response); #expect(reported.field == field) }
                }
            }
            try await client.execute(uri: "/api/v1/tasks/walk", method: .delete) { response in
                #expect(response.status == .noContent)
            }
            try await client.execute(uri: "/api/v1/tasks/walk", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func outcomesAddAndDeleteByUUID() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            let event = try await fixture.event("enoxaparin")
            let outcome = OCKOutcome(taskUUID: event.task.uuid, taskOccurrenceIndex: event.scheduleEvent.occurrence, values: [OCKOutcomeValue(true)])
            var added: OCKOutcome?
            try await client.execute(uri: "/api/v1/outcomes", method: .post, headers: Self.json, body: try body(outcome)) { response in
                #expect(response.status == .created)
                added = try JSONDecoder().decode(OCKOutcome.self, from: Data(buffer: response.body))
            }
            #expect(try await fixture.event("enoxaparin").outcome != nil)
            try await client.execute(uri: "/api/v1/outcomes?date=2026-11-16&taskID=enoxaparin", method: .get) { response in
                let decoded = try JSONDecoder().decode([OCKOutcome].self, from: Data(buffer: response.body))
                #expect(decoded.count == 1)
            }
            try await client.execute(uri: "/api/v1/outcomes/not-a-uuid", method: .delete) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/api/v1/outcomes/\(UUID().uuidString)", method: .delete) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/api/v1/outcomes/\(try #require(added).uuid.uuidString)", method: .delete) { response in
                #expect(response.status == .noContent)
            }
            #expect(try await fixture.event("enoxaparin").outcome == nil)
            // An outcome of a task that does not exist (a new outcome: the deleted one's id stays taken).
            let orphan = OCKOutcome(taskUUID: UUID(), taskOccurrenceIndex: outcome.taskOccurrenceIndex, values: outcome.values)
            try await client.execute(uri: "/api/v1/outcomes", method: .post, headers: Self.json, body: try body(orphan)) { response in
                #expect([HTTPResponse.Status.unprocessableContent, .notFound].contains(response.status))
            }
        }
    }
}
