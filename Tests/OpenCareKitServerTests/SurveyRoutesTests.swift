import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import OpenCareKit
@testable import OpenCareKitServer
import OpenCareKitDirectory
import OpenCareKitStore
import OpenCareKitSurveys
import Synchronization
import Testing

/// A browser's walk through a survey: starting it from its card, posting each step, following redirects.
struct SurveyWalker {
    let client: any TestClientProtocol
    var cookie = ServerFixture.cookie
    var token = ServerFixture.token

    /// A 1×1 PNG, as a canvas's `toDataURL` gives.
    static let png = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="

    /// A form body from pairs, names repeating for checkboxes.
    static func body(_ pairs: [(String, String)]) -> ByteBuffer {
        ByteBuffer(string: pairs.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            .joined(separator: "&"))
    }

    var headers: HTTPFields {
        var headers = cookie
        headers[.contentType] = "application/x-www-form-urlencoded"
        return headers
    }

    /// Posts "Start survey" for `event` and returns the survey's address.
    func start(_ event: OCKEvent<OCKTask, OCKOutcome>) async throws -> String {
        var fields = ServerFixture.fields(event)
        fields["csrf"] = token
        return try await client.execute(uri: "/surveys/start", method: .post, headers: headers,
                                        body: Self.body(fields.sorted { $0.key < $1.key })) { response in
            #expect(response.status == .seeOther)
            return response.headers[.location] ?? ""
        }
    }

    /// Posts one step; returns the status, the redirect and the page.
    @discardableResult
    func post(_ survey: String, step: String, action: String = "next", _ fields: [(String, String)] = [])
        async throws -> (status: HTTPResponse.Status, location: String?, html: String) {
        try await client.execute(uri: survey, method: .post, headers: headers,
                                 body: Self.body([("csrf", token), ("step", step), ("action", action)] + fields)) { response in
            (response.status, response.headers[.location], String(buffer: response.body))
        }
    }

    func get(_ uri: String) async throws -> (status: HTTPResponse.Status, html: String) {
        try await client.execute(uri: uri, method: .get, headers: cookie) { response in
            (response.status, String(buffer: response.body))
        }
    }

    /// Walks the demo onboarding, drawing the signature or not, with notifications skipped; returns the final
    /// redirect.
    func onboard(_ fixture: ServerFixture, drawn: Bool = true) async throws -> String? {
        let survey = try await start(try await fixture.event("onboarding"))
        try await walkToLastStep(survey, drawn: drawn)
        return try await post(survey, step: "completion").location
    }

    /// Walks the demo onboarding `survey` to its last step ("completion"), unsubmitted.
    func walkToLastStep(_ survey: String, drawn: Bool = true) async throws {
        try await post(survey, step: "welcome")
        try await post(survey, step: "before-you-join")
        try await post(survey, step: "consent-review", [("version", "1.0")])
        try await post(survey, step: "signature", [("fullName", "Alex Rivera"), ("agree", "true")] + (drawn ? [("signature", Self.png)] : []))
        try await post(survey, step: "notifications", action: "skip")
    }
}

/// A store engine in front of another that fails on demand, as a database that goes down does: before a write, after
/// a write committed (its acknowledgement lost), or on every read.
final class FaultyEngine: OCKStoreEngine {
    struct Faults {
        var writesFail = false
        var writesFailAfterCommitting = false
        var readsFail = false
        /// What a failing read throws: the database unreachable, or any other failure (a full disk, a busy file).
        var readError = SQLFailure.Kind.unavailable
        /// What a failing write throws.
        var writeError = SQLFailure.Kind.unavailable
        /// Once a write fails after committing, reads fail too (the database went away then).
        var readsFailAfterCommit = false
    }

    let base: any OCKStoreEngine
    let faults = Mutex(Faults())

    init(_ base: any OCKStoreEngine) { self.base = base }

    /// A store in memory behind a faulty engine, and the engine to set its faults.
    static func store() throws -> (OCKStore, FaultyEngine) {
        let engine = Mutex<FaultyEngine?>(nil)
        let store = OCKStore.inMemory(name: "faulty-\(UUID().uuidString)") { base in
            let faulty = FaultyEngine(base)
            engine.withLock { $0 = faulty }
            return faulty
        }
        return (store, try #require(engine.withLock { $0 }))
    }

    static func unavailable() -> SQLFailure { SQLFailure(.unavailable, "the test's database is down") }

    var dialect: SQLDialect { base.dialect }
    var fileURL: URL? { base.fileURL }
    var isSharedByServers: Bool { base.isSharedByServers }
    func open() throws { try base.open() }
    func delete() throws { try base.delete() }
    func checkIntegrity() throws -> [String] { try base.checkIntegrity() }
    func describe(_ error: any Error) -> String { base.describe(error) }
    func writeSynchronously(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Void) throws { try base.writeSynchronously(body) }
    func checkForExternalChanges(announce: @Sendable () -> Void) async throws -> Bool { try await base.checkForExternalChanges(announce: announce) }
    func followExternalChanges(every interval: Duration, announce: @escaping @Sendable () -> Void) async {
        await base.followExternalChanges(every: interval, announce: announce)
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let faults = self.faults.withLock { $0 }
        if faults.readsFail { throw SQLFailure(faults.readError, "the test's database failed") }
        return try await base.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let faults = self.faults.withLock { $0 }
        if faults.writesFail { throw SQLFailure(faults.writeError, "the test's database failed") }
        let result = try await base.write(body)
        if faults.writesFailAfterCommitting {
            self.faults.withLock { $0.readsFail = $0.readsFailAfterCommit }
            throw Self.unavailable()
        }
        return result
    }
}

@Suite struct SurveyRoutesTests {
    @Test func onboardingGatesTheFeedAndKeepsTheSignedConsent() async throws {
        let fixture = ServerFixture(surveys: true)
        try await fixture.test { client in
            let walker = SurveyWalker(client: client)
            for day in ["", "?date=2026-11-12"] {
                let care = try await walker.get("/care\(day)").html
                #expect(care.contains(#"id="task-onboarding""#) && !care.contains(#"id="task-ibuprofen""#))
                #expect(care.contains("Finish onboarding to see your care plan.") && care.contains("Start survey"))
                #expect(!care.contains("/consent"))
            }
            // Nothing but the onboarding changes before it, and its outcome comes only from its survey.
            let ibuprofen = try await fixture.event("ibuprofen")
            try await client.execute(uri: "/care/events/toggle", method: .post, headers: ServerFixture.formHeaders,
                                     body: ServerFixture.form(ServerFixture.fields(ibuprofen, ["complete": "true"]))) { response in
                #expect(response.status == .conflict)
            }
            let onboarding = try await fixture.event("onboarding")
            try await client.execute(uri: "/care/events/toggle", method: .post, headers: ServerFixture.formHeaders,
                                     body: ServerFixture.form(ServerFixture.fields(onboarding, ["complete": "true"]))) { response in
                #expect(response.status == .unprocessableContent)
            }

            // The steps, in order, with their progress.
            let survey = try await walker.start(onboarding)
            #expect(survey.hasPrefix(client.recordBase + "/surveys/"))
            let first = try await walker.get(survey).html
            #expect(first.contains("Step 1 of 6") && first.contains("Welcome") && !first.contains(#"value="back""#))
            #expect(first.contains(#"src="/assets/surveys.js""#) && !first.contains("ock-tab-bar"))
            #expect(try await walker.post(survey, step: "welcome").location == survey)
            let before = try await walker.get(survey).html
            #expect(before.contains("Step 2 of 6") && before.components(separatedBy: "class=\"ock-body-item\"").count - 1 == 4)
            try await walker.post(survey, step: "before-you-join")
            let review = try await walker.get(survey).html
            #expect(review.contains("Informed Consent") && review.contains("<details class=\"ock-learn-more\">"))
            try await walker.post(survey, step: "consent-review", [("version", "1.0")])
            let signature = try await walker.get(survey).html
            #expect(signature.contains("<canvas") && signature.contains(#"name="agree""#) && signature.contains(#"name="fullName""#))
            try await walker.post(survey, step: "signature", [("fullName", "Alex Rivera"), ("agree", "true"), ("signature", SurveyWalker.png)])
            let permissions = try await walker.get(survey).html
            #expect(permissions.contains("data-ock-permission=\"notifications\"") && permissions.contains(#"value="skip""#))
            try await walker.post(survey, step: "notifications", [("permission.notifications", "granted")])
            let completion = try await walker.get(survey).html
            #expect(completion.contains("Step 6 of 6") && completion.contains("Enrollment complete") && completion.contains(">Done<"))
            // Nothing is saved before the last step.
            #expect(try await fixture.event("onboarding").outcome == nil)
            #expect(try await walker.post(survey, step: "completion").location == client.recordBase + "/care?date=2026-11-16#task-onboarding")

            // The feed opens; the consent is kept with its hash, signer, date and drawing.
            let care = try await walker.get("/care").html
            #expect(care.contains(#"id="task-ibuprofen""#) && !care.contains(#"id="task-onboarding""#))
            #expect(care.contains(#"href="\#(client.recordBase)/consent""#) && !care.contains("Finish onboarding"))
            let outcome = try #require(try await fixture.event("onboarding").outcome)
            let consent = try #require(OCKSignedConsent(values: outcome.values))
            #expect(consent.signerName == "Alex Rivera" && consent.documentVersion == "1.0" && consent.signedDate == fixture.now)
            #expect(consent.textSHA256 == OCKSignedConsent.sha256(OCKDemoSurveys.consent.text) && consent.isIntact)
            let png = try #require(Data(base64Encoded: String(SurveyWalker.png.dropFirst("data:image/png;base64,".count))))
            #expect(consent.signatureImage == png)
            #expect(outcome.values.contains { $0.kind == "permission.notifications" && $0.booleanValue == true })

            let page = try await walker.get("/consent").html
            #expect(page.contains("Alex Rivera") && page.contains(consent.textSHA256) && page.contains("Informed Consent, version 1.0"))
            let image = "/consent/\(outcome.uuid.uuidString)/signature.png"
            #expect(page.contains(image) && page.contains("/consent/\(outcome.uuid.uuidString)/download"))
            try await client.execute(uri: image, method: .get) { response in
                #expect(response.headers[.contentType] == "image/png" && Data(buffer: response.body) == png)
            }
            try await client.execute(uri: "/consent/\(outcome.uuid.uuidString)/download", method: .get) { response in
                #expect(response.headers[.contentDisposition] == "attachment; filename=\"consent-1.0-2026-11-16.html\"")
                let document = String(buffer: response.body)
                #expect(document.hasPrefix("<!DOCTYPE html>") && document.contains(SurveyWalker.png))
                #expect(document.contains("Alex Rivera") && document.contains(consent.textSHA256) && document.contains("Taking part is voluntary"))
            }
            try await client.execute(uri: "/consent/\(UUID().uuidString)/download", method: .get) { response in
                #expect(response.status == .notFound)
            }
            // The onboarding's answers are never deleted from the app.
            let done = try await fixture.event("onboarding")
            #expect(try await walker.get("/care/events/survey/delete?task=\(done.task.uuid)&occurrence=\(done.scheduleEvent.occurrence)&date=2026-11-16").status == .notFound)
            try await client.execute(uri: "/care/events/survey/delete", method: .post, headers: ServerFixture.formHeaders,
                                     body: ServerFixture.form(ServerFixture.fields(done))) { response in
                #expect(response.status == .unprocessableContent)
            }
            #expect(try await fixture.event("onboarding").outcome != nil)
        }
    }

    /// Two app servers on one directory and one store (as behind a load balancer): each step may reach either, and the
    /// survey carries on.
    @Test func aSurveyInProgressIsCarriedOnByWhicheverAppServerTakesTheStep() async throws {
        let fixture = ServerFixture(surveys: true)
        try await fixture.seed()
        let hosted = fixture.hosted()
        let directory = try await hosted.preparedDirectory()
        try await hosted.test(hosted.host(on: directory)) { a in
            try await hosted.test(hosted.host(on: directory)) { b in
                let one = SurveyWalker(client: a), two = SurveyWalker(client: b)
                let survey = try await one.start(try await fixture.event("onboarding"))
                #expect(try await two.get(survey).html.contains("Step 1 of 6"))
                #expect(try await two.post(survey, step: "welcome").location == survey)
                #expect(try await one.get(survey).html.contains("Step 2 of 6"))
                try await one.post(survey, step: "before-you-join")
                try await two.post(survey, step: "consent-review", [("version", "1.0")])
                try await one.post(survey, step: "signature", [("fullName", "Alex Rivera"), ("agree", "true"), ("signature", SurveyWalker.png)])
                // Back on the other server, the answers so far are there.
                try await two.post(survey, step: "notifications", action: "back")
                #expect(try await two.get(survey).html.contains(#"value="Alex Rivera""#))
                try await one.post(survey, step: "signature", [("fullName", "Alex Rivera"), ("agree", "true"), ("signature", SurveyWalker.png)])
                // A second start on the other server continues this survey; another browser's start is its own.
                #expect(try await two.start(try await fixture.event("onboarding")) == survey)
                var stranger = SurveyWalker(client: b)
                stranger.token = String(repeating: "cd", count: 32)
                stranger.cookie = [.cookie: "ock_csrf=\(stranger.token)"]
                #expect(try await stranger.get(survey).status == .notFound)
                #expect(try await stranger.post(survey, step: "notifications", action: "skip").status == .notFound)
                try await two.post(survey, step: "notifications", action: "skip")
                #expect(try await fixture.event("onboarding").outcome == nil)
                #expect(try await one.post(survey, step: "completion").location?.hasSuffix("/care?date=2026-11-16#task-onboarding") == true)

                // Saved once, with the drawing; a replay on either server is told it was submitted.
                let outcome = try #require(try await fixture.event("onboarding").outcome)
                let consent = try #require(OCKSignedConsent(values: outcome.values))
                #expect(consent.signerName == "Alex Rivera" && consent.signatureImage != nil)
                for walker in [one, two] {
                    let replay = try await walker.post(survey, step: "completion")
                    #expect(replay.status == .conflict && replay.html.contains("already submitted"))
                }
                // What the directory keeps of a finished survey is that it finished: no answers.
                let id = String(survey.split(separator: "/").last ?? "")
                let kept = try #require(try await directory.surveySession(id: id, record: hosted.record, now: fixture.now))
                #expect(kept.status == .finished && kept.value.isEmpty)
            }
        }
    }

    @Test func finishingASurveyWhoseSaveFailsLosesNoAnswer() async throws {
        let (store, faulty) = try FaultyEngine.store()
        let fixture = ServerFixture(surveys: true, store: store)
        let clock = Mutex(fixture.now)
        var configuration = fixture.configuration
        configuration.now = { clock.withLock { $0 } }
        try await fixture.seed()
        let hosted = fixture.hosted(configuration)
        let directory = try await hosted.preparedDirectory()
        try await hosted.test(hosted.host(on: directory)) { client in
            let walker = SurveyWalker(client: client)
            func kept(_ survey: String) async throws -> CareSurveySession {
                let id = String(survey.split(separator: "/").last ?? "")
                return try #require(try await directory.surveySession(id: id, record: hosted.record, now: clock.withLock { $0 }))
            }
            func signer() async throws -> [String] {
                try await fixture.store.fetchOutcomes(query: OCKOutcomeQuery()).compactMap { OCKSignedConsent(values: $0.values)?.signerName }
            }
            var survey = try await walker.start(try await fixture.event("onboarding"))
            try await walker.walkToLastStep(survey)

            // The write fails before anything is written: the last step comes back, the answers are kept open.
            faulty.faults.withLock { $0.writesFail = true }
            var reply = try await walker.post(survey, step: "completion")
            #expect(reply.status == .serviceUnavailable && reply.html.contains("could not be saved") && reply.html.contains("Step 6 of 6"))
            var session = try await kept(survey)
            #expect(session.status == .open && !session.value.isEmpty)
            #expect(try await signer().isEmpty)

            // The write commits but its acknowledgement is lost: the answers are found saved, once.
            faulty.faults.withLock { $0 = .init(writesFailAfterCommitting: true) }
            reply = try await walker.post(survey, step: "completion")
            #expect(reply.status == .seeOther && reply.location?.hasSuffix("/care?date=2026-11-16#task-onboarding") == true)
            #expect(try await signer() == ["Alex Rivera"])
            session = try await kept(survey)
            #expect(session.status == .finished && session.value.isEmpty)
            faulty.faults.withLock { $0 = .init() }

            // The database goes away during the save, before the outcome is known: the answers stay in the directory.
            for committed in [false, true] {
                if let outcome = try await fixture.event("check-in").outcome { try await fixture.store.deleteOutcome(outcome) }
                survey = try await walker.start(try await fixture.event("check-in"))
                try await walker.post(survey, step: "pain", [("answer", "6")])
                try await walker.post(survey, step: "sleep", [("answer", "7")])
                faulty.faults.withLock {
                    // Not committed: reads fail with something other than "unavailable", which says nothing of the answers.
                    $0 = committed ? .init(writesFailAfterCommitting: true, readsFailAfterCommit: true)
                        : .init(writesFail: true, readsFail: true, readError: .other)
                }
                reply = try await walker.post(survey, step: "exercises", [("answer", "false")])
                #expect(reply.status == .serviceUnavailable)
                session = try await kept(survey)
                #expect(session.status == .saving && !session.value.isEmpty)
                faulty.faults.withLock { $0 = .init() }
                // Starting the survey again from its card leads back to it.
                if !committed { #expect(try await walker.start(try await fixture.event("check-in")) == survey) }
                // While its save may still be running, it is said to be saving; once that cannot be, it is settled by
                // what the store holds.
                reply = try await walker.post(survey, step: "exercises", [("answer", "false")])
                #expect(reply.status == .conflict && reply.html.contains("being saved"))
                clock.withLock { $0 += CareServer.savingGrace + 1 }
                let page = try await walker.get(survey)
                if committed {
                    #expect(page.status == .seeOther)
                    #expect(try await kept(survey).status == .finished)
                } else {
                    #expect(page.html.contains("could not be saved") && page.html.contains("Step 3 of 3"))
                    #expect(try await kept(survey).status == .open)
                    reply = try await walker.post(survey, step: "exercises", [("answer", "false")])
                    #expect(reply.status == .seeOther)
                }
                let answers = try await fixture.event("check-in").outcome?.values.compactMap(\.kind)
                #expect(answers == ["pain", "sleep", "exercises"])
                #expect(try await kept(survey).value.isEmpty)
            }
        }
    }

    @Test func aSurveyThatCanNoLongerBeResumedDoesNotBlockStartingAgain() async throws {
        let fixture = ServerFixture(surveys: true)
        try await fixture.seed()
        let hosted = fixture.hosted()
        let directory = try await hosted.preparedDirectory()
        try await hosted.test(hosted.host(on: directory)) { client in
            let walker = SurveyWalker(client: client)
            let survey = try await walker.start(try await fixture.event("onboarding"))
            let id = String(survey.split(separator: "/").last ?? "")
            // What the directory keeps of it no longer fits the survey (an older app's, or damaged).
            #expect(try await directory.setSurveySession(id: id, record: hosted.record, from: .open, to: .open, value: Data("{}".utf8),
                                                         expiryDate: fixture.now.addingTimeInterval(3600)))
            #expect(try await walker.get(survey).status == .notFound)
            let again = try await walker.start(try await fixture.event("onboarding"))
            #expect(again != survey)
            #expect(try await walker.get(again).html.contains("Step 1 of 6"))
            #expect(try await directory.surveySession(id: id, record: hosted.record, now: fixture.now)?.status == .discarded)
        }
    }

    @Test func badInputIsRefusedClearlyAndNothingIsSaved() async throws {
        let fixture = ServerFixture(surveys: true)
        try await fixture.test { client in
            let walker = SurveyWalker(client: client)
            #expect(try await walker.onboard(fixture) != nil)
            let checkIn = try await fixture.event("check-in")
            let survey = try await walker.start(checkIn)

            var reply = try await walker.post(survey, step: "pain", [("answer", "11")])
            #expect(reply.status == .unprocessableContent && reply.html.contains("The answer must be from 0 to 10."))
            #expect(reply.html.contains(#"role="alert""#) && reply.html.contains("Step 1 of 3"))
            reply = try await walker.post(survey, step: "pain")
            #expect(reply.status == .unprocessableContent && reply.html.contains("This step needs an answer."))
            reply = try await walker.post(survey, step: "pain", [("answer", "six")])
            #expect(reply.status == .unprocessableContent && reply.html.contains("must be a whole number"))
            reply = try await walker.post(survey, step: "forged", [("answer", "6")])
            #expect(reply.status == .badRequest && reply.html.contains("a step this survey does not have"))
            reply = try await walker.post(survey, step: "pain", action: "explode", [("answer", "6")])
            #expect(reply.status == .badRequest)
            // Another browser cannot use the session.
            var stranger = walker
            stranger.token = String(repeating: "cd", count: 32)
            stranger.cookie = [.cookie: "ock_csrf=\(stranger.token)"]
            #expect(try await stranger.post(survey, step: "pain", [("answer", "6")]).status == .notFound)
            #expect(try await stranger.get(survey).status == .notFound)

            #expect(try await walker.post(survey, step: "pain", [("answer", "6")]).location == survey)
            // A stale page (the browser's back button) is refused and shows the current step.
            reply = try await walker.post(survey, step: "pain", [("answer", "2")])
            #expect(reply.status == .conflict && reply.html.contains("Step 2 of 3"))
            reply = try await walker.post(survey, step: "sleep", [("answer", "25")])
            #expect(reply.status == .unprocessableContent && reply.html.contains("from 0 to 24"))
            try await walker.post(survey, step: "sleep", [("answer", "7.5")])
            // Back keeps the answers.
            try await walker.post(survey, step: "exercises", action: "back")
            let back = try await walker.get(survey).html
            #expect(back.contains("Step 2 of 3") && back.contains(#"value="7.5""#))
            try await walker.post(survey, step: "sleep", [("answer", "7.5")])
            reply = try await walker.post(survey, step: "exercises", [("answer", "maybe")])
            #expect(reply.status == .unprocessableContent)
            #expect(try await fixture.event("check-in").outcome == nil)
            reply = try await walker.post(survey, step: "exercises", [("answer", "true")])
            #expect(reply.location == client.recordBase + "/care?date=2026-11-16#task-check-in")
            // A replay is told apart and saves nothing twice.
            reply = try await walker.post(survey, step: "exercises", [("answer", "false")])
            #expect(reply.status == .conflict && reply.html.contains("already submitted"))
            let values = try #require(try await fixture.event("check-in").outcome?.values)
            #expect(values.map(\.kind) == ["pain", "sleep", "exercises"])
            #expect(values[0].integerValue == 6 && values[1].doubleValue == 7.5 && values[1].units == "hours" && values[2].booleanValue == true)
            // A done survey does not start again.
            var fields = ServerFixture.fields(try await fixture.event("check-in"))
            fields["csrf"] = walker.token
            try await client.execute(uri: "/surveys/start", method: .post, headers: walker.headers,
                                     body: ServerFixture.form(fields)) { response in
                #expect(response.status == .conflict)
            }
            #expect(try await walker.post("/surveys/" + String(repeating: "0", count: 64), step: "pain").status == .notFound)
        }
    }

    @Test func aCancelledSurveyAndABadSignatureSaveNothing() async throws {
        let fixture = ServerFixture(surveys: true)
        try await fixture.test { client in
            let walker = SurveyWalker(client: client)
            let survey = try await walker.start(try await fixture.event("onboarding"))
            try await walker.post(survey, step: "welcome")
            try await walker.post(survey, step: "before-you-join")
            var reply = try await walker.post(survey, step: "consent-review", [("version", "0.9")])
            #expect(reply.status == .unprocessableContent && reply.html.contains("current version"))
            try await walker.post(survey, step: "consent-review", [("version", "1.0")])
            reply = try await walker.post(survey, step: "signature", [("fullName", "Alex Rivera"), ("signature", SurveyWalker.png)])
            #expect(reply.status == .unprocessableContent && reply.html.contains("I agree"))
            // What was typed and drawn comes back with the error.
            #expect(reply.html.contains(#"value="Alex Rivera""#) && reply.html.contains(SurveyWalker.png))
            reply = try await walker.post(survey, step: "signature", [("agree", "true")])
            #expect(reply.status == .unprocessableContent && reply.html.contains("This step needs an answer."))
            reply = try await walker.post(survey, step: "signature", [("fullName", "Alex"), ("agree", "true"),
                                                                     ("signature", "data:image/svg+xml;base64,PHN2Zz4=")])
            #expect(reply.status == .unprocessableContent && reply.html.contains("PNG"))
            let big = "data:image/png;base64," + (Data([0x89, 0x50, 0x4E, 0x47]) + Data(count: 300 * 1024)).base64EncodedString()
            reply = try await walker.post(survey, step: "signature", [("fullName", "Alex"), ("agree", "true"), ("signature", big)])
            #expect(reply.status == .unprocessableContent && reply.html.contains("at most 256 KiB"))
            let huge = "data:image/png;base64," + Data(count: 1024 * 1024).base64EncodedString()
            reply = try await walker.post(survey, step: "signature", [("fullName", "Alex"), ("agree", "true"), ("signature", huge)])
            // Refused by the record's gate, which reads at most the route's limit, with the survey's own words.
            #expect(reply.status == .contentTooLarge && reply.html.contains("A signature drawing may be at most 256 KiB"))
            // The typed name alone signs.
            #expect(try await walker.post(survey, step: "signature", [("fullName", "Alex Rivera"), ("agree", "true")]).location == survey)
            // Going back and emptying the signature withdraws it: the step needs an answer again.
            try await walker.post(survey, step: "notifications", action: "back")
            reply = try await walker.post(survey, step: "signature")
            #expect(reply.status == .unprocessableContent && reply.html.contains("This step needs an answer."))
            #expect(!reply.html.contains(#"value="Alex Rivera""#))
            // Starting again from the card continues the same survey.
            #expect(try await walker.start(try await fixture.event("onboarding")) == survey)
            #expect(try await walker.post(survey, step: "signature", [("fullName", "Alex Rivera"), ("agree", "true")]).location == survey)
            reply = try await walker.post(survey, step: "notifications", action: "cancel")
            #expect(reply.location == client.recordBase + "/care?date=2026-11-16#task-onboarding")
            reply = try await walker.post(survey, step: "notifications", action: "skip")
            #expect(reply.status == .conflict && reply.html.contains("cancelled"))
            #expect(try await fixture.event("onboarding").outcome == nil)
            #expect(!(try await walker.get("/care").html.contains(#"id="task-ibuprofen""#)))
            // A typed signature is kept without an image.
            #expect(try await walker.onboard(fixture, drawn: false) != nil)
            let outcome = try #require(try await fixture.event("onboarding").outcome)
            let consent = try #require(OCKSignedConsent(values: outcome.values))
            #expect(consent.signatureImage == nil && consent.signerName == "Alex Rivera")
            #expect(try await walker.get("/consent").html.contains("Signed with the typed name."))
            // Onboarding happens once: another day's occurrence does not start it again.
            var fields = ServerFixture.fields(try await fixture.event("onboarding", daysFromToday: -1))
            fields["csrf"] = walker.token
            try await client.execute(uri: "/surveys/start", method: .post, headers: walker.headers,
                                     body: ServerFixture.form(fields)) { response in
                #expect(response.status == .conflict)
            }
        }
    }

    @Test func checkInAnswersCanBeDeletedAfterConfirmingAndFeedTheInsightsChart() async throws {
        let fixture = ServerFixture(surveys: true)
        try await fixture.test { client in
            let walker = SurveyWalker(client: client)
            _ = try await walker.onboard(fixture)
            let survey = try await walker.start(try await fixture.event("check-in"))
            try await walker.post(survey, step: "pain", [("answer", "6")])
            try await walker.post(survey, step: "sleep", [("answer", "7")])
            try await walker.post(survey, step: "exercises", [("answer", "false")])
            let insights = try await walker.get("/insights").html
            #expect(insights.contains("Monday, November 16: Ibuprofen doses: 0 doses; Pain (0 to 10): 6"))

            let care = try await walker.get("/care").html
            let event = try await fixture.event("check-in")
            let confirm = "/care/events/survey/delete?task=\(event.task.uuid)&amp;occurrence=\(event.scheduleEvent.occurrence)&amp;date=2026-11-16"
            #expect(care.contains(confirm) && care.contains("Delete answers"))
            let page = try await walker.get(confirm.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(page.status == .ok && page.html.contains("Delete the answers to Daily Check-in?"))
            #expect(page.html.contains(#"action="\#(client.recordBase)/care/events/survey/delete""#) && page.html.contains("Keep them"))
            // Looking at the question deletes nothing.
            #expect(try await fixture.event("check-in").outcome != nil)
            try await client.execute(uri: "/care/events/survey/delete", method: .post, headers: ServerFixture.formHeaders,
                                     body: ServerFixture.form(ServerFixture.fields(event))) { response in
                #expect(response.status == .seeOther)
            }
            #expect(try await fixture.event("check-in").outcome == nil)
            #expect(try await walker.get("/care").html.contains("Start survey</span><span class=\"ock-visually-hidden\"> Daily Check-in</span>"))
        }
    }
}
