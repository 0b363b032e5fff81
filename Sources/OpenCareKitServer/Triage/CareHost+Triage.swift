import Foundation
import Hummingbird
import OpenCareKit
import OpenCareKitDirectory
import OpenCareKitStore
import OpenCareKitUI

/// The care team's triage queue: the alerts a record's rules raise (`OCKAlertRule` on its tasks, found by
/// `OCKAlert.find`) become items (`CareTriageItem`) that a clinician of the record acknowledges, assigns and resolves
/// with a note, from the clinician's home. Alerts are found from the record's store as it is, after every change to
/// it (whoever wrote it: `TriageService`) and daily, so every writer raises them; the homes hear of each item raised
/// or changed at once (`triageFeed`). Each action passes the record's gate (clinicians only, CSRF, audited).
extension CareHost {
    /// The most open items the home lists (the count says how many there are, and links to the whole queue).
    package static let triageHomeLimit = 20
    /// The open items a page of the whole queue (`/triage`) lists.
    package static let triagePageSize = 50

    // MARK: Raising

    /// The alerts that hold in `record` at `now`, raised as its triage items; the clinicians' homes hear of any item
    /// raised or updated.
    @discardableResult
    func raiseAlerts(of record: CareRecord, at now: Date) async throws -> CareTriageRaise {
        guard let store = try await storeForBackgroundReading(of: record) else { return CareTriageRaise() }
        let alerts = try await OCKAlert.find(in: store, calendar: Self.calendar(of: record), now: now)
        // The directory's writes are one at a time (one SQLite writer, PostgreSQL's directory lock), so two servers
        // raising the same cause find each other's item.
        let raised = try await directory.raiseTriage(alerts.map(Self.triageAlert), record: record.id, now: now)
        if !raised.isEmpty { triageFeed.publish(record.id) }
        return raised
    }

    /// The store to read `record` in for the host's own work (its alerts, its due reminders): its open server's, or one
    /// opened for reading (no server made, nothing written); nil if nothing was ever written to it.
    package func storeForBackgroundReading(of record: CareRecord) async throws -> OCKStore? {
        if let stores = configuration.stores {
            guard try await stores.revision(of: record) != nil else { return nil }
            return try records.openServer(record.id)?.store ?? stores.openReadingStore(for: record)
        }
        return try await records.server(for: record.id, load: { record })?.store
    }

    static func triageAlert(_ alert: OCKAlert) -> CareTriageAlert {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let rule = (try? encoder.encode(alert.rule)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return CareTriageAlert(cause: alert.cause, taskID: alert.taskID, taskTitle: alert.taskTitle, ruleID: alert.rule.id, rule: rule,
                               priority: alert.rule.priority == .urgent ? .urgent : .routine, observed: alert.observed,
                               evidence: alert.evidence, outcomeIDs: alert.outcomeIDs, latest: alert.latest)
    }

    // MARK: Acting

    func addTriageRoutes(to routes: inout HostRoutes) {
        let host = self
        // The whole queue of the person's patients, a page at a time.
        routes.account(.get, "/triage") { request, context, identity in
            try await host.triagePage(request, context, identity)
        }
        addRecordRoute(&routes, .post, "/triage/acknowledge", .page("triage", .triage, action: .update)) { request, context, access in
            try await host.recordForm(request, context, access) { fields in
                try await host.actOnTriage(fields, .acknowledge, request, access)
            }
        }
        addRecordRoute(&routes, .post, "/triage/assign", .page("triage", .triage, action: .update)) { request, context, access in
            try await host.recordForm(request, context, access) { fields in
                let text = fields.values["owner"] ?? ""
                guard let owner = text.isEmpty ? .some(nil) : RandomIdentifier(text).map({ Optional($0) }) else {
                    return host.triageMessage(request, PageMessage(TriageText.clinicianOnly), status: .unprocessableContent)
                }
                return try await host.actOnTriage(fields, .assign(owner), request, access)
            }
        }
        addRecordRoute(&routes, .post, "/triage/resolve", .page("triage", .triage, action: .update)) { request, context, access in
            try await host.recordForm(request, context, access) { fields in
                try await host.actOnTriage(fields, .resolve(note: fields.values["note"] ?? ""), request, access)
            }
        }
    }

    /// Does `action` to the item the form names, as the person asking; back to the home, or a page that says why not
    /// (who was first, and when).
    func actOnTriage(_ fields: FormFields, _ action: CareTriageAction, _ request: Request, _ access: RecordAccess) async throws -> Response {
        guard let id = fields.values["item"].flatMap(RandomIdentifier.init), let item = try await directory.triageItem(id),
              item.record == access.record else {
            return triageMessage(request, PageMessage(TriageText.itemGone), status: .notFound)
        }
        switch action {
        case let .assign(owner?):
            guard try await directory.membership(record: access.record, account: owner)?.role == .clinician else {
                return triageMessage(request, PageMessage(TriageText.clinicianOnly), status: .unprocessableContent)
            }
        case let .resolve(note):
            guard !note.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, note.count <= CareTriageItem.maximumNoteLength else {
                return triageMessage(request, PageMessage(TriageText.noteNeeded, String(CareTriageItem.maximumNoteLength)),
                                     status: .unprocessableContent)
            }
        case .acknowledge, .assign(nil): break
        }
        do {
            _ = try await directory.actOnTriageItem(id, action, by: access.identity.account.id, now: configuration.now())
        } catch let error as CareDirectoryError where error.kind == .conflict {
            // Someone was first: say who, and when (in the record's time zone).
            let current = try await directory.triageItem(id) ?? item
            let record = try await directory.record(access.record)
            let language = renderContext(for: request).localization.language
            let localization = recordLocalization(record, language: language)
            let (who, when, words) = current.status == .resolved
                ? (current.resolvedBy, current.resolvedDate, TriageText.resolvedMeanwhile)
                : (current.acknowledgedBy, current.acknowledgedDate, TriageText.acknowledgedMeanwhile)
            let name = try await accountNames([who].compactMap { $0 })[who ?? .random()] ?? TriageText.unnamed.text(language)
            return triageMessage(request, PageMessage(words, name, when.map(localization.dateAndTime) ?? ""), status: .conflict)
        }
        triageFeed.publish(access.record)
        // Back where the form was: the home, or a page of the whole queue.
        let back = fields.values["back"].map { SafeRedirect.path($0) }.flatMap { $0.hasPrefix("/triage") ? $0 : nil } ?? "/#triage"
        return Response.redirect(to: back, type: .normal)
    }

    /// A page with `message` and the way back to the home.
    func triageMessage(_ request: Request, _ message: PageMessage, status: HTTPResponse.Status) -> Response {
        let language = renderContext(for: request).localization.language
        return hostPage(request, title: TriageText.queueTitle.text(language), status: status) { _ in [
            .element("h1", [:], [.text(TriageText.queueTitle.text(language))]),
            .element("p", ["class": "ock-notice", "role": "alert"], [.text(message.text(language))]),
            .element("p", [:], [.element("a", ["href": "/#triage"], [.text(TriageText.backToPatients.text(language))])]),
        ] }
    }

    /// The names of `accounts` that exist.
    func accountNames(_ accounts: [CareAccountID]) async throws -> [CareAccountID: String] {
        var names: [CareAccountID: String] = [:]
        for account in Set(accounts) {
            if let found = try await directory.account(account) { names[account] = found.name }
        }
        return names
    }

    // MARK: The queue on the home

    /// A queue of the open items of `records` (the clinician's patients), urgent and new first, `limit` of them from
    /// `offset`, with what each person can do: the records its items are of (to audit before showing them), and the
    /// section, made with the page's CSRF token.
    package func triageQueue(of records: [CareRecord], language: OCKLanguage, offset: Int = 0, limit: Int = CareHost.triageHomeLimit,
                             wholeQueue: Bool = false) async throws -> (records: [CareRecordID], html: @Sendable (String) -> HTML) {
        let ids = records.map(\.id)
        let counts = try await directory.openTriageCounts(records: ids)
        let offset = min(max(offset, 0), max(counts.open - 1, 0) / max(limit, 1) * max(limit, 1))
        let items = Array(try await directory.triageItems(records: ids, open: true, limit: offset + limit).dropFirst(offset))
        let byID = Dictionary(records.map { ($0.id, $0) }) { first, _ in first }
        var clinicians: [CareRecordID: [(id: CareAccountID, name: String)]] = [:]
        for record in Set(items.map(\.record)) {
            clinicians[record] = try await directory.members(of: record).filter { $0.membership.role == .clinician }
                .map { ($0.account.id, $0.account.name) }.sorted { $0.name < $1.name }
        }
        let names = try await accountNames(items.flatMap { [$0.acknowledgedBy, $0.owner].compactMap { $0 } })
        let text = TriageItemText(language: language, contexts: zoneContexts)
        let teams = clinicians
        @Sendable func page(_ from: Int) -> String { from > 0 ? "/triage?from=\(from)" : "/triage" }
        let back = wholeQueue ? page(offset) : nil
        let html: @Sendable (String) -> HTML = { token in .element("section", ["id": "triage", "class": "ock-triage-queue", "aria-labelledby": "triage-title"], [
            .element(wholeQueue ? "h1" : "h2", ["id": "triage-title"], [.text(TriageText.queueTitle.text(language))]),
            .element("p", ["id": "triage-summary", "class": "ock-home-summary", "data-open": String(counts.open), "data-urgent": String(counts.urgent)], [
                .text(counts.open == 0 ? TriageText.nothingOpen.text(language)
                      : TriageText.openCount.text(language, String(counts.open), String(counts.urgent))),
            ]),
            counts.open > items.count && !items.isEmpty
                ? .element("p", ["class": "ock-notice", "role": "status"], [.text(TriageText.showingItems.text(
                    language, String(offset + 1), String(offset + items.count), String(counts.open)))])
                : .empty,
            items.isEmpty ? .empty : .element("ol", ["class": "ock-triage", "aria-labelledby": "triage-title"], items.compactMap { item in
                guard let record = byID[item.record] else { return nil }
                return text.render(item, record: record, clinicians: teams[item.record] ?? [], names: names, token: token, back: back)
            }),
            counts.open > items.count || wholeQueue ? .element("nav", ["class": "ock-patient-pages", "aria-label": TriageText.queuePages.text(language)], [
                wholeQueue && offset > 0
                    ? .element("a", ["href": page(max(offset - limit, 0)), "class": "ock-link-row", "rel": "prev"], [.text(TriageText.previousItems.text(language))])
                    : .empty,
                wholeQueue && offset + items.count < counts.open
                    ? .element("a", ["href": page(offset + limit), "class": "ock-link-row", "rel": "next"], [.text(TriageText.nextItems.text(language))])
                    : .empty,
                wholeQueue ? .element("a", ["href": "/", "class": "ock-link-row"], [.text(TriageText.backToPatients.text(language))])
                    : .element("a", ["href": "/triage", "class": "ock-link-row"], [.text(TriageText.wholeQueue.text(language, String(counts.open)))]),
            ]) : .empty,
        ]) }
        return (Array(Set(items.map(\.record))), html)
    }

    /// `GET /triage`: the open items of every record the person is a clinician of, a page at a time (`?from=`), live as
    /// the home is; each record shown is audited as the home's are.
    func triagePage(_ request: Request, _ context: CareRequestContext, _ identity: CareIdentity) async throws -> Response {
        let language = renderContext(for: request).localization.language
        let patients = try await directory.memberships(of: identity.account.id).filter { $0.membership.role == .clinician }.map(\.record)
        guard !patients.isEmpty else { return Response.redirect(to: "/", type: .normal) }
        // Clamped to the last page by the queue's count.
        let from = max(request.uri.queryParameters.get("from").flatMap { Int($0) } ?? 0, 0)
        let queue = try await triageQueue(of: patients, language: language, offset: from, limit: Self.triagePageSize, wholeQueue: true)
        try await auditSummaries(queue.records, identity: identity, context: context, detail: "GET /triage")
        return hostPage(request, title: TriageText.queueTitle.text(language),
                        metadata: ["ock-refresh": from > 0 ? "/triage?from=\(from)" : "/triage", "ock-changes": "/live/home"]) { token in
            [queue.html(token)]
        }
    }
}

/// Renders the triage items of a clinician's home in one language.
struct TriageItemText {
    let language: OCKLanguage
    let contexts: ZoneRenderContexts

    func render(_ item: CareTriageItem, record: CareRecord, clinicians: [(id: CareAccountID, name: String)],
                names: [CareAccountID: String], token: String, back: String? = nil) -> HTML {
        let calendar = CareHost.calendar(of: record)
        let localization = contexts.context(language: language, timeZone: calendar.timeZone).localization
        let id = item.id.description
        let base = "/records/\(record.id)/triage"
        func name(_ account: CareAccountID?) -> String {
            account.flatMap { names[$0] } ?? TriageText.unnamed.text(language)
        }
        var status: [String] = [item.status == .new ? TriageText.new.text(language)
                                : TriageText.acknowledgedBy.text(language, name(item.acknowledgedBy),
                                                                 item.acknowledgedDate.map(localization.dateAndTime) ?? "")]
        status.append(TriageText.assignedTo.text(language, item.owner == nil ? TriageText.careTeam.text(language) : name(item.owner)))
        status.append(TriageText.raisedAt.text(language, localization.dateAndTime(item.raisedDate)))
        if item.raisedCount > 1 { status.append(TriageText.raisedTimes.text(language, String(item.raisedCount))) }
        let urgent = item.alert.priority == .urgent
        let day = CareServer.dayString(item.alert.latest, calendar: calendar)
        let form = { (path: String, content: [HTML]) -> HTML in
            .element("form", ["method": "post", "action": base + path, "class": "ock-inline-form"],
                     [CareHost.hidden(CSRF.fieldName, token), CareHost.hidden("item", id), back.map { CareHost.hidden("back", $0) } ?? .empty]
                        + content)
        }
        return .element("li", ["id": "triage-\(id)", "class": urgent ? "ock-triage-item ock-urgent" : "ock-triage-item",
                               "data-item": id, "data-record": record.id.description, "data-status": item.status.rawValue], [
            .element("p", ["class": "ock-triage-head"], [
                .element("span", ["class": urgent ? "ock-badge ock-badge-urgent" : "ock-badge"],
                         [.text((urgent ? TriageText.urgent : TriageText.routine).text(language))]),
                .text(" "),
                .element("a", ["href": "/records/\(record.id)/care?date=\(day)",
                               "aria-label": TriageText.openOutcomes.text(language, record.patientName)], [.text(record.patientName)]),
            ]),
            .element("p", ["class": "ock-triage-what"], [.text(describe(item.alert, localization))]),
            .element("p", ["class": "ock-triage-status"], [.text(status.joined(separator: " · "))]),
            .element("div", ["class": "ock-triage-actions"], [
                item.status == .new
                    ? form("/acknowledge", [.element("button", ["type": "submit", "class": "ock-button"], [.text(TriageText.acknowledge.text(language))])])
                    : .empty,
                form("/assign", [
                    .element("label", ["for": "owner-\(id)", "class": "ock-visually-hidden"],
                             [.text(TriageText.assignTo.text(language, record.patientName))]),
                    .element("select", ["id": "owner-\(id)", "name": "owner"], [
                        .element("option", ["value": "", "selected": item.owner == nil ? "selected" : nil].compactMapValues { $0 },
                                 [.text(TriageText.careTeam.text(language))]),
                    ] + clinicians.map { clinician in
                        .element("option", ["value": clinician.id.description, "selected": item.owner == clinician.id ? "selected" : nil]
                            .compactMapValues { $0 }, [.text(clinician.name)])
                    }),
                    .element("button", ["type": "submit", "class": "ock-button"], [.text(TriageText.assign.text(language))]),
                ]),
                form("/resolve", [
                    .element("label", ["for": "note-\(id)", "class": "ock-visually-hidden"],
                             [.text(TriageText.resolutionNote.text(language, record.patientName))]),
                    .element("textarea", ["id": "note-\(id)", "name": "note", "required": "required", "rows": "2",
                                          "maxlength": String(CareTriageItem.maximumNoteLength)], []),
                    .element("button", ["type": "submit", "class": "ock-button"], [.text(TriageText.resolve.text(language))]),
                ]),
                // A reply goes into the item's thread with the patient (made with the first one).
                .element("form", ["method": "post", "action": "/records/\(record.id)/messages", "class": "ock-inline-form"], [
                    CareHost.hidden(CSRF.fieldName, token), CareHost.hidden("item", id), CareHost.hidden("back", "home"),
                    CareHost.hidden("audience", CareThread.Audience.everyone.rawValue),
                    .element("label", ["for": "message-\(id)", "class": "ock-visually-hidden"],
                             [.text(MessageText.messagePatientLabel.text(language, record.patientName))]),
                    .element("textarea", ["id": "message-\(id)", "name": "body", "required": "required", "rows": "2",
                                          "maxlength": String(CareMessage.maximumBodyLength)], []),
                    .element("button", ["type": "submit", "class": "ock-button"], [.text(MessageText.messagePatient.text(language))]),
                ]),
            ]),
        ])
    }

    /// What the rule saw, in words: "Check-in: pain 9 (alert at 7 or more)".
    func describe(_ alert: CareTriageAlert, _ localization: OCKLocalization) -> String {
        let task = alert.taskTitle ?? alert.taskID
        func number(_ value: Double) -> String { localization.number(value, fractionDigits: 1) }
        guard let rule = try? JSONDecoder().decode(OCKAlertRule.self, from: Data(alert.rule.utf8)) else { return task }
        switch rule.condition {
        case let .missedDoses(_, ofDays):
            return TriageText.missedDoses.text(language, task, number(alert.observed), String(ofDays))
        case let .value(kind, atLeast, atMost):
            let kind = kind ?? TriageText.anyValue.text(language)
            if let atLeast, let atMost {
                return TriageText.valueOutside.text(language, task, kind, number(alert.observed), number(atMost), number(atLeast))
            }
            if let atLeast { return TriageText.valueAtLeast.text(language, task, kind, number(alert.observed), number(atLeast)) }
            return TriageText.valueAtMost.text(language, task, kind, number(alert.observed), number(atMost ?? 0))
        case let .change(kind, by, withinDays):
            let change = (alert.observed > 0 ? "+" : "") + number(alert.observed)
            return TriageText.change.text(language, task, kind ?? TriageText.anyValue.text(language), change, String(withinDays),
                                          (by > 0 ? "+" : "") + number(by))
        case .noActivity:
            return TriageText.noActivity.text(language, task, number(alert.observed))
        }
    }
}
