import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import OpenCareKit
import OpenCareKitDirectory
@testable import OpenCareKitServer
import OpenCareKitStore
import OpenCareKitUI
import Synchronization
import Testing

/// A browser's cookies over the in-process test client: what `Set-Cookie` sets is sent back, and forms carry the
/// CSRF token.
final class TestBrowser: Sendable {
    let client: any TestClientProtocol
    private let cookies = Mutex<[String: String]>([:])

    init(_ client: any TestClientProtocol) {
        self.client = client
    }

    func cookie(_ name: String) -> String? { cookies.withLock { $0[name] } }

    @discardableResult
    func send(_ uri: String, _ method: HTTPRequest.Method = .get, form: [String: String]? = nil, formBody: String? = nil,
              headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var headers = extra
        let jar = cookies.withLock { $0 }
        if !jar.isEmpty { headers[.cookie] = jar.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ") }
        var body: ByteBuffer?
        if var form {
            if form["csrf"] == nil { form["csrf"] = jar["ock_csrf"] ?? "" }
            headers[.contentType] = "application/x-www-form-urlencoded"
            body = ServerFixture.form(form)
        } else if let formBody {
            // Fields given as written, repeated names and all; the CSRF token added.
            headers[.contentType] = "application/x-www-form-urlencoded"
            body = ByteBuffer(string: formBody + "&csrf=" + (jar["ock_csrf"] ?? ""))
        }
        let response = try await client.executeRequest(uri: uri, method: method, headers: headers, body: body)
        for header in response.headers[values: .setCookie] {
            let parts = header.split(separator: ";")
            let pair = parts[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard pair.count == 2 else { continue }
            // Expiry is read from the attributes only: a random value may well contain "1970".
            let attributes = parts.dropFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            let expired = attributes.contains("max-age=0") || attributes.contains { $0.hasPrefix("expires=") && $0.contains("1970") }
                || pair[1].isEmpty
            cookies.withLock { $0[pair[0]] = expired ? nil : pair[1] }
        }
        return response
    }

    /// Opens the sign-in page (for its CSRF cookie) and signs in.
    @discardableResult
    func signIn(_ email: String, _ password: String, next: String = "/") async throws -> TestResponse {
        try await send("/sign-in")
        return try await send("/sign-in", .post, form: ["email": email, "password": password, "next": next])
    }
}

@Suite struct AccountRoutesTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let password = "correct horse battery"

    struct Setup {
        let host: CareHost
        let directory: SQLiteCareDirectory
        let record: CareRecordID
    }

    /// A host with Ana, the patient who owns a record, and Ben, who has no access yet (passwords at bcrypt's lowest cost).
    func setup(liveAccessInterval: Duration = .seconds(15), clinicianTwoStep: Bool = false,
               reminders: ReminderConfiguration? = nil, secrets: SecretBox? = nil) async throws -> Setup {
        let directory = try SQLiteCareDirectory(path: nil)
        let hash = try await Passwords.hash(Self.password, cost: 4)
        let ana = CareAccount(email: "ana@example.org", name: "Ana Kim", passwordHash: hash, createdDate: now)
        let ben = CareAccount(email: "ben@example.org", name: "Ben Park", passwordHash: hash, createdDate: now)
        try await directory.addAccount(ana)
        try await directory.addAccount(ben)
        let record = CareRecord(patientName: "Ana Kim", timeZoneIdentifier: "Asia/Seoul", createdDate: now)
        try await directory.addRecord(record, member: CareMembership(record: record.id, account: ana.id, role: .patient, isOwner: true, createdDate: now))
        var configuration = CareHost.Configuration(passwordCost: 4, now: { [now] in now })
        configuration.liveAccessInterval = liveAccessInterval
        configuration.requiresTwoStepForClinicians = clinicianTwoStep
        configuration.reminders = reminders
        configuration.secrets = secrets
        let host = CareHost(directory: directory, configuration: configuration)
        return Setup(host: host, directory: directory, record: record.id)
    }

    /// The app's script on a device keeps its pages and queued changes per account, named by the `ock_account`
    /// cookie: a pseudonym (no email, name or id in it), the same for one account across sessions and another for
    /// another account, readable by the script, set on a record's pages only when missing or another's, and cleared
    /// by signing out.
    @Test func aRecordsPagesNameTheAccountToTheDeviceByAPseudonymThatSignOutClears() async throws {
        let setup = try await setup()
        let base = "/records/\(setup.record)"
        try await setup.directory.setMembership(CareMembership(record: setup.record, account: try #require(try await setup.directory.account(email: "ben@example.org")).id,
                                                           role: .caregiver, isOwner: false, createdDate: now))
        try await Application(router: setup.host.router()).test(.router) { client in
            func pseudonym(_ email: String) async throws -> (String, TestBrowser) {
                let browser = TestBrowser(client)
                let signedIn = try await browser.signIn(email, Self.password)
                // Set at sign-in.
                let header = try #require(signedIn.headers[values: .setCookie].first { $0.hasPrefix("ock_account=") })
                #expect(!header.lowercased().contains("httponly") && header.contains("SameSite=Lax") && header.contains("Path=/"))
                #expect(try await browser.send(base + "/care").status == .ok)
                let value = try #require(browser.cookie("ock_account"))
                #expect(value.count == 16 && value.allSatisfy(\.isHexDigit))
                // Not set again while it is right.
                #expect(try await browser.send(base + "/care").headers[values: .setCookie].allSatisfy { !$0.hasPrefix("ock_account=") })
                return (value, browser)
            }
            let (ana, anasBrowser) = try await pseudonym("ana@example.org")
            let (again, _) = try await pseudonym("ana@example.org")
            let (ben, _) = try await pseudonym("ben@example.org")
            #expect(ana == again && ana != ben)
            let account = try #require(try await setup.directory.account(email: "ana@example.org"))
            for revealing in [account.id.description, "ana", "Ana"] { #expect(!ana.contains(revealing.lowercased())) }
            // Signing out clears it, and so does the sign-in page (where an ended session leads).
            let signOut = try await anasBrowser.send("/sign-out", .post, form: [:])
            #expect(signOut.headers[values: .setCookie].contains { $0.hasPrefix("ock_account=;") && $0.contains("Max-Age=0") })
            #expect(anasBrowser.cookie("ock_account") == nil)
            let ended = try await TestBrowser(client).send("/sign-in", headers: [.cookie: "ock_account=\(ben)"])
            #expect(ended.headers[values: .setCookie].contains { $0.hasPrefix("ock_account=;") && $0.contains("Max-Age=0") })
        }
    }

    @Test func signInMakesANewSessionAndItsErrorsDoNotTellWhichEmailsExist() async throws {
        let setup = try await setup()
        try await Application(router: setup.host.router()).test(.router) { client in
            let browser = TestBrowser(client)
            let known = try await browser.signIn("ana@example.org", "wrong password!")
            let unknown = try await browser.signIn("nobody@example.org", "wrong password!")
            #expect(known.status == .unauthorized && unknown.status == .unauthorized)
            #expect(String(buffer: known.body).contains("The email or password is not right."))
            #expect(String(buffer: known.body) == String(buffer: unknown.body))
            // A session from before sign-in (fixation) is replaced, and the old id no longer works.
            let planted = CSRF.newToken()
            try await setup.directory.setSession(keyHash: DirectorySessionDriver.hash("session." + planted), account: nil,
                                                 value: Data("{}".utf8), expiryDate: now.addingTimeInterval(600), now: now)
            let signedIn = try await TestBrowser(client).signIn("ana@example.org", Self.password)
            #expect(signedIn.status == .seeOther && signedIn.headers[.location] == "/")
            let session = try #require(signedIn.headers[values: .setCookie].first { $0.hasPrefix("ock_session=") })
            #expect(session.contains("HttpOnly") && session.lowercased().contains("samesite=lax"))
            let fixated = TestBrowser(client)
            try await fixated.send("/sign-in")
            let response = try await client.executeRequest(uri: "/sign-in", method: .post, headers: [
                .cookie: "ock_session=\(planted); ock_csrf=\(ServerFixture.token)", .contentType: "application/x-www-form-urlencoded",
            ], body: ServerFixture.form(["email": "ana@example.org", "password": Self.password, "csrf": ServerFixture.token]))
            let issued = try #require(response.headers[values: .setCookie].first { $0.hasPrefix("ock_session=") })
            #expect(!issued.contains(planted))
            #expect(try await setup.directory.session(keyHash: DirectorySessionDriver.hash("session." + planted), now: now) == nil)
        }
        // Failed sign-ins are audited, without the password or the typed email.
        let entries = try await setup.directory.auditEntries(after: 0, limit: 100)
        #expect(entries.filter { $0.draft.detail == "sign-in" && $0.draft.outcome == .denied }.count == 2)
        #expect(entries.allSatisfy { !$0.draft.detail.contains("@") && !$0.draft.detail.contains("wrong") })
    }

    @Test func tenFailuresLockTheAccountAndAnyEmailAlike() async throws {
        let setup = try await setup()
        try await Application(router: setup.host.router()).test(.router) { client in
            let browser = TestBrowser(client)
            for _ in 0..<10 {
                for email in ["ana@example.org", "nobody@example.org"] {
                    let refused = try await browser.signIn(email, "wrong password!")
                    #expect(refused.status == .unauthorized, "\(refused.status) \(String(buffer: refused.body).prefix(2_000))")
                }
            }
            let locked = try await browser.signIn("ana@example.org", Self.password)
            #expect(locked.status == .tooManyRequests)
            #expect(Int(locked.headers[.retryAfter] ?? "") ?? 0 > 0)
            let unknown = try await browser.signIn("nobody@example.org", Self.password)
            #expect(unknown.status == .tooManyRequests)
            #expect(String(buffer: locked.body).contains("Too many failed sign-ins"))
        }
        #expect(try await setup.directory.account(email: "ana@example.org")?.lockedUntil != nil)
    }

    @Test func nextNeverLeavesTheSite() async throws {
        for (next, expected) in [("/records/x/care?date=2026-11-16", "/records/x/care?date=2026-11-16"), ("//evil.example/", "/"),
                                 ("https://evil.example/", "/"), ("/\\evil.example", "/"), ("javascript:alert(1)", "/"),
                                 ("/%0d%0aSet-Cookie:x", "/%0d%0aSet-Cookie:x"), ("/a b", "/")] {
            #expect(SafeRedirect.path(next) == expected, "\(next)")
        }
        let setup = try await setup()
        try await Application(router: setup.host.router()).test(.router) { client in
            let response = try await TestBrowser(client).signIn("ana@example.org", Self.password, next: "//evil.example/steal")
            #expect(response.headers[.location] == "/")
        }
    }

    @Test func formsWithoutTheirTokenChangeNothing() async throws {
        let setup = try await setup()
        try await Application(router: setup.host.router()).test(.router) { client in
            let browser = TestBrowser(client)
            try await browser.signIn("ana@example.org", Self.password)
            for (path, form) in [("/sign-out", [String: String]()), ("/sign-out/everywhere", [:]),
                                 ("/account/password", ["current": Self.password, "new": "another long one", "repeat": "another long one"]),
                                 ("/records/\(setup.record)/sharing/invitations", ["role": "caregiver"])] {
                var forged = form
                forged["csrf"] = String(repeating: "0", count: 64)
                #expect(try await browser.send(path, .post, form: forged).status == .forbidden, "\(path)")
            }
            #expect(try await setup.directory.invitations(of: setup.record).isEmpty)
            #expect(try await browser.send("/account").status == .ok)
        }
    }

    @Test func signingOutEverywhereEndsEverySession() async throws {
        let setup = try await setup()
        try await Application(router: setup.host.router()).test(.router) { client in
            let (phone, laptop) = (TestBrowser(client), TestBrowser(client))
            try await phone.signIn("ana@example.org", Self.password)
            try await laptop.signIn("ana@example.org", Self.password)
            #expect(try await phone.send("/records/\(setup.record)/sharing").status == .ok)
            try await laptop.send("/sign-out/everywhere", .post, form: [:])
            let after = try await phone.send("/records/\(setup.record)/sharing")
            #expect(after.status == .seeOther && after.headers[.location]?.hasPrefix("/sign-in") == true)
        }
    }

    @Test func aNewPasswordAndSigningOutEverywhereRevokeEveryAccessToken() async throws {
        let setup = try await setup()
        let base = "/records/\(setup.record)"
        try await Application(router: setup.host.router()).test(.router) { client in
            let ana = TestBrowser(client)
            try await ana.signIn("ana@example.org", Self.password)
            func newToken() async throws -> String {
                let page = String(buffer: try await ana.send("/account/tokens", .post, form: [
                    "label": "Phone", "record": setup.record.description, "scope": "patient/*.rs"]).body)
                return String(try #require(page.firstMatch(of: #/value="(ock_[0-9a-z]{52})"/#)?.output.1))
            }
            func status(_ secret: String) async throws -> HTTPResponse.Status {
                try await client.executeRequest(uri: base + "/api/v1/tasks", method: .get,
                                                headers: [.authorization: "Bearer \(secret)", .accept: "application/json"], body: nil).status
            }
            // Someone who had the old password made a token: the new password ends it.
            let before = try await newToken()
            #expect(try await status(before) == .ok)
            let changed = try await ana.send("/account/password", .post, form: ["current": Self.password, "new": "another long one",
                                                                                "repeat": "another long one"])
            #expect(changed.status == .ok)
            #expect(try await status(before) == .unauthorized)
            // So does signing out everywhere (a lost phone's token with it).
            let phone = try await newToken()
            #expect(try await status(phone) == .ok)
            try await ana.send("/sign-out/everywhere", .post, form: [:])
            #expect(try await status(phone) == .unauthorized)
            let account = try #require(try await setup.directory.account(email: "ana@example.org"))
            #expect(try await setup.directory.accessTokens(of: account.id).allSatisfy { $0.revokedDate != nil })
        }
    }

    @Test func aNewPasswordVoidsASignInWaitingForItsSecondStep() async throws {
        let setup = try await setup()
        var ana = try #require(try await setup.directory.account(email: "ana@example.org"))
        let secret = TwoStep.newSecret()
        ana.totpSecret = secret
        try await setup.directory.updateAccount(ana)
        let secretKey = secret
        try await Application(router: setup.host.router()).test(.router) { client in
            let secret = secretKey
            // Someone with the old password is at the second step when the person changes it.
            let stranger = TestBrowser(client)
            let first = try await stranger.signIn("ana@example.org", Self.password)
            #expect(first.headers[.location]?.hasPrefix("/sign-in/two-step") == true)
            var changed = try #require(try await setup.directory.account(email: "ana@example.org"))
            changed.passwordHash = try await Passwords.hash("a brand new password", cost: 4)
            try await setup.directory.updateAccount(changed)
            let second = try await stranger.send("/sign-in/two-step", .post, form: ["code": TwoStep.code(secret: secret, at: now), "next": "/"])
            #expect(second.status == .seeOther && second.headers[.location] == "/sign-in")
            #expect(try await stranger.send("/account").status == .seeOther)
            // The person, with the new password and a code, signs in.
            let person = TestBrowser(client)
            _ = try await person.signIn("ana@example.org", "a brand new password")
            let signedIn = try await person.send("/sign-in/two-step", .post, form: ["code": TwoStep.code(secret: secret, at: now.addingTimeInterval(30)),
                                                                                    "next": "/"])
            #expect(signedIn.status == .seeOther && signedIn.headers[.location] == "/")
        }
    }

    @Test func signInsWaitingForTheirSecondStepDoNotEndThePersonsSessions() async throws {
        let setup = try await setup()
        let ana = try #require(try await setup.directory.account(email: "ana@example.org"))
        let driver = DirectorySessionDriver(directory: setup.directory, now: { [now] in now })
        try await driver.set(key: "session.real", value: CareSession(account: ana.id, isComplete: true, signedInDate: now), expires: .seconds(600))
        // Someone with the password alone starts more sign-ins than an account keeps sessions.
        for index in 0...CareDirectoryLimits.sessionsPerAccount {
            try await driver.set(key: "session.half-\(index)", value: CareSession(account: ana.id, isComplete: false, signedInDate: now),
                                 expires: .seconds(600))
        }
        #expect(try await driver.get(key: "session.real", as: CareSession.self)?.isComplete == true)
        #expect(try await driver.get(key: "session.half-0", as: CareSession.self) != nil)
    }

    @Test func aForgedRoleFormCannotMakeASecondPatient() async throws {
        let setup = try await setup()
        let base = "/records/\(setup.record)"
        let ben = try #require(try await setup.directory.account(email: "ben@example.org"))
        try await setup.directory.setMembership(CareMembership(record: setup.record, account: ben.id, role: .caregiver, isOwner: false,
                                                               createdDate: now))
        try await Application(router: setup.host.router()).test(.router) { client in
            let ana = TestBrowser(client)
            try await ana.signIn("ana@example.org", Self.password)
            // The invitation form offers no patient, and refuses one; the role form is refused the same way.
            let invited = try await ana.send(base + "/sharing/invitations", .post, form: ["role": "patient"])
            #expect(invited.status == .unprocessableContent && String(buffer: invited.body).contains("a record has one patient"))
            let forged = try await ana.send(base + "/sharing/members/role", .post, form: ["account": ben.id.description, "role": "patient"])
            #expect(forged.status == .unprocessableContent && String(buffer: forged.body).contains("a record has one patient"))
            #expect(try await setup.directory.membership(record: setup.record, account: ben.id)?.role == .caregiver)
        }
    }

    @Test func anInvitationAddsACaregiverOnceAndTheOwnerCanRemoveHer() async throws {
        let setup = try await setup()
        let base = "/records/\(setup.record)"
        try await Application(router: setup.host.router()).test(.router) { client in
            let ana = TestBrowser(client)
            try await ana.signIn("ana@example.org", Self.password)
            let page = String(buffer: try await ana.send(base + "/sharing/invitations", .post, form: ["role": "caregiver"]).body)
            let link = try #require(page.firstMatch(of: #/value="http://localhost(/invitations/[0-9a-z]{52})"/#)?.output.1)
            // A stranger with the link creates her account and lands in the record.
            let cho = TestBrowser(client)
            let invitation = try await cho.send(String(link))
            #expect(String(buffer: invitation.body).contains("Ana Kim invites you to the care record of Ana Kim as Caregiver."))
            let weak = try await cho.send(String(link), .post, form: ["name": "Cho", "email": "cho@example.org", "password": "short"])
            #expect(weak.status == .unprocessableContent)
            let joined = try await cho.send(String(link), .post, form: ["name": "Cho Lee", "email": "cho@example.org", "password": "a long password"])
            #expect(joined.status == .seeOther && joined.headers[.location] == base + "/care")
            #expect(try await cho.send(base + "/sharing").status == .ok)
            // The link works once.
            let again = TestBrowser(client)
            #expect(try await again.send(String(link)).status == .gone)
            try await again.send("/sign-in")  // a page that sets the CSRF cookie, so the form below is a real one
            #expect(try await again.send(String(link), .post, form: ["name": "Eve", "email": "eve@example.org", "password": "a long password"])
                .status == .gone)
            #expect(try await setup.directory.account(email: "eve@example.org") == nil)
            // A caregiver does not manage sharing.
            #expect(try await cho.send(base + "/sharing/invitations", .post, form: ["role": "clinician"]).status == .forbidden)
            // The owner removes her: her old session no longer opens the record.
            let choID = try #require(try await setup.directory.account(email: "cho@example.org")?.id)
            #expect(try await ana.send(base + "/sharing/members/remove", .post, form: ["account": choID.description]).status == .seeOther)
            #expect(try await cho.send(base + "/sharing").status == .notFound)
            #expect(try await cho.send(base + "/care").status == .notFound)
        }
    }

    @Test func anExpiredInvitationIsRefused() async throws {
        let setup = try await setup()
        let secret = "\(RandomIdentifier.random())\(RandomIdentifier.random())"
        let ana = try #require(try await setup.directory.account(email: "ana@example.org"))
        try await setup.directory.addInvitation(CareInvitation(secretHash: AccessTokens.hash(secret), record: setup.record, role: .caregiver,
                                                               invitedBy: ana.id, createdDate: now.addingTimeInterval(-8 * 86_400),
                                                               expiryDate: now.addingTimeInterval(-86_400)))
        try await Application(router: setup.host.router()).test(.router) { client in
            let ben = TestBrowser(client)
            try await ben.signIn("ben@example.org", Self.password)
            #expect(try await ben.send("/invitations/\(secret)").status == .gone)
            #expect(try await ben.send("/invitations/\(secret)", .post, form: [:]).status == .gone)
            #expect(try await ben.send("/records/\(setup.record)/care").status == .notFound)
        }
    }

    @Test func theOwnerSeesWhoViewedTheRecordAndExportsItAsFHIR() async throws {
        let setup = try await setup()
        let base = "/records/\(setup.record)"
        let ben = try #require(try await setup.directory.account(email: "ben@example.org"))
        try await setup.directory.setMembership(CareMembership(record: setup.record, account: ben.id, role: .clinician, isOwner: false, createdDate: now))
        try await Application(router: setup.host.router()).test(.router) { client in
            let clinician = TestBrowser(client)
            try await clinician.signIn("ben@example.org", Self.password)
            #expect(try await clinician.send(base + "/sharing").status == .ok)
            #expect(try await clinician.send(base + "/activity").status == .forbidden)
            let ana = TestBrowser(client)
            try await ana.signIn("ana@example.org", Self.password)
            let page = String(buffer: try await ana.send(base + "/activity").body)
            #expect(page.contains("Ben Park (ben@example.org)"))
            #expect(page.contains("GET /records/{record}/sharing") && page.contains("GET /records/{record}/activity"))
            let export = try await ana.send(base + "/activity/fhir")
            #expect(export.headers[.contentType] == "application/fhir+json")
            let bundle = try #require(try JSONSerialization.jsonObject(with: Data(buffer: export.body)) as? [String: Any])
            #expect(bundle["resourceType"] as? String == "Bundle")
            let events = try #require(bundle["entry"] as? [[String: Any]]).compactMap { $0["resource"] as? [String: Any] }
            #expect(!events.isEmpty)
            for event in events {
                #expect(event["resourceType"] as? String == "AuditEvent")
                #expect(event["recorded"] is String && event["type"] is [String: Any] && event["source"] is [String: Any])
                #expect((event["agent"] as? [[String: Any]])?.first?["requestor"] as? Bool == true)
            }
            #expect(events.contains { $0["outcome"] as? String == "4" })  // the clinician's refused look at the log
        }
    }

    @Test func anAccessTokenIsShownOnceOpensOnlyItsRecordsAPIWithinItsScopeAndCanBeRevoked() async throws {
        let setup = try await setup()
        let base = "/records/\(setup.record)"
        try await Application(router: setup.host.router()).test(.router) { client in
            let ana = TestBrowser(client)
            try await ana.signIn("ana@example.org", Self.password)
            #expect(try await ana.send("/account/tokens", .post, form: ["label": "Phone", "record": setup.record.description,
                                                                           "scope": "user/*.rs"]).status == .unprocessableContent)
            #expect(try await ana.send("/account/tokens", .post, form: ["label": "Phone", "record": RandomIdentifier.random().description,
                                                                           "scope": "patient/*.rs"]).status == .unprocessableContent)
            let page = String(buffer: try await ana.send("/account/tokens", .post, form: [
                "label": "Phone", "record": setup.record.description, "scope": "patient/*.rs"]).body)
            let secret = try #require(page.firstMatch(of: #/value="(ock_[0-9a-z]{52})"/#)?.output.1)
            // Shown once: the list names it, never the secret again.
            let list = String(buffer: try await ana.send("/account/tokens").body)
            #expect(list.contains("Phone") && !list.contains(String(secret)))
            let bearer: HTTPFields = [.authorization: "Bearer \(secret)", .accept: "application/json"]
            func status(_ uri: String, _ method: HTTPRequest.Method = .get) async throws -> HTTPResponse.Status {
                try await client.executeRequest(uri: uri, method: method, headers: bearer, body: ByteBuffer(string: "{}")).status
            }
            #expect(try await status(base + "/api/v1/tasks") == .ok)
            #expect(try await status(base + "/api/v1/tasks", .post) == .forbidden)  // read-only scope
            #expect(try await status(base + "/care") == .notFound)  // pages are for browsers
            #expect(try await status(base + "/sharing") == .notFound)
            #expect(try await status("/records/\(RandomIdentifier.random())/api/v1/tasks") == .notFound)
            #expect(try await status("/account") == .unauthorized)  // a token is not a session
            let account = try #require(try await setup.directory.account(email: "ana@example.org"))
            let id = try #require(try await setup.directory.accessTokens(of: account.id).first?.id)
            try await ana.send("/account/tokens/revoke", .post, form: ["token": id.description])
            #expect(try await status(base + "/api/v1/tasks") == .unauthorized)
        }
    }

    @Test func aCalendarLinkIsShownOnceOpensOnlyTheCalendarIsAuditedAndCanBeRenewedAndRevoked() async throws {
        let setup = try await setup()
        let record = try #require(try await setup.directory.record(setup.record))
        let server = try #require(try await setup.host.records.server(for: setup.record, load: { record }))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Asia/Seoul"))
        try await server.store.addTask(OCKTask(id: "walk", title: "Evening walk", carePlanUUID: nil,
                                               schedule: .dailyAtTime(hour: 19, minutes: 0, start: now.addingTimeInterval(-86_400 * 3), end: nil,
                                                                      text: nil, calendar: calendar)))
        let ben = try #require(try await setup.directory.account(email: "ben@example.org"))
        try await setup.directory.setMembership(CareMembership(record: setup.record, account: ben.id, role: .caregiver, isOwner: false, createdDate: now))
        try await Application(router: setup.host.router()).test(.router) { client in
            let ana = TestBrowser(client)
            try await ana.signIn("ana@example.org", Self.password)
            #expect(try await ana.send("/account/calendar-feeds", .post, form: ["record": RandomIdentifier.random().description]).status
                    == .unprocessableContent)
            func makeLink(_ browser: TestBrowser) async throws -> String {
                let page = String(buffer: try await browser.send("/account/calendar-feeds", .post, form: ["record": setup.record.description]).body)
                #expect(page.contains("webcal://"))
                return String(try #require(page.firstMatch(of: #/value="https?://[^"/]+(/calendar/ock_[0-9a-z]{52}\.ics)"/#)?.output.1))
            }
            func fetch(_ path: String) async throws -> TestResponse {
                try await client.executeRequest(uri: path, method: .get, headers: [:], body: nil)
            }
            let first = try await makeLink(ana)
            let feed = try await fetch(first)
            #expect(feed.status == .ok && feed.headers[.contentType] == "text/calendar; charset=utf-8")
            let text = String(buffer: feed.body)
            #expect(text.hasPrefix("BEGIN:VCALENDAR\r\n") && text.contains("SUMMARY:Evening walk") && text.contains("TZID=Asia/Seoul"))
            #expect(text.contains("X-WR-CALNAME:Ana Kim"))
            // Shown once; the secret opens nothing else (its scope grants nothing on the API).
            let secret = String(first.dropFirst("/calendar/".count).dropLast(4))
            #expect(!String(buffer: try await ana.send("/account/tokens").body).contains(secret))
            let api = try await client.executeRequest(uri: "/records/\(setup.record)/api/v1/tasks", method: .get,
                                                      headers: [.authorization: "Bearer \(secret)", .accept: "application/json"], body: nil)
            #expect(api.status == .forbidden)
            // A renewed link replaces the old one; a revoked one stops.
            let second = try await makeLink(ana)
            #expect(second != first)
            #expect(try await fetch(first).status == .notFound)
            #expect(try await fetch(second).status == .ok)
            let account = try #require(try await setup.directory.account(email: "ana@example.org"))
            let live = try #require(try await setup.directory.accessTokens(of: account.id).first { $0.revokedDate == nil && $0.scope == "calendar" })
            try await ana.send("/account/tokens/revoke", .post, form: ["token": live.id.description])
            #expect(try await fetch(second).status == .notFound)
            // A person removed from the record: their link stops, and the refusal is in the log.
            let benBrowser = TestBrowser(client)
            try await benBrowser.signIn("ben@example.org", Self.password)
            let bens = try await makeLink(benBrowser)
            #expect(try await fetch(bens).status == .ok)
            try await setup.directory.removeMembership(record: setup.record, account: ben.id)
            #expect(try await fetch(bens).status == .notFound)
            // Secrets that open nothing get the same answer.
            for path in ["/calendar/nothing.ics", "/calendar/" + secret, "/calendar/ock_" + String(repeating: "a", count: 52) + ".ics"] {
                #expect(try await fetch(path).status == .notFound, "\(path)")
            }
        }
        let entries = try await setup.directory.auditEntries(after: 0, limit: 10_000).map(\.draft).filter { $0.resource == "calendar-feed" }
        #expect(entries.filter { $0.action == .read && $0.outcome == .allowed }.count == 3)
        #expect(entries.contains { $0.action == .read && $0.outcome == .denied && $0.account == ben.id })
        #expect(entries.filter { $0.action == .create }.map(\.detail) == ["calendar link created", "calendar link renewed", "calendar link created"])
        #expect(entries.allSatisfy { $0.detail.contains("ock_") == false })
    }

    @Test func aLiveStreamEndsWhenItsPersonIsRemoved() async throws {
        let setup = try await setup(liveAccessInterval: .milliseconds(100))
        let ben = try #require(try await setup.directory.account(email: "ben@example.org"))
        try await setup.directory.setMembership(CareMembership(record: setup.record, account: ben.id, role: .caregiver, isOwner: false, createdDate: now))
        try await Application(router: setup.host.router()).test(.router) { client in
            let browser = TestBrowser(client)
            try await browser.signIn("ben@example.org", Self.password)
            try await withThrowingTaskGroup(of: String?.self) { group in
                group.addTask { String(buffer: try await browser.send("/records/\(setup.record)/care/live").body) }
                group.addTask {
                    try await Task.sleep(for: .seconds(20))
                    return nil
                }
                // Once the stream follows the record, Ben is removed.
                while true {
                    if setup.host.records.isOpen(setup.record),
                       let server = try await setup.host.records.server(for: setup.record, load: { nil }),
                       await !server.hub.subscriberCounts.isEmpty { break }
                    try await Task.sleep(for: .milliseconds(10))
                }
                try await setup.directory.removeMembership(record: setup.record, account: ben.id)
                let first = try await group.next() ?? nil
                group.cancelAll()
                let body = try #require(first, "the stream outlived the membership")
                #expect(body.hasPrefix("retry: 1000"))
            }
        }
    }

    /// The secret behind a typed base-32 key.
    static func secret(fromKey key: String) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var bits = 0, value = 0, bytes: [UInt8] = []
        for character in key where character != " " {
            value = value << 5 | (alphabet.firstIndex(of: character) ?? 0)
            bits += 5
            if bits >= 8 {
                bytes.append(UInt8(value >> (bits - 8) & 0xFF))
                bits -= 8
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func secretsAreSealedWithAKeyOutsideTheDirectory() async throws {
        let key = SymmetricKey(size: .bits256)
        let setup = try await setup(secrets: SecretBox(key: key))
        try await Application(router: setup.host.router()).test(.router) { client in
            let ana = TestBrowser(client)
            try await ana.signIn("ana@example.org", Self.password)
            let page = String(buffer: try await ana.send("/account/two-step").body)
            let typed = try #require(page.firstMatch(of: #/<code id="two-step-key">([A-Z2-7 ]+)</code>/#)?.output.1)
            let secret = Self.secret(fromKey: String(typed))
            #expect(try await ana.send("/account/two-step/confirm", .post, form: ["code": TwoStep.code(secret: secret, at: now)]).status == .ok)
            try await ana.send("/sign-out", .post, form: [:])
            // The directory holds the key sealed; the person signs in with the app's codes all the same.
            let stored = try #require(try await setup.directory.account(email: "ana@example.org")?.totpSecret)
            #expect(SecretBox.isSealed(stored) && !stored.contains(secret))
            #expect(try SecretBox(key: key).open(stored) == secret)
            let phone = TestBrowser(client)
            try await phone.signIn("ana@example.org", Self.password)
            let second = try await phone.send("/sign-in/two-step", .post, form: ["code": TwoStep.code(secret: secret, at: now.addingTimeInterval(30)), "next": "/"])
            #expect(second.status == .seeOther)
            // So are the shared values made meanwhile (the log's pseudonym key, at the first request).
            let logKey = try await setup.directory.sharedValue(named: "log-key", orKeep: "", now: now)
            #expect(SecretBox.isSealed(logKey))
        }
        // Under another key a sealed value does not open; a value stored before sealing opens as it is.
        #expect(throws: SecretBox.OpenError.self) { try SecretBox(key: SymmetricKey(size: .bits256)).open(try SecretBox(key: key).seal("x")) }
        #expect(try SecretBox(key: key).open("stored before") == "stored before")
    }

    @Test func twoStepSignInAsksForACodeAndARecoveryCodeWorksOnce() async throws {
        let setup = try await setup()
        let base = "/records/\(setup.record)"
        try await Application(router: setup.host.router()).test(.router) { client in
            let ana = TestBrowser(client)
            try await ana.signIn("ana@example.org", Self.password)
            let page = String(buffer: try await ana.send("/account/two-step").body)
            #expect(page.contains(#"<svg aria-label="QR code for your authenticator app""#) || page.contains("QR code for your authenticator app"))
            let key = try #require(page.firstMatch(of: #/<code id="two-step-key">([A-Z2-7 ]+)</code>/#)?.output.1)
            let secret = Self.secret(fromKey: String(key))
            #expect(secret.count == 32)
            #expect(try await ana.send("/account/two-step/confirm", .post, form: ["code": "000000"]).status == .unprocessableContent)
            let confirmed = String(buffer: try await ana.send("/account/two-step/confirm", .post,
                                                              form: ["code": TwoStep.code(secret: secret, at: now)]).body)
            let codes = confirmed.matches(of: #/<code>([0-9a-z]{5}-[0-9a-z]{5})</code>/#).map { String($0.output.1) }
            #expect(codes.count == 10)
            try await ana.send("/sign-out", .post, form: [:])

            // The password alone opens only the second step.
            let phone = TestBrowser(client)
            let first = try await phone.signIn("ana@example.org", Self.password, next: base + "/care")
            #expect(first.headers[.location]?.hasPrefix("/sign-in/two-step") == true)
            #expect(try await phone.send(base + "/care").status == .seeOther)
            #expect(try await phone.send("/sign-in/two-step", .post, form: ["code": "123456", "next": base + "/care"]).status == .unauthorized)
            // The code that turned it on was taken then; the app's next one signs in, once.
            #expect(try await phone.send("/sign-in/two-step", .post, form: ["code": TwoStep.code(secret: secret, at: now), "next": "/"]).status
                    == .unauthorized)
            let next = TwoStep.code(secret: secret, at: now.addingTimeInterval(30))
            let second = try await phone.send("/sign-in/two-step", .post, form: ["code": next, "next": base + "/care"])
            #expect(second.status == .seeOther && second.headers[.location] == base + "/care")
            #expect(try await phone.send(base + "/sharing").status == .ok)
            let replay = TestBrowser(client)
            try await replay.signIn("ana@example.org", Self.password)
            #expect(try await replay.send("/sign-in/two-step", .post, form: ["code": next, "next": "/"]).status == .unauthorized)

            // A recovery code signs in once.
            for expected in [HTTPResponse.Status.seeOther, .unauthorized] {
                let lost = TestBrowser(client)
                try await lost.signIn("ana@example.org", Self.password)
                let answer = try await lost.send("/sign-in/two-step", .post, form: ["code": codes[0].uppercased(), "next": "/"])
                #expect(answer.status == expected)
            }
        }
    }

    @Test func aServerCanRequireTwoStepSignInOfClinicians() async throws {
        let setup = try await setup(clinicianTwoStep: true)
        let ben = try #require(try await setup.directory.account(email: "ben@example.org"))
        try await setup.directory.setMembership(CareMembership(record: setup.record, account: ben.id, role: .clinician, isOwner: false, createdDate: now))
        try await Application(router: setup.host.router()).test(.router) { client in
            let clinician = TestBrowser(client)
            try await clinician.signIn("ben@example.org", Self.password)
            let care = try await clinician.send("/records/\(setup.record)/care")
            #expect(care.status == .seeOther && care.headers[.location] == "/account/two-step?required=1")
            #expect(try await clinician.send("/account/two-step?required=1").status == .ok)
            // The patient is not a clinician: nothing is asked of her.
            let patient = TestBrowser(client)
            try await patient.signIn("ana@example.org", Self.password)
            #expect(try await patient.send("/records/\(setup.record)/sharing").status == .ok)
        }
    }

    @Test func theTokenAndTwoStepPagesSpeakKorean() async throws {
        let setup = try await setup()
        try await Application(router: setup.host.router()).test(.router) { client in
            let ana = TestBrowser(client)
            try await ana.signIn("ana@example.org", Self.password)
            let korean: HTTPFields = [.acceptLanguage: "ko"]
            let tokens = try await ana.send("/account/tokens", headers: korean)
            #expect(tokens.status == .ok)
            let tokensPage = String(buffer: tokens.body)
            #expect(tokensPage.contains(AccountText.tokensTitle.korean) && tokensPage.contains(AccountText.makeTokenHeading.korean))
            #expect(!tokensPage.contains("Access tokens"))
            let twoStep = try await ana.send("/account/two-step", headers: korean)
            #expect(twoStep.status == .ok)
            let twoStepPage = String(buffer: twoStep.body)
            #expect(twoStepPage.contains("2단계 로그인 켜기") && twoStepPage.contains(AccountText.qrLabel.korean))
            #expect(!twoStepPage.contains("Turn on two-step sign-in"))
            // The account page links to both in Korean too.
            let account = String(buffer: try await ana.send("/account", headers: korean).body)
            #expect(account.contains("JSON API용 액세스 토큰") && account.contains("2단계 로그인: 꺼짐"))
            // English readers still get English.
            #expect(String(buffer: try await ana.send("/account/tokens").body).contains("Access tokens"))
        }
    }

    @Test func everyAccountTextHasBothLanguagesWithTheSamePlaceholders() {
        let placeholders = { (text: String) in Set((0..<4).filter { text.contains("{\($0)}") }) }
        for key in AccountText.allCases {
            #expect(!key.english.isEmpty && !key.korean.isEmpty, "\(key)")
            #expect(placeholders(key.korean) == placeholders(key.english), "\(key)")
            #expect(key.text(.english) == key.english && key.text(.korean) == key.korean, "\(key)")
        }
        #expect(AccountText.tooManyTokens.text(.korean, "20") == "먼저 토큰을 취소하세요(최대 20개).")
    }
}

@Suite struct RecordPoolAndAdoptionTests {
    @Test func thePoolKeepsTheMostRecentlyUsedRecordsOpen() async throws {
        let opened = Mutex(0)
        let directory = try SQLiteCareDirectory(path: nil)
        let pool = CareRecordPool(capacity: 2) { record in
            opened.withLock { $0 += 1 }
            return CareServer(store: OCKStore(name: "pool-\(record.id)", type: .inMemory), directory: directory, record: record.id,
                              watchesExternalChanges: false)
        }
        let records = (0..<3).map { _ in CareRecord(patientName: "P", timeZoneIdentifier: "UTC", createdDate: .now) }
        for record in records { _ = try await pool.server(for: record.id, load: { record }) }
        #expect(pool.openCount == 2 && !pool.isOpen(records[0].id) && pool.isOpen(records[2].id))
        _ = try await pool.server(for: records[1].id, load: { records[1] })  // used: now the most recent
        _ = try await pool.server(for: records[0].id, load: { records[0] })  // reopened: the least recent (2) goes
        #expect(pool.isOpen(records[1].id) && !pool.isOpen(records[2].id))
        #expect(opened.withLock { $0 } == 4)
        #expect(try await pool.server(for: .random(), load: { nil }) == nil)
    }

    @Test func aStoreFromBeforeRecordsIsAdoptedInPlaceOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "adopt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = CareDataDirectory(path: folder.path)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let legacy = OCKStore(name: "opencarekit", type: .onDisk(), directory: folder)
        try legacy.open()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Seoul")!
        try await OCKDemoCarePlan(calendar: calendar, start: calendar.startOfDay(for: .now)).seed(into: legacy)
        let tasks = try await legacy.fetchTasks(query: OCKTaskQuery()).count
        let directory = try data.openDirectory()
        let adopted = try #require(try await data.adoptLegacyStore(into: directory, timeZone: calendar.timeZone, now: .now))
        #expect(adopted.storeName == "opencarekit" && adopted.patientName == "Alex Rivera" && adopted.timeZoneIdentifier == "Asia/Seoul")
        #expect(try await data.adoptLegacyStore(into: directory, timeZone: calendar.timeZone, now: .now) == nil)
        #expect(try await directory.members(of: adopted.id).isEmpty)
        // The record opens the same file: nothing moved, nothing lost.
        let store = try data.store(for: adopted)
        #expect(try await store.fetchTasks(query: OCKTaskQuery()).count == tasks)
        #expect(store.fileURL?.lastPathComponent == "opencarekit.sqlite")
    }
}
