import Crypto
import Foundation
import Logging
import OpenCareKit
import OpenCareKitDirectory
import OpenCareKitStore
import ServiceLifecycle
import Synchronization

/// How the host sends reminders.
public struct ReminderConfiguration: Sendable {
    /// Who runs the server, for push services to reach (RFC 8292's `sub`): a `mailto:` or `https:` address.
    public var contact: String
    /// The push services a subscription may name, by host (a host or any host under it): the browsers' own by default.
    /// Nothing else is ever sent a request, so a subscription cannot point the server at an address of its network.
    public var pushHosts: [String]
    /// Also plain http to a loopback address (the tests' push-service stub).
    public var allowsLoopbackHTTP = false
    /// A reminder more than this late (the server was down at its time) is not sent.
    public var lateness: TimeInterval = 15 * 60
    /// The most reminders waiting for quiet hours to end or for their follow-up; more are dropped (and logged).
    public var maximumWaiting = 100_000
    /// The most push requests in flight at once, over every record (push services take many at once over HTTP/2).
    public var concurrentSends = 64
    /// The most records whose stores a minute reads at once to check their due events.
    public var concurrentRecords = 4
    /// The most push requests made and waiting for a free send at once: the records after them are read as these
    /// drain, so a minute's burst holds a bounded number of messages in memory.
    public var maximumPendingSends = 2_048
    /// How long a push service keeps a message for a device that is offline (the `TTL` header), in seconds.
    public var messageLifetime = 3_600

    /// The push services of Chrome, Edge, Firefox and Safari.
    public static let browserPushHosts = ["fcm.googleapis.com", "push.services.mozilla.com", "push.apple.com", "notify.windows.com"]

    /// Settings that send as `contact` to `pushHosts`; the other properties keep their defaults until set.
    ///
    /// For example:
    /// ```swift
    /// var configuration = CareHost.Configuration(stores: CareDataDirectory(path: data.path))
    /// configuration.reminders = ReminderConfiguration(contact: "mailto:ops@example.org")
    /// ```
    ///
    /// - Parameters:
    ///   - contact: How push services reach whoever runs the server, a `mailto:` or `https:` address, sent in every
    ///     request's VAPID signature; it is taken as given, unchecked.
    ///   - pushHosts: The push services' host names a subscription may point at (each with the hosts under it); a
    ///     subscription for any other is refused. The browsers' own (`browserPushHosts`) by default.
    public init(contact: String, pushHosts: [String] = ReminderConfiguration.browserPushHosts) {
        self.contact = contact
        self.pushHosts = pushHosts
    }

    /// The subscription, if its endpoint is one of `pushHosts` (or plain http on loopback, where allowed); else an
    /// error that says why.
    func subscription(endpoint: String, p256dh: String, auth: String) throws(WebPushError) -> WebPush.Subscription {
        let subscription = try WebPush.Subscription(endpoint: endpoint, p256dh: p256dh, auth: auth, allowingLoopbackHTTP: allowsLoopbackHTTP)
        let host = subscription.endpoint.host?.lowercased() ?? ""
        guard pushHosts.contains(where: { host == $0 || host.hasSuffix("." + $0) }) else {
            throw WebPushError("The subscription's push service is not one this server sends to.")
        }
        return subscription
    }
}

/// Finds the events that are due across every record with reminders, once a minute, and sends each person who asked
/// for them a Web Push message on each of their devices and a notice in their open pages — unless the event is
/// already done, or it is their quiet hours (then at their end); a follow-up comes later if it is still not done.
///
/// The due events come from an `OCKReminderIndex` of the reminded tasks, kept up to date as records change (the
/// host's record feed) and as people change their settings, so a minute costs what its reminders cost, not a look at
/// every record. Before anything is sent, the record's store is read: the event must still be there, undone, and
/// the person still a member allowed to read the record. Run it on one app server of a database.
public actor ReminderService: Service {
    /// What one minute did (for tests and the log).
    public struct Report: Sendable, Equatable {
        /// Reminders and follow-ups found due.
        public var due = 0
        /// Messages the push services accepted.
        public var pushed = 0
        /// Notices sent to open pages.
        public var shown = 0
        /// Not sent: the event is done.
        public var done = 0
        /// Put off to the end of quiet hours.
        public var deferred = 0
        /// Follow-ups to come.
        public var followUps = 0
        /// Subscriptions the push service said are gone (404 or 410), now forgotten.
        public var expired = 0
        /// Messages a push service refused or that did not reach it.
        public var failed = 0
        /// Not sent: too late, no longer in the store or the settings, or the person no longer a member.
        public var skipped = 0
        /// Not sent: more waiting than `maximumWaiting`, or a message that could not be encrypted or signed.
        public var dropped = 0
        /// Messages (one per device) not sent because their turn came more than `lateness` after they were due.
        public var late = 0

        mutating func add(_ other: Report) {
            (due, pushed, shown, done) = (due + other.due, pushed + other.pushed, shown + other.shown, done + other.done)
            (deferred, followUps, expired) = (deferred + other.deferred, followUps + other.followUps, expired + other.expired)
            (failed, skipped, dropped, late) = (failed + other.failed, skipped + other.skipped, dropped + other.dropped, late + other.late)
        }
    }

    /// A reminder for one person.
    struct Delivery: Sendable {
        var date: Date
        var record: CareRecordID
        var account: CareAccountID
        var taskID: String
        var taskUUID: UUID
        var occurrence: Int
        var start: Date
        var isAllDay: Bool
        var isFollowUp: Bool
    }

    private let host: CareHost
    private let configuration: ReminderConfiguration
    private let transport: any PushTransport
    private let logger: Logger
    private var index = OCKReminderIndex()
    /// The settings that remind of something, and the time zone, of each record in the index.
    private var settings: [CareRecordID: [CareReminderSettings]] = [:]
    private var zones: [CareRecordID: TimeZone] = [:]
    /// Reminders waiting for quiet hours to end, and follow-ups, by date.
    private var waiting = DateHeap<Delivery>()
    /// Through when due events were taken (nil: not loaded yet).
    private var through: Date?
    /// When settings saved elsewhere were last looked for.
    private var settingsChecked: Date?
    /// How far apart app servers' clocks may be.
    static let clockDrift: TimeInterval = 120
    private var vapid: WebPush.VAPID?

    /// A service sending `host`'s reminders with the host's `reminders` settings (without them, the contact
    /// `mailto:admin@localhost` and the browsers' push services). `CareHost.reminderService(transport:)` makes one
    /// with the host's logger. Add it to the application's services on one app server of a database.
    ///
    /// For example:
    /// ```swift
    /// let reminders = ReminderService(host: host)
    /// let app = Application(router: host.router(), services: [reminders])
    /// ```
    ///
    /// - Parameters:
    ///   - host: The host whose records, directory, clock and open pages the service uses.
    ///   - transport: Where push requests go: the push services over HTTPS by default, or a test's stand-in. The
    ///     service shuts it down when it stops.
    ///   - logger: Where failures, and the counts of a minute that had any, are logged (never a record's data).
    public init(host: CareHost, transport: any PushTransport = HTTPPushTransport(), logger: Logger = Logger(label: "opencarekit.reminders")) {
        self.host = host
        configuration = host.configuration.reminders ?? ReminderConfiguration(contact: "mailto:admin@localhost")
        self.transport = transport
        self.logger = logger
    }

    /// Finds due reminders at the start of every minute (by the host's clock) until the service group shuts down;
    /// the first minute reads every record with reminders.
    public func run() async throws {
        let changes = host.changeFeed.subscribe()
        let messages = host.messageFeed.subscribe()
        let signals = host.reminderSignals
        // A graceful shutdown cancels the minute's wait: that ends the service, and is no error.
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await record in changes { signals.changed(record) }
                }
                group.addTask { [self] in
                    for await event in messages {
                        guard case let .message(author) = event.kind else { continue }
                        _ = await self.pushNewMessage(event, author: author)
                    }
                }
                group.addTask { [self] in
                    while !Task.isCancelled {
                        let now = self.host.configuration.now()
                        let next = (now.timeIntervalSince1970 / 60).rounded(.down) * 60 + 60
                        try? await Task.sleep(for: .milliseconds(Int64((next - now.timeIntervalSince1970) * 1_000) + 50))
                        guard !Task.isCancelled else { break }
                        let report = await self.tick(at: self.host.configuration.now())
                        if report.failed > 0 || report.expired > 0 || report.dropped > 0 {
                            self.logger.notice("reminders", metadata: ["due": "\(report.due)", "pushed": "\(report.pushed)",
                                                                       "failed": "\(report.failed)", "expired": "\(report.expired)",
                                                                       "dropped": "\(report.dropped)"])
                        }
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }
        try? await transport.shutdown()
    }

    /// Reads every record with reminders into the index, from `now` on; false if the directory could not be read
    /// (it is tried again the next minute).
    private func load(at now: Date) async -> Bool {
        do {
            for record in try await host.directory.recordsWithReminders() { await refresh(record, from: now) }
            through = now.addingTimeInterval(-0.001)
            return true
        } catch {
            logger.error("reminders: the directory could not be read", metadata: ["error": "\(type(of: error))"])
            return false
        }
    }

    /// How many schedule elements the index follows (for tests).
    var followedElements: Int { index.count }

    /// The reminders due by `now`: refreshes the records that changed, then sends what is due (and not done).
    package func tick(at now: Date) async -> Report {
        // Lateness counts from the minute's moment, the index's load and refreshes included.
        let began = ContinuousClock.now
        // After a start, what is due from the start of this minute on is due now.
        if through == nil, await !load(at: Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60)) {
            return Report()
        }
        let from = Date(timeIntervalSinceReferenceDate: (through ?? now).timeIntervalSinceReferenceDate.nextUp)
        // Settings saved on other app servers (with an overlap for their clocks' drift).
        if let settingsChecked {
            do {
                for record in try await host.directory.recordsWithReminderSettingsChanged(after: settingsChecked.addingTimeInterval(-Self.clockDrift)) {
                    host.reminderSignals.changed(record)
                }
            } catch {
                logger.error("reminders: the directory could not be read", metadata: ["error": "\(type(of: error))"])
            }
        }
        settingsChecked = now
        for record in host.reminderSignals.takeChanged() { await refresh(record, from: from) }
        through = max(through ?? now, now)
        var report = Report()
        var found: [Delivery] = []
        // Events missed by more than `lateness` (the server was down) are passed over without being stepped through.
        for due in index.due(through: now, notBefore: now.addingTimeInterval(-configuration.lateness)) {
            guard let record = CareRecordID(due.record) else { continue }
            for setting in settings[record] ?? [] where setting.taskIDs.contains(due.taskID) {
                found.append(Delivery(date: due.date, record: record, account: setting.account, taskID: due.taskID, taskUUID: due.taskUUID,
                                      occurrence: due.occurrence, start: due.start, isAllDay: due.isAllDay, isFollowUp: false))
            }
        }
        while let next = waiting.minimum, next.date <= now { found.append(waiting.popMinimum()) }
        report.due = found.count
        var ready: [(Delivery, CareReminderSettings)] = []
        for delivery in found {
            guard delivery.date >= now.addingTimeInterval(-configuration.lateness),
                  let setting = settings[delivery.record]?.first(where: { $0.account == delivery.account }),
                  setting.taskIDs.contains(delivery.taskID) else {
                report.skipped += 1
                continue
            }
            if let end = quietEnd(setting, zone: zones[delivery.record] ?? .gmt, at: now) {
                var later = delivery
                later.date = end
                if wait(later) { report.deferred += 1 } else { report.dropped += 1 }
                continue
            }
            ready.append((delivery, setting))
        }
        // One pipeline for the minute: several records' stores read at once, and their messages sent as they come,
        // a bounded number in flight over every record.
        var records: [(CareRecordID, [(Delivery, CareReminderSettings)])] = []
        for (record, group) in Dictionary(grouping: ready, by: { $0.0.record }) { records.append((record, group)) }
        let sent = await pipeline(records: records, requests: [], now: now, began: began, measuresLateness: true)
        report.add(sent.report)
        for followUp in sent.followUps {
            if wait(followUp) { report.followUps += 1 } else { report.dropped += 1 }
        }
        let metrics = host.metrics
        metrics.remindersWaiting.set(waiting.count)
        metrics.remindersFollowed.set(index.count)
        for (result, count) in [("pushed", report.pushed), ("failed", report.failed), ("expired", report.expired),
                                ("dropped", report.dropped), ("skipped", report.skipped), ("done", report.done), ("late", report.late)] {
            metrics.reminders(result, count)
        }
        return report
    }

    /// One message for one device, due at `due` (lateness is measured from it).
    struct PushRequest: Sendable {
        var account: CareAccountID
        var subscription: WebPush.Subscription
        var payload: Data
        var topic: String
        var due: Date
    }

    /// What a record's check or a push found, for the pipeline to count.
    private enum Step: Sendable {
        case checked(Checked)
        case sent(PushRequest, status: Int?, lateness: TimeInterval)
        case unsent(PushRequest, isLate: Bool)
    }

    /// One record's due deliveries checked against its store and its members.
    struct Checked: Sendable {
        var report = Report()
        var requests: [PushRequest] = []
        var followUps: [Delivery] = []
    }

    /// Reads the stores of `records` (`concurrentRecords` at once) for what is still undone and sends each message, with
    /// `requests` already made, `concurrentSends` at once over all of them, reading further records as the messages
    /// made drain below `maximumPendingSends`. A message more than `lateness` late when its turn comes is not sent; each
    /// sent message's lateness is measured when the push service has answered (`opencarekit_reminder_lateness_seconds`),
    /// on a clock that starts at `now` (the minute's moment) and runs with the time the work takes.
    private func pipeline(records: [(CareRecordID, [(Delivery, CareReminderSettings)])], requests: [PushRequest], now: Date,
                          began: ContinuousClock.Instant, measuresLateness: Bool) async -> (report: Report, followUps: [Delivery]) {
        var report = Report()
        var followUps: [Delivery] = []
        guard !records.isEmpty || !requests.isEmpty else { return (report, followUps) }
        // Without the signing key nothing can be pushed; the records are still checked, for the open pages' notices
        // and the follow-ups, and each push request is counted as dropped.
        let vapid = await signingKey(now: now)
        if vapid == nil { logger.error("reminders: the Web Push key could not be read from the directory") }
        let host = self.host, configuration = self.configuration, transport = self.transport, logger = self.logger
        let zones = self.zones
        // The minute's moment, moving on as the work takes time (from `began`, when the minute's work started): what
        // lateness is measured by.
        let clock = { @Sendable in
            let elapsed = ContinuousClock.now - began
            return now.addingTimeInterval(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        var recordsLeft = records[...]
        var pending = requests
        var nextPending = 0
        var (checking, sending) = (0, 0)
        // One signature per push service a minute (RFC 8292's token names the origin, not the device).
        var authorizations: [String: String?] = [:]
        await withTaskGroup(of: Step.self) { group in
            func startChecks() {
                while checking < max(1, configuration.concurrentRecords), pending.count - nextPending < configuration.maximumPendingSends,
                      let (record, deliveries) = recordsLeft.popFirst() {
                    checking += 1
                    group.addTask {
                        .checked(await Self.check(deliveries, of: record, zone: zones[record] ?? .gmt, host: host, configuration: configuration,
                                                  now: now, logger: logger))
                    }
                }
            }
            func startSends() {
                while sending < max(1, configuration.concurrentSends), nextPending < pending.count {
                    let request = pending[nextPending]
                    nextPending += 1
                    let endpoint = request.subscription.endpoint
                    let origin = "\(endpoint.scheme ?? "")://\(endpoint.host ?? "")\(endpoint.port.map { ":\($0)" } ?? "")"
                    if authorizations[origin] == nil { authorizations[origin] = .some(try? vapid?.authorization(for: endpoint, now: now)) }
                    let authorization = authorizations[origin] ?? nil
                    sending += 1
                    group.addTask {
                        // Late by now (a long queue, a slow push service): not sent.
                        guard clock().timeIntervalSince(request.due) <= configuration.lateness else {
                            return .unsent(request, isLate: true)
                        }
                        guard let authorization, let body = try? WebPush.encrypt(request.payload, for: request.subscription) else {
                            return .unsent(request, isLate: false)
                        }
                        let headers = [("Authorization", authorization), ("Content-Encoding", "aes128gcm"), ("TTL", "\(configuration.messageLifetime)"),
                                       ("Urgency", "high"), ("Topic", request.topic), ("Content-Type", "application/octet-stream")]
                        let status = try? await transport.post(body, to: endpoint, headers: headers)
                        return .sent(request, status: status, lateness: clock().timeIntervalSince(request.due))
                    }
                }
                // Sent requests are let go of, a batch at a time.
                if nextPending >= 1_024 {
                    pending.removeFirst(nextPending)
                    nextPending = 0
                }
            }
            startChecks()
            startSends()
            while let step = await group.next() {
                switch step {
                case let .checked(checked):
                    checking -= 1
                    report.add(checked.report)
                    followUps += checked.followUps
                    pending += checked.requests
                case let .sent(request, status, lateness):
                    sending -= 1
                    if measuresLateness { host.metrics.reminderLateness(lateness) }
                    switch status {
                    case let status? where (200..<300).contains(status):
                        report.pushed += 1
                    case 404?, 410?:
                        try? await host.directory.removePushSubscription(endpoint: request.subscription.endpoint.absoluteString)
                        report.expired += 1
                    default:
                        report.failed += 1
                    }
                case let .unsent(_, isLate):
                    sending -= 1
                    if isLate { report.late += 1 } else { report.dropped += 1 }
                }
                startSends()
                startChecks()
            }
        }
        return (report, followUps)
    }

    /// Checks `deliveries` of one record against its store — each event still there and undone — and its members —
    /// each person still allowed to read it — then shows each reminder in its person's open pages and makes its push
    /// requests, one per device. Runs beside other records' checks, off the service's actor.
    private static func check(_ deliveries: [(Delivery, CareReminderSettings)], of record: CareRecordID, zone: TimeZone, host: CareHost,
                              configuration: ReminderConfiguration, now: Date, logger: Logger) async -> Checked {
        var checked = Checked()
        let states: OCKEventStates
        do {
            // The record's open store, or one opened for reading alone (a minute's burst reads more records than stay
            // open, and opens none of their servers).
            guard let stored = try await host.directory.record(record), let store = try await host.storeForBackgroundReading(of: stored) else {
                checked.report.skipped += deliveries.count
                return checked
            }
            try await store.catchUp()
            states = try await store.eventStates(deliveries.map { OCKEventKey(taskUUID: $0.0.taskUUID, occurrence: $0.0.occurrence, start: $0.0.start) })
        } catch {
            logger.error("reminders: a record's store could not be read", metadata: ["error": "\(type(of: error))"])
            checked.report.failed += deliveries.count
            return checked
        }
        var allowed: [CareAccountID: Bool] = [:]
        var devices: [CareAccountID: [WebPush.Subscription]] = [:]
        for (delivery, setting) in deliveries {
            let key = OCKEventKey(taskUUID: delivery.taskUUID, occurrence: delivery.occurrence, start: delivery.start)
            guard !states.done.contains(key) else {
                checked.report.done += 1
                continue
            }
            guard let title = states.undone[key] else {
                // The index was behind the store (a change from elsewhere): read the record again next minute.
                host.reminderSignals.changed(record)
                checked.report.skipped += 1
                continue
            }
            if allowed[delivery.account] == nil {
                let membership = try? await host.directory.membership(record: record, account: delivery.account)
                allowed[delivery.account] = membership.map { RecordPermission.read.isGranted(to: $0, in: nil) } ?? false
            }
            guard allowed[delivery.account] == true else {
                checked.report.skipped += 1
                continue
            }
            let message = ReminderMessage(delivery, title: title, isAllDay: delivery.isAllDay, zone: zone)
            if host.reminderSignals.show(message, to: delivery.account) { checked.report.shown += 1 }
            if devices[delivery.account] == nil {
                devices[delivery.account] = await Self.devices(of: delivery.account, host: host, configuration: configuration)
            }
            let payload = message.payload, topic = message.topic
            for device in devices[delivery.account] ?? [] {
                checked.requests.append(PushRequest(account: delivery.account, subscription: device, payload: payload, topic: topic,
                                                    due: delivery.date))
            }
            if !delivery.isFollowUp, let minutes = setting.followUpMinutes, minutes > 0 {
                var followUp = delivery
                followUp.isFollowUp = true
                followUp.date = now.addingTimeInterval(Double(minutes) * 60)
                checked.followUps.append(followUp)
            }
        }
        return checked
    }

    /// A person's devices that this server may send to.
    private static func devices(of account: CareAccountID, host: CareHost, configuration: ReminderConfiguration) async -> [WebPush.Subscription] {
        let stored = (try? await host.directory.pushSubscriptions(of: account)) ?? []
        return stored.compactMap { subscription in
            try? configuration.subscription(endpoint: subscription.endpoint, p256dh: subscription.publicKey, auth: subscription.authSecret)
        }
    }

    /// Tells every member who sees the thread of `event`, but its author, that there is a new message: a push that says
    /// only that (no words of it, no name: a lock screen shows it to anyone) and opens the record's messages. One a
    /// minute per person and record at most reaches a device that missed the others (the `Topic` replaces it).
    func pushNewMessage(_ event: MessageEvent, author: CareAccountID) async -> Report {
        let members = (try? await host.directory.members(of: event.record)) ?? []
        let recipients = members.filter { $0.account.id != author && event.audience.includes($0.membership.role) }.map(\.account.id)
        guard !recipients.isEmpty else { return Report() }
        let note = NewMessageNotice(record: event.record.description)
        let now = host.configuration.now()
        var requests: [PushRequest] = []
        for recipient in recipients {
            for device in await Self.devices(of: recipient, host: host, configuration: configuration) {
                requests.append(PushRequest(account: recipient, subscription: device, payload: note.payload, topic: note.topic, due: now))
            }
        }
        return await pipeline(records: [], requests: requests, now: now, began: .now, measuresLateness: false).report
    }

    /// The server's VAPID key: the one the directory keeps for every app server, made on first use.
    func signingKey(now: Date) async -> WebPush.VAPID? {
        if let vapid { return vapid }
        vapid = try? await host.vapid()
        return vapid
    }

    /// Re-reads a record's settings and reminded tasks.
    private func refresh(_ record: CareRecordID, from date: Date) async {
        do {
            let wanted = try await host.directory.reminderSettings(of: record)
            guard !wanted.isEmpty, let stored = try await host.directory.record(record),
                  let server = try await host.serverForBackgroundWork(of: record) else {
                forget(record)
                return
            }
            try await server.store.catchUp()
            let ids = Set(wanted.flatMap(\.taskIDs))
            let chains = try await OCKCalendarFeed(title: "", now: date).tasks(of: server.store).filter { ids.contains($0.first?.id ?? "") }
            settings[record] = wanted
            zones[record] = TimeZone(identifier: stored.timeZoneIdentifier) ?? .gmt
            index.replace(record: record.description, tasks: chains, from: date)
        } catch {
            // Kept as it was, and read again next minute.
            logger.error("reminders: a record could not be read", metadata: ["error": "\(type(of: error))"])
            host.reminderSignals.changed(record)
        }
    }

    private func forget(_ record: CareRecordID) {
        settings[record] = nil
        zones[record] = nil
        index.remove(record: record.description)
    }

    /// Keeps `delivery` for later; false when too many wait.
    private func wait(_ delivery: Delivery) -> Bool {
        guard waiting.count < configuration.maximumWaiting else {
            logger.warning("reminders: too many reminders wait; one was dropped", metadata: ["limit": "\(configuration.maximumWaiting)"])
            return false
        }
        waiting.push(delivery, at: delivery.date)
        return true
    }

    /// The end of the quiet hours `now` is in, in the record's time zone; nil when it is not quiet.
    func quietEnd(_ setting: CareReminderSettings, zone: TimeZone, at now: Date) -> Date? {
        guard setting.quietStart != nil, setting.quietEnd != nil else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: now)
        guard let end = setting.quietEnd, setting.isQuiet(atMinute: (parts.hour ?? 0) * 60 + (parts.minute ?? 0)) else { return nil }
        return calendar.nextDate(after: now, matching: DateComponents(hour: end / 60, minute: end % 60, second: 0), matchingPolicy: .nextTime)
    }
}

/// A reminder as its person's devices and pages get it: the task's title (the only care data in it), when, and where
/// to open it. Push services see only its encrypted form.
struct ReminderMessage: Codable, Sendable, Equatable {
    var kind: String
    var record: String
    var task: String
    var title: String
    var start: Date
    var isAllDay: Bool
    /// The event's day in the record's zone, `YYYY-MM-DD`, and its time there, `HH:MM`.
    var day: String
    var time: String
    var url: String

    /// The most bytes of title sent (UTF-8): a message holds at most 3,993 bytes, the task's id (at most 1,024) and
    /// the rest of the message included.
    static let maximumTitleBytes = 600

    init(_ delivery: ReminderService.Delivery, title: String?, isAllDay: Bool, zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: delivery.start)
        kind = delivery.isFollowUp ? "follow-up" : "reminder"
        record = delivery.record.description
        task = delivery.taskID
        var cut = Substring(title ?? "")
        while cut.utf8.count > Self.maximumTitleBytes { cut = cut.dropLast() }
        self.title = String(cut)
        start = delivery.start
        self.isAllDay = isAllDay
        day = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        url = "/records/\(delivery.record)/care?date=\(day)"
    }

    var json: String { String(decoding: payload, as: UTF8.self) }

    var payload: Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }

    /// The push `Topic` (at most 32 URL-safe characters): a follow-up replaces its reminder if that is still undelivered.
    var topic: String { WebPush.topic("\(record)/\(task)/\(start.timeIntervalSince1970)") }
}

/// A push that says a record has a new message, and nothing of it.
struct NewMessageNotice: Codable, Sendable, Equatable {
    var kind = "message"
    var record: String
    var url: String

    init(record: String) {
        self.record = record
        url = "/records/\(record)/messages"
    }

    var payload: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }

    /// One per record: a newer notice replaces an undelivered one.
    var topic: String { WebPush.topic("message/\(record)") }
}
