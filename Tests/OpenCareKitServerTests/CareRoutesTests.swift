import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import OpenCareKit
import OpenCareKitDirectory
@testable import OpenCareKitServer
import OpenCareKitStore
import OpenCareKitSurveys
import Testing

@Suite struct CareRoutesTests {
    @Test func healthAssetsAndSecurityHeaders() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "ok")
                #expect(response.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
                #expect(response.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
            }
            try await client.execute(uri: "/assets/opencarekit.css", method: .get) { response in
                #expect(response.headers[.contentType] == "text/css; charset=utf-8")
                #expect(String(buffer: response.body).contains("--ock-color-tint"))
            }
            try await client.execute(uri: "/assets/opencarekit.js", method: .get) { response in
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
            }
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == client.recordBase + "/care")
            }
            try await client.execute(uri: "/nowhere", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
            }
        }
    }

    @Test func theCarePageShowsTheDaysCardsAndSetsACSRFCookie() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            try await client.execute(uri: "/care", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] == "no-store")
                let cookie = try #require(response.headers[.setCookie])
                #expect(cookie.hasPrefix("ock_csrf=") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
                let html = String(buffer: response.body)
                #expect(html.contains("<h1 class=\"ock-day-heading\">Monday, November 16</h1>"))
                for card in ["task-ibuprofen", "task-enoxaparin", "task-omeprazole", "task-nausea", "task-hydration", "task-weigh-in"] {
                    #expect(html.contains("id=\"\(card)\""), "\(card)")
                }
                #expect(html.contains("ock-checklist-task") && html.contains("ock-numeric-progress-task"))
                #expect(html.contains(#"aria-label="Monday, November 16: 0% complete, Today""#))
                #expect(html.contains(#"<a aria-current="date" class="ock-today-link" href="\#(client.recordBase)/care">Today</a>"#))
                let token = String(cookie.dropFirst("ock_csrf=".count).prefix(64))
                #expect(html.contains(#"<input name="csrf" type="hidden" value="\#(token)">"#))
            }
            // With a cookie, the page reuses its token and sets none.
            try await client.execute(uri: "/care?date=2026-11-15", method: .get, headers: ServerFixture.cookie) { response in
                #expect(response.headers[values: .setCookie].allSatisfy { !$0.hasPrefix("ock_csrf=") })
                #expect(String(buffer: response.body).contains(#"value="\#(ServerFixture.token)""#))
            }
        }
    }

    @Test(arguments: ["2026-02-30", "yesterday", "2026-1-5", "99999-01-01", "1800-01-01", "2026-11-16T00:00"])
    func badDatesGet400(date: String) async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            try await client.execute(uri: "/care?date=\(date)", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("YYYY-MM-DD"))
            }
        }
    }

    @Test func futureDaysAreReadOnlyAndKoreanReadersGetKorean() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            try await client.execute(uri: "/care?date=2026-11-18", method: .get, headers: [.acceptLanguage: "ko-KR,ko;q=0.9,en;q=0.5"]) { response in
                let html = String(buffer: response.body)
                #expect(html.contains(#"<html lang="ko">"#))
                #expect(html.contains("11월 18일 수요일"))
                #expect(html.contains("아직 오지 않은 날입니다"))
                #expect(!html.contains("/care/events/toggle"))
            }
            try await client.execute(uri: "/care", method: .get, headers: [.acceptLanguage: "en;q=0.9, ko;q=0.1"]) { response in
                #expect(String(buffer: response.body).contains(#"<html lang="en">"#))
            }
        }
    }

    @Test func completingAndUncompletingAnEventRedirectsBackToItsCard() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            let event = try await fixture.event("ibuprofen", 1)
            try await client.execute(uri: "/care/events/toggle", method: .post, headers: ServerFixture.formHeaders,
                                     body: ServerFixture.form(ServerFixture.fields(event, ["complete": "true"]))) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == client.recordBase + "/care?date=2026-11-16#task-ibuprofen")
            }
            #expect(try await fixture.event("ibuprofen", 1).outcome?.values.first?.booleanValue == true)
            // The same form again changes nothing; the page shows the button pressed.
            try await client.execute(uri: "/care/events/toggle", method: .post, headers: ServerFixture.formHeaders,
                                     body: ServerFixture.form(ServerFixture.fields(event, ["complete": "true"]))) { response in
                #expect(response.status == .seeOther)
            }
            try await client.execute(uri: "/care", method: .get, headers: ServerFixture.cookie) { response in
                let html = String(buffer: response.body)
                #expect(html.contains(#"aria-label="Mark Ibuprofen 2:00 PM as done" aria-pressed="true""#)
                    || html.contains("aria-label=\"Mark Ibuprofen 2:00\u{202F}PM as done\" aria-pressed=\"true\""))
                // One of the day's ten events that count (nausea and onboarding do not).
                #expect(html.contains("Monday, November 16: 10% complete, Today"))
            }
            try await client.execute(uri: "/care/events/toggle", method: .post, headers: ServerFixture.formHeaders,
                                     body: ServerFixture.form(ServerFixture.fields(event, ["complete": "false"]))) { response in
                #expect(response.status == .seeOther)
            }
            #expect(try await fixture.event("ibuprofen", 1).outcome == nil)
        }
    }

    @Test func formsWithoutAMatchingTokenAreRefused() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            let event = try await fixture.event("enoxaparin")
            var noCookie = ServerFixture.formHeaders
            noCookie[.cookie] = nil
            try await client.execute(uri: "/care/events/toggle", method: .post, headers: noCookie,
                                     body: ServerFixture.form(ServerFixture.fields(event, ["complete": "true"]))) { response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(uri: "/care/events/toggle", method: .post, headers: ServerFixture.formHeaders,
                                     body: ServerFixture.form(ServerFixture.fields(event, ["complete": "true", "csrf": String(repeating: "cd", count: 32)]))) { response in
                #expect(response.status == .forbidden)
            }
            #expect(try await fixture.event("enoxaparin").outcome == nil)
        }
    }

    @Test func badFormsNameTheFieldAndChangeNothing() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            let event = try await fixture.event("enoxaparin")
            let cases: [([String: String], HTTPResponse.Status, String)] = [
                (["task": "not-a-uuid"], .badRequest, "task"),
                (["task": UUID().uuidString], .notFound, "does not exist"),
                (["occurrence": "-1"], .badRequest, "occurrence"),
                (["occurrence": "abc"], .badRequest, "occurrence"),
                (["occurrence": "999999"], .unprocessableContent, "still to come"),
                (["complete": "maybe"], .badRequest, "complete"),
                (["date": "2026-13-01"], .badRequest, "date"),
            ]
            for (override, status, text) in cases {
                var fields = ServerFixture.fields(event, ["complete": "true"])
                fields.merge(override) { $1 }
                try await client.execute(uri: "/care/events/toggle", method: .post, headers: ServerFixture.formHeaders,
                                         body: ServerFixture.form(fields)) { response in
                    #expect(response.status == status, "\(override)")
                    #expect(String(buffer: response.body).contains(text), "\(override)")
                }
            }
            // A future event cannot change, whatever day the form names.
            let tomorrow = try await fixture.event("enoxaparin", daysFromToday: 1)
            try await client.execute(uri: "/care/events/toggle", method: .post, headers: ServerFixture.formHeaders,
                                     body: ServerFixture.form(ServerFixture.fields(tomorrow, ["complete": "true"]))) { response in
                #expect(response.status == .unprocessableContent)
            }
            #expect(try await fixture.event("enoxaparin").outcome == nil)
            #expect(try await fixture.event("enoxaparin", daysFromToday: 1).outcome == nil)
            try await client.execute(uri: "/care/events/toggle", method: .post, headers: ServerFixture.formHeaders,
                                     body: ByteBuffer(string: "task=" + String(repeating: "x", count: 70_000))) { response in
                #expect(response.status == .contentTooLarge)
            }
        }
    }

    @Test func logAndDeleteALoggedValue() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            let event = try await fixture.event("nausea")
            // Two taps at two moments (the fixture's clock stands still).
            for moment in [60.0, 30.0] {
                try await client.execute(uri: "/care/events/log", method: .post, headers: ServerFixture.formHeaders,
                                         body: ServerFixture.form(ServerFixture.fields(event, ["acted": String((fixture.now.timeIntervalSince1970 - moment) * 1000)]))) { response in
                    #expect(response.status == .seeOther)
                }
            }
            #expect(try await fixture.event("nausea").outcome?.values.count == 2)
            try await client.execute(uri: "/care", method: .get, headers: ServerFixture.cookie) { response in
                let html = String(buffer: response.body)
                #expect(html.components(separatedBy: "class=\"ock-log-entry\"").count == 3)
                #expect(html.contains("/care/events/log/delete"))
            }
            let values = try #require(try await fixture.event("nausea").outcome?.values)
            let created = values.map { String($0.createdDate.timeIntervalSince1970) }
            // A delete names its value by when it was logged. A moment no value has (deleted already, by another
            // tab or by this delete sent twice from the app's queue) is done, and deletes nothing.
            try await client.execute(uri: "/care/events/log/delete", method: .post, headers: ServerFixture.formHeaders,
                                     body: ServerFixture.form(ServerFixture.fields(event, ["index": "0", "created": String(Double(created[0])! - 60)]))) { response in
                #expect(response.status == .seeOther)
            }
            #expect(try await fixture.event("nausea").outcome?.values.count == 2)
            // A stale page's position does not matter: the value named goes, the other stays; sent again, nothing.
            for _ in 0..<2 {
                try await client.execute(uri: "/care/events/log/delete", method: .post, headers: ServerFixture.formHeaders,
                                         body: ServerFixture.form(ServerFixture.fields(event, ["index": "0", "created": created[1]]))) { response in
                    #expect(response.status == .seeOther)
                }
            }
            #expect(try await fixture.event("nausea").outcome?.values.map(\.createdDate) == [values[0].createdDate])
        }
    }

    /// The fixture's record, seeded, hosted on a directory where Sam Rivera is another member (a caregiver).
    static func recordWithSam(_ fixture: ServerFixture) async throws -> (TestHost, SQLiteCareDirectory, CareAccount) {
        try await fixture.seed()
        let hosted = fixture.hosted()
        let directory = try await hosted.preparedDirectory()
        let sam = CareAccount(email: "sam@example.org", name: "Sam Rivera", passwordHash: "-", createdDate: fixture.now)
        try await directory.addAccount(sam)
        try await directory.setMembership(CareMembership(record: hosted.record, account: sam.id, role: .caregiver, isOwner: false,
                                                         createdDate: fixture.now))
        return (hosted, directory, sam)
    }

    /// A toggle from a page that was not current (queued offline, or left open) is checked against what its page
    /// showed (`seen`): changed meanwhile and already as wanted, nothing is done and the answer names who and when;
    /// changed and not as wanted, it is refused (409) in words; as seen, it applies, naming its author in the outcome.
    @Test func aToggleFromAStalePageIsCheckedAgainstWhatItShowed() async throws {
        let fixture = ServerFixture()
        let (hosted, directory, sam) = try await Self.recordWithSam(fixture)
        // Someone who is not a member.
        let stranger = CareAccount(email: "x@example.org", name: "Stranger Name", passwordHash: "-", createdDate: fixture.now)
        try await directory.addAccount(stranger)
        try await hosted.test(hosted.host(on: directory)) { client in
            var headers = ServerFixture.formHeaders
            headers[.accept] = "application/json"
            func toggle(_ complete: Bool, seen: String?) async throws -> (HTTPResponse.Status, String) {
                let event = try await fixture.event("ibuprofen")
                var fields = ServerFixture.fields(event, ["complete": String(complete)])
                fields["seen"] = seen
                return try await client.execute(uri: "/care/events/toggle", method: .post, headers: headers,
                                                body: ServerFixture.form(fields)) { response in
                    let body = String(buffer: response.body)
                    let json = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
                    let text = (json?["notice"] as? String) ?? ((json?["error"] as? [String: Any])?["message"] as? String) ?? body
                    return (response.status, text.replacingOccurrences(of: "\u{202F}", with: " "))
                }
            }
            // The page shows the form with what it saw.
            try await client.execute(uri: "/care", method: .get, headers: ServerFixture.cookie) { response in
                #expect(String(buffer: response.body).contains(#"<input name="seen" type="hidden" value="none">"#))
            }
            // As seen: applied, with its author; sent again from the same page (its first answer lost), it is the
            // person's own change: nothing more is done, and nothing said.
            #expect(try await toggle(true, seen: "none").0 == .noContent)
            let own = try #require(try await fixture.event("ibuprofen").outcome)
            #expect(own.userInfo?[CareServer.authorKey] != nil)
            #expect(try await toggle(true, seen: "none").0 == .noContent)
            #expect(try await fixture.event("ibuprofen").outcome?.uuid == own.uuid)
            // Done by Sam meanwhile (another member): a page that saw nothing and asks for done is told who, and when
            // Sam tapped.
            try await fixture.store.setEventCompletion(false, taskUUID: own.taskUUID, occurrence: own.taskOccurrenceIndex, now: fixture.now)
            try await fixture.store.setEventCompletion(true, taskUUID: own.taskUUID, occurrence: own.taskOccurrenceIndex, now: fixture.now,
                                                       userInfo: [CareServer.authorKey: sam.id.description])
            let first = try #require(try await fixture.event("ibuprofen").outcome)
            let told = try await toggle(true, seen: "none")
            #expect(told.0 == .ok)
            #expect(told.1 == "Sam Rivera marked Ibuprofen 8:00 AM done at 12:00 PM while you were offline.")
            #expect(try await fixture.event("ibuprofen").outcome?.uuid == first.uuid)
            // An author who is not a member is not named (any writer may put an id in an outcome's userInfo).
            var forged = first
            forged.userInfo = [CareServer.authorKey: stranger.id.description]
            let forgedFirst = try await fixture.store.updateOutcome(forged)
            #expect(try await toggle(true, seen: "none").1 == "Ibuprofen 8:00 AM was marked done at 12:00 PM while you were offline.")
            // Undone and done again meanwhile (through the store: no author named): a page that saw the first
            // outcome and asks to undo is refused, in words, and the event stays done.
            try await fixture.store.setEventCompletion(false, taskUUID: first.taskUUID, occurrence: first.taskOccurrenceIndex, now: fixture.now)
            try await fixture.store.setEventCompletion(true, taskUUID: first.taskUUID, occurrence: first.taskOccurrenceIndex, now: fixture.now)
            let second = try #require(try await fixture.event("ibuprofen").outcome)
            #expect(second.uuid != forgedFirst.uuid)
            let refused = try await toggle(false, seen: forgedFirst.uuid.uuidString)
            #expect(refused.0 == .conflict, "\(first.uuid) \(second.uuid)")
            #expect(refused.1 == "Ibuprofen 8:00 AM was marked done at 12:00 PM while you were offline.")
            #expect(try await fixture.event("ibuprofen").outcome?.uuid == second.uuid)
            // Undone meanwhile: a page that saw it done and asks to undo is told, and nothing is done.
            try await fixture.store.setEventCompletion(false, taskUUID: first.taskUUID, occurrence: first.taskOccurrenceIndex, now: fixture.now)
            let undone = try await toggle(false, seen: second.uuid.uuidString)
            #expect(undone.0 == .ok)
            // At the store's moment of the delete.
            #expect(undone.1.hasPrefix("Ibuprofen 8:00 AM was marked not done at ") && undone.1.hasSuffix(" while you were offline."), "\(undone.1)")
            #expect(try await fixture.event("ibuprofen").outcome == nil)
            // Without `seen` (the app's Retry), a change applies as asked.
            #expect(try await toggle(true, seen: nil).0 == .noContent)
            #expect(try await fixture.event("ibuprofen").outcome != nil)
        }
    }

    /// A value recorded from a page that fell behind does not silently replace one someone else recorded since: it
    /// is refused, in words; the same value, the person's own, or a Retry (no `seen`) goes through.
    @Test func aRecordedValueFromAStalePageDoesNotReplaceANewerOne() async throws {
        let fixture = ServerFixture()
        let (hosted, directory, sam) = try await Self.recordWithSam(fixture)
        try await hosted.test(hosted.host(on: directory)) { client in
            var headers = ServerFixture.formHeaders
            headers[.accept] = "application/json"
            func record(_ value: String, seen: String?) async throws -> (HTTPResponse.Status, String) {
                let event = try await fixture.event("hydration")
                var fields = ServerFixture.fields(event, ["value": value])
                fields["seen"] = seen
                return try await client.execute(uri: "/care/events/record", method: .post, headers: headers, body: ServerFixture.form(fields)) { response in
                    let json = (try? JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8))) as? [String: Any]
                    return (response.status, ((json?["error"] as? [String: Any])?["message"] as? String ?? "").replacingOccurrences(of: "\u{202F}", with: " "))
                }
            }
            try await client.execute(uri: "/care", method: .get, headers: ServerFixture.cookie) { response in
                #expect(String(buffer: response.body).contains(#"<input name="seen" type="hidden" value="none">"#))
            }
            #expect(try await record("3", seen: "none").0 == .noContent)
            let mine = try #require(try await fixture.event("hydration").outcome)
            // The person's own value, from a page that had not caught up: replaced.
            #expect(try await record("4", seen: "none").0 == .noContent)
            // Sam records 6 meanwhile.
            var sams = try #require(try await fixture.event("hydration").outcome)
            sams.values = [OCKOutcomeValue(6.0, units: "glasses")]
            sams.values[0].createdDate = fixture.now
            sams.userInfo = [CareServer.authorKey: sam.id.description]
            _ = try await fixture.store.updateOutcome(sams)
            let refused = try await record("5", seen: mine.uuid.uuidString)
            #expect(refused.0 == .conflict)
            #expect(refused.1 == "Sam Rivera recorded 6 glasses for Hydration at 12:00 PM while you were offline.", "\(refused.1)")
            #expect(try await fixture.event("hydration").outcome?.values.first?.doubleValue == 6)
            // The same value: no conflict. Without `seen` (Retry): replaced.
            #expect(try await record("6", seen: mine.uuid.uuidString).0 == .noContent)
            #expect(try await record("5", seen: nil).0 == .noContent)
            #expect(try await fixture.event("hydration").outcome?.values.first?.doubleValue == 5)
        }
    }

    /// A change the app queued for one account is never made as another: its `X-OCK-Account` must be the session's
    /// pseudonym (the `ock_account` cookie a record's page sets), else 409 naming `account`, and nothing changes.
    @Test func aQueuedChangeOfAnotherAccountIsRefused() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            let pseudonym = try await client.execute(uri: "/care", method: .get, headers: ServerFixture.cookie) { response in
                response.headers[values: .setCookie].first { $0.hasPrefix("ock_account=") }.map { String($0.dropFirst(12).prefix(16)) }
            }
            let own = try #require(pseudonym)
            let event = try await fixture.event("ibuprofen")
            for (account, status) in [("0123456789abcdef", HTTPResponse.Status.conflict), (own, .noContent)] {
                var headers = ServerFixture.formHeaders
                headers[.accept] = "application/json"
                headers[HTTPField.Name("X-OCK-Account")!] = account
                try await client.execute(uri: "/care/events/toggle", method: .post, headers: headers,
                                         body: ServerFixture.form(ServerFixture.fields(event, ["complete": "true"]))) { response in
                    #expect(response.status == status, "\(account)")
                    if status == .conflict { #expect(String(buffer: response.body).contains(#""field":"account""#)) }
                }
                #expect((try await fixture.event("ibuprofen").outcome != nil) == (status == .noContent))
            }
        }
    }

    /// The app's offline queue sends when the person acted (`acted`, milliseconds): a log sent twice (its first
    /// answer lost) is logged once, at that moment, and a device clock cannot place a value far in the future or
    /// before the event's day.
    @Test func aQueuedTapSentTwiceIsLoggedOnceAtItsMoment() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            let event = try await fixture.event("nausea")
            let now = fixture.now
            let tapped = (now.timeIntervalSince1970 - 3_600) * 1000
            for moment in [tapped, tapped, tapped + 1] {
                try await client.execute(uri: "/care/events/log", method: .post, headers: ServerFixture.formHeaders,
                                         body: ServerFixture.form(ServerFixture.fields(event, ["acted": String(moment)]))) { response in
                    #expect(response.status == .seeOther)
                }
            }
            let logged = try #require(try await fixture.event("nausea").outcome?.values.map { $0.createdDate.timeIntervalSince1970 * 1000 })
            #expect(logged.count == 2)
            #expect(abs(logged[0] - tapped) < 0.5 && abs(logged[1] - tapped - 1) < 0.5, "\(logged)")
            // A clock up to 5 minutes ahead of the server's is taken as it is; one further ahead is refused, in words;
            // one far behind is taken as the start of the event's day (the same moment each time it is sent).
            let ahead = (now.timeIntervalSince1970 + 240) * 1000
            for moment in [ahead, 0, 0] {
                try await client.execute(uri: "/care/events/log", method: .post, headers: ServerFixture.formHeaders,
                                         body: ServerFixture.form(ServerFixture.fields(event, ["acted": String(moment)]))) { response in
                    #expect(response.status == .seeOther)
                }
            }
            let all = try #require(try await fixture.event("nausea").outcome?.values.map(\.createdDate))
            #expect(all.count == 4)
            #expect(all[2] == now.addingTimeInterval(240))
            #expect(all[3] == fixture.calendar.startOfDay(for: now))
            try await client.execute(uri: "/care/events/log", method: .post, headers: ServerFixture.formHeaders,
                                     body: ServerFixture.form(ServerFixture.fields(event, ["acted": String((now.timeIntervalSince1970 + 400) * 1000)]))) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains("this device&#39;s clock is ahead") || String(buffer: response.body).contains("this device's clock is ahead"))
            }
            #expect(try await fixture.event("nausea").outcome?.values.count == 4)
            try await client.execute(uri: "/care/events/log", method: .post, headers: ServerFixture.formHeaders,
                                     body: ServerFixture.form(ServerFixture.fields(event, ["acted": "soon"]))) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test func recordingANumberChecksItsRange() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            let event = try await fixture.event("hydration")
            for (value, status) in [("81", HTTPResponse.Status.unprocessableContent), ("-1", .unprocessableContent),
                                    ("lots", .badRequest), ("nan", .badRequest), ("", .badRequest), ("5", .seeOther)] {
                try await client.execute(uri: "/care/events/record", method: .post, headers: ServerFixture.formHeaders,
                                         body: ServerFixture.form(ServerFixture.fields(event, ["value": value]))) { response in
                    #expect(response.status == status, "\(value)")
                    if status != .seeOther { #expect(String(buffer: response.body).contains(#"The field &quot;value&quot;"#)) }
                }
            }
            let recorded = try await fixture.event("hydration").outcome?.values
            #expect(recorded?.count == 1 && recorded?.first?.doubleValue == 5 && recorded?.first?.units == "glasses")
            try await client.execute(uri: "/care", method: .get, headers: ServerFixture.cookie) { response in
                #expect(String(buffer: response.body).contains(#"<meter aria-label="5 of 8 glasses" max="8.0" min="0" value="5.0">"#))
            }
        }
    }
}

@Suite struct InPlaceAndLiveTests {
    @Test func scriptsAskingForJSONGet204OrTheErrorAsJSON() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            let event = try await fixture.event("enoxaparin")
            var headers = ServerFixture.formHeaders
            headers[.accept] = "application/json"
            try await client.execute(uri: "/care/events/toggle", method: .post, headers: headers,
                                     body: ServerFixture.form(ServerFixture.fields(event, ["complete": "true"]))) { response in
                #expect(response.status == .noContent)
            }
            try await client.execute(uri: "/care/events/toggle", method: .post, headers: headers,
                                     body: ServerFixture.form(ServerFixture.fields(event, ["complete": "yes"]))) { response in
                #expect(response.status == .badRequest)
                #expect(response.headers[.contentType] == "application/json")
                let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: [String: Any]]
                #expect(json?["error"]?["field"] as? String == "complete")
                #expect(json?["error"]?["status"] as? Int == 400)
            }
            #expect(try await fixture.event("enoxaparin").outcome != nil)
        }
    }

    @Test func theCarePageTellsItsScriptWhereToListenAndWhenMidnightIs() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            try await client.execute(uri: "/care", method: .get, headers: ServerFixture.cookie) { response in
                let html = String(buffer: response.body)
                #expect(html.contains(#"<meta content="\#(client.recordBase)/care/live?date=2026-11-16" name="ock-live">"#))
                #expect(html.contains(#"<meta content="\#(ServerFixture.token)" name="ock-csrf">"#))
                let midnight = fixture.calendar.date(from: DateComponents(year: 2026, month: 11, day: 17))!
                #expect(html.contains(#"<meta content="\#(Int64(midnight.timeIntervalSince1970 * 1000))" name="ock-next-midnight">"#))
                #expect(html.contains(#"<script defer="defer" src="/assets/app.js"></script>"#))
            }
            try await client.execute(uri: "/care/live?date=tomorrow", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
    }
}

@Suite struct ContactsAndInsightsTests {
    @Test func contactsAreGroupedByCategoryAndOpenTheirDetails() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            try await client.execute(uri: "/contacts", method: .get) { response in
                #expect(response.status == .ok)
                let html = String(buffer: response.body)
                let team = try #require(html.range(of: ">Care team</h2>"))
                let family = try #require(html.range(of: ">Friends and family</h2>"))
                #expect(team.upperBound < family.lowerBound)
                #expect(html.contains(#"<a class="ock-contact-header ock-contact-link" href="\#(client.recordBase)/contacts/dr-okafor">"#)
                    || html.contains(#"href="\#(client.recordBase)/contacts/dr%2Dokafor""#))
                #expect(html.contains(#"<h3 class="ock-contact-name">Chidi Okafor</h3>"#))
                #expect(html.contains(#"<meta content="\#(client.recordBase)/contacts" name="ock-refresh">"#))
            }
            try await client.execute(uri: "/contacts/dr-okafor", method: .get) { response in
                let html = String(buffer: response.body)
                #expect(html.contains(#"href="tel:5035550142""#) && html.contains(#"href="sms:5035550142""#))
                #expect(html.contains(#"href="mailto:c.okafor@example.org""#))
                #expect(html.contains("1120 SW Fifth Ave<br>Portland, OR 97205<br>United States"))
                #expect(html.contains("Performed the knee replacement"))
            }
            try await client.execute(uri: "/contacts/nobody", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test func insightsChartTheStoreOverWeekMonthAndYear() async throws {
        let fixture = ServerFixture()
        let server = fixture.hosted(.init(
            timeZone: fixture.calendar.timeZone, insights: OCKDemoCarePlan.insights, now: { [now = fixture.now] in now }))
        try await fixture.seed()
        let ibuprofen = try await fixture.event("ibuprofen", 0)
        try await fixture.store.setEventCompletion(true, taskUUID: ibuprofen.task.uuid, occurrence: ibuprofen.scheduleEvent.occurrence)
        let nausea = try await fixture.event("nausea")
        for _ in 0..<3 {
            try await fixture.store.appendOutcomeValue(OCKOutcomeValue(true), taskUUID: nausea.task.uuid, occurrence: nausea.scheduleEvent.occurrence)
        }
        try await server.test { client in
            try await client.execute(uri: "/insights", method: .get) { response in
                #expect(response.status == .ok)
                let html = String(buffer: response.body)
                for id in ["insight-completion", "insight-doses-nausea", "insight-pain-doses", "insight-weight", "insight-hydration"] {
                    #expect(html.contains("id=\"\(id)\""), "\(id)")
                }
                #expect(html.contains("Monday, November 16: Ibuprofen doses: 1 doses; Nausea episodes: 3"))
                #expect(html.contains(#"aria-label="Monday, November 16: 10% complete""#))
                #expect(html.components(separatedBy: "class=\"ock-chart-column\"").count - 1 == 5 * 7)
            }
            try await client.execute(uri: "/insights?period=year", method: .get) { response in
                let html = String(buffer: response.body)
                // A year of days is shown by month.
                #expect(html.contains("November 2026: Ibuprofen doses: 1 doses; Nausea episodes: 3"))
                #expect(html.components(separatedBy: "class=\"ock-chart-column\"").count - 1 <= 5 * 13)
            }
            try await client.execute(uri: "/insights?period=decade", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
    }
}

@Suite struct PageCacheTests {
    @Test func cachedPagesCarryEachReadersTokenAndFollowEveryChange() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            let other = String(repeating: "cd", count: 32)
            try await client.execute(uri: "/care", method: .get, headers: ServerFixture.cookie) { response in
                let card = String(buffer: response.body).components(separatedBy: #"id="task-enoxaparin""#).last ?? ""
                #expect(card.prefix(2000).contains(#"aria-pressed="false""#))
            }
            try await client.execute(uri: "/care", method: .get, headers: [.cookie: "ock_csrf=\(other)"]) { response in
                let html = String(buffer: response.body)
                #expect(html.contains(#"value="\#(other)""#))
                #expect(!html.contains(ServerFixture.token))
            }
            let event = try await fixture.event("enoxaparin")
            try await client.execute(uri: "/care/events/toggle", method: .post, headers: ServerFixture.formHeaders,
                                     body: ServerFixture.form(ServerFixture.fields(event, ["complete": "true"]))) { response in
                #expect(response.status == .seeOther)
            }
            try await client.execute(uri: "/care", method: .get, headers: ServerFixture.cookie) { response in
                let html = String(buffer: response.body)
                #expect(html.contains(#"value="\#(ServerFixture.token)""#))
                let card = html.components(separatedBy: #"id="task-enoxaparin""#).last ?? ""
                #expect(card.prefix(2000).contains(#"aria-pressed="true""#))
            }
        }
    }
}

@Suite struct SameOriginTests {
    /// The in-process test client always sends the authority "localhost".
    func server(_ fixture: ServerFixture, hosts: Set<String>) -> TestHost {
        fixture.hosted(.init(timeZone: fixture.calendar.timeZone, allowedHosts: hosts,
                                                              now: { [now = fixture.now] in now }))
    }

    @Test func crossSiteWritesAreRefused() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        try await server(fixture, hosts: ["127.0.0.1", "localhost", "::1"]).test { client in
            let event = try await fixture.event("enoxaparin")
            let body = ServerFixture.form(ServerFixture.fields(event, ["complete": "true"]))
            func post(_ extra: HTTPFields) async throws -> HTTPResponse.Status {
                var headers = ServerFixture.formHeaders
                headers.append(contentsOf: extra)
                return try await client.execute(uri: "/care/events/toggle", method: .post, headers: headers, body: body) { $0.status }
            }
            #expect(try await post([.origin: "http://evil.example"]) == .forbidden)
            #expect(try await post([.origin: "http://localhost:9999"]) == .forbidden) // another port of this machine
            #expect(try await post([.origin: "null"]) == .forbidden)
            #expect(try await post([HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]) == .forbidden)
            #expect(try await post([HTTPField.Name("Sec-Fetch-Site")!: "same-site"]) == .forbidden)
            #expect(try await fixture.event("enoxaparin").outcome == nil)
            #expect(try await post([.origin: "http://localhost", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"]) == .seeOther)
            #expect(try await fixture.event("enoxaparin").outcome != nil)
        }
    }

    @Test func foreignHostNamesAreRefused() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        // As if "localhost" were a rebinding DNS name this server does not answer to.
        try await server(fixture, hosts: ["127.0.0.1"]).test { client in
            try await client.execute(uri: "/api/v1/tasks", method: .get) { response in
                #expect(response.status == .misdirectedRequest)
                #expect(response.headers[.contentSecurityPolicy] != nil)
            }
        }
        #expect(SameOriginMiddleware<CareRequestContext>.hostName("[::1]:8080") == "::1")
        #expect(SameOriginMiddleware<CareRequestContext>.hostName("LocalHost:80") == "localhost")
    }
}

@Suite struct ReviewFixTests {
    @Test func contactLinksLeadToTheirDetails() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            let link = try await client.execute(uri: "/contacts", method: .get) { response in
                let html = String(buffer: response.body)
                return html.components(separatedBy: #"class="ock-contact-header ock-contact-link" href=""#).dropFirst().first?
                    .prefix { $0 != "\"" }.description ?? ""
            }
            #expect(link.hasPrefix(client.recordBase + "/contacts/"))
            try await client.execute(uri: link, method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("ock-detailed-contact"))
            }
        }
    }

    @Test func theAPIRefusesSubMinuteSchedulesUnknownUpdatesAndFutureOutcomes() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            var element = OCKScheduleElement(start: fixture.now, end: nil, interval: DateComponents(second: 1))
            element.calendar = fixture.calendar
            let busy = OCKTask(id: "busy", title: "Busy", carePlanUUID: nil, schedule: OCKSchedule(composing: [element]))
            let json: HTTPFields = [.contentType: "application/json"]
            try await client.execute(uri: "/api/v1/tasks", method: .post, headers: json,
                                     body: ByteBuffer(bytes: try JSONEncoder().encode(busy))) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains("schedule.elements[0].interval"))
            }
            var daily = busy
            daily.schedule = OCKSchedule(composing: [OCKScheduleElement(start: fixture.now, end: nil, interval: DateComponents(day: 1))])
            daily.id = "nobody"
            try await client.execute(uri: "/api/v1/tasks/nobody", method: .put, headers: json,
                                     body: ByteBuffer(bytes: try JSONEncoder().encode(daily))) { response in
                #expect(response.status == .notFound)
            }
            let tomorrow = try await fixture.event("enoxaparin", daysFromToday: 1)
            let outcome = OCKOutcome(taskUUID: tomorrow.task.uuid, taskOccurrenceIndex: tomorrow.scheduleEvent.occurrence,
                                     values: [OCKOutcomeValue(true)])
            try await client.execute(uri: "/api/v1/outcomes", method: .post, headers: json,
                                     body: ByteBuffer(bytes: try JSONEncoder().encode(outcome))) { response in
                #expect(response.status == .unprocessableContent)
            }
        }
    }
}
