import Foundation
import Hummingbird
import OpenCareKit
import OpenCareKitDirectory
import OpenCareKitStore
import OpenCareKitUI

/// Reminders: a person's settings for a record (which tasks, quiet hours, a follow-up), each browser's push
/// subscription, the service worker that shows pushed reminders, and a live stream of reminders for open pages.
/// Settings need only the permission to read the record: they are the person's own, and reveal nothing new.
extension CareHost {
    /// The most bytes of a subscription form (an endpoint of at most 2,048 characters and two keys).
    static let subscriptionFormLimit = 8_192
    /// The most devices (push subscriptions) a person has; a new one beyond replaces the oldest.
    static let maximumDevices = 10
    /// Follow-up delays offered, in minutes.
    static let followUpChoices = [15, 30, 60, 120]

    func addReminderRoutes(to routes: inout HostRoutes) {
        let host = self
        addRecordRoute(&routes, .get, "/reminders", .page("reminders")) { request, _, access in
            try await host.remindersPage(request, access)
        }
        addRecordRoute(&routes, .post, "/reminders", .page("reminders", .read, action: .update)) { request, context, access in
            try await host.recordForm(request, context, access) { fields in
                try await host.saveReminders(fields, request, access)
            }
        }
        routes.account(.post, "/account/push-subscriptions") { request, context, identity in
            let fields = try await FormFields.read(request, context: context, limit: Self.subscriptionFormLimit)
            guard CSRF.isValid(fields, request: request) else {
                throw ClientError(status: .forbidden, message: CSRF.expiredMessage.text(request.preferredLanguage))
            }
            let language = host.renderContext(for: request).localization.language
            guard let configuration = host.configuration.reminders else {
                throw ClientError(status: .notFound, message: ReminderText.unavailable.text(language))
            }
            do {
                let subscription = try configuration.subscription(endpoint: fields.values["endpoint"] ?? "", p256dh: fields.values["p256dh"] ?? "",
                                                                  auth: fields.values["auth"] ?? "")
                // At most `maximumDevices` per person: a new one replaces the oldest.
                let devices = try await host.directory.pushSubscriptions(of: identity.account.id)
                    .filter { $0.endpoint != subscription.endpoint.absoluteString }
                for old in devices.dropLast(max(0, Self.maximumDevices - 1)) {
                    try await host.directory.removePushSubscription(endpoint: old.endpoint)
                }
                try await host.directory.setPushSubscription(CarePushSubscription(
                    account: identity.account.id, endpoint: subscription.endpoint.absoluteString, publicKey: fields.values["p256dh"] ?? "",
                    authSecret: fields.values["auth"] ?? "", createdDate: host.configuration.now()))
                return Response(status: .created, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                                body: .init(byteBuffer: ByteBuffer(string: #"{"subscribed":true}"#)))
            } catch let error as WebPushError {
                throw ClientError(status: .unprocessableContent, field: "endpoint",
                                message: ReminderText.subscriptionRefused.text(language, error.description))
            }
        }
        routes.account(.post, "/account/push-subscriptions/remove") { request, context, identity in
            let fields = try await FormFields.read(request, context: context, limit: Self.subscriptionFormLimit)
            guard CSRF.isValid(fields, request: request) else {
                throw ClientError(status: .forbidden, message: CSRF.expiredMessage.text(request.preferredLanguage))
            }
            try await host.removePushSubscription(fields.values["endpoint"] ?? "", of: identity.account.id)
            return Response(status: .noContent)
        }
        routes.account(.get, "/account/reminders/live") { request, context, identity in
            try await host.liveReminders(request, context, identity)
        }
    }

    /// Forgets the subscription at `endpoint` if it is one of `account`'s devices.
    func removePushSubscription(_ endpoint: String, of account: CareAccountID) async throws {
        if try await directory.pushSubscriptions(of: account).contains(where: { $0.endpoint == endpoint }) {
            try await directory.removePushSubscription(endpoint: endpoint)
        }
    }

    /// `GET /account/reminders/live`: a `reminder` event for each reminder of the person while the page is open, worded
    /// in the page's language; it ends when the person signs out.
    func liveReminders(_ request: Request, _ context: CareRequestContext, _ identity: CareIdentity) async throws -> Response {
        guard let slot = liveSlots.take(for: context.liveStreamOwner) else { throw CareServer.tooManyStreams }
        let account = identity.account.id, language = renderContext(for: request).localization.language
        let events = reminderSignals.listen(account).map { message in
            let when = message.isAllDay ? ReminderText.today.text(language) : message.time
            let text = (message.kind == "follow-up" ? ReminderText.followUpNotice : ReminderText.notice).text(language, message.title, when)
            let notice = ["text": text, "url": message.url, "open": ReminderText.open.text(language), "dismiss": ReminderText.dismiss.text(language)]
            let json = (try? JSONSerialization.data(withJSONObject: notice, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            return "event: reminder\ndata: \(json)\n\n"
        }
        let check = AccessCheck(interval: configuration.liveAccessInterval) { [self] in
            await self.isStillSignedIn(request, account: account)
        }
        return CareServer.eventStream(request, slot: slot, first: "retry: 5000\n\nevent: ready\ndata: {}\n\n", events, accessCheck: check)
    }

    /// The tasks a person can be reminded of: each task's newest version, if it has events to come.
    func remindableTasks(of access: RecordAccess) async throws -> [OCKTask] {
        guard let server = try await server(for: access) else { return [] }
        try await server.store.catchUp()
        let now = configuration.now()
        return try await OCKCalendarFeed(title: "", now: now).tasks(of: server.store).compactMap(\.first)
            .filter { task in task.schedule.elements.contains { $0.end.map { $0 > now } ?? true } }
            .sorted { ($0.title ?? $0.id, $0.id) < ($1.title ?? $1.id, $1.id) }
    }

    func saveReminders(_ fields: FormFields, _ request: Request, _ access: RecordAccess) async throws -> Response {
        let language = renderContext(for: request).localization.language
        let known = Set(try await remindableTasks(of: access).map(\.id))
        let chosen = fields.all["task"] ?? []
        guard chosen.count <= CareReminderSettings.maximumTasks, chosen.allSatisfy(known.contains) else {
            return try await remindersPage(request, access, message: ReminderText.unknownTask.text(language), status: .unprocessableContent)
        }
        func minutes(_ name: String) -> Int?? {
            let text = fields.values[name] ?? ""
            if text.isEmpty { return .some(nil) }
            let parts = text.split(separator: ":")
            guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute) else {
                return nil
            }
            return hour * 60 + minute
        }
        guard let quietStart = minutes("quiet-start"), let quietEnd = minutes("quiet-end"), (quietStart == nil) == (quietEnd == nil) else {
            return try await remindersPage(request, access, message: ReminderText.quietInvalid.text(language), status: .unprocessableContent)
        }
        let followUp = fields.values["follow-up"].flatMap(Int.init).flatMap { Self.followUpChoices.contains($0) ? $0 : nil }
        try await directory.setReminderSettings(CareReminderSettings(
            account: access.identity.account.id, record: access.record, taskIDs: Array(Set(chosen)).sorted(), quietStart: quietStart,
            quietEnd: quietEnd, followUpMinutes: followUp, updatedDate: configuration.now()))
        reminderSignals.changed(access.record)
        return try await remindersPage(request, access, message: ReminderText.saved.text(language), isError: false)
    }

    func remindersPage(_ request: Request, _ access: RecordAccess, message: String? = nil, isError: Bool = true,
                       status: HTTPResponse.Status = .ok) async throws -> Response {
        let language = renderContext(for: request).localization.language
        let record = try await directory.record(access.record)
        let settings = try await directory.reminderSettings(record: access.record, account: access.identity.account.id)
        let tasks = try await remindableTasks(of: access)
        let chosen = Set(settings?.taskIDs ?? [])
        let vapidKey = configuration.reminders == nil ? nil : try await vapid().publicKey
        func time(_ minutes: Int?) -> String { minutes.map { String(format: "%02d:%02d", $0 / 60, $0 % 60) } ?? "" }
        let base = "/records/\(access.record)"
        return hostPage(request, title: ReminderText.title.text(language), status: status) { token in
            var main: [HTML] = [
                .element("h1", [:], [.text(ReminderText.title.text(language) + " – " + (record?.patientName ?? ""))]),
                Self.notice(message, isError: isError),
            ]
            guard let vapidKey else {
                main.append(.element("p", [:], [.text(ReminderText.unavailable.text(language))]))
                return main
            }
            main.append(.element("p", [:], [.text(ReminderText.intro.text(language))]))
            let taskList: HTML = tasks.isEmpty ? .element("p", [:], [.text(ReminderText.noTasks.text(language))])
                : .element("ul", ["class": "ock-reminder-tasks"], tasks.map { task in
                    let id = "remind-\(task.uuid.uuidString)"
                    var box = ["type": "checkbox", "name": "task", "value": task.id, "id": id]
                    if chosen.contains(task.id) { box["checked"] = "checked" }
                    return .element("li", ["class": "ock-check-row"], [.element("input", box, []),
                                                                       .element("label", ["for": id], [.text(task.title ?? task.id)])])
                })
            let followUp = settings?.followUpMinutes
            main.append(.element("form", ["method": "post", "action": base + "/reminders", "class": "ock-account-form",
                                          "data-reminders-on": (settings?.taskIDs.isEmpty ?? true) ? "false" : "true"], [
                Self.hidden(CSRF.fieldName, token),
                .element("fieldset", [:], [.element("legend", [:], [.text(ReminderText.tasksHeading.text(language))]), taskList]),
                .element("fieldset", [:], [
                    .element("legend", [:], [.text(ReminderText.quietHeading.text(language))]),
                    .element("p", [:], [.text(ReminderText.quietHint.text(language, record?.timeZoneIdentifier ?? ""))]),
                    .element("p", ["class": "ock-field"], [
                        .element("label", ["for": "quiet-start"], [.text(ReminderText.quietFrom.text(language))]),
                        .element("input", ["type": "time", "id": "quiet-start", "name": "quiet-start", "value": time(settings?.quietStart)], []),
                    ]),
                    .element("p", ["class": "ock-field"], [
                        .element("label", ["for": "quiet-end"], [.text(ReminderText.quietTo.text(language))]),
                        .element("input", ["type": "time", "id": "quiet-end", "name": "quiet-end", "value": time(settings?.quietEnd)], []),
                    ]),
                ]),
                .element("p", ["class": "ock-field"], [
                    .element("label", ["for": "follow-up"], [.text(ReminderText.followUp.text(language))]),
                    .element("select", ["id": "follow-up", "name": "follow-up"], [
                        .element("option", ["value": ""], [.text(ReminderText.followUpNone.text(language))]),
                    ] + Self.followUpChoices.map { minutes in
                        var option = ["value": String(minutes)]
                        if followUp == minutes { option["selected"] = "selected" }
                        return .element("option", option, [.text(ReminderText.followUpAfter.text(language, String(minutes)))])
                    }),
                ]),
                .element("button", ["type": "submit", "class": "ock-button"], [.text(ReminderText.save.text(language))]),
            ]))
            main.append(.element("section", ["aria-labelledby": "device", "data-reminder-device": "", "data-vapid-key": vapidKey,
                                              "data-on": ReminderText.deviceOn.text(language),
                                              "data-unsupported": ReminderText.deviceUnsupported.text(language),
                                              "data-denied": ReminderText.deviceDenied.text(language),
                                              "data-failed": ReminderText.deviceFailed.text(language)], [
                .element("h2", ["id": "device"], [.text(ReminderText.deviceHeading.text(language))]),
                .element("p", [:], [.text(ReminderText.deviceIntro.text(language))]),
                .element("button", ["type": "button", "class": "ock-button", "data-action": "subscribe"],
                         [.text(ReminderText.turnOnDevice.text(language))]),
                .element("p", ["class": "ock-device-status", "role": "status"], []),
            ]))
            return main
        }
    }
}

