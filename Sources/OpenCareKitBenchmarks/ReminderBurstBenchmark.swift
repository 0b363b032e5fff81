import Crypto
import Foundation
import OpenCareKit
import OpenCareKitDirectory
import OpenCareKitServer
import OpenCareKitStore
import Synchronization

/// Issue 42's reminder burst: `records` records on disk, each with `tasks` all-day tasks and `members` people who
/// asked to be reminded of all of them on one device each, so that `records × tasks × members` reminders fall due at
/// 9:00 in New York. One minute of the reminder service (`ReminderService.tick`, as `serve` runs it each minute) at
/// 9:00, with a push service that is a local stub (it takes each message as the push service would, with no network);
/// the host's clock runs from 9:00 with the wall clock. Each message's lateness is the time from 9:00 until the stub
/// had it. The reference, from the same run: the same number of messages encrypted one after another with nothing else (the cost of Web Push's cryptography, one message per device as RFC 8291 requires).
/// Target: every reminder handed over within 10 s of 9:00.
struct ReminderBurstBenchmark {
    var records = 2_000
    var tasks = 25
    var members = 2

    /// The push-service stub: the moment each message reached it, since the minute began.
    final class Stub: PushTransport {
        let began = Mutex<ContinuousClock.Instant?>(nil)
        let arrivals = Mutex<[Duration]>([])

        func post(_ body: Data, to endpoint: URL, headers: [(String, String)]) async throws -> Int {
            let now = ContinuousClock.now
            let began = self.began.withLock { $0 } ?? now
            arrivals.withLock { $0.append(now - began) }
            return 201
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded(.up)))]
    }

    func run() async throws {
        if ProcessInfo.processInfo.environment["BENCH_CRYPTO"] != nil {
            let browser = P256.KeyAgreement.PrivateKey()
            let n = 20_000
            func time(_ name: String, _ body: () throws -> Void) rethrows {
                let start = ContinuousClock.now
                for _ in 0..<n { try body() }
                print(name, Self.seconds(ContinuousClock.now - start) / Double(n) * 1e6, "µs")
            }
            time("keygen") { _ = P256.KeyAgreement.PrivateKey() }
            let key = P256.KeyAgreement.PrivateKey()
            time("public x963") { _ = key.publicKey.x963Representation }
            let raw = browser.publicKey.x963Representation
            try time("import public") { _ = try P256.KeyAgreement.PublicKey(x963Representation: raw) }
            try time("ecdh") { _ = try key.sharedSecretFromKeyAgreement(with: browser.publicKey) }
            try time("keygen from raw") { _ = try P256.KeyAgreement.PrivateKey(rawRepresentation: SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }) }
            time("random 16") { _ = SymmetricKey(size: .bits128) }
            return
        }
        let folder = FileManager.default.temporaryDirectory.appending(path: "reminder-burst-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/New_York")!
        // 2026-12-01 9:00 in New York: the all-day events of the day are reminded of then.
        let nine = calendar.date(from: DateComponents(year: 2026, month: 12, day: 1, hour: 9))!
        let expected = records * tasks * members
        print("Reminder burst benchmark: \(records) records × \(tasks) all-day tasks × \(members) people reminded (one device each): "
              + "\(expected) reminders due at 9:00 in New York")

        let data = CareDataDirectory(path: folder.path)
        let directory = try data.openDirectory()
        let seeding = ContinuousClock.now
        let began = nine.addingTimeInterval(-10 * 86_400)
        let taskList = (0..<tasks).map { index in
            var task = OCKTask(id: "task-\(index)", title: "Task \(index)", carePlanUUID: nil, schedule: OCKSchedule(composing: [
                OCKScheduleElement(start: began, end: nil, interval: DateComponents(day: 1), duration: .allDay, calendar: calendar)]))
            task.effectiveDate = began
            return task
        }
        // One browser key for every device (the benchmark is about the server's work; each message still gets its own
        // encryption key).
        let browserKey = P256.KeyAgreement.PrivateKey()
        let publicKey = Base64URL.encode(browserKey.publicKey.x963Representation)
        let authSecret = Base64URL.encode(Data((0..<16).map { UInt8($0) }))
        var device = 0
        for index in 0..<records {
            let record = CareRecord(patientName: "Patient \(index)", timeZoneIdentifier: calendar.timeZone.identifier, createdDate: began)
            try await directory.addRecord(record, member: nil)
            for member in 0..<members {
                let account = CareAccount(email: "person\(index)-\(member)@example.org", name: "Person \(index)", passwordHash: "-", createdDate: began)
                try await directory.addAccount(account)
                try await directory.setMembership(CareMembership(record: record.id, account: account.id, role: member == 0 ? .patient : .caregiver,
                                                                 isOwner: member == 0, createdDate: began))
                try await directory.setPushSubscription(CarePushSubscription(
                    account: account.id, endpoint: "https://push.example.org/send/\(device)", publicKey: publicKey, authSecret: authSecret,
                    createdDate: began))
                device += 1
                try await directory.setReminderSettings(CareReminderSettings(account: account.id, record: record.id, taskIDs: taskList.map(\.id),
                                                                             updatedDate: began))
            }
            let store = try data.store(for: record)
            _ = try await store.addTasks(taskList)
        }
        print(String(format: "seeded in %.1f s", Self.seconds(ContinuousClock.now - seeding)))

        // The reference: as many messages encrypted, one after another.
        let subscription = try WebPush.Subscription(endpoint: "https://push.example.org/send/0", p256dh: publicKey, auth: authSecret)
        let payload = Data(#"{"day":"2026-12-01","isAllDay":true,"kind":"reminder","record":"0123456789abcdef0123456789abcdef","start":"2026-12-01T05:00:00Z","task":"task-1","time":"00:00","title":"Task 1","url":"/records/0123456789abcdef0123456789abcdef/care?date=2026-12-01"}"#.utf8)
        let referenceStart = ContinuousClock.now
        for _ in 0..<expected { _ = try WebPush.encrypt(payload, for: subscription) }
        let reference = Self.seconds(ContinuousClock.now - referenceStart)

        if ProcessInfo.processInfo.environment["BENCH_PAUSE"] != nil {
            FileHandle.standardError.write(Data("paused before the minute (pid \(ProcessInfo.processInfo.processIdentifier)); press return\n".utf8))
            _ = readLine()
        }
        // The minute at 9:00, on a clock that runs from 9:00 with the wall clock.
        let stub = Stub()
        let clockStart = Mutex<ContinuousClock.Instant?>(nil)
        var configuration = CareHost.Configuration(stores: data, now: {
            nine.addingTimeInterval(clockStart.withLock { $0 }.map { Self.seconds(ContinuousClock.now - $0) } ?? 0)
        })
        configuration.reminders = ReminderConfiguration(contact: "mailto:bench@example.org", pushHosts: ["push.example.org"])
        let host = CareHost(directory: directory, configuration: configuration)
        let service = host.reminderService(transport: stub)
        // The minute before loads the index (as a server started before 9:00 would have).
        _ = await service.tick(at: nine.addingTimeInterval(-60))
        let start = ContinuousClock.now
        clockStart.withLock { $0 = start }
        stub.began.withLock { $0 = start }
        let report = await service.tick(at: nine)
        let minute = Self.seconds(ContinuousClock.now - start)
        let lateness = stub.arrivals.withLock { $0 }.map(Self.seconds)
        let last = lateness.max() ?? 0
        print("")
        print("one minute at 9:00                         s     messages   p50 late s   p99 late s   last s")
        print(String(format: "the reminder service's minute        %7.2f   %9d   %10.3f   %10.3f   %6.2f", minute, lateness.count,
                     Self.percentile(lateness, 0.5), Self.percentile(lateness, 0.99), last))
        print(String(format: "reference: encrypt only, one by one  %7.2f   %9d", reference, expected))
        print("report: due \(report.due), pushed \(report.pushed), skipped \(report.skipped), failed \(report.failed), dropped \(report.dropped)")
        let met = lateness.count == expected && last <= 10
        print(String(format: "Reminders: %d of %d due at 9:00 handed to the push stub, the last %.2f s after 9:00, p99 lateness %.3f s "
                     + "(target: all within 10 s): %@", lateness.count, expected, last, Self.percentile(lateness, 0.99), met ? "met" : "NOT met"))
    }
}
