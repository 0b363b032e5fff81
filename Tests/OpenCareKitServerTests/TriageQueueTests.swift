import Foundation
import Hummingbird
import HummingbirdTesting
import OpenCareKit
import OpenCareKitDirectory
@testable import OpenCareKitServer
import OpenCareKitStore
import Testing

/// The triage queue on the clinician's home: an alert a record's rule raises becomes an item there at once; a
/// clinician acknowledges it (a second one is told who did, and when), assigns and resolves it with a note; only the
/// record's clinicians act on it, a stranger gets 404, and each action is audited.
@Suite struct TriageQueueTests {
    /// Friday 15 January 2027, 17:00 in Seoul.
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let password = "correct horse battery"

    struct Setup {
        let host: CareHost
        let directory: SQLiteCareDirectory
        let record: CareRecord
        let people: [String: CareAccount]
        let checkIn: OCKTask

        var service: TriageService { host.triageService(sweepsDaily: false) }

        /// Records a check-in with `pain` for today (or `occurrence`), through the record's open server, as any writer would.
        func recordPain(_ pain: Int, occurrence: Int = 3) async throws {
            let server = try #require(try await host.records.server(for: record.id, load: { record }))
            var value = OCKOutcomeValue(pain)
            value.kind = "pain"
            try await server.store.addOutcome(OCKOutcome(taskUUID: checkIn.uuid, taskOccurrenceIndex: occurrence, values: [value]))
        }
    }

    /// Ana's record (she owns it), with Dr. Lee and Dr. Kim as clinicians, Sam as caregiver, and Ben outside it; a daily
    /// check-in from three days ago whose rule raises an urgent alert for pain of 7 or more.
    func setup() async throws -> Setup {
        let directory = try SQLiteCareDirectory(path: nil)
        let hash = try await Passwords.hash(Self.password, cost: 4)
        var people: [String: CareAccount] = [:]
        for (key, name) in [("ana", "Ana Kim"), ("lee", "Dr. Lee"), ("kim", "Dr. Kim"), ("sam", "Sam Park"), ("ben", "Ben Cho")] {
            let account = CareAccount(email: "\(key)@example.org", name: name, passwordHash: hash, createdDate: now)
            try await directory.addAccount(account)
            people[key] = account
        }
        let record = CareRecord(patientName: "Ana Kim", timeZoneIdentifier: "Asia/Seoul", createdDate: now)
        try await directory.addRecord(record, member: CareMembership(record: record.id, account: people["ana"]!.id, role: .patient,
                                                                     isOwner: true, createdDate: now))
        for (key, role) in [("lee", CareRole.clinician), ("kim", .clinician), ("sam", .caregiver)] {
            try await directory.setMembership(CareMembership(record: record.id, account: people[key]!.id, role: role, isOwner: false,
                                                             createdDate: now))
        }
        let host = CareHost(directory: directory, configuration: CareHost.Configuration(passwordCost: 4, now: { [now] in now }))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Seoul")!
        let start = calendar.date(byAdding: .day, value: -3, to: calendar.startOfDay(for: now))!
        var task = OCKTask(id: "check-in", title: "Check-in", carePlanUUID: nil, schedule: OCKSchedule(composing: [
            OCKScheduleElement(start: start, end: nil, interval: DateComponents(day: 1), duration: .allDay, calendar: calendar),
        ]))
        task.effectiveDate = start
        task.setAlertRules([OCKAlertRule(id: "pain", condition: .value(kind: "pain", atLeast: 7, atMost: nil), priority: .urgent)])
        let server = try #require(try await host.records.server(for: record.id, load: { record }))
        let checkIn = try await server.store.addTask(task)
        return Setup(host: host, directory: directory, record: record, people: people, checkIn: checkIn)
    }

    /// The setup with a check-in of pain 9 today, and the item it raised.
    func raisedItem() async throws -> (Setup, CareTriageItem) {
        let setup = try await setup()
        try await setup.recordPain(9)
        await setup.service.changed(setup.record.id)
        return (setup, try #require(try await setup.directory.triageItems(records: [setup.record.id], open: true, limit: 5).first))
    }

    static func signedIn(_ client: any TestClientProtocol, _ email: String) async throws -> TestBrowser {
        let browser = TestBrowser(client)
        try await browser.signIn(email, password)
        return browser
    }

    /// The item ids listed on a home page.
    static func items(_ html: String) -> [String] {
        html.components(separatedBy: #"data-item=""#).dropFirst().map { String($0.prefix(26)) }
    }

    @Test func aHighPainCheckInPutsAnUrgentItemOnTheCliniciansHomeAtOnce() async throws {
        let setup = try await setup()
        var triage = setup.host.triageFeed.subscribe().makeAsyncIterator()
        try await setup.recordPain(5, occurrence: 2)
        await setup.service.changed(setup.record.id)
        #expect(try await setup.directory.triageItems(records: [setup.record.id], open: true, limit: 5).isEmpty)
        try await setup.recordPain(9)
        await setup.service.changed(setup.record.id)
        // The homes hear of the item raised (a pain of 5 raised nothing).
        #expect(await triage.next() == setup.record.id)
        try await Application(router: setup.host.router()).test(.router) { client in
            let lee = try await Self.signedIn(client, "lee@example.org")
            let html = String(buffer: try await lee.send("/").body)
            #expect(Self.items(html).count == 1)
            #expect(html.contains(#"data-open="1" data-urgent="1""#) && html.contains("1 open, 1 urgent"))
            #expect(html.contains("Check-in: pain 9 (alert at 7 or more)"))
            #expect(html.contains("ock-badge-urgent") && html.contains(">Urgent<"))
            #expect(html.contains("New · Assigned to the care team · Raised "))
            #expect(html.contains(#"href="/records/\#(setup.record.id)/care?date=2027-01-15""#))
            // Its forms post to the record's triage routes with the page's CSRF token.
            #expect(html.contains(#"action="/records/\#(setup.record.id)/triage/acknowledge""#))
            #expect(html.contains(#"name="csrf" type="hidden" value="\#(lee.cookie("ock_csrf") ?? "-")""#))
            // In Korean too.
            let korean = String(buffer: try await lee.send("/", headers: [.acceptLanguage: "ko"]).body)
            #expect(korean.contains("열린 항목 1개, 긴급 1개") && korean.contains("Check-in: pain 9 (7 이상이면 알림)"))
            // The patient and her caregiver have no queue.
            for person in ["ana", "sam"] {
                let browser = try await Self.signedIn(client, "\(person)@example.org")
                let landing = try await browser.send("/")
                let page = landing.status == .seeOther ? try await browser.send(try #require(landing.headers[.location])) : landing
                #expect(page.status == .ok && !String(buffer: page.body).contains("ock-triage"), "\(person)")
            }
        }
    }

    @Test func aSecondClinicianSeesWhoAcknowledgedItAndAResolvedItemLeavesTheQueueAudited() async throws {
        let (setup, item) = try await raisedItem()
        let base = "/records/\(setup.record.id)/triage"
        try await Application(router: setup.host.router()).test(.router) { client in
            let lee = try await Self.signedIn(client, "lee@example.org")
            let kim = try await Self.signedIn(client, "kim@example.org")
            _ = try await lee.send("/")
            _ = try await kim.send("/")
            let acknowledged = try await lee.send(base + "/acknowledge", .post, form: ["item": item.id.description])
            #expect(acknowledged.status == .seeOther && acknowledged.headers[.location] == "/#triage")
            #expect(String(buffer: try await kim.send("/").body).contains("Acknowledged by Dr. Lee at "))
            let late = try await kim.send(base + "/acknowledge", .post, form: ["item": item.id.description])
            #expect(late.status == .conflict)
            #expect(String(buffer: late.body).contains("Dr. Lee acknowledged this at "))

            // Assigned to a clinician of the record only.
            let caregiver = try await kim.send(base + "/assign", .post, form: ["item": item.id.description, "owner": setup.people["sam"]!.id.description])
            #expect(caregiver.status == .unprocessableContent)
            let assigned = try await kim.send(base + "/assign", .post, form: ["item": item.id.description, "owner": setup.people["kim"]!.id.description])
            #expect(assigned.status == .seeOther)
            #expect(String(buffer: try await lee.send("/").body).contains("Assigned to Dr. Kim"))

            // Resolved with a note of at most 2,000 characters; without one, or with a longer one, it is not.
            #expect(try await kim.send(base + "/resolve", .post, form: ["item": item.id.description, "note": " "]).status == .unprocessableContent)
            let long = try await kim.send(base + "/resolve", .post, form: ["item": item.id.description,
                                                                           "note": String(repeating: "x", count: CareTriageItem.maximumNoteLength + 1)])
            #expect(long.status == .unprocessableContent && String(buffer: long.body).contains("Write a note of 1 to 2000 characters"))
            let resolved = try await kim.send(base + "/resolve", .post, form: ["item": item.id.description, "note": "Called Ana; the pain eased."])
            #expect(resolved.status == .seeOther)
            let home = String(buffer: try await lee.send("/").body)
            #expect(Self.items(home).isEmpty && home.contains("Nothing open"))
            let done = try #require(try await setup.directory.triageItem(item.id))
            #expect(done.status == .resolved && done.resolvedBy == setup.people["kim"]!.id && done.resolutionNote == "Called Ana; the pain eased.")
            let late2 = try await lee.send(base + "/resolve", .post, form: ["item": item.id.description, "note": "Me too"])
            #expect(late2.status == .conflict && String(buffer: late2.body).contains("Dr. Kim resolved this at "))
        }
        // Every action passed the record's gate, which audited it (the refused ones as allowed requests that changed
        // nothing).
        let entries = try await setup.directory.auditEntries(record: setup.record.id, resource: "triage", limit: 50)
        #expect(entries.count == 8 && entries.allSatisfy { $0.draft.action == .update && $0.draft.outcome == .allowed })
    }

    @Test func onlyTheRecordsCliniciansActAndAStrangerGetsNotFound() async throws {
        let (setup, item) = try await raisedItem()
        let base = "/records/\(setup.record.id)/triage"
        try await Application(router: setup.host.router()).test(.router) { client in
            for (person, status) in [("ana", HTTPResponse.Status.forbidden), ("sam", .forbidden), ("ben", .notFound)] {
                let browser = try await Self.signedIn(client, "\(person)@example.org")
                _ = try await browser.send("/")
                for action in ["acknowledge", "assign", "resolve"] {
                    let answer = try await browser.send(base + "/" + action, .post, form: ["item": item.id.description, "note": "x"])
                    #expect(answer.status == status, "\(person) \(action)")
                }
            }
            // An item of another record, named through this one, does not exist here.
            let other = CareRecord(patientName: "Other", timeZoneIdentifier: "UTC", createdDate: now)
            try await setup.directory.addRecord(other, member: CareMembership(record: other.id, account: setup.people["lee"]!.id,
                                                                              role: .clinician, isOwner: true, createdDate: now))
            let alert = CareTriageAlert(cause: "t/r", taskID: "t", taskTitle: nil, ruleID: "r", rule: "{}", priority: .routine,
                                        observed: 1, evidence: ["x"], outcomeIDs: [], latest: now)
            let foreign = try #require(try await setup.directory.raiseTriage([alert], record: other.id, now: now).raised.first)
            let lee = try await Self.signedIn(client, "lee@example.org")
            _ = try await lee.send("/")
            let answer = try await lee.send(base + "/acknowledge", .post, form: ["item": foreign.id.description])
            #expect(answer.status == .notFound && String(buffer: answer.body).contains("There is no such item in this record."))
            #expect(try await setup.directory.triageItem(foreign.id)?.status == .new)
        }
        #expect(try await setup.directory.triageItem(item.id)?.status == .new, "nothing changed")
    }

    /// The same cause updates its open item instead of adding one; the homes hear of it.
    @Test func aRepeatedAlertUpdatesTheOpenItem() async throws {
        let setup = try await setup()
        try await setup.recordPain(9)
        await setup.service.changed(setup.record.id)
        let server = try #require(try await setup.host.records.server(for: setup.record.id, load: { setup.record }))
        var value = OCKOutcomeValue(8)
        value.kind = "pain"
        try await server.store.addOutcome(OCKOutcome(taskUUID: setup.checkIn.uuid, taskOccurrenceIndex: 2, values: [value]))
        var triage = setup.host.triageFeed.subscribe().makeAsyncIterator()
        await setup.service.changed(setup.record.id)
        #expect(await triage.next() == setup.record.id)
        let items = try await setup.directory.triageItems(records: [setup.record.id], open: true, limit: 5)
        #expect(items.count == 1 && items.first?.raisedCount == 2 && items.first?.alert.evidence.count == 2)
    }

    /// The home lists 50 open items, urgent first, and counts them all.
    /// The home lists the 20 most pressing items and says how many there are; the whole queue is a link away.
    @Test func theHomeListsTwentyItemsAndTheWholeQueueIsAPageAway() async throws {
        let setup = try await setup()
        // One more than the home lists.
        let alerts = (0...CareHost.triageHomeLimit).map { index in
            CareTriageAlert(cause: "t\(index)/r", taskID: "t\(index)", taskTitle: "Task \(index)", ruleID: "r", rule: "{}",
                            priority: index == 7 ? .urgent : .routine, observed: 1, evidence: ["e"], outcomeIDs: [], latest: now)
        }
        #expect(try await setup.directory.raiseTriage(alerts, record: setup.record.id, now: now).raised.count == CareHost.triageHomeLimit + 1)
        try await Application(router: setup.host.router()).test(.router) { client in
            let lee = try await Self.signedIn(client, "lee@example.org")
            let html = String(buffer: try await lee.send("/").body)
            #expect(Self.items(html).count == CareHost.triageHomeLimit)
            #expect(html.contains("Showing 1–20 of 21 open items.") && html.contains("21 open, 1 urgent"))
            #expect(html.range(of: "ock-triage-item ock-urgent").map { html[..<$0.lowerBound].components(separatedBy: "data-item=").count } == 1,
                    "the urgent item comes first")
            #expect(html.contains(#"href="/triage">All 21 open items<"#))
            // The whole queue, a page at a time: the same order, each item once.
            let whole = String(buffer: try await lee.send("/triage").body)
            #expect(Self.items(whole).count == 21 && Array(Self.items(whole).prefix(20)) == Self.items(html))
            #expect(whole.contains(#"<h1 id="triage-title">Triage queue</h1>"#) && !whole.contains(#"rel="next""#))
            // The patient has no queue: her home.
            // Acting from a page of the whole queue comes back to it.
            let first = try #require(Self.items(whole).first)
            let acted = try await lee.send("/records/\(setup.record.id)/triage/acknowledge", .post, form: ["item": first, "back": "/triage"])
            #expect(acted.status == .seeOther && acted.headers[.location] == "/triage")
            let elsewhere = try await lee.send("/records/\(setup.record.id)/triage/assign", .post,
                                               form: ["item": first, "owner": "", "back": "https://example.org/"])
            #expect(elsewhere.headers[.location] == "/#triage")
            // The records the queue showed are audited, as the home's rows are: Dr. Kim's first look is the queue.
            let kim = try await Self.signedIn(client, "kim@example.org")
            _ = try await kim.send("/triage")
            let looks = try await setup.directory.auditEntries(record: setup.record.id, resource: "summary", limit: 10)
            #expect(looks.contains { $0.draft.account == setup.people["kim"]!.id && $0.draft.detail == "GET /triage" })
            // The patient has no queue: her home.
            let ana = try await Self.signedIn(client, "ana@example.org")
            let hers = try await ana.send("/triage")
            #expect(hers.status == .seeOther && hers.headers[.location] == "/")
        }
    }
}
