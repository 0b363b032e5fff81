import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenCareKit
import OpenCareKitCommandTesting
import Logging
import OpenCareKitDirectory
import OpenCareKitStore
import ServiceLifecycle
import Testing
@testable import OpenCareKitServer

/// The reminder service against a local push service (scripts/python/push_stub.py: py-vapid checks each VAPID
/// token, http-ece decrypts each message with the browser's key), minute by minute on a fixed clock.
@Suite struct ReminderServiceTests {
    let zone = TimeZone(identifier: "America/New_York")!

    /// `day` of March 2026 at `hour`:`minute` in New York (after the change to daylight time on the 8th).
    func at(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: 2026, month: 3, day: day, hour: hour, minute: minute))!
    }

    /// What the stub received, as (browser, decrypted message, problems found).
    struct Received {
        let browser: String
        let message: [String: Any]
        let errors: [String]
        let ttl: String?
        let urgency: String?
        let topic: String?
    }

    final class Stub: @unchecked Sendable {
        let service: PythonService
        let base: String

        init(now: Date) throws {
            service = try PythonService("push_stub.py", arguments: ["--now", "\(now.timeIntervalSince1970)", "--browsers", "2"])
            let gone = try #require(service.ready["gone"] as? [String: String])
            base = try #require(gone["endpoint"]).components(separatedBy: "/push/")[0]
        }

        var subscriptions: [[String: String]] { (service.ready["subscriptions"] as? [[String: String]]) ?? [] }
        var gone: [String: String] { (service.ready["gone"] as? [String: String]) ?? [:] }

        func setNow(_ date: Date) async throws {
            var request = URLRequest(url: URL(string: base + "/now")!)
            request.httpMethod = "PUT"
            request.httpBody = Data("\(date.timeIntervalSince1970)".utf8)
            _ = try await URLSession.shared.data(for: request)
        }

        func received() async throws -> [Received] {
            let (data, _) = try await URLSession.shared.data(from: URL(string: base + "/received")!)
            let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
            return try #require(object["messages"] as? [[String: Any]]).map { entry in
                let text = entry["plaintext"] as? String ?? ""
                let message = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
                return Received(browser: entry["browser"] as? String ?? "", message: message, errors: entry["errors"] as? [String] ?? ["none"],
                                ttl: entry["ttl"] as? String, urgency: entry["urgency"] as? String, topic: entry["topic"] as? String)
            }
        }
    }

    @Test func remindersArriveAtTheDueMinuteEncryptedAndSignedNotWhenDoneNotInQuietHoursWithFollowUps() async throws {
        let stub = try Stub(now: at(10, 8))
        defer { stub.service.stop() }
        let directory = try SQLiteCareDirectory(path: nil)
        let ana = CareAccount(email: "ana@example.org", name: "Ana Kim", passwordHash: "x", createdDate: at(1, 0))
        try await directory.addAccount(ana)
        let record = CareRecord(patientName: "Ana Kim", timeZoneIdentifier: zone.identifier, createdDate: at(1, 0))
        try await directory.addRecord(record, member: CareMembership(record: record.id, account: ana.id, role: .patient, isOwner: true,
                                                                     createdDate: at(1, 0)))
        for device in stub.subscriptions + [stub.gone] {
            try await directory.setPushSubscription(CarePushSubscription(
                account: ana.id, endpoint: device["endpoint"]!, publicKey: device["p256dh"]!, authSecret: device["auth"]!, createdDate: at(1, 0)))
        }
        // The service is given each tick's moment; the host's clock is the test's last day (the record's rules read it:
        // the doses done below are today's, not still to come).
        let lastDay = at(10, 23)
        var configuration = CareHost.Configuration(passwordCost: 4, now: { lastDay })
        configuration.reminders = ReminderConfiguration(contact: "mailto:care@example.org", pushHosts: ["127.0.0.1"])
        configuration.reminders?.allowsLoopbackHTTP = true
        let host = CareHost(directory: directory, configuration: configuration)
        let server = try #require(try await host.records.server(for: record.id, load: { record }))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        func daily(_ id: String, _ title: String, hour: Int) async throws -> OCKTask {
            try await server.store.addTask(OCKTask(id: id, title: title, carePlanUUID: nil, schedule: .dailyAtTime(
                hour: hour, minutes: 0, start: at(7, 0), end: nil, text: nil, calendar: calendar)))
        }
        let pill = try await daily("pill", "Take ibuprofen", hour: 9)
        let walk = try await daily("walk", "Morning walk", hour: 9)
        let stretch = try await daily("stretch", "Stretch", hour: 9)
        _ = try await daily("night", "Eye drops", hour: 23)
        _ = try await daily("unreminded", "Not asked for", hour: 9)
        try await directory.setReminderSettings(CareReminderSettings(
            account: ana.id, record: record.id, taskIDs: ["pill", "walk", "stretch", "night"], quietStart: 22 * 60, quietEnd: 7 * 60,
            followUpMinutes: 30, updatedDate: at(1, 0)))
        // The walk of the 10th (occurrence 3: the schedule began on the 7th) is done before its reminder.
        _ = try await server.store.setEventCompletion(true, taskUUID: walk.uuid, occurrence: 3, now: at(10, 7))
        let page = host.reminderSignals.listen(ana.id)
        var shown = page.makeAsyncIterator()
        let service = host.reminderService()

        // Nothing before the minute.
        #expect(await service.tick(at: at(10, 8, 59)) == ReminderService.Report())
        #expect(try await stub.received().isEmpty)

        // At 9:00: the ibuprofen and the stretch, on both browsers; the walk is done; the expired subscription goes.
        try await stub.setNow(at(10, 9))
        let nine = await service.tick(at: at(10, 9))
        #expect(nine.due == 3 && nine.done == 1 && nine.pushed == 4 && nine.expired == 2 && nine.followUps == 2 && nine.shown == 2, "\(nine)")
        let first = try await stub.received()
        #expect(first.count == 4 && first.allSatisfy(\.errors.isEmpty), "\(first.map(\.errors))")
        #expect(Set(first.map(\.browser)) == ["0", "1"])
        #expect(Set(first.compactMap { $0.message["title"] as? String }) == ["Take ibuprofen", "Stretch"])
        #expect(first.allSatisfy { $0.message["kind"] as? String == "reminder" && $0.message["time"] as? String == "09:00"
                && $0.message["url"] as? String == "/records/\(record.id)/care?date=2026-03-10" && $0.ttl == "3600" && $0.urgency == "high" })
        #expect(try await directory.pushSubscriptions(of: ana.id).map(\.endpoint) == stub.subscriptions.map { $0["endpoint"]! })
        // The open page heard of both, in English-independent form (it words them itself).
        let heard = [await shown.next(), await shown.next()].compactMap { $0?.title }
        #expect(Set(heard) == ["Take ibuprofen", "Stretch"])

        // The stretch is done at 9:10: at 9:30 only the ibuprofen's follow-up comes.
        _ = try await server.store.setEventCompletion(true, taskUUID: stretch.uuid, occurrence: 3, now: at(10, 9, 10))
        #expect(await service.tick(at: at(10, 9, 29)).due == 0)
        try await stub.setNow(at(10, 9, 30))
        let followUp = await service.tick(at: at(10, 9, 30))
        #expect(followUp.due == 2 && followUp.done == 1 && followUp.pushed == 2 && followUp.followUps == 0, "\(followUp)")
        let second = try await stub.received().dropFirst(4)
        #expect(second.count == 2 && second.allSatisfy { $0.message["kind"] as? String == "follow-up" && $0.message["title"] as? String == "Take ibuprofen" && $0.errors.isEmpty })
        // A follow-up has its reminder's Topic (RFC 8030): a push service still holding the reminder replaces it.
        let reminderTopic = first.first { $0.message["title"] as? String == "Take ibuprofen" }?.topic
        #expect(reminderTopic != nil && second.allSatisfy { $0.topic == reminderTopic } && reminderTopic?.count ?? 0 <= 32)

        // The eye drops at 23:00 fall in quiet hours: they wait for 7:00.
        let night = await service.tick(at: at(10, 23))
        #expect(night.due == 1 && night.deferred == 1 && night.pushed == 0, "\(night)")
        #expect(await service.tick(at: at(11, 6, 59)).pushed == 0)
        try await stub.setNow(at(11, 7))
        let morning = await service.tick(at: at(11, 7))
        #expect(morning.pushed == 2 && morning.followUps == 1, "\(morning)")
        let third = try await stub.received().dropFirst(6)
        #expect(third.count == 2 && third.allSatisfy { $0.message["title"] as? String == "Eye drops" && $0.message["day"] as? String == "2026-03-10" })

        // The eye drops' follow-up at 7:30.
        #expect(await service.tick(at: at(11, 7, 30)).pushed == 2)

        // The ibuprofen moves to 10:00 from the 11th: the index follows the change.
        var moved = pill
        moved.effectiveDate = at(11, 0)
        moved.schedule = .dailyAtTime(hour: 10, minutes: 0, start: at(11, 0), end: nil, text: nil, calendar: calendar)
        _ = try await server.store.updateTask(moved)
        host.reminderSignals.changed(record.id)
        try await stub.setNow(at(11, 9))
        let oldTime = await service.tick(at: at(11, 9))
        // The walk and the stretch, not the ibuprofen.
        #expect(oldTime.due == 2 && oldTime.pushed == 4 && oldTime.followUps == 2, "\(oldTime)")
        #expect(await service.tick(at: at(11, 9, 30)).pushed == 4)
        let newTime = await service.tick(at: at(11, 10))
        #expect(newTime.due == 1 && newTime.pushed == 2, "\(newTime)")
        let fourth = try await stub.received().dropFirst(8).map { $0.message["title"] as? String ?? "" }
        #expect(fourth.prefix(2) == ["Eye drops", "Eye drops"] && fourth.suffix(2) == ["Take ibuprofen", "Take ibuprofen"])
        #expect(fourth.dropFirst(2).dropLast(2).sorted() == Array(repeating: "Morning walk", count: 4) + Array(repeating: "Stretch", count: 4))
        #expect(try await stub.received().last?.message["time"] as? String == "10:00")

        // Reminders off, saved on another app server (straight into the directory, no signal here): nothing more, not
        // even what waits (the ibuprofen's follow-up at 10:30).
        try await directory.setReminderSettings(CareReminderSettings(account: ana.id, record: record.id, taskIDs: [], updatedDate: at(11, 10)))
        let off = await service.tick(at: at(11, 10, 30))
        #expect(off.due == 1 && off.skipped == 1 && off.pushed == 0 && off.shown == 0, "\(off)")
        #expect(await service.followedElements == 0)
        #expect(await service.tick(at: at(12, 9)) == ReminderService.Report())
    }

    /// A new message is pushed to the others who see its thread, saying only that there is one.
    @Test func aNewMessagePushSaysOnlyNewMessageToTheOthersWhoSeeIt() async throws {
        let stub = try Stub(now: at(10, 8))
        defer { stub.service.stop() }
        let directory = try SQLiteCareDirectory(path: nil)
        let (ana, lee) = (CareAccount(email: "ana@example.org", name: "Ana Kim", passwordHash: "x", createdDate: at(1, 0)),
                          CareAccount(email: "lee@example.org", name: "Dr. Lee", passwordHash: "x", createdDate: at(1, 0)))
        try await directory.addAccount(ana)
        try await directory.addAccount(lee)
        let record = CareRecord(patientName: "Ana Kim", timeZoneIdentifier: zone.identifier, createdDate: at(1, 0))
        try await directory.addRecord(record, member: CareMembership(record: record.id, account: ana.id, role: .patient, isOwner: true,
                                                                     createdDate: at(1, 0)))
        try await directory.setMembership(CareMembership(record: record.id, account: lee.id, role: .clinician, isOwner: false, createdDate: at(1, 0)))
        for (account, device) in zip([ana.id, lee.id], stub.subscriptions) {
            try await directory.setPushSubscription(CarePushSubscription(
                account: account, endpoint: device["endpoint"]!, publicKey: device["p256dh"]!, authSecret: device["auth"]!, createdDate: at(1, 0)))
        }
        let eight = at(10, 8)
        var configuration = CareHost.Configuration(passwordCost: 4, now: { eight })
        configuration.reminders = ReminderConfiguration(contact: "mailto:care@example.org", pushHosts: ["127.0.0.1"])
        configuration.reminders?.allowsLoopbackHTTP = true
        let host = CareHost(directory: directory, configuration: configuration)
        let service = host.reminderService()
        // A team note: no one else of the team here, and never the patient.
        let note = try await directory.startThread(CareThreadDraft(record: record.id, audience: .careTeam, subject: "Dose", body: "Halve it"),
                                                   by: lee.id, now: at(10, 8))
        let quiet = await service.pushNewMessage(MessageEvent(record: record.id, thread: note.thread.id, audience: .careTeam,
                                                              kind: .message(author: lee.id)), author: lee.id)
        #expect(quiet == ReminderService.Report())
        // The patient writes: Dr. Lee's device is told "a message", nothing of it.
        let asked = try await directory.startThread(CareThreadDraft(record: record.id, audience: .everyone, subject: "Dizzy",
                                                                    body: "I feel dizzy"), by: ana.id, now: at(10, 8))
        let report = await service.pushNewMessage(MessageEvent(record: record.id, thread: asked.thread.id, audience: .everyone,
                                                               kind: .message(author: ana.id)), author: ana.id)
        #expect(report.pushed == 1 && report.failed == 0, "\(report)")
        let received = try await stub.received()
        #expect(received.count == 1 && received.first?.browser == "1" && received.first?.errors.isEmpty == true)
        let message = try #require(received.first?.message)
        #expect(message.keys.sorted() == ["kind", "record", "url"] && message["kind"] as? String == "message")
        #expect(message["url"] as? String == "/records/\(record.id)/messages")
    }

    @Test func wordsFillTheirPlaceholdersOnceSoATitleIsNeverReadAsOne() {
        #expect(ReminderText.notice.text(.english, "Take {1} with {0}", "09:00") == "Reminder: Take {1} with {0} (09:00)")
        #expect(ReportText.range.text(.english, "a", "b", "{0}") == "a to b (times in {0})")
        #expect(ReminderText.followUpAfter.text(.korean, "30") == "30분 뒤 다시 알림")
    }

    @Test func aGracefulShutdownEndsTheServiceWithoutAnError() async throws {
        let host = CareHost(directory: try SQLiteCareDirectory(path: nil))
        let service = host.reminderService()
        let group = ServiceGroup(configuration: .init(services: [service], logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            // The service waits for the next minute; shutting down cancels the wait, which is no error.
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    @Test func quietHoursEndAtTheirWallClockTimeAcrossMidnightAndTheChangeOfClocks() async throws {
        let service = CareHost(directory: try SQLiteCareDirectory(path: nil)).reminderService()
        let setting = CareReminderSettings(account: .random(), record: .random(), taskIDs: ["a"], quietStart: 22 * 60, quietEnd: 7 * 60,
                                           updatedDate: at(1, 0))
        #expect(await service.quietEnd(setting, zone: zone, at: at(10, 21, 59)) == nil)
        #expect(await service.quietEnd(setting, zone: zone, at: at(10, 22)) == at(11, 7))
        #expect(await service.quietEnd(setting, zone: zone, at: at(11, 6, 59)) == at(11, 7))
        #expect(await service.quietEnd(setting, zone: zone, at: at(11, 7)) == nil)
        // The night clocks go forward (8 March) is an hour shorter; the end is still 7:00 on the wall clock.
        #expect(await service.quietEnd(setting, zone: zone, at: at(7, 23)) == at(8, 7))
        #expect(at(8, 7).timeIntervalSince(at(7, 23)) == 7 * 3_600)
    }
}
