import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import OpenCareKit
import OpenCareKitDirectory
@testable import OpenCareKitServer
import OpenCareKitStore
import Testing

/// Deny by default: every route has a policy, and each role, stranger and token gets what its policy says — and no
/// refusal carries the record's data.
@Suite struct AuthorizationTests {
    /// The only routes anyone may reach without signing in.
    static let publicRoutes: Set<String> = [
        "GET /healthz", "GET /assets/opencarekit.css", "GET /assets/opencarekit.js", "GET /assets/app.js",
        "GET /assets/surveys.js", "GET /assets/outbox.js", "GET /assets/icon.svg", "GET /api/openapi.json", "GET /sign-in", "POST /sign-in",
        "POST /sign-in/demo", "GET /invitations/{secret}", "POST /invitations/{secret}",
        "GET /sign-in/two-step", "POST /sign-in/two-step",
        // The care plan template format and the built-in templates: no record's data.
        "GET /schemas/care-plan-template-1.json", "GET /templates/knee-recovery.json", "GET /templates/hypertension-follow-up.json",
        "GET /templates/wound-care.json",
        // The service worker that keeps the app shell and shows pushed reminders (the same script for everyone;
        // reminders arrive encrypted), the web app's manifest and its icons.
        "GET /service-worker.js", "GET /manifest.webmanifest", "GET /assets/icon-192.png", "GET /assets/icon-512.png",
        "GET /assets/icon-maskable-192.png", "GET /assets/icon-maskable-512.png",
    ]

    /// A catalog key with its parameters written `{name}` (the router writes `:name`).
    static func normalized(_ key: String) -> String {
        key.replacing(#/:(\w+)/#) { "{\($0.output.1)}" }
    }

    @Test func everyRouteHasAPolicyAndOnlyTheShortListIsPublic() throws {
        let host = CareHost(directory: try SQLiteCareDirectory(path: nil))
        let (router, catalog) = host.makeRouter()
        #expect(HostRoutes.unguardedRoutes(of: router, catalog: catalog).isEmpty)
        #expect(Set(catalog.filter { $0.value == .public }.keys.map(Self.normalized)) == Self.publicRoutes)
        for (route, access) in catalog {
            if case .record = access { #expect(Self.normalized(route).contains(" /records/{record}/") || Self.normalized(route).hasSuffix(" /records/{record}"), "\(route)") }
        }
        // Every route of a record's own table is registered behind the check.
        #expect(catalog.values.filter { if case .record = $0 { true } else { false } }.count >= host.recordRoutes.count)
        // A route added straight to the router, without a policy, is caught.
        router.get("/records/:record/leak") { _, _ in "data" }
        let unguarded = HostRoutes.unguardedRoutes(of: router, catalog: catalog)
        #expect(!unguarded.isEmpty && unguarded.allSatisfy { $0.hasSuffix("/leak") })
    }

    /// Unsafe routes outside any record whose body is not a form: a FHIR Bundle (which a page of another site cannot
    /// send without asking first, and `SameOriginMiddleware` refuses). It refuses a form body. Every record route
    /// passes the record gate's CSRF check instead, whatever its body.
    static let nonFormRoutes: Set<String> = ["POST /records/import"]

    @Test func everyUnsafeRouteRefusesAFormWithoutItsCSRFToken() async throws {
        // Walks the router: a new unsafe route that forgets the token fails here.
        let fixture = ServerFixture(surveys: true)
        try await fixture.seed()
        try await fixture.onboard(daysFromToday: -1)
        let world = try await makeWorld(fixture)
        let (router, catalog) = world.host.makeRouter()
        // Forms send GET and POST only; another site's page sends PUT or DELETE only after a CORS preflight, which this
        // server never grants (and `SameOriginMiddleware` refuses its Origin).
        let unsafe = catalog.keys.filter { $0.hasPrefix("POST ") }.sorted()
        #expect(unsafe.count >= 40, "\(unsafe.count)")
        let session = try #require(world.sessions[.patient])
        let cookies: HTTPFields = [.cookie: "ock_session=\(session); ock_csrf=\(ServerFixture.token)", .contentType: "application/x-www-form-urlencoded"]
        try await Application(router: router).test(.router) { client in
            // A survey in progress, so that its step's route is reached.
            let checkIn = try await fixture.event("check-in")
            let started = try await client.execute(uri: "/records/\(world.record)/surveys/start", method: .post, headers: cookies,
                                                   body: ServerFixture.form(ServerFixture.fields(checkIn)))
            let survey = try #require(started.headers[.location]?.split(separator: "/").last.map(String.init))
            for route in unsafe {
                let parts = route.split(separator: " ", maxSplits: 1)
                let method = HTTPRequest.Method(String(parts[0]))!
                let path = Self.normalized(String(parts[1])).replacing(#/\{(\w+)\}/#) { match in
                    switch match.output.1 {
                    case "record": world.record.description
                    case "id" where route.contains("/surveys/"): survey
                    default: UUID().uuidString
                    }
                }
                // The owner (or, for the care team's own work, a clinician), signed in, with the CSRF cookie but a form that
                // does not carry it back.
                let session = try #require(world.sessions[Self.allowedAsker(catalog[route])])
                let response = try await client.execute(uri: path, method: method, headers: [
                    .cookie: "ock_session=\(session); ock_csrf=\(ServerFixture.token)", .contentType: "application/x-www-form-urlencoded",
                ], body: ByteBuffer(string: "task=\(UUID().uuidString)&occurrence=0&date=2026-11-16&complete=true&role=caregiver"))
                if Self.nonFormRoutes.contains(Self.normalized(route)) {
                    #expect([.badRequest, .unsupportedMediaType].contains(response.status), "\(route): \(response.status)")
                } else {
                    #expect(response.status == .forbidden, "\(route): \(response.status)")
                }
                guard route.contains("/records/{record}/") else { continue }
                try await expectJSONRefused(client, path: path, method: method, session: session, route: route)
            }
            // Every other unsafe method (no form sends one) of a record: the gate asks for the header too.
            let others = catalog.keys.filter { key in ["PUT ", "DELETE ", "PATCH "].contains { key.hasPrefix($0) } }.sorted()
            #expect(others.count >= 3, "\(others)")
            for route in others {
                let parts = route.split(separator: " ", maxSplits: 1)
                let path = Self.normalized(String(parts[1])).replacing(#/\{(\w+)\}/#) { match in
                    match.output.1 == "record" ? world.record.description : UUID().uuidString
                }
                try await expectJSONRefused(client, path: path, method: HTTPRequest.Method(String(parts[0]))!, session: session, route: route)
            }
        }
    }

    /// Who of the world may reach a route: the patient who owns the record, unless only clinicians may.
    static func allowedAsker(_ access: RouteAccess?) -> Asker {
        guard case let .record(policy)? = access else { return .patient }
        return expectedRefusal(.patient, policy) == nil ? .patient : .clinician
    }

    /// A JSON body (or none) with the session needs the token in `X-CSRF-Token`: refused without, and with another's.
    func expectJSONRefused(_ client: any TestClientProtocol, path: String, method: HTTPRequest.Method, session: String,
                           route: String) async throws {
        for token in [nil, CSRF.newToken()] {
            var headers: HTTPFields = [.cookie: "ock_session=\(session); ock_csrf=\(ServerFixture.token)", .contentType: "application/json",
                                       .accept: "application/json"]
            headers[CSRF.headerName] = token
            let json = try await client.execute(uri: path, method: method, headers: headers, body: ByteBuffer(string: "{}"))
            #expect(json.status == .forbidden && String(buffer: json.body).contains("\"csrf\""), "\(route) JSON: \(json.status)")
        }
    }

    /// The reader's own token passes the gate, in the form or in the header; a request with an access token needs none
    /// (a browser never sends one on its own).
    @Test func theReadersTokenPassesTheGate() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let world = try await makeWorld(fixture)
        let ibuprofen = try await fixture.event("ibuprofen")
        let session = try #require(world.sessions[.patient]), token = try #require(world.tokens[.tokenEverything])
        try await Application(router: world.host.router()).test(.router) { client in
            let base = "/records/\(world.record)"
            let form = try await client.execute(uri: base + "/care/events/toggle", method: .post, headers: [
                .cookie: "ock_session=\(session); ock_csrf=\(ServerFixture.token)", .contentType: "application/x-www-form-urlencoded",
            ], body: ServerFixture.form(ServerFixture.fields(ibuprofen, ["complete": "true"])))
            #expect(form.status == .seeOther, "\(form.status)")
            #expect(try await fixture.event("ibuprofen").outcome != nil)
            // A form without the token is refused, and the audit log says so (after the authorization's entry).
            let forged = try await client.execute(uri: base + "/care/events/toggle", method: .post, headers: [
                .cookie: "ock_session=\(session); ock_csrf=\(ServerFixture.token)", .contentType: "application/x-www-form-urlencoded",
            ], body: ByteBuffer(string: "task=\(ibuprofen.task.uuid)&occurrence=0&date=2026-11-16&complete=false"))
            #expect(forged.status == .forbidden)
            let entries = try await world.directory.auditEntries(record: world.record, resource: "outcome", limit: 2)
            #expect(entries.first?.draft.outcome == .denied && entries.first?.draft.detail.contains("no CSRF token") == true,
                    "\(entries.map(\.draft))")
            #expect(entries.dropFirst().first?.draft.outcome == .allowed)
            let outcome = try #require(try await fixture.event("ibuprofen").outcome)
            let json = try await client.execute(uri: base + "/api/v1/outcomes/\(outcome.uuid)", method: .delete, headers: [
                .cookie: "ock_session=\(session); ock_csrf=\(ServerFixture.token)", CSRF.headerName: ServerFixture.token,
            ])
            #expect(json.status == .noContent, "\(json.status)")
            let again = try await client.execute(uri: base + "/care/events/toggle", method: .post, headers: [
                .cookie: "ock_session=\(session); ock_csrf=\(ServerFixture.token)", .contentType: "application/x-www-form-urlencoded",
            ], body: ServerFixture.form(ServerFixture.fields(ibuprofen, ["complete": "true"])))
            #expect(again.status == .seeOther)
            let second = try #require(try await fixture.event("ibuprofen").outcome)
            let bearer = try await client.execute(uri: base + "/api/v1/outcomes/\(second.uuid)", method: .delete,
                                                  headers: [.authorization: "Bearer \(token)"])
            #expect(bearer.status == .noContent, "\(bearer.status)")
        }
    }

    /// Who asks, in the matrix.
    enum Asker: String, CaseIterable {
        case nobody, stranger, patient, caregiver, clinician, otherPatient
        case tokenReadAll, tokenEverything, tokenObservations, tokenOtherRecord
    }

    struct World {
        let host: CareHost
        let directory: SQLiteCareDirectory
        let record: CareRecordID
        let sessions: [Asker: String]
        let tokens: [Asker: String]
    }

    func makeWorld(_ fixture: ServerFixture) async throws -> World {
        let directory = try SQLiteCareDirectory(path: nil)
        let now = fixture.now
        let (record, other) = (CareRecordID.random(), CareRecordID.random())
        var sessions: [Asker: String] = [:], tokens: [Asker: String] = [:], accounts: [Asker: CareAccountID] = [:]
        for asker in [Asker.stranger, .patient, .caregiver, .clinician, .otherPatient] {
            let account = CareAccount(email: "\(asker.rawValue.lowercased())@example.org", name: asker.rawValue, passwordHash: "-", createdDate: now)
            try await directory.addAccount(account)
            accounts[asker] = account.id
            let session = CSRF.newToken()
            try await directory.setSession(keyHash: DirectorySessionDriver.hash("session." + session), account: account.id,
                                           value: try JSONEncoder().encode(CareSession(account: account.id, isComplete: true, signedInDate: now)),
                                           expiryDate: now.addingTimeInterval(3600), now: now)
            sessions[asker] = session
        }
        func member(_ asker: Asker, _ role: CareRole, of id: CareRecordID, owner: Bool = false) -> CareMembership {
            CareMembership(record: id, account: accounts[asker]!, role: role, isOwner: owner, createdDate: now)
        }
        try await directory.addRecord(CareRecord(id: record, patientName: "Alex Rivera", timeZoneIdentifier: "Asia/Seoul", createdDate: now),
                                      member: member(.patient, .patient, of: record, owner: true))
        try await directory.setMembership(member(.caregiver, .caregiver, of: record))
        try await directory.setMembership(member(.clinician, .clinician, of: record))
        try await directory.addRecord(CareRecord(id: other, patientName: "Other", timeZoneIdentifier: "Asia/Seoul", createdDate: now),
                                      member: member(.otherPatient, .patient, of: other, owner: true))
        for (asker, scope, id, owner) in [(Asker.tokenReadAll, "patient/*.rs", record, Asker.patient),
                                          (.tokenEverything, "patient/*.cruds", record, .patient),
                                          (.tokenObservations, "patient/Observation.rs", record, .patient),
                                          (.tokenOtherRecord, "patient/*.cruds", other, .otherPatient)] {
            let secret = AccessTokens.make()
            try await directory.addAccessToken(CareAccessToken(secretHash: AccessTokens.hash(secret), account: accounts[owner]!,
                                                               record: id, scope: scope, label: asker.rawValue, createdDate: now))
            tokens[asker] = secret
        }
        let store = fixture.store, configuration = fixture.configuration
        let host = CareHost(directory: directory, configuration: .init(passwordCost: 4, now: configuration.now),
                            openStore: { _ in store }, recordConfiguration: { _ in configuration })
        return World(host: host, directory: directory, record: record, sessions: sessions, tokens: tokens)
    }

    /// What the policy says `asker` gets on a route with `policy`: nil when the route's own handler answers.
    static func expectedRefusal(_ asker: Asker, _ policy: RecordRoutePolicy) -> HTTPResponse.Status? {
        let isAPI = policy.tokenAccess != nil
        switch asker {
        case .nobody: return isAPI ? .unauthorized : .seeOther
        case .stranger, .otherPatient, .tokenOtherRecord: return .notFound
        case .patient:
            // The patient owns the record: everything but the care team's own work.
            let owner = CareMembership(record: .random(), account: .random(), role: .patient, isOwner: true, createdDate: .now)
            return policy.permission.isGranted(to: owner) ? nil : .forbidden
        case .caregiver, .clinician:
            let membership = CareMembership(record: .random(), account: .random(), role: asker == .caregiver ? .caregiver : .clinician,
                                            isOwner: false, createdDate: .now)
            return policy.permission.isGranted(to: membership) ? nil : .forbidden
        case .tokenReadAll, .tokenEverything, .tokenObservations:
            guard let access = policy.tokenAccess else { return .notFound }
            let scope = asker == .tokenReadAll ? "patient/*.rs" : asker == .tokenEverything ? "patient/*.cruds" : "patient/Observation.rs"
            return SMARTScope.allows(try! SMARTScope.parseList(scope), access) ? nil : .forbidden
        }
    }

    @Test func theRoleAndRouteMatrix() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let world = try await makeWorld(fixture)
        let ibuprofen = try await fixture.event("ibuprofen")
        // Every record route of the host: the record's own table and the host's (sharing, activity).
        let routes: [(method: HTTPRequest.Method, path: String, policy: RecordRoutePolicy)] = world.host.makeRouter().catalog
            .compactMap { key, access in
                guard case let .record(policy) = access else { return nil }
                let parts = Self.normalized(key).split(separator: " ", maxSplits: 1).map(String.init)
                return (HTTPRequest.Method(parts[0])!, parts[1], policy)
            }.sorted { ($0.path, $0.method.rawValue) < ($1.path, $1.method.rawValue) }
        #expect(routes.count > world.host.recordRoutes.count)
        try await Application(router: world.host.router()).test(.router) { client in
            for route in routes {
                let path = route.path.replacingOccurrences(of: "{record}", with: world.record.description)
                    .replacingOccurrences(of: "{id}", with: "ibuprofen").replacingOccurrences(of: "{uuid}", with: UUID().uuidString)
                    .replacingOccurrences(of: "{outcome}", with: UUID().uuidString)
                for asker in Asker.allCases {
                    // The reader's CSRF token: in the form, or in the header for a JSON body.
                    var headers: HTTPFields = [.accept: "text/html", CSRF.headerName: ServerFixture.token]
                    var cookies = ["ock_csrf=\(ServerFixture.token)"]
                    if let session = world.sessions[asker] { cookies.append("ock_session=\(session)") }
                    headers[.cookie] = cookies.joined(separator: "; ")
                    if let token = world.tokens[asker] { headers[.authorization] = "Bearer \(token)" }
                    let isForm = route.method == .post && route.policy.tokenAccess == nil
                    headers[.contentType] = isForm ? "application/x-www-form-urlencoded" : "application/json"
                    let body = isForm ? ServerFixture.form(ServerFixture.fields(ibuprofen, ["complete": "true"])) : ByteBuffer(string: "{}")
                    let expected = Self.expectedRefusal(asker, route.policy)
                    // Live streams would stay open: only their refusals are asked for here (their answers are tested with SSE).
                    if expected == nil, route.path.hasSuffix("/live") || route.path.hasSuffix("/live/changes") { continue }
                    try await client.execute(uri: path, method: route.method, headers: headers, body: body) { response in
                        let text = String(buffer: response.body)
                        let cell = "\(asker.rawValue) \(route.method) \(route.path)"
                        if let expected {
                            #expect(response.status == expected, "\(cell): \(response.status)")
                            // A refusal carries nothing of the record.
                            for secret in ["Alex", "Rivera", "Ibuprofen", "ibuprofen", "Okafor"] {
                                #expect(!text.contains(secret), "\(cell) leaks \(secret)")
                            }
                        } else {
                            #expect(![HTTPResponse.Status.unauthorized, .forbidden].contains(response.status), "\(cell): \(response.status)")
                            #expect(!text.contains("no such care record") && !text.contains("does not allow"), "\(cell)")
                        }
                    }
                }
            }
        }
        // Every refusal of a signed-in person or a token is in the audit log.
        let entries = try await world.directory.auditEntries(after: 0, limit: 100_000)
        #expect(entries.contains { $0.draft.outcome == .denied && $0.draft.record == world.record })
        #expect(try await world.directory.verifyAuditLog().isIntact)
    }
}
