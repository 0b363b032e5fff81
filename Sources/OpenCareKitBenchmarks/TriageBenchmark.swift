import Foundation
import OpenCareKitDirectory
import Synchronization
import OpenCareKit
import OpenCareKitServer
import OpenCareKitStore

/// Issue 41's figures for the triage queue, each beside a reference measured in the same run:
/// 1. The daily sweep of `records` records on disk (the demo plan, its alert rules, `historyDays` of made-up care):
///    one sweep (`TriageService.sweep`), against opening each record's store and reading its tasks — the least a sweep
///    that looks at every record can cost.
/// 2. The queue of a clinician with `patients` patients and `items` open items: making the home's queue (the
///    directory's reads and the HTML), warm, against the directory's read of the items alone.
/// 3. One outcome that raises an alert, until `homes` clinicians' live homes hear of it (the triage service running
///    as in `serve`), against the outcome's own write.
struct TriageBenchmark {
    var records = 10_000
    var historyDays = 7
    var patients = 500
    var items = 2_000
    var homes = 50
    var rounds = 200

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
    }

    static func met(_ value: Double, _ target: Double) -> String { value <= target ? "met" : "NOT met" }

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "triage-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        print("Triage benchmark: \(records) records (\(historyDays) days of care each) for the sweep; a clinician with "
              + "\(patients) patients and \(patients * max(1, items / max(patients, 1))) open items; \(homes) live homes")
        print("")
        try await sweep(in: folder.appending(path: "sweep"))
        try await queue()
        try await live()
    }

    /// Part 1.
    private func sweep(in folder: URL) async throws {
        let data = CareDataDirectory(path: folder.path)
        let directory = try data.openDirectory()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/New_York")!
        let now = Date()
        let seeding = ContinuousClock.now
        var made: [CareRecord] = []
        for index in 0..<records {
            let record = CareRecord(patientName: "Patient \(index)", timeZoneIdentifier: calendar.timeZone.identifier,
                                    carePlan: CarePlanCatalog.demo, createdDate: now)
            try await directory.addRecord(record, member: nil)
            let store = try data.store(for: record)
            try store.open()
            CarePlanCatalog.installRules(on: store, for: record, now: { now })
            // As a clinic's patients: most keep to the plan, some miss doses, some have pain, a few went quiet.
            let habits = DemoHistory.Habits(adherence: index % 3 == 0 ? 0.4 : 0.9, pain: index % 4 == 0 ? 7 : 3,
                                            quietDays: index % 10 == 9 ? 4 : 0, painSpike: index % 5 == 0)
            try await DemoHistory.seed(into: store, calendar: calendar, days: historyDays, now: now, habits: habits, seed: UInt64(index + 1))
            made.append(record)
        }
        print(String(format: "seeded %d records in %.1f s", records, Self.seconds(ContinuousClock.now - seeding)))

        // The reference: each store opened and its tasks read.
        let reading = ContinuousClock.now
        for record in made {
            let store = try data.openReadingStore(for: record)
            _ = try await store.fetchTasks(query: OCKTaskQuery(for: now))
        }
        let reference = Self.seconds(ContinuousClock.now - reading)

        let host = CareHost(directory: directory, configuration: CareHost.Configuration(stores: data, now: { now }))
        let service = host.triageService(sweepsDaily: true)
        let sweeping = ContinuousClock.now
        let looked = await service.sweep(at: now)
        let sweep = Self.seconds(ContinuousClock.now - sweeping)
        let counts = try await directory.openTriageCounts(records: made.map(\.id))
        print("")
        print("daily sweep                                   s       records   open items")
        print(String(format: "sweep of every record                   %7.2f   %9d   %10d", sweep, looked, counts.open))
        print(String(format: "reference: open each store, read tasks  %7.2f   %9d", reference, made.count))
        print(String(format: "Daily rules of %d records: %.2f s (target <= 30 s): %@", records, sweep, Self.met(sweep, 30)))
    }

    /// Part 2.
    private func queue() async throws {
        let directory = try SQLiteCareDirectory(path: nil)
        let now = Date()
        let lee = CareAccount(email: "lee@example.org", name: "Dr. Lee", passwordHash: "-", createdDate: now)
        try await directory.addAccount(lee)
        var records: [CareRecord] = []
        for index in 0..<patients {
            let record = CareRecord(patientName: "Patient \(index)", timeZoneIdentifier: "Asia/Seoul", createdDate: now)
            try await directory.addRecord(record, member: CareMembership(record: record.id, account: lee.id, role: .clinician, isOwner: false,
                                                                         createdDate: now))
            records.append(record)
        }
        let perRecord = max(1, items / max(patients, 1))
        for (index, record) in records.enumerated() {
            let alerts = (0..<perRecord).map { rule in
                CareTriageAlert(cause: "task-\(rule)/rule", taskID: "task-\(rule)", taskTitle: "Task \(rule)", ruleID: "rule",
                                rule: #"{"days":2,"id":"rule","ofDays":7,"priority":"routine","when":"missedDoses"}"#,
                                priority: (index + rule) % 9 == 0 ? .urgent : .routine, observed: 2, evidence: ["day:2026-11-\(10 + rule)"],
                                outcomeIDs: [], latest: now.addingTimeInterval(-Double(index * perRecord + rule)))
            }
            _ = try await directory.raiseTriage(alerts, record: record.id, now: now)
            // Every fifth patient has written twice (the home counts what the clinician has not read).
            if index % 5 == 0 {
                let patient = CareAccount(email: "patient\(index)@example.org", name: "Patient \(index)", passwordHash: "-", createdDate: now)
                try await directory.addAccount(patient)
                try await directory.setMembership(CareMembership(record: record.id, account: patient.id, role: .patient, isOwner: true,
                                                                 createdDate: now))
                let asked = try await directory.startThread(CareThreadDraft(record: record.id, audience: .everyone, subject: "Question",
                                                                            body: "How long should the pain last?"), by: patient.id, now: now)
                _ = try await directory.postMessage(thread: asked.thread.id, body: "It is worse tonight.", by: patient.id, now: now)
            }
        }
        let host = CareHost(directory: directory, configuration: CareHost.Configuration(now: { now }))
        var queueTimes: [Double] = [], readTimes: [Double] = [], unreadTimes: [Double] = []
        var size = 0
        for round in 0..<(rounds + 5) {
            let started = ContinuousClock.now
            let html = try await host.triageQueue(of: records, language: .english).html("token").rendered
            let queue = Self.seconds(ContinuousClock.now - started) * 1_000
            let reading = ContinuousClock.now
            _ = try await directory.triageItems(records: records.map(\.id), open: true, limit: CareHost.triageHomeLimit)
            let read = Self.seconds(ContinuousClock.now - reading) * 1_000
            let counting = ContinuousClock.now
            let unread = await host.unreadMessages(of: lee.id, in: records.map(\.id))
            let count = Self.seconds(ContinuousClock.now - counting) * 1_000
            precondition(unread.count == (patients + 4) / 5, "every fifth record has unread messages")
            // The first rounds warm the caches up.
            if round >= 5 {
                queueTimes.append(queue)
                readTimes.append(read)
                unreadTimes.append(count)
                size = html.utf8.count
            }
        }
        let counts = try await directory.openTriageCounts(records: records.map(\.id))
        let p50 = Self.percentile(queueTimes, 0.5)
        print("")
        print("the home's queue                         p50 ms   p95 ms   KiB   open items")
        print(String(format: "queue (reads and HTML)                  %7.2f  %7.2f  %4d   %10d", p50, Self.percentile(queueTimes, 0.95), size / 1024, counts.open))
        print(String(format: "reference: the items' read alone        %7.2f  %7.2f", Self.percentile(readTimes, 0.5), Self.percentile(readTimes, 0.95)))
        print(String(format: "the home's unread counts (%3d records)  %7.2f  %7.2f", patients, Self.percentile(unreadTimes, 0.5),
                     Self.percentile(unreadTimes, 0.95)))
        print(String(format: "Queue of %d patients, %d open items: p50 %.2f ms (target <= 50 ms): %@", patients, counts.open, p50, Self.met(p50, 50)))
    }

    /// Part 3.
    private func live() async throws {
        let directory = try SQLiteCareDirectory(path: nil)
        let now = Date()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Seoul")!
        let record = CareRecord(patientName: "Patient", timeZoneIdentifier: "Asia/Seoul", createdDate: now)
        var clinicians: [CareAccountID] = []
        for index in 0..<homes {
            let account = CareAccount(email: "clinician\(index)@example.org", name: "Clinician \(index)", passwordHash: "-", createdDate: now)
            try await directory.addAccount(account)
            clinicians.append(account.id)
        }
        try await directory.addRecord(record, member: CareMembership(record: record.id, account: clinicians[0], role: .clinician, isOwner: true,
                                                                     createdDate: now))
        for account in clinicians.dropFirst() {
            try await directory.setMembership(CareMembership(record: record.id, account: account, role: .clinician, isOwner: false, createdDate: now))
        }
        let host = CareHost(directory: directory, configuration: CareHost.Configuration(now: { now }))
        let service = host.triageService(sweepsDaily: false)
        // The record's server, open as a page would hold it.
        guard let store = try await host.storeForBackgroundReading(of: record) else { throw CocoaError(.fileNoSuchFile) }
        let start = calendar.date(byAdding: .day, value: -1, to: calendar.startOfDay(for: now))!
        var task = OCKTask(id: "check-in", title: "Check-in", carePlanUUID: nil, schedule: OCKSchedule(composing: [
            OCKScheduleElement(start: start, end: nil, interval: DateComponents(day: 1), duration: .allDay, calendar: calendar),
        ]))
        task.effectiveDate = start
        task.setAlertRules([OCKAlertRule(id: "pain", condition: .value(kind: "pain", atLeast: 7, atMost: nil), priority: .urgent)])
        let checkIn = try await store.addTask(task)

        var deliveries: [Double] = [], writes: [Double] = []
        for round in 0..<10 {
            // Each home follows the record from now on.
            let streams = clinicians.map { host.changes(of: $0, throttle: .seconds(60)) }
            // A check-in of pain 9 in place of the last one of yesterday or today: new evidence for the open item.
            var existing = OCKOutcomeQuery()
            existing.taskIDs = ["check-in"]
            let replaced = try await store.fetchOutcomes(query: existing).first { $0.taskOccurrenceIndex == round % 2 }
            var value = OCKOutcomeValue(9)
            value.kind = "pain"
            let outcome = OCKOutcome(taskUUID: checkIn.uuid, taskOccurrenceIndex: round % 2, values: [value])
            // The write, and the store's change reaching every home (the event that tells a home to refresh); then what
            // the triage service does on that change (`TriageService.run` calls it): the item raised, until every
            // home's stream has the event (its first after the store's, which the pace holds).
            let writing = ContinuousClock.now
            if let replaced { try await store.deleteOutcome(replaced) }
            try await store.addOutcome(outcome)
            let write = Self.seconds(ContinuousClock.now - writing) * 1_000
            writes.append(write)
            let (ready, readyInput) = AsyncStream.makeStream(of: Void.self)
            let raising = Moment()
            let heard = await withTaskGroup(of: Double.self) { group -> [Double] in
                for stream in streams {
                    group.addTask {
                        var events = stream.makeAsyncIterator()
                        _ = await events.next()
                        readyInput.yield()
                        _ = await events.next()
                        let started = raising.value.withLock { $0 } ?? ContinuousClock.now
                        return Self.seconds(ContinuousClock.now - started) * 1_000
                    }
                }
                var waiting = streams.count
                for await _ in ready {
                    waiting -= 1
                    if waiting == 0 { break }
                }
                raising.value.withLock { $0 = ContinuousClock.now }
                await service.changed(record.id)
                var times: [Double] = []
                for await time in group { times.append(time + write) }
                return times
            }
            deliveries += heard
        }
        let p95 = Self.percentile(deliveries, 0.95)
        print("")
        print("one outcome that raises an alert         p50 ms   p95 ms   homes")
        print(String(format: "write, then to every home's stream      %7.1f  %7.1f   %5d", Self.percentile(deliveries, 0.5), p95, homes))
        print(String(format: "reference: the outcome's write          %7.1f  %7.1f", Self.percentile(writes, 0.5), Self.percentile(writes, 0.95)))
        print(String(format: "One alert to %d homes' event streams (in the process, without HTTP): p95 %.1f ms (target <= 300 ms): %@",
                     homes, p95, Self.met(p95, 300)))
    }
}

/// A moment one task sets and others read.
private final class Moment: Sendable {
    let value = Mutex<ContinuousClock.Instant?>(nil)
}
