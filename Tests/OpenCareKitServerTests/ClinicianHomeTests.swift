import Foundation
import Hummingbird
import HummingbirdTesting
import OpenCareKit
import OpenCareKitDirectory
@testable import OpenCareKitServer
import OpenCareKitStore
import Testing

/// The clinician's home: summaries and flags, sorted by need, remembered until a record changes, audited, live.
@Suite struct ClinicianHomeTests {
    /// Monday 16 November 2026, 15:00 UTC.
    let now = Date(timeIntervalSince1970: 1_794_841_200)
    var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    /// A store with a daily 9:00 dose and a daily check-in of pain, for the 7 days up to today.
    func store(missedDoseDays: Set<Int>, pain: [Int: Int]) async throws -> OCKStore {
        let store = OCKStore(name: "summary", type: .inMemory)
        let start = calendar.date(byAdding: .day, value: -6, to: calendar.startOfDay(for: now))!
        var target = OCKOutcomeValue(400.0, units: "mg")
        target.kind = "dose"
        let dose = OCKScheduleElement(start: start.addingTimeInterval(9 * 3600), end: nil, interval: DateComponents(day: 1),
                                      targetValues: [target], calendar: calendar)
        var task = OCKTask(id: "dose", title: "Dose", carePlanUUID: nil, schedule: OCKSchedule(composing: [dose]))
        task.effectiveDate = start
        let checkIn = OCKScheduleElement(start: start, end: nil, interval: DateComponents(day: 1), duration: .allDay, calendar: calendar)
        var survey = OCKTask(id: "check-in", title: "Check-in", carePlanUUID: nil, schedule: OCKSchedule(composing: [checkIn]))
        survey.effectiveDate = start
        survey.impactsAdherence = false
        let tasks = try await store.addTasks([task, survey])
        var outcomes: [OCKOutcome] = []
        // Days 0 (six days ago) to 5 (yesterday) are over; today (6) has its dose done.
        for day in 0...6 where !missedDoseDays.contains(day) {
            outcomes.append(OCKOutcome(taskUUID: tasks[0].uuid, taskOccurrenceIndex: day, values: [OCKOutcomeValue(true)]))
        }
        for (day, score) in pain {
            var value = OCKOutcomeValue(score)
            value.kind = "pain"
            outcomes.append(OCKOutcome(taskUUID: tasks[1].uuid, taskOccurrenceIndex: day, values: [value]))
        }
        try await store.addOutcomes(outcomes)
        return store
    }

    @Test func aSummaryFlagsMissedDosesOnTwoDaysAndPainOfSevenByDefault() async throws {
        let rules = ClinicianFlagRules()
        let quiet = try await PatientSummary(store: store(missedDoseDays: [2], pain: [5: 6]), calendar: calendar, now: now, rules: rules)
        #expect(quiet.flags.isEmpty)
        #expect(quiet.days.count == 7)
        #expect(quiet.days.map(\.completion) == [1, 1, 0, 1, 1, 1, 1])
        #expect(quiet.days.last?.day == calendar.startOfDay(for: now))
        #expect(abs((quiet.adherence ?? 0) - 6.0 / 7) < 1e-9)
        #expect(quiet.lastActivity != nil)

        let flagged = try await PatientSummary(store: store(missedDoseDays: [1, 4], pain: [3: 8, 5: 7]), calendar: calendar, now: now, rules: rules)
        #expect(flagged.flags == [.missedDoses(days: 2), .pain(score: 8)])

        // The server's rules decide: three days, pain of nine; or no rules at all.
        let strict = ClinicianFlagRules(missedDoseDays: 3, painScore: 9)
        let lenient = try await PatientSummary(store: store(missedDoseDays: [1, 4], pain: [3: 8]), calendar: calendar, now: now, rules: strict)
        #expect(lenient.flags.isEmpty)
        let off = try await PatientSummary(store: store(missedDoseDays: [0, 1, 2, 3, 4, 5], pain: [3: 10]), calendar: calendar, now: now,
                                           rules: ClinicianFlagRules(missedDoseDays: nil, painScore: nil))
        #expect(off.flags.isEmpty)
        // A dose not yet due today is not missed.
        let today = try await PatientSummary(store: store(missedDoseDays: [6], pain: [:]), calendar: calendar, now: now, rules: rules)
        #expect(today.flags.isEmpty)
    }

    /// Need first, from what is known without reading a store: urgent items, then more open items, then flags of the
    /// last summary, then names as people sort them; a search ignores case and accents; pages clamp to the last.
    @Test func needComesFirstThenNames() async throws {
        let directory = try SQLiteCareDirectory(path: nil)
        let host = CareHost(directory: directory, configuration: CareHost.Configuration(passwordCost: 4, now: { [now] in now }))
        let records = ["Émile", "adam", "Zoe", "Bea", "Cy", "Dora"].map { CareRecord(patientName: $0, timeZoneIdentifier: "UTC", createdDate: now) }
        for record in records { try await directory.addRecord(record, member: nil) }
        let id = Dictionary(uniqueKeysWithValues: records.map { ($0.patientName, $0.id) })
        func alert(_ cause: String, urgent: Bool = false) -> CareTriageAlert {
            CareTriageAlert(cause: cause, taskID: "t", taskTitle: nil, ruleID: cause, rule: "{}", priority: urgent ? .urgent : .routine,
                            observed: 1, evidence: ["e"], outcomeIDs: [], latest: now)
        }
        _ = try await directory.raiseTriage([alert("a", urgent: true)], record: id["Zoe"]!, now: now)
        _ = try await directory.raiseTriage([alert("a"), alert("b")], record: id["Bea"]!, now: now)
        _ = try await directory.raiseTriage([alert("a")], record: id["Cy"]!, now: now)
        host.summaries.rememberUnreadable(id["Dora"]!)
        let page = try await host.patientPage(records, query: nil, offset: 0, size: 50)
        #expect(page.records.map(\.patientName) == ["Zoe", "Bea", "Cy", "Dora", "adam", "Émile"])
        #expect(page.counts[id["Bea"]!] == CareTriageCounts(open: 2, urgent: 0) && page.needsAttention(id["Dora"]!) && !page.needsAttention(id["adam"]!))
        #expect(try await host.patientPage(records, query: "EMILE", offset: 0, size: 50).records.map(\.patientName) == ["Émile"])
        let last = try await host.patientPage(records, query: nil, offset: 99, size: 4)
        #expect(last.offset == 4 && last.records.map(\.patientName) == ["adam", "Émile"] && last.matching == 6)
        #expect(try await host.patientPage([], query: nil, offset: 3, size: 4).records.isEmpty)
        // A form's query: "+" is a space.
        #expect(CareHost.formValue("q", in: "from=2&q=maria+santos%21") == "maria santos!")
    }

    /// A host over a temporary data directory with the demo people and `clinicSize` patients of Dr. Lee.
    func demoHost(clinicSize: Int, configure: (inout CareHost.Configuration) -> Void = { _ in }) async throws -> (CareHost, CareDataDirectory, SQLiteCareDirectory) {
        let folder = FileManager.default.temporaryDirectory.appending(path: "clinician-\(UUID().uuidString)")
        let data = CareDataDirectory(path: folder.path)
        let directory = try data.openDirectory()
        try await DemoPeople.ensure(in: directory, stores: data, calendar: calendar, now: now, passwordCost: 4, clinicSize: clinicSize)
        var configuration = CareHost.Configuration(stores: data, passwordCost: 4, now: { [now] in now })
        configure(&configuration)
        return (CareHost(directory: directory, configuration: configuration), data, directory)
    }

    /// The record ids of the home's patient rows, in order, with their number of flags and of open triage items.
    static func rows(_ html: String) -> [(record: String, flags: Int, open: Int)] {
        html.components(separatedBy: "data-flags=\"").dropFirst().compactMap { part in
            let flags = Int(part.prefix { $0.isNumber }) ?? -1
            guard let range = part.range(of: "data-record=\""), let opened = part.range(of: "data-open=\"") else { return nil }
            return (String(part[range.upperBound...].prefix(26)), flags, Int(part[opened.upperBound...].prefix { $0.isNumber }) ?? -1)
        }
    }

    /// Signs in as Dr. Lee and opens her home, which must answer 200; returns her browser and the page.
    static func clinicianHome(_ client: any TestClientProtocol) async throws -> (TestBrowser, String) {
        let jordan = TestBrowser(client)
        try await jordan.signIn(DemoPeople.clinicianEmail, DemoPeople.demoPassword)
        let response = try await jordan.send("/")
        #expect(response.status == .ok)
        return (jordan, String(buffer: response.body))
    }

    @Test func theClinicianSeesEveryPatientSortedByNeedAndEachOpensTheRecord() async throws {
        let (host, _, directory) = try await demoHost(clinicSize: 12)
        // The day's alerts raised, as the server does at start-up.
        _ = await host.triageService(sweepsDaily: false).sweep(at: now)
        try await Application(router: host.router()).test(.router) { client in
            let (jordan, html) = try await Self.clinicianHome(client)
            let rows = Self.rows(html)
            #expect(rows.count == 13)
            // Patients with open triage items first, found from the directory; the demo has both.
            let needing = rows.prefix { $0.open > 0 }
            #expect(!needing.isEmpty && needing.count < rows.count && rows.dropFirst(needing.count).allSatisfy { $0.open == 0 })
            #expect(html.contains("\(needing.count) of 13 patients need attention."))
            // The rest by name.
            let names = rows.dropFirst(needing.count).compactMap { row in
                html.range(of: #"class="ock-patient-name" href="/records/\#(row.record)/care">"#).map { range in
                    String(html[range.upperBound...].prefix { $0 != "<" })
                }
            }
            #expect(names.count == rows.count - needing.count && names == names.sorted())
            #expect(html.contains("Missed doses on"))
            #expect(html.contains("Pain "))
            #expect(rows.contains { $0.flags == 0 })
            #expect(html.contains("Last activity: today"))
            #expect(html.contains(#"<meta content="/live/home" name="ock-changes">"#))
            for row in rows {
                #expect(html.contains(#"href="/records/\#(row.record)/care""#))
                // Each opens: the clinician is a member of every record listed.
                let page = try await jordan.send("/records/\(row.record)/care")
                #expect(page.status == .ok)
            }
            // Alex, who has not onboarded yet, has no activity.
            #expect(html.contains("No activity yet"))
            // The demo's conversations: two patients in pain wrote to Dr. Lee, who has not read them yet.
            #expect(html.components(separatedBy: "ock-unread-link").count - 1 == 2)
            // Sam, a caregiver only, still gets her one record.
            let sam = TestBrowser(client)
            try await sam.signIn(DemoPeople.caregiverEmail, DemoPeople.demoPassword)
            #expect(try await sam.send("/").status == .seeOther)
            _ = directory
        }
    }

    @Test func summariesAreMadeAgainOnlyForRecordsThatChangedAndViewsAreAudited() async throws {
        let (host, data, directory) = try await demoHost(clinicSize: 4)
        // As on a server that has run a while: the records were last written an hour ago.
        let records = data.url.appending(path: "records")
        for file in try FileManager.default.contentsOfDirectory(atPath: records.path) {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)],
                                                  ofItemAtPath: records.appending(path: file).path)
        }
        try await Application(router: host.router()).test(.router) { client in
            let jordan = TestBrowser(client)
            try await jordan.signIn(DemoPeople.clinicianEmail, DemoPeople.demoPassword)
            let first = String(buffer: try await jordan.send("/").body)
            let made = host.summaries.made
            #expect(made == 5)
            _ = try await jordan.send("/")
            _ = try await jordan.send("/")
            #expect(host.summaries.made == made, "an unchanged home made summaries again")

            // Another process (the command line) records an outcome in one record: only that one is made again.
            let rows = Self.rows(first)
            let changed = try #require(rows.last?.record)
            let changedID = try #require(CareRecordID(changed))
            let record = try #require(try await directory.record(changedID))
            let writer = try data.store(for: record)
            let events = try await writer.fetchEvents(query: OCKEventQuery(for: now)).filter(\.task.impactsAdherence)
            if let event = events.first(where: { $0.outcome == nil }) {
                try await writer.addOutcome(OCKOutcome(taskUUID: event.task.uuid, taskOccurrenceIndex: event.scheduleEvent.occurrence,
                                                       values: [OCKOutcomeValue(true)]))
            } else {
                try await writer.deleteOutcome(try #require(events.first?.outcome))
            }
            let before = host.summaries.made
            let after = String(buffer: try await jordan.send("/").body)
            #expect(host.summaries.made == before + 1)
            #expect(after != first)

            // Each patient's summary view is audited once per idle timeout, not on every refresh.
            for row in rows {
                let id = try #require(CareRecordID(row.record))
                let entries = try await directory.auditEntries(record: id, limit: 50, offset: 0)
                #expect(entries.filter { $0.draft.resource == "summary" }.count == 1)
            }
        }
    }

    @Test func aSummaryOfAFileWrittenAsItWasReadIsNotTrusted() throws {
        let summaries = PatientSummaries()
        let record = CareRecordID.random()
        let summary = PatientSummary(days: [], lastActivity: nil, flags: [])
        var signature = StoreFileSignature(path: "/nonexistent")
        signature.database = .init(inode: 1, size: 4096, seconds: 1_000, nanoseconds: 0)
        // Written in the same moment it was read: a later write could leave the same stamp, so it is made again.
        summaries.remember(summary, of: record, revision: .stored(try #require(signature.revision)), day: "2026-11-16", readTime: 1_000.01)
        #expect(summaries.summary(of: record, revision: .stored(try #require(signature.revision)), day: "2026-11-16") == nil)
        summaries.remember(summary, of: record, revision: .stored(try #require(signature.revision)), day: "2026-11-16", readTime: 1_001)
        #expect(summaries.summary(of: record, revision: .stored(try #require(signature.revision)), day: "2026-11-16") == summary)
        // Another day, or another stamp, is another summary.
        #expect(summaries.summary(of: record, revision: .stored(try #require(signature.revision)), day: "2026-11-17") == nil)
        signature.log = .init(inode: 2, size: 32, seconds: 999, nanoseconds: 0)
        #expect(summaries.summary(of: record, revision: .stored(try #require(signature.revision)), day: "2026-11-16") == nil)
    }

    @Test func aDamagedRecordIsListedAsUnreadableAndTheOthersStillShow() async throws {
        let (host, data, directory) = try await demoHost(clinicSize: 2)
        let jordan = try #require(try await directory.account(email: DemoPeople.clinicianEmail))
        let damaged = try #require(try await directory.memberships(of: jordan.id).first { $0.record.patientName != "Alex Rivera" }?.record)
        try Data("not a store".utf8).write(to: URL(fileURLWithPath: try data.storeFile(for: damaged)))
        try await Application(router: host.router()).test(.router) { client in
            let (_, html) = try await Self.clinicianHome(client)
            let rows = Self.rows(html)
            #expect(rows.count == 3)
            #expect(rows.contains { $0.record == damaged.id.description && $0.flags == 1 })
            #expect(html.contains("The record could not be read"))
            #expect(html.contains("Last activity: "), "the other records still show")
            // Known now, it comes first (no triage item in this record's way).
            let (_, again) = try await Self.clinicianHome(client)
            #expect(Self.rows(again).first?.record == damaged.id.description)
            #expect(again.contains(" of 3 patients need attention.") && !again.contains("0 of 3 patients need attention."))
        }
    }

    @Test func aClinicianSeesHerPatientsAPageAtATimeAndFindsThemByName() async throws {
        let (host, _, _) = try await demoHost(clinicSize: 3) { $0.clinicianHomeLimit = 2 }
        try await Application(router: host.router()).test(.router) { client in
            let (jordan, html) = try await Self.clinicianHome(client)
            let first = Self.rows(html)
            #expect(first.count == 2 && html.contains("Showing 1–2 of 4 patients."))
            // Only the page's stores were read for their summaries.
            #expect(host.summaries.made == 2)
            #expect(html.contains(#"href="/?from=2" rel="next""#) && !html.contains(#"rel="prev""#))
            let next = String(buffer: try await jordan.send("/?from=2").body)
            let second = Self.rows(next)
            #expect(second.count == 2 && Set(second.map(\.record)).isDisjoint(with: first.map(\.record)))
            #expect(next.contains("Showing 3–4 of 4 patients.") && next.contains(#"href="/" rel="prev""#))
            // Beyond the last page: the last page.
            #expect(Self.rows(String(buffer: try await jordan.send("/?from=400").body)).map(\.record) == second.map(\.record))
            // A name, whatever its case; a name no one has, said so.
            let found = String(buffer: try await jordan.send("/?q=maria+santos").body)
            #expect(Self.rows(found).count == 1 && found.contains(">Maria Santos<") && found.contains(#"value="maria santos""#))
            // The query stays in the pages' addresses, encoded.
            let korean = String(buffer: try await jordan.send("/?q=%EC%82%B0").body)
            #expect(korean.contains(#"<meta content="/?q=%EC%82%B0" name="ock-refresh">"#))
            let none = String(buffer: try await jordan.send("/?q=%3Cb%3Enobody").body)
            #expect(Self.rows(none).isEmpty && none.contains("No patient&#39;s name contains “&lt;b&gt;nobody”."))
        }
    }

    @Test func theHomeFollowsChangesToTheClinicianRecordsOnly() async throws {
        let (host, _, directory) = try await demoHost(clinicSize: 1)
        let jordan = try #require(try await directory.account(email: DemoPeople.clinicianEmail))
        // A record Dr. Lee is not a member of.
        let other = CareRecord(patientName: "Someone Else", timeZoneIdentifier: "UTC", createdDate: now)
        try await directory.addRecord(other, member: nil)
        let mine = try #require(try await directory.memberships(of: jordan.id).first { $0.record.patientName != "Alex Rivera" }?.record)

        var changes = host.changes(of: jordan.id, throttle: .zero).makeAsyncIterator()
        // Writes through each record's open server reach the feed; only Dr. Lee's record comes through.
        for record in [other, mine] {
            let server = try #require(try await host.records.server(for: record.id, load: { record }))
            try await server.store.addTask(OCKTask(id: "new-\(record.id)", title: "New", carePlanUUID: nil,
                                                   schedule: .dailyAtTime(hour: 9, minutes: 0, start: now, end: nil, text: nil)))
        }
        #expect(await changes.next() == mine.id)
    }
}
