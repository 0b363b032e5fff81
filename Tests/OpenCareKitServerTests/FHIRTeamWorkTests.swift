import Foundation
import Hummingbird
import HummingbirdTesting
import OpenCareKit
import OpenCareKitDirectory
import OpenCareKitFHIR
@testable import OpenCareKitServer
import OpenCareKitStore
import Testing

/// The care team's work as FHIR: alerts as Flags, triage items as Tasks, threads and messages as Communications
/// (`partOf` their header) — in the record's Bundle and the read API, for what each reader sees; and read back by the
/// import, within the record's bounds.
@Suite struct FHIRTeamWorkTests {
    typealias People = TriageQueueTests

    /// Ana's record with an item worked to the end and one open, a conversation and a team note.
    func workedRecord() async throws -> (TriageQueueTests.Setup, CareTriageItem) {
        let (setup, item) = try await People().raisedItem()
        let (lee, ana, kim) = (setup.people["lee"]!.id, setup.people["ana"]!.id, setup.people["kim"]!.id)
        let now = People().now
        _ = try await setup.directory.actOnTriageItem(item.id, .acknowledge, by: lee, now: now)
        _ = try await setup.directory.actOnTriageItem(item.id, .resolve(note: "Called Ana; rest and ice."), by: kim, now: now.addingTimeInterval(60))
        let alert = CareTriageAlert(cause: "check-in/quiet", taskID: "check-in", taskTitle: "Check-in", ruleID: "quiet", rule: #"{"id":"quiet"}"#,
                                    priority: .routine, observed: 3, evidence: ["day:2027-01-13"], outcomeIDs: [], latest: now)
        _ = try await setup.directory.raiseTriage([alert], record: setup.record.id, now: now)
        let asked = try await setup.directory.startThread(CareThreadDraft(record: setup.record.id, audience: .everyone, subject: "Pain 9",
                                                                          triageItem: item.id, body: "How is the pain now?"), by: lee, now: now)
        _ = try await setup.directory.postMessage(thread: asked.thread.id, body: "Better after rest ☺", by: ana, now: now.addingTimeInterval(30))
        _ = try await setup.directory.startThread(CareThreadDraft(record: setup.record.id, audience: .careTeam, subject: "Dose",
                                                                  body: "Halve the dose if it comes back."), by: lee, now: now.addingTimeInterval(40))
        return (setup, item)
    }

    static func resources(_ response: TestResponse) throws -> [FHIRJSON] {
        let bundle = try JSONDecoder().decode(FHIRJSON.self, from: Data(buffer: response.body))
        return (bundle["entry"]?.array ?? []).compactMap { $0["resource"] }
    }

    @Test func eachReaderGetsWhatTheySeeInTheBundleAndTheReadAPI() async throws {
        let (setup, item) = try await workedRecord()
        try await Application(router: setup.host.router()).test(.router) { client in
            let lee = try await People.signedIn(client, "lee@example.org")
            let bundle = try Self.resources(try await lee.send("/records/\(setup.record.id)/fhir/export"))
            let kinds = Dictionary(grouping: bundle, by: { $0["resourceType"]?.string ?? "" })
            #expect(kinds["Flag"]?.count == 2 && kinds["Task"]?.count == 2 && kinds["Communication"]?.count == 5)
            let task = try #require(kinds["Task"]?.first { $0["id"]?.string == item.id.description })
            #expect(task["status"]?.string == "completed" && task["priority"]?.string == "urgent")
            #expect(task["focus"]?["reference"]?.string == "Flag/\(item.id)")
            #expect(task["note"]?.array?.first?["text"]?.string == "Called Ana; rest and ice.")
            #expect(task["note"]?.array?.first?["authorString"]?.string == "Dr. Kim")
            let messages = kinds["Communication"]?.filter { $0["partOf"] != nil } ?? []
            #expect(messages.compactMap { $0["payload"]?.array?.first?["contentString"]?.string }.sorted()
                    == ["Better after rest ☺", "Halve the dose if it comes back.", "How is the pain now?"])
            #expect(messages.first { $0["sender"]?["display"]?.string == "Ana Kim" } != nil)
            // Every reference resolves within the Bundle.
            let present = Set(bundle.compactMap { resource in resource["id"]?.string.map { "\(resource["resourceType"]?.string ?? "")/\($0)" } })
            let references = bundle.flatMap { [$0["focus"], $0["partOf"]?.array?.first].compactMap { $0?["reference"]?.string } }
            #expect(!references.isEmpty && Set(references).isSubset(of: present))

            // The patient's Bundle: her conversation, not the team note, no triage.
            let ana = try await People.signedIn(client, "ana@example.org")
            let hers = try Self.resources(try await ana.send("/records/\(setup.record.id)/fhir/export"))
            let text = hers.map(\.text).joined()
            #expect(!text.contains("Halve the dose") && !text.contains(#""resourceType":"Flag""#) && !text.contains(#""resourceType":"Task""#))
            #expect(text.contains("Better after rest"))
            // The read API: the same, by role; a stranger gets 404.
            let search = "/fhir/R4/Communication?patient=\(setup.record.id)"
            #expect(String(buffer: try await lee.send(search).body).contains("Halve the dose"))
            let anas = try await ana.send(search)
            #expect(anas.status == .ok && !String(buffer: anas.body).contains("Halve the dose") && String(buffer: anas.body).contains("How is the pain"))
            #expect(try await ana.send("/fhir/R4/Flag?patient=\(setup.record.id)").status == .forbidden)
            #expect(try await ana.send("/fhir/R4/Task?patient=\(setup.record.id)").status == .forbidden)
            let flags = String(buffer: try await lee.send("/fhir/R4/Flag?patient=\(setup.record.id)").body)
            #expect(flags.contains(#""total":2"#))
            let ben = try await People.signedIn(client, "ben@example.org")
            for type in ["Communication", "Flag", "Task"] {
                #expect(try await ben.send("/fhir/R4/\(type)?patient=\(setup.record.id)").status == .notFound, "\(type)")
            }
        }
        // Each read was audited.
        let reads = try await setup.directory.auditEntries(record: setup.record.id, resource: "api:Communication", limit: 10)
        #expect(reads.filter { $0.draft.outcome == .allowed }.count == 2 && reads.filter { $0.draft.outcome == .denied }.count == 1)
    }

    @Test func theImportReadsTheTeamsWorkBackAsItWas() async throws {
        let (setup, item) = try await workedRecord()
        let lee = setup.people["lee"]!.id
        try await Application(router: setup.host.router()).test(.router) { client in
            let browser = try await People.signedIn(client, "lee@example.org")
            let exported = Data(buffer: try await browser.send("/records/\(setup.record.id)/fhir/export").body)
            let imported = try FHIRImport().read(exported).teamWork
            #expect(imported.threads.count == 2 && imported.triageItems.count == 2)
            let worked = try #require(imported.triageItems.first { $0.alert.cause == item.alert.cause })
            #expect(worked.status == .resolved && worked.resolutionNote == "Called Ana; rest and ice." && worked.alert.priority == .urgent)
            #expect(worked.alert.evidence == item.alert.evidence && worked.alert.observed == item.alert.observed && worked.acknowledgedDate != nil)
            let conversation = try #require(imported.threads.first { $0.thread.subject == "Pain 9" })
            #expect(conversation.messages.map(\.body) == ["How is the pain now?", "Better after rest ☺"])
            #expect(conversation.messages.map(\.authorName) == ["Dr. Lee", "Ana Kim"] && conversation.thread.triageItem == worked.id)

            // Into another record: the same words, the same order, the same audiences; an item answered by its thread.
            let copy = CareRecord(patientName: "Copy", timeZoneIdentifier: "Asia/Seoul", createdDate: People().now)
            try await setup.directory.addRecord(copy, member: CareMembership(record: copy.id, account: lee, role: .clinician, isOwner: true,
                                                                             createdDate: People().now))
            try await setup.directory.importTeamWork(imported, record: copy.id, now: People().now)
            let threads = try await setup.directory.threads(record: copy.id, reader: lee, before: nil, limit: 10)
            #expect(Set(threads.map(\.thread.subject)) == ["Pain 9", "Dose"] && threads.allSatisfy { $0.unread == $0.thread.messageCount })
            let copied = try #require(threads.first { $0.thread.subject == "Pain 9" }?.thread)
            let messages = try await setup.directory.threadMessages(copied.id, reader: lee, before: nil, limit: 10)
            #expect(messages.map(\.body) == ["How is the pain now?", "Better after rest ☺"] && messages.map(\.position) == [1, 2])
            #expect(messages.allSatisfy { $0.author == nil } && messages.map(\.authorName) == ["Dr. Lee", "Ana Kim"])
            let items = try await setup.directory.triageItems(records: [copy.id], open: false, limit: 10)
            #expect(items.count == 1 && items.first?.resolutionNote == "Called Ana; rest and ice." && copied.triageItem == items.first?.id)
            #expect(try await setup.directory.triageItems(records: [copy.id], open: true, limit: 10).map(\.alert.cause) == ["check-in/quiet"])
            // Imported once more, into another record: a second copy with ids of its own, not a clash. Into the same record, its
            // open item's cause is open there already: refused, nothing written.
            let second = CareRecord(patientName: "Second copy", timeZoneIdentifier: "Asia/Seoul", createdDate: People().now)
            try await setup.directory.addRecord(second, member: CareMembership(record: second.id, account: lee, role: .clinician, isOwner: true,
                                                                               createdDate: People().now))
            try await setup.directory.importTeamWork(imported, record: second.id, now: People().now)
            let again = try await setup.directory.threads(record: second.id, reader: lee, before: nil, limit: 10)
            #expect(again.count == 2 && Set(again.map(\.thread.id)).isDisjoint(with: threads.map(\.thread.id)))
            await #expect(throws: CareDirectoryError(.conflict, "The record has an open item for a cause the import has open too.")) {
                try await setup.directory.importTeamWork(imported, record: copy.id, now: People().now)
            }
            #expect(try await setup.directory.threads(record: copy.id, reader: lee, before: nil, limit: 10).count == 2)
        }
    }

    @Test func aBundleBeyondWhatARecordKeepsIsRefusedWholeAndClearly() throws {
        let header: FHIRJSON = .object(("resourceType", "Communication"), ("id", "t1"), ("status", "in-progress"), ("topic", .object(("text", "Hi")))),
            patient: FHIRJSON = .object(("resourceType", "Patient"), ("id", "p"))
        func bundle(_ resources: FHIRJSON...) -> Data {
            Data(FHIRJSON.object(("resourceType", "Bundle"), ("type", "collection"),
                                 ("entry", .array(([patient] + resources).map { .object(("resource", $0)) }))).text.utf8)
        }
        func message(_ body: String, partOf: String = "Communication/t1") -> FHIRJSON {
            .object(("resourceType", "Communication"), ("id", .string(UUID().uuidString)), ("partOf", .array([.object(("reference", .string(partOf)))])),
                    ("status", "completed"), ("sent", "2027-01-15T08:00:00Z"), ("payload", .array([.object(("contentString", .string(body)))])))
        }
        #expect(try FHIRImport().read(bundle(header, message("Hello"))).teamWork.threads.first?.messages.map(\.body) == ["Hello"])
        func refusal(_ data: Data) -> String? {
            do { _ = try FHIRImport().read(data); return nil } catch { return "\(error.code): \(error.message)" }
        }
        #expect(refusal(bundle(header, message(String(repeating: "x", count: CareMessage.maximumBodyLength + 1))))
                == "business-rule: A message has 1 to 4000 characters.")
        #expect(refusal(bundle(header)) == "business-rule: A thread has at least one message.")
        #expect(refusal(bundle(header, message("Hi", partOf: "Communication/elsewhere")))?.hasPrefix("invalid: A message is partOf one thread") == true)
        let task: FHIRJSON = .object(("resourceType", "Task"), ("id", "x"), ("status", "requested"), ("intent", "order"),
                                     ("focus", .object(("reference", "Flag/none"))))
        #expect(refusal(bundle(task))?.hasPrefix("invalid: A Task works a Flag of the Bundle") == true)
    }

    /// A record and its imported team work are added together or not at all; an item has one thread per audience.
    @Test func aRecordIsAddedWithItsImportedWorkOrNotAtAll() async throws {
        let directory = try SQLiteCareDirectory(path: nil)
        let now = People().now
        let ana = CareAccount(email: "ana@example.org", name: "Ana", passwordHash: "x", createdDate: now)
        try await directory.addAccount(ana)
        let alert = CareTriageAlert(cause: "c", taskID: "t", taskTitle: nil, ruleID: "r", rule: "{}", priority: .routine, observed: 1,
                                    evidence: ["e"], outcomeIDs: [], latest: now)
        let item = CareTriageItem(id: .random(), record: .random(), alert: alert, status: .new, raisedDate: now, updatedDate: now, raisedCount: 1)
        func thread(_ subject: String) -> CareTeamWork.Thread {
            CareTeamWork.Thread(thread: CareThread(id: .random(), record: .random(), audience: .everyone, subject: subject, triageItem: item.id,
                                                   startedBy: nil, startedDate: now, lastMessageDate: now, messageCount: 0),
                                messages: [CareMessage(id: .random(), thread: .random(), record: .random(), author: nil, authorName: "Dr. Lee",
                                                       position: 1, body: "How are you?", sentDate: now)])
        }
        let twice = CareTeamWork(threads: [thread("One"), thread("Two")], triageItems: [item])
        #expect(twice.problem() == "An item has one thread of each audience.")
        let record = CareRecord(patientName: "Ana", timeZoneIdentifier: "UTC", createdDate: now)
        await #expect(throws: CareDirectoryError(.conflict, "An item has one thread of each audience.")) {
            try await directory.addRecord(record, member: CareMembership(record: record.id, account: ana.id, role: .patient, isOwner: true,
                                                                         createdDate: now), teamWork: twice)
        }
        #expect(try await directory.record(record.id) == nil)
        #expect(try await directory.memberships(of: ana.id).isEmpty)
        let once = CareTeamWork(threads: [thread("One")], triageItems: [item])
        try await directory.addRecord(record, member: CareMembership(record: record.id, account: ana.id, role: .patient, isOwner: true,
                                                                     createdDate: now), teamWork: once)
        #expect(try await directory.threads(record: record.id, reader: ana.id, before: nil, limit: 5).map(\.thread.subject) == ["One"])
    }
}
