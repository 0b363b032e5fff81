import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import OpenCareKit
import OpenCareKitDirectory
@testable import OpenCareKitServer
import OpenCareKitStore
import Testing

/// Imports, reports, FHIR exports and searches are heavy work: bounded per person and for the server, refused at once
/// with 503 and `Retry-After` beyond, while `/healthz` and pages keep answering.
@Suite struct HeavyWorkTests {
    /// Holds a heavy-work slot for `person` until the returned gate is opened.
    static func hold(_ heavyWork: HeavyWork, for person: String) async -> (task: Task<Void, any Error>, open: @Sendable () -> Void) {
        let (gate, opener) = AsyncStream<Void>.makeStream()
        let before = heavyWork.running
        let task = Task { try await heavyWork.run(for: person) { for await _ in gate {} } }
        await heavyWork.waitUntilRunning(before + 1)
        return (task, { opener.finish() })
    }

    @Test func aPersonsSecondHeavyRequestAndOneBeyondTheServersAreRefusedAtOnceWhileHealthzAnswers() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let world = try await AuthorizationTests().makeWorld(fixture)
        let heavyWork = world.host.heavyWork
        let patient = try #require(try await world.directory.members(of: world.record).first { $0.membership.role == .patient }).account.id
        let base = "/records/\(world.record)"
        try await Application(router: world.host.router()).test(.router) { client in
            func send(_ uri: String, _ asker: AuthorizationTests.Asker, method: HTTPRequest.Method = .get, body: String? = nil) async throws -> TestResponse {
                var headers: HTTPFields = [:]
                if let token = world.tokens[asker] { headers[.authorization] = "Bearer \(token)" }
                if let session = world.sessions[asker] { headers[.cookie] = "ock_session=\(session)" }
                if body != nil { headers[.contentType] = "application/fhir+json" }
                return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
            }
            #expect(try await send(base + "/reports", .patient).status == .ok)

            // The patient has an import running: her report, her export, her token's search and another import wait.
            let held = await Self.hold(heavyWork, for: patient.description)
            for (name, response) in [
                ("report", try await send(base + "/reports", .patient)),
                ("export", try await send(base + "/fhir/export", .patient)),
                ("search", try await send("/fhir/R4/Observation?patient=\(world.record)", .tokenReadAll)),
                ("import", try await send("/records/import", .patient, method: .post, body: "{}")),
            ] {
                #expect(response.status == .serviceUnavailable, "\(name): \(response.status)")
                #expect(response.headers[.retryAfter] == String(HeavyWork.retryAfter), "\(name)")
            }
            #expect(String(buffer: try await send(base + "/reports", .patient).body).contains("try again in a few seconds"))
            // Pages and /healthz do not wait for it.
            #expect(try await send("/healthz", .nobody).status == .ok)
            #expect(try await send(base + "/care", .patient).status == .ok)
            #expect(heavyWork.running == 1)

            // The server's slots all taken (by others): the caregiver's report waits too.
            var others: [(task: Task<Void, any Error>, open: @Sendable () -> Void)] = []
            for index in 1..<heavyWork.overall { others.append(await Self.hold(heavyWork, for: "other-\(index)")) }
            #expect(try await send(base + "/reports", .caregiver).status == .serviceUnavailable)
            #expect(try await send("/healthz", .nobody).status == .ok)

            // Once they end, everyone's heavy work runs again.
            for hold in others + [held] {
                hold.open()
                try await hold.task.value
            }
            #expect(heavyWork.running == 0)
            #expect(try await send(base + "/reports", .caregiver).status == .ok)
            #expect(try await send(base + "/reports", .patient).status == .ok)
        }
    }

    @Test func anAccountOwnsABoundedNumberOfRecordsAndAnImportBeyondWritesNothing() async throws {
        let directory = try SQLiteCareDirectory(path: nil)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let ana = CareAccount(email: "ana@example.org", name: "Ana", passwordHash: "-", createdDate: now)
        try await directory.addAccount(ana)
        for _ in 0..<CareDirectoryLimits.recordsPerAccount {
            let record = CareRecord(patientName: "Ana", timeZoneIdentifier: "UTC", createdDate: now)
            try await directory.addRecord(record, member: CareMembership(record: record.id, account: ana.id, role: .patient, isOwner: true,
                                                                         createdDate: now))
        }
        let extra = CareRecord(patientName: "Ana", timeZoneIdentifier: "UTC", createdDate: now)
        await #expect(throws: CareDirectoryError.self) {
            try await directory.addRecord(extra, member: CareMembership(record: extra.id, account: ana.id, role: .caregiver, isOwner: true,
                                                                        createdDate: now))
        }
        #expect(try await directory.record(extra.id) == nil)
        // An import is refused before it reads the Bundle.
        let session = CSRF.newToken()
        try await directory.setSession(keyHash: DirectorySessionDriver.hash("session." + session), account: ana.id,
                                       value: try JSONEncoder().encode(CareSession(account: ana.id, isComplete: true, signedInDate: now)),
                                       expiryDate: now.addingTimeInterval(3600), now: now)
        let host = CareHost(directory: directory, configuration: .init(passwordCost: 4, now: { now }))
        try await Application(router: host.router()).test(.router) { client in
            let response = try await client.execute(uri: "/records/import", method: .post,
                                                    headers: [.cookie: "ock_session=\(session)", .contentType: "application/fhir+json"],
                                                    body: ByteBuffer(string: "{}"))
            #expect(response.status == .forbidden)
            #expect(String(buffer: response.body).contains("at most \(CareDirectoryLimits.recordsPerAccount) records"))
        }
        #expect(try await directory.recordCount() == CareDirectoryLimits.recordsPerAccount)
    }
}
