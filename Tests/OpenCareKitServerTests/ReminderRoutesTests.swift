import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import OpenCareKitDirectory
import OpenCareKitStore
import Testing
@testable import OpenCareKitServer

/// The reminder settings page, browsers' subscriptions and the service worker, through the router.
extension AccountRoutesTests {
    /// A browser's subscription as `PushSubscription.toJSON()` gives it, at `endpoint`.
    static func subscriptionForm(_ endpoint: String) -> [String: String] {
        let key = Base64URL.encode(P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
        return ["endpoint": endpoint, "p256dh": key, "auth": Base64URL.encode(Data((0..<16).map { UInt8($0) }))]
    }

    @Test func aPersonChoosesTasksQuietHoursAndAFollowUpAndSubscribesOnlyPushServicesBrowsersUse() async throws {
        let setup = try await setup(reminders: ReminderConfiguration(contact: "mailto:care@example.org"))
        let host = setup.host
        let record = try #require(try await setup.directory.record(setup.record))
        let server = try #require(try await host.records.server(for: setup.record, load: { record }))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Asia/Seoul"))
        for (id, title) in [("pill", "Take <b>ibuprofen</b>"), ("walk", "Walk")] {
            try await server.store.addTask(OCKTask(id: id, title: title, carePlanUUID: nil, schedule: .dailyAtTime(
                hour: 9, minutes: 0, start: now.addingTimeInterval(-86_400), end: nil, text: nil, calendar: calendar)))
        }
        let ana = try #require(try await setup.directory.account(email: "ana@example.org"))
        try await Application(router: host.router()).test(.router) { client in
            let browser = TestBrowser(client)
            try await browser.signIn("ana@example.org", Self.password)
            let base = "/records/\(setup.record)"
            let page = String(buffer: try await browser.send(base + "/reminders").body)
            #expect(page.contains("Take &lt;b&gt;ibuprofen&lt;/b&gt;") && page.contains(#"data-reminders-on="false""#))
            // The page carries the server's VAPID public key: an uncompressed P-256 point, the same on every visit.
            let key = try #require(page.firstMatch(of: #/data-vapid-key="([A-Za-z0-9_-]+)"/#)?.output.1)
            #expect(Base64URL.decode(String(key)).map { try? P256.Signing.PublicKey(x963Representation: $0) } != nil)
            #expect(String(buffer: try await browser.send(base + "/reminders").body).contains(String(key)))

            // Saved whole; the reminder service hears of it.
            _ = host.reminderSignals.takeChanged()
            let saved = try await browser.send(base + "/reminders", .post,
                                               formBody: "task=pill&task=walk&quiet-start=22%3A00&quiet-end=07%3A30&follow-up=30")
            #expect(saved.status == .ok && String(buffer: saved.body).contains(#"data-reminders-on="true""#))
            #expect(try await setup.directory.reminderSettings(record: setup.record, account: ana.id)
                    == CareReminderSettings(account: ana.id, record: setup.record, taskIDs: ["pill", "walk"], quietStart: 22 * 60,
                                            quietEnd: 7 * 60 + 30, followUpMinutes: 30, updatedDate: now))
            #expect(host.reminderSignals.takeChanged() == [setup.record])
            // Refused, and nothing lost: a task of no record, half of the quiet hours, a time that is not one.
            for body in ["task=nothing", "task=pill&quiet-start=22%3A00", "task=pill&quiet-start=25%3A00&quiet-end=07%3A00"] {
                #expect(try await browser.send(base + "/reminders", .post, formBody: body).status == .unprocessableContent, "\(body)")
            }
            #expect(try await setup.directory.reminderSettings(record: setup.record, account: ana.id)?.taskIDs == ["pill", "walk"])
            // A follow-up not offered is none.
            try await browser.send(base + "/reminders", .post, formBody: "task=pill&follow-up=7")
            #expect(try await setup.directory.reminderSettings(record: setup.record, account: ana.id)?.followUpMinutes == nil)

            // Subscriptions: a browser's push service only, with a real key; without the CSRF token, nothing.
            let fcm = "https://fcm.googleapis.com/fcm/send/abc"
            #expect(try await browser.send("/account/push-subscriptions", .post, form: Self.subscriptionForm(fcm)).status == .created)
            for endpoint in ["https://169.254.169.254/latest", "http://fcm.googleapis.com/x", "https://evilfcm.googleapis.com/x", "https://fcm.googleapis.com.example/x"] {
                let refused = try await browser.send("/account/push-subscriptions", .post, form: Self.subscriptionForm(endpoint))
                #expect(refused.status == .unprocessableContent, "\(endpoint)")
            }
            var badKey = Self.subscriptionForm("https://updates.push.services.mozilla.com/wpush/v2/x")
            badKey["p256dh"] = "AAAA"
            #expect(try await browser.send("/account/push-subscriptions", .post, form: badKey).status == .unprocessableContent)
            var forged = Self.subscriptionForm("https://web.push.apple.com/x")
            forged["csrf"] = "wrong"
            #expect(try await browser.send("/account/push-subscriptions", .post, form: forged).status == .forbidden)
            #expect(try await setup.directory.pushSubscriptions(of: ana.id).map(\.endpoint) == [fcm])
            // Ben cannot remove Ana's device; Ana can.
            let ben = TestBrowser(client)
            try await ben.signIn("ben@example.org", Self.password)
            try await ben.send("/account/push-subscriptions/remove", .post, form: ["endpoint": fcm])
            #expect(try await setup.directory.pushSubscriptions(of: ana.id).count == 1)
            // Ben is no member: the page is not there for him.
            #expect(try await ben.send(base + "/reminders").status == .notFound)
            try await browser.send("/account/push-subscriptions/remove", .post, form: ["endpoint": fcm])
            #expect(try await setup.directory.pushSubscriptions(of: ana.id).isEmpty)
            // Signed out: no subscription.
            let stranger = TestBrowser(client)
            try await stranger.send("/sign-in")
            #expect(try await stranger.send("/account/push-subscriptions", .post, form: Self.subscriptionForm(fcm)).status != .created)

            // The service worker, from the root (its scope), in both languages.
            let worker = try await browser.send("/service-worker.js")
            #expect(worker.status == .ok && worker.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(String(buffer: worker.body).contains("showNotification") && String(buffer: worker.body).contains("아직 할 일"))
        }
    }

    @Test func aServerWithoutRemindersSaysSo() async throws {
        let setup = try await setup()
        try await Application(router: setup.host.router()).test(.router) { client in
            let browser = TestBrowser(client)
            try await browser.signIn("ana@example.org", Self.password)
            let page = String(buffer: try await browser.send("/records/\(setup.record)/reminders").body)
            #expect(page.contains("This server does not send reminders.") && !page.contains("data-vapid-key"))
            let subscribed = try await browser.send("/account/push-subscriptions", .post, form: Self.subscriptionForm("https://fcm.googleapis.com/x"))
            #expect(subscribed.status == .notFound)
        }
    }
}
