import Foundation
import OpenCareKitDirectory
import Synchronization
import Logging
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import OpenCareKit
@testable import OpenCareKitServer
import OpenCareKitStore
import OpenCareKitSurveys
import Testing

/// A server on an in-memory store with the demo plan, at noon on Monday 2026-11-16 in Seoul.
struct ServerFixture {
    let store: OCKStore
    let calendar: Calendar
    let now: Date
    let configuration: CareServer.Configuration
    static let token = String(repeating: "ab", count: 32)
    static let cookie: HTTPFields = [.cookie: "ock_csrf=\(token)"]

    /// - Parameters:
    ///   - surveys: Whether the app runs the demo's surveys, with onboarding gating the feed.
    ///   - store: The record's store; by default a new one in memory.
    init(surveys: Bool = false, store: OCKStore? = nil) {
        self.store = store ?? OCKStore(name: "server-\(UUID().uuidString)", type: .inMemory)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Seoul")!
        self.calendar = calendar
        let now = calendar.date(from: DateComponents(year: 2026, month: 11, day: 16, hour: 12))!
        self.now = now
        var configuration = CareServer.Configuration(
            timeZone: calendar.timeZone, cardStyles: OCKDemoCarePlan.cardStyles, insights: OCKDemoCarePlan.insights,
            surveys: surveys ? OCKDemoSurveys.byTaskID : [:], onboardingTaskID: surveys ? OCKDemoSurveys.onboardingTaskID : nil,
            now: { now })
        // As every record has it (CarePlanCatalog): the surveys a task can name.
        configuration.surveyCatalog = CarePlanCatalog.surveys
        self.configuration = configuration
    }

    func seed() async throws {
        try await OCKDemoCarePlan(calendar: calendar, start: calendar.date(byAdding: .day, value: -6, to: calendar.startOfDay(for: now))!)
            .seed(into: store)
    }

    /// Seeds the demo plan, then runs `body` against the app as `serve` runs it, signed in as the record's patient.
    func test(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await seed()
        try await hosted().test(body)
    }

    /// The app on this fixture's store, as one record of a host; `configuration` replaces the fixture's.
    func hosted(_ configuration: CareServer.Configuration? = nil, role: CareRole = .patient) -> TestHost {
        TestHost(fixture: self, configuration: configuration ?? self.configuration, role: role)
    }

    /// The event of `taskID` today at `index`.
    func event(_ taskID: String, _ index: Int = 0, daysFromToday: Int = 0) async throws -> OCKEvent<OCKTask, OCKOutcome> {
        let day = calendar.date(byAdding: .day, value: daysFromToday, to: now)!
        var query = OCKEventQuery(for: day, calendar: calendar)
        query.taskIDs = [taskID]
        let events = try await store.fetchEvents(query: query)
        return events[index]
    }

    /// Finishes the demo's onboarding on its event `daysFromToday` away, the consent signed as the demo's patient
    /// signs it (the plan's other outcomes can be recorded after it).
    @discardableResult
    func onboard(daysFromToday: Int = 0) async throws -> OCKOutcome {
        let event = try await event(OCKDemoSurveys.onboardingTaskID, daysFromToday: daysFromToday)
        return try await store.addOutcome(OCKOutcome(taskUUID: event.task.uuid, taskOccurrenceIndex: event.scheduleEvent.occurrence,
                                                     values: try OCKDemoSurveys.signedOnboarding(signerName: "Alex Rivera", at: now)))
    }

    static func form(_ fields: [String: String]) -> ByteBuffer {
        ByteBuffer(string: fields.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            .joined(separator: "&"))
    }

    static func fields(_ event: OCKEvent<OCKTask, OCKOutcome>, _ extra: [String: String] = [:]) -> [String: String] {
        ["task": event.task.uuid.uuidString, "occurrence": "\(event.scheduleEvent.occurrence)", "date": "2026-11-16",
         "csrf": token].merging(extra) { $1 }
    }

    static var formHeaders: HTTPFields {
        var headers = cookie
        headers[.contentType] = "application/x-www-form-urlencoded"
        return headers
    }
}

/// A host with one record on a fixture's store and one person with `role` in it, signed in.
struct TestHost {
    let fixture: ServerFixture
    let configuration: CareServer.Configuration
    let role: CareRole
    let record = CareRecordID.random()
    let session = CSRF.newToken()

    /// The record's pages start with this.
    var base: String { "/records/\(record)" }

    func makeHost() async throws -> CareHost {
        host(on: try await preparedDirectory())
    }

    /// A new directory in memory, prepared (`prepare`), for hosts to share.
    func preparedDirectory() async throws -> SQLiteCareDirectory {
        let directory = try SQLiteCareDirectory(path: nil)
        try await prepare(directory)
        return directory
    }

    /// Adds the record, its person and their session to `directory`.
    func prepare(_ directory: any CareDirectory) async throws {
        let now = fixture.now
        let account = CareAccount(email: "\(role.rawValue)@example.org", name: "Person", passwordHash: "-", createdDate: now)
        try await directory.addAccount(account)
        try await directory.addRecord(CareRecord(id: record, patientName: "Patient", timeZoneIdentifier: fixture.calendar.timeZone.identifier,
                                                 createdDate: now),
                                      member: CareMembership(record: record, account: account.id, role: role, isOwner: role != .clinician,
                                                             createdDate: now))
        try await directory.setSession(keyHash: DirectorySessionDriver.hash("session." + session), account: account.id,
                                       value: try JSONEncoder().encode(CareSession(account: account.id, isComplete: true, signedInDate: now)),
                                       expiryDate: now.addingTimeInterval(3600), now: now)
    }

    /// A host (an app server) of the record on `directory`, which `prepare` made ready; several may share one.
    func host(on directory: any CareDirectory, configuration: CareServer.Configuration? = nil) -> CareHost {
        let store = fixture.store, configuration = configuration ?? self.configuration
        return CareHost(directory: directory, configuration: .init(allowedHosts: configuration.allowedHosts,
                                                                   publicOrigin: configuration.publicOrigin, passwordCost: 4,
                                                                   now: configuration.now),
                        openStore: { _ in store }, recordConfiguration: { _ in configuration })
    }

    /// Runs `body` with a client whose record paths (`/care`, `/api/v1/tasks` …) go to the record, signed in.
    func test(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let host = try await makeHost()
        try await test(host, body)
    }

    /// Runs `body` with a client of `host` whose record paths go to the record, signed in.
    func test(_ host: CareHost, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let (base, session) = (self.base, self.session)
        try await Application(router: host.router()).test(.router) { client in
            try await body(RecordClient(client: client, base: base, session: session))
        }
    }
}

/// Sends the record's paths under its base, with the session cookie.
struct RecordClient: TestClientProtocol {
    let client: any TestClientProtocol
    let base: String
    let session: String

    static let hostPaths = ["/records/", "/healthz", "/assets/", "/manifest.webmanifest", "/service-worker.js", "/api/openapi.json", "/sign-in", "/sign-out", "/account", "/session/", "/schemas/", "/templates/"]

    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        let path = Self.hostPaths.contains { uri.hasPrefix($0) } ? uri : uri == "/" ? base : base + uri
        var headers = headers
        var cookies = (headers[.cookie].map { [$0] } ?? []) + ["\(CareHost.sessionCookie)=\(session)"]
        // A script of the app's pages sends a body that is not a form (JSON, or none) with the reader's CSRF token in
        // a header (the gate asks for it on every unsafe method with a session); a test of the refusal sends its own
        // request.
        let isForm = headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true
        if ![.get, .head].contains(method), !isForm, headers[CSRF.headerName] == nil, headers[.authorization] == nil {
            if !cookies.contains(where: { $0.contains("ock_csrf=") }) { cookies.append("ock_csrf=\(ServerFixture.token)") }
            headers[CSRF.headerName] = ServerFixture.token
        }
        headers[.cookie] = cookies.joined(separator: "; ")
        return try await client.executeRequest(uri: path, method: method, headers: headers, body: body)
    }

    var port: Int? { client.port }
}

extension TestClientProtocol {
    /// The record's base path when this is a `RecordClient`.
    var recordBase: String { (self as? RecordClient)?.base ?? "" }
}

/// Keeps every log line (message and metadata) of the app, for a test to find an error id in, or to scan.
final class LogLines: Sendable {
    let lines = Mutex<[(message: String, metadata: [String: String])]>([])

    /// One logger's handler: its own metadata, lines kept by `lines`.
    struct Handler: LogHandler {
        let log: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            log.lines.withLock { $0.append(("\(event.message)", all.mapValues { "\($0)" })) }
        }
    }

    /// A logger whose lines this keeps.
    var logger: Logger { Logger(label: "test") { [self] _ in Handler(log: self) } }

    /// The lines with `message`.
    func lines(_ message: String) -> [[String: String]] {
        lines.withLock { $0.filter { $0.message == message }.map(\.metadata) }
    }
}
