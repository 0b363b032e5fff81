import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import Logging
import OpenCareKit
@testable import OpenCareKitServer
@testable import OpenCareKitStore
import Synchronization
import Testing

/// Errors that tell the truth: a store that fails (I/O error, full disk, corruption) is the server's fault — 500 with
/// an error id that is also in the log — one that cannot be reached or is busy is 503 with Retry-After, and a
/// client's mistake stays a 4xx naming it. Never a 4xx for a server fault.
@Suite struct ErrorMappingTests {
    @Test func aFailingStoreIsAServerFaultWithAnIdInTheLogAndAMistakeStaysTheClients() async throws {
        let (store, faulty) = try FaultyEngine.store()
        let fixture = ServerFixture(store: store)
        try await fixture.seed()
        let hosted = fixture.hosted()
        let host = hosted.host(on: try await hosted.preparedDirectory())
        let log = LogLines()
        let logger = log.logger
        let (base, session) = (hosted.base, hosted.session)
        try await Application(router: host.router(), logger: logger).test(.router) { raw in
            let client = RecordClient(client: raw, base: base, session: session)
            let json: HTTPFields = [.accept: "application/json", .contentType: "application/json", .cookie: "ock_csrf=\(ServerFixture.token)"]
            let page: HTTPFields = [.accept: "text/html"]

            // The disk fails (an I/O error, a full disk, a corrupt file): 500 with an id, the same id in the log.
            for kind in [SQLFailure.Kind.fault, .other] {
                faulty.faults.withLock { $0 = .init(readsFail: true, readError: kind) }
                let api = try await client.executeRequest(uri: "/api/v1/tasks", method: .get, headers: json, body: nil)
                #expect(api.status == .internalServerError, "\(kind)")
                let id = try #require(api.headers[.errorID])
                #expect(String(buffer: api.body).contains("error \(id)"))
                #expect(log.lines.withLock { $0 }.contains { $0.message == "storage fault" && $0.metadata["error-id"] == id })
                let care = try await client.executeRequest(uri: "/care", method: .get, headers: page, body: nil)
                #expect(care.status == .internalServerError && String(buffer: care.body).contains("error \(care.headers[.errorID] ?? "?")"))
            }
            // Nothing of the record reaches the log: the reason is the engine's, without data.
            #expect(!log.lines.withLock { $0 }.contains { $0.metadata.values.contains { $0.contains("Ibuprofen") } })

            // Unreachable or busy: 503, try again.
            for kind in [SQLFailure.Kind.unavailable, .conflict] {
                faulty.faults.withLock { $0 = .init(readsFail: true, readError: kind) }
                let response = try await client.executeRequest(uri: "/api/v1/tasks", method: .get, headers: json, body: nil)
                #expect(response.status == .serviceUnavailable && response.headers[.retryAfter] == "5", "\(kind)")
            }

            // A write the disk refuses is the server's too, not the client's (it was 409 or 422).
            faulty.faults.withLock { $0 = .init() }
            let event = try await fixture.event("ibuprofen")
            faulty.faults.withLock { $0 = .init(writesFail: true, writeError: .fault) }
            let complete = try await client.executeRequest(uri: "/care/events/toggle", method: .post, headers: ServerFixture.formHeaders,
                                                           body: ServerFixture.form(ServerFixture.fields(event, ["complete": "true"])))
            #expect(complete.status == .internalServerError && complete.headers[.errorID] != nil, "\(complete.status) \(String(buffer: complete.body).prefix(300))")

            // The client's mistakes stay 4xx, naming what: an id that exists 409, an invalid value 422, no such task 404.
            faulty.faults.withLock { $0 = .init() }
            let task = OCKTask(id: "walk", title: "Walk", carePlanUUID: nil, schedule: .dailyAtTime(
                hour: 9, minutes: 0, start: fixture.now, end: nil, text: nil, calendar: fixture.calendar))
            let body = ByteBuffer(bytes: try JSONEncoder().encode(task))
            #expect(try await client.executeRequest(uri: "/api/v1/tasks", method: .post, headers: json, body: body).status == .created)
            #expect(try await client.executeRequest(uri: "/api/v1/tasks", method: .post, headers: json, body: body).status == .conflict)
            #expect(try await client.executeRequest(uri: "/api/v1/tasks/nothing", method: .get, headers: json, body: nil).status == .notFound)
        }
    }
}
