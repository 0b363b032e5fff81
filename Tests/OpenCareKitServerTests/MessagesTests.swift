import Foundation
import Hummingbird
import HummingbirdTesting
import OpenCareKit
import OpenCareKitDirectory
@testable import OpenCareKitServer
import OpenCareKitStore
import OpenCareKitUI
import Testing

/// Secure messages through the routes: a patient and her care team talk, with unread counts and receipts; a team
/// note reaches clinicians only, on every page and route; each thread read is audited; bounds are refused with the
/// words kept; a stranger gets 404 everywhere.
@Suite struct MessagesTests {
    typealias People = TriageQueueTests

    static func threadID(_ response: TestResponse) throws -> String {
        let location = try #require(response.headers[.location])
        return try #require(location.split(separator: "/").last?.split(separator: "#").first.map(String.init))
    }

    @Test func aPatientAndHerCareTeamTalkWithUnreadCountsAndReceipts() async throws {
        let setup = try await People().setup()
        let base = "/records/\(setup.record.id)/messages"
        try await Application(router: setup.host.router()).test(.router) { client in
            let ana = try await People.signedIn(client, "ana@example.org")
            let lee = try await People.signedIn(client, "lee@example.org")
            let sam = try await People.signedIn(client, "sam@example.org")
            for browser in [ana, lee, sam] { _ = try await browser.send(base) }
            var news = setup.host.changes(of: setup.people["lee"]!.id, throttle: .seconds(1)).makeAsyncIterator()
            let asked = try await ana.send(base, .post, form: ["subject": "Dizzy", "audience": "everyone",
                                                              "body": "Dizzy since https://example.org/a?b=1. <script>alert(1)</script> javascript:alert(2)"])
            #expect(asked.status == .seeOther)
            let thread = try Self.threadID(asked)
            // Dr. Lee's home hears of it at once, and counts it.
            #expect(await news.next() == setup.record.id)
            let home = String(buffer: try await lee.send("/").body)
            #expect(home.contains(#"class="ock-badge ock-badge-unread ock-unread-link" data-unread="1" href="\#(base)""#))
            #expect(home.contains(">1 unread message<"), "one message, not messages")
            // The caregiver sees the thread, unread; the list's summary counts it.
            let list = String(buffer: try await sam.send(base).body)
            #expect(list.contains(#"data-thread="\#(thread)""#) && list.contains(#"data-unread="1""#) && list.contains("1 new"))

            // Plain text: the script is text, only the web address is a link.
            let page = String(buffer: try await lee.send("\(base)/\(thread)").body)
            #expect(page.contains(#"<a class="ock-message-link" href="https://example.org/a?b=1" rel="noopener noreferrer nofollow">"#
                                  + "https://example.org/a?b=1</a>. &lt;script&gt;"))
            #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; javascript:alert(2)") && !page.contains("<script>alert(1)"))
            // Read now: the patient's page says who saw it, and when (in the record's time zone: 5 PM in Seoul).
            let anasView = String(buffer: try await ana.send("\(base)/\(thread)").body)
            #expect(anasView.contains("Seen by Dr. Lee at 5:00\u{202F}PM"), "\(anasView)")
            #expect(String(buffer: try await lee.send("/").body).contains("ock-unread-link") == false)

            // The reply: the patient and the caregiver each have it to read.
            let replied = try await lee.send("\(base)/\(thread)", .post, form: ["body": "Please sit down; I will call you."])
            #expect(replied.status == .seeOther && replied.headers[.location] == "\(base)/\(thread)#latest")
            #expect(try await setup.directory.unreadMessageCounts(account: setup.people["ana"]!.id, records: [setup.record.id]) == [setup.record.id: 1])
            #expect(try await setup.directory.unreadMessageCounts(account: setup.people["sam"]!.id, records: [setup.record.id]) == [setup.record.id: 2])
            // Each person's counts, for the record pages' Messages link (numbers only).
            #expect(String(buffer: try await sam.send("/account/unread").body) == #"{"\#(setup.record.id)":2}"#)
            #expect(String(buffer: try await lee.send("/account/unread").body) == "{}")
            let korean = String(buffer: try await ana.send(base, headers: [.acceptLanguage: "ko"]).body)
            #expect(korean.contains("새 메시지 1개") && korean.contains("메시지"))
        }
        // Each look at a thread is in the activity log.
        let reads = try await setup.directory.auditEntries(record: setup.record.id, resource: "message-thread", limit: 50)
        #expect(reads.filter { $0.draft.action == .read }.count == 2 && reads.filter { $0.draft.action == .create }.count == 1)
        #expect(reads.allSatisfy { $0.draft.detail.contains("/messages/{id}") })
    }

    @Test func aTeamNoteReachesTheRecordsCliniciansOnly() async throws {
        let setup = try await People().setup()
        let base = "/records/\(setup.record.id)/messages"
        try await Application(router: setup.host.router()).test(.router) { client in
            let lee = try await People.signedIn(client, "lee@example.org")
            let kim = try await People.signedIn(client, "kim@example.org")
            _ = try await lee.send(base)
            _ = try await kim.send(base)
            // The form offers a team note to clinicians only.
            #expect(String(buffer: try await lee.send(base).body).contains(#"value="care-team""#))
            let noted = try await lee.send(base, .post, form: ["subject": "Dose review", "audience": "care-team", "body": "Halve the dose."])
            let note = try Self.threadID(noted)
            #expect(String(buffer: try await kim.send("\(base)/\(note)").body).contains("Halve the dose."))
            for person in ["ana", "sam"] {
                let browser = try await People.signedIn(client, "\(person)@example.org")
                let list = try await browser.send(base)
                let listText = String(buffer: list.body)
                #expect(list.status == .ok && !listText.contains("Dose review") && !listText.contains(note) && !listText.contains(#"value="care-team""#))
                #expect(try await browser.send("\(base)/\(note)").status == .notFound, "\(person)")
                #expect(!String(buffer: try await browser.send("\(base)/\(note)").body).contains("Halve"))
                let reply = try await browser.send("\(base)/\(note)", .post, form: ["body": "May I see?"])
                #expect(reply.status == .notFound, "\(person)")
                // Asking for a team note of one's own is refused by the directory, whatever the form says.
                let forged = try await browser.send(base, .post, form: ["subject": "x", "audience": "care-team", "body": "x"])
                #expect(forged.status == .notFound, "\(person)")
                let home = try await browser.send("/")
                let landing = home.status == .seeOther ? try await browser.send(try #require(home.headers[.location])) : home
                #expect(!String(buffer: landing.body).contains("Halve") && !String(buffer: landing.body).contains("ock-unread-link"), "\(person)")
            }
            #expect(try await setup.directory.threadMessages(RandomIdentifier(note)!, reader: setup.people["kim"]!.id, before: nil, limit: 10)
                .map(\.body) == ["Halve the dose."], "nothing was added by the refused replies")
        }
    }

    @Test func boundsAreRefusedWithTheWordsKeptAndStrangersGetNotFound() async throws {
        let setup = try await People().setup()
        let base = "/records/\(setup.record.id)/messages"
        try await Application(router: setup.host.router()).test(.router) { client in
            let ana = try await People.signedIn(client, "ana@example.org")
            _ = try await ana.send(base)
            let started = try await ana.send(base, .post, form: ["subject": "Question", "body": "First"])
            let thread = try Self.threadID(started)
            let empty = try await ana.send(base, .post, form: ["subject": "Question", "body": "   "])
            #expect(empty.status == .unprocessableContent && String(buffer: empty.body).contains("Write a message of 1 to 4000 characters."))
            let long = try await ana.send("\(base)/\(thread)", .post, form: ["body": String(repeating: "x", count: CareMessage.maximumBodyLength + 1)])
            #expect(long.status == .unprocessableContent)
            for index in 1..<CareMessage.maximumPerMinutePerPerson {
                #expect(try await ana.send("\(base)/\(thread)", .post, form: ["body": "Message \(index)"]).status == .seeOther)
            }
            let tooMany = try await ana.send("\(base)/\(thread)", .post, form: ["body": "Is anyone there?"])
            let text = String(buffer: tooMany.body)
            #expect(tooMany.status == .tooManyRequests && text.contains("at most 10 messages a minute") && text.contains(">Is anyone there?</textarea>"))
            // A stranger gets 404 on every message route; nothing of the record shows.
            let ben = try await People.signedIn(client, "ben@example.org")
            _ = try await ben.send("/")
            for (path, method) in [(base, HTTPRequest.Method.get), (base, .post), ("\(base)/\(thread)", .get), ("\(base)/\(thread)", .post),
                                   ("\(base)/live", .get)] {
                let answer = try await ben.send(path, method, form: method == .post ? ["subject": "x", "body": "x"] : nil)
                #expect(answer.status == .notFound, "\(method) \(path)")
                #expect(!String(buffer: answer.body).contains("Question") && !String(buffer: answer.body).contains("Ana"), "\(path)")
            }
            // A thread id from another record, named through this one, is no thread here.
            let other = CareRecord(patientName: "Other", timeZoneIdentifier: "UTC", createdDate: Date())
            try await setup.directory.addRecord(other, member: CareMembership(record: other.id, account: setup.people["ana"]!.id, role: .patient,
                                                                              isOwner: true, createdDate: Date()))
            let elsewhere = try await setup.directory.startThread(CareThreadDraft(record: other.id, audience: .everyone, subject: "Elsewhere",
                                                                                  body: "x"), by: setup.people["ana"]!.id,
                                                                  now: People().now.addingTimeInterval(120))
            #expect(try await ana.send("\(base)/\(elsewhere.thread.id)").status == .notFound)
        }
    }

    /// A reply from the triage queue goes into the item's thread with the patient, named after what raised it.
    @Test func aReplyToATriageItemGoesIntoItsThread() async throws {
        let (setup, item) = try await People().raisedItem()
        try await Application(router: setup.host.router()).test(.router) { client in
            let lee = try await People.signedIn(client, "lee@example.org")
            let home = String(buffer: try await lee.send("/").body)
            #expect(home.contains(#"id="message-\#(item.id)""#))
            let form = ["item": item.id.description, "back": "home", "audience": "everyone"]
            let first = try await lee.send("/records/\(setup.record.id)/messages", .post, form: form.merging(["body": "How is the pain now?"]) { $1 })
            #expect(first.status == .seeOther && first.headers[.location] == "/#triage")
            _ = try await lee.send("/records/\(setup.record.id)/messages", .post, form: form.merging(["body": "Still there?"]) { $1 })
            let threads = try await setup.directory.threads(record: setup.record.id, reader: setup.people["ana"]!.id, before: nil, limit: 10)
            #expect(threads.count == 1 && threads.first?.thread.triageItem == item.id && threads.first?.unread == 2)
            #expect(threads.first?.thread.subject == "Check-in: pain 9 (alert at 7 or more)")
        }
    }

    /// A page made before a change, whose stream connects after it, is told at once; a team note's change is not
    /// news to a patient's page.
    @Test func aStreamThatConnectsLateHearsOfWhatItMissed() {
        let activity = RecentRecordActivity()
        let (record, other) = (RandomIdentifier.random(), RandomIdentifier.random())
        let now = Date()
        activity.note(record, audience: .careTeam, at: now)
        #expect(activity.changed(record, audiences: [.everyone, .careTeam], since: now.addingTimeInterval(-1), now: now))
        #expect(!activity.changed(record, audiences: [.everyone], since: now.addingTimeInterval(-1), now: now))
        #expect(!activity.changed(record, audiences: [.everyone, .careTeam], since: now.addingTimeInterval(1), now: now))
        #expect(!activity.changed(other, audiences: [.everyone], since: now.addingTimeInterval(-1), now: now))
        // Too long ago to know: refresh.
        #expect(activity.changed(other, audiences: [.everyone], since: now.addingTimeInterval(-120), now: now))
        // Bounded: past the limit, what is older than the window goes (and the next pruning waits for as many again).
        for _ in 0...RecentRecordActivity.pruneAbove { activity.note(.random(), audience: .everyone, at: now.addingTimeInterval(-300)) }
        #expect(activity.count == RecentRecordActivity.pruneAbove + 2)
        for _ in 0...RecentRecordActivity.pruneAbove { activity.note(.random(), audience: .everyone, at: now) }
        #expect(activity.count <= RecentRecordActivity.pruneAbove + 3)
        #expect(activity.changed(record, audiences: [.careTeam], since: now.addingTimeInterval(-1), now: now), "a change within the window stays")
    }

    /// Only http and https addresses become links; what ends a sentence is left out of them; quotes and brackets end
    /// them; everything else stays text (escaped where it is put).
    @Test func linksAreMadeOfWebAddressesOnly() {
        func rendered(_ text: String) -> String { HTML.element("p", [:], CareHost.linkedText(text)).rendered }
        #expect(rendered("See https://example.org/x?a=1&b=2.") == #"<p>See <a class="ock-message-link" href="https://example.org/x?a=1&amp;b=2" rel="noopener noreferrer nofollow">https://example.org/x?a=1&amp;b=2</a>.</p>"#)
        #expect(rendered(#"javascript:alert(1) data:text/html,<b>x</b> ftp://example.org"#)
                == #"<p>javascript:alert(1) data:text/html,&lt;b&gt;x&lt;/b&gt; ftp://example.org</p>"#)
        #expect(rendered(#"http://a.b/"onmouseover="x"#).contains(#"href="http://a.b/""#))
        #expect(!rendered(#"http://a.b/"onmouseover="x"#).contains(#"onmouseover="x""#))
        #expect(rendered("(http://example.org/page)") .contains(#">http://example.org/page</a>)"#))
    }

    /// A reply names a thread of the record in its address: one of another record the person is in is no thread here.
    @Test func aReplyGoesIntoAThreadOfItsOwnRecordOnly() async throws {
        let setup = try await People().setup()
        let other = CareRecord(patientName: "Other", timeZoneIdentifier: "UTC", createdDate: People().now)
        let ana = setup.people["ana"]!.id
        try await setup.directory.addRecord(other, member: CareMembership(record: other.id, account: ana, role: .patient, isOwner: true,
                                                                          createdDate: People().now))
        let elsewhere = try await setup.directory.startThread(CareThreadDraft(record: other.id, audience: .everyone, subject: "Elsewhere",
                                                                              body: "x"), by: ana, now: People().now)
        try await Application(router: setup.host.router()).test(.router) { client in
            let browser = try await People.signedIn(client, "ana@example.org")
            _ = try await browser.send("/records/\(setup.record.id)/messages")
            let reply = try await browser.send("/records/\(setup.record.id)/messages/\(elsewhere.thread.id)", .post, form: ["body": "Wrong door"])
            #expect(reply.status == .notFound)
        }
        #expect(try await setup.directory.threadMessages(elsewhere.thread.id, reader: ana, before: nil, limit: 10).map(\.body) == ["x"])
    }

    /// The receipt says how far a person read: a message that came after the page was made is not "seen".
    @Test func aThreadIsReadThroughWhatThePageShowed() async throws {
        let setup = try await People().setup()
        let (ana, lee) = (setup.people["ana"]!.id, setup.people["lee"]!.id)
        let asked = try await setup.directory.startThread(CareThreadDraft(record: setup.record.id, audience: .everyone, subject: "Q", body: "one"),
                                                          by: ana, now: People().now)
        _ = try await setup.directory.postMessage(thread: asked.thread.id, body: "two", by: ana, now: People().now)
        #expect(try await setup.directory.markThreadRead(asked.thread.id, reader: lee, through: 1, now: People().now))
        #expect(try await setup.directory.threadReads(asked.thread.id, reader: ana).first { $0.account == lee }?.readThrough == 1)
        #expect(try await setup.directory.unreadMessageCounts(account: lee, records: [setup.record.id]) == [setup.record.id: 1])
        #expect(try await setup.directory.markThreadRead(asked.thread.id, reader: lee, through: 99, now: People().now))
        #expect(try await setup.directory.threadReads(asked.thread.id, reader: ana).first { $0.account == lee }?.readThrough == 2)
    }
}
