import Crypto
import Foundation
import OpenCareKit
import OpenCareKitDirectory
import OpenCareKitStore
import Synchronization
import Testing
@testable import OpenCareKitServer

/// A minute of reminders is one pipeline over every record (issue 42): sends are bounded over all records, not record by
/// record; a message whose turn comes too late is not sent; each sent message's lateness is a metric.
@Suite struct ReminderPipelineTests {
    /// The reminder service's tests' days of March 2026 in New York.
    let march = ReminderServiceTests()
    var zone: TimeZone { march.zone }

    func at(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date { march.at(day, hour, minute) }

    /// A push service in the process that holds each request until `width` are in flight at once (or every expected
    /// one has come), so that the most in flight is what the service allows, not what the timing happens to give.
    final class GatedTransport: PushTransport {
        struct State {
            var inFlight = 0
            var most = 0
            var arrived = 0
            var waiting: [CheckedContinuation<Void, Never>] = []
        }
        let state = Mutex(State())
        let width: Int
        let expected: Int

        init(width: Int, expected: Int) {
            (self.width, self.expected) = (width, expected)
        }

        func post(_ body: Data, to endpoint: URL, headers: [(String, String)]) async throws -> Int {
            await withCheckedContinuation { continuation in
                let release = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.inFlight += 1
                    state.arrived += 1
                    state.most = max(state.most, state.inFlight)
                    state.waiting.append(continuation)
                    guard state.inFlight >= width || state.arrived >= expected else { return [] }
                    defer { state.waiting = [] }
                    return state.waiting
                }
                for waiting in release { waiting.resume() }
            }
            state.withLock { $0.inFlight -= 1 }
            return 201
        }
    }

    /// `records` records of one task due at 9:00 each, one person with one device reminded of it; the host and the
    /// service with `transport` and `configure`'s settings.
    func clinic(records: Int, transport: any PushTransport, configure: (inout ReminderConfiguration) -> Void = { _ in })
        async throws -> (CareHost, ReminderService) {
        let directory = try SQLiteCareDirectory(path: nil)
        var configuration = CareHost.Configuration(passwordCost: 4, now: { [zone] in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            return calendar.date(from: DateComponents(year: 2026, month: 3, day: 10, hour: 23))!
        })
        configuration.reminders = ReminderConfiguration(contact: "mailto:care@example.org", pushHosts: ["push.example.org"])
        configure(&configuration.reminders!)
        let host = CareHost(directory: directory, configuration: configuration)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let key = Base64URL.encode(P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
        for index in 0..<records {
            let person = CareAccount(email: "p\(index)@example.org", name: "P \(index)", passwordHash: "x", createdDate: at(1, 0))
            try await directory.addAccount(person)
            let record = CareRecord(patientName: "P \(index)", timeZoneIdentifier: zone.identifier, createdDate: at(1, 0))
            try await directory.addRecord(record, member: CareMembership(record: record.id, account: person.id, role: .patient, isOwner: true,
                                                                         createdDate: at(1, 0)))
            try await directory.setPushSubscription(CarePushSubscription(account: person.id, endpoint: "https://push.example.org/d/\(index)",
                                                                         publicKey: key, authSecret: Base64URL.encode(Data(repeating: 1, count: 16)),
                                                                         createdDate: at(1, 0)))
            let server = try #require(try await host.records.server(for: record.id, load: { record }))
            _ = try await server.store.addTask(OCKTask(id: "pill", title: "Pill", carePlanUUID: nil, schedule: .dailyAtTime(
                hour: 9, minutes: 0, start: at(7, 0), end: nil, text: nil, calendar: calendar)))
            try await directory.setReminderSettings(CareReminderSettings(account: person.id, record: record.id, taskIDs: ["pill"],
                                                                         updatedDate: at(1, 0)))
        }
        return (host, host.reminderService(transport: transport))
    }

    // A transport that never gets as many requests at once as it waits for would hang: the time limit fails it.
    @Test(.timeLimit(.minutes(1)))
    func sendsAreBoundedOverEveryRecordNotRecordByRecord() async throws {
        // Seven records of one message each, three sends at once: a service that sent record by record would never
        // have more than one in flight.
        let transport = GatedTransport(width: 3, expected: 7)
        let (host, service) = try await clinic(records: 7, transport: transport) { $0.concurrentSends = 3; $0.concurrentRecords = 2 }
        _ = await service.tick(at: at(10, 8, 59))
        let nine = await service.tick(at: at(10, 9))
        #expect(nine.due == 7 && nine.pushed == 7, "\(nine)")
        #expect(transport.state.withLock { $0.most } == 3)
        // Each message's lateness, from 9:00 until the push service answered, is in the metrics.
        let metrics = String(decoding: host.metrics.exposition(), as: UTF8.self)
        #expect(metrics.contains("opencarekit_reminder_lateness_seconds_count 7"), "\(metrics)")
        #expect(metrics.contains(#"opencarekit_reminder_lateness_seconds_bucket{le="10.0"} 7"#))
    }

    @Test(.timeLimit(.minutes(1)))
    func aMessageWhoseTurnComesTooLateIsNotSent() async throws {
        // No lateness allowed: a reminder due at 9:00 is still taken at 9:00 (its minute), but by its turn to be sent
        // time has passed, so it is counted as late, not sent.
        let transport = GatedTransport(width: 1, expected: 1)
        let (_, service) = try await clinic(records: 2, transport: transport) { $0.lateness = 0 }
        _ = await service.tick(at: at(10, 8, 59))
        let nine = await service.tick(at: at(10, 9))
        #expect(nine.due == 2 && nine.late == 2 && nine.skipped == 0 && nine.pushed == 0, "\(nine)")
        #expect(transport.state.withLock { $0.arrived } == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func withTheSmallestQueueAndOneRecordAtATimeEveryReminderStillGoes() async throws {
        // Many records, one record read at a time and one message waiting at most: every reminder still goes, two at a
        // time.
        let transport = GatedTransport(width: 2, expected: 12)
        let (_, service) = try await clinic(records: 12, transport: transport) {
            $0.concurrentSends = 2
            $0.concurrentRecords = 1
            $0.maximumPendingSends = 1
        }
        _ = await service.tick(at: at(10, 8, 59))
        let nine = await service.tick(at: at(10, 9))
        #expect(nine.due == 12 && nine.pushed == 12, "\(nine)")
        #expect(transport.state.withLock { $0.most } <= 2)
    }
}
