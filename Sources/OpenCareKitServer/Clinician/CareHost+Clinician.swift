import Foundation
import Hummingbird
import OpenCareKitDirectory
import OpenCareKitStore
import OpenCareKitUI
import Synchronization

/// The clinician's home: the patients whose record they are a clinician of, a page at a time and those in need first
/// (`patientPage`), at a glance — the last 7 days' adherence as a figure of seven bars, the last activity, open triage
/// items and the flags that need attention (`ClinicianFlagRules`) — each opening the record, and live: a change to any
/// of the records refreshes it.
///
/// Summaries are remembered per record with the store's revision (`PatientSummaries`), so a view opens only the
/// stores that changed since the last one. Each summary shown is audited, once per clinician, record and idle
/// timeout (`SummaryViewAudits`), since the home shows every patient again on each refresh.
extension CareHost {
    /// How many stores a home opens at once to make summaries.
    static let summaryConcurrency = 4
    /// A live home refreshes at most this often, however many of its records change.
    static let homeRefreshInterval: Duration = .seconds(1)

    func addClinicianRoutes(to routes: inout HostRoutes) {
        let host = self
        routes.account(.get, "/live/home") { request, context, identity in
            try await host.liveHome(request, context, identity)
        }
    }

    /// One patient of the home: the record and its summary.
    struct PatientRow: Sendable {
        let record: CareRecord
        /// The calendar of the record's time zone.
        let calendar: Calendar
        let summary: PatientSummary
    }

    /// The summaries of `records` (made or remembered), in their order.
    func patientRows(_ records: [CareRecord]) async -> [PatientRow] {
        let now = configuration.now()
        let rows = await concurrently(records, limit: Self.summaryConcurrency) { record in
            // One damaged record must not hide the others: it is listed, flagged as unreadable (and known so, to come
            // first next time).
            let calendar = Self.calendar(of: record)
            let summary: PatientSummary
            do {
                summary = try await self.summary(of: record, calendar: calendar, now: now)
            } catch {
                self.summaries.rememberUnreadable(record.id)
                summary = .unreadable
            }
            return PatientRow(record: record, calendar: calendar, summary: summary)
        }
        // They finish in any order.
        let place = Dictionary(records.enumerated().map { ($1.id, $0) }) { first, _ in first }
        return rows.sorted { (place[$0.record.id] ?? 0) < (place[$1.record.id] ?? 0) }
    }

    /// The calendar of `record`'s time zone (the server's when the record names an unknown one).
    static func calendar(of record: CareRecord) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: record.timeZoneIdentifier) ?? .current
        return calendar
    }

    /// The summary of `record` at `now`: remembered if its store has not changed since, else made from the store.
    func summary(of record: CareRecord, calendar: Calendar, now: Date) async throws -> PatientSummary {
        let day = CareServer.dayString(now, calendar: calendar)
        let readTime = Date().timeIntervalSince1970
        let store: OCKStore
        let revision: StoreRevision
        if let stores = configuration.stores {
            // No data yet: nothing was ever planned or recorded.
            guard let stamp = try await stores.revision(of: record) else { return .empty(calendar: calendar, now: now) }
            revision = .stored(stamp)
            if let known = summaries.summary(of: record.id, revision: revision, day: day) { return known }
            // A record open here is read through its store; another is read without being changed, so that the next
            // look finds the summary still good.
            store = try records.openServer(record.id)?.store ?? stores.openReadingStore(for: record)
        } else {
            guard let server = try await records.server(for: record.id, load: { record }) else {
                throw CareDirectoryError(.storage, "The record's store could not be opened.")
            }
            store = server.store
            revision = .memory(ObjectIdentifier(store), store.changeCount)
            if let known = summaries.summary(of: record.id, revision: revision, day: day) { return known }
        }
        let summary = try await PatientSummary(store: store, calendar: calendar, now: now, rules: configuration.flagRules)
        summaries.remember(summary, of: record.id, revision: revision, day: day, readTime: readTime)
        return summary
    }

    /// The value of `name` in a query as an HTML form sends it (`+` for a space, then percent-encoding).
    static func formValue(_ name: String, in query: String?) -> String? {
        guard let query else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == name else { continue }
            return String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        return nil
    }

    /// What a URL's query keeps as it is (RFC 3986's unreserved characters); everything else is percent-encoded.
    static let unreservedCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Audits what a clinician's home or queue shows of `records`: once per clinician, record and idle timeout
    /// (`SummaryViewAudits`), since a live page shows them again on each refresh.
    func auditSummaries(_ records: [CareRecordID], identity: CareIdentity, context: CareRequestContext, detail: String) async throws {
        let now = configuration.now()
        let audited = summaryAudits.due(Array(Set(records)).sorted { $0.description < $1.description }, account: identity.account.id, now: now)
        guard !audited.isEmpty else { return }
        try await audit.record(audited.map { record in
            AuditEntry.Draft(recorded: now, account: identity.account.id, token: nil, record: record, resource: "summary",
                             action: .read, outcome: .allowed, address: context.clientAddress, detail: detail)
        })
    }

    /// A page of a clinician's patients: those whose records have open triage items first (the most urgent items, then
    /// the most items), then those whose last summary had flags (the most first: an unreadable store among them), then
    /// the rest by name; with a query, only those whose name holds it (whatever the case and accents). Found from the
    /// directory and the summaries already made: no store is read to order them.
    struct PatientPage {
        /// The page's patients, in order.
        let records: [CareRecord]
        /// Where the page starts among the matching patients, and how many match.
        let offset: Int
        let matching: Int
        /// The open triage items of each patient who has any, and the flags of those whose last summary had some.
        let counts: [CareRecordID: CareTriageCounts]
        let flags: [CareRecordID: Int]

        /// Whether a patient needs attention: open items, or flags.
        func needsAttention(_ record: CareRecordID) -> Bool { counts[record] != nil || flags[record] != nil }
    }

    /// The page of `patients` from `offset` (the last page when beyond), `size` long, of those matching `query`.
    func patientPage(_ patients: [CareRecord], query: String?, offset: Int, size: Int) async throws -> PatientPage {
        let counts = try await directory.openTriageCountsByRecord(records: patients.map(\.id))
        let flags = summaries.knownFlags(of: patients.map(\.id))
        let matching = query.map { query in
            patients.filter { $0.patientName.range(of: query, options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive]) != nil }
        } ?? patients
        let none = CareTriageCounts(open: 0, urgent: 0)
        let ordered = matching.sorted { lhs, rhs in
            let (left, right) = (counts[lhs.id] ?? none, counts[rhs.id] ?? none)
            if left.urgent != right.urgent { return left.urgent > right.urgent }
            if left.open != right.open { return left.open > right.open }
            let (leftFlags, rightFlags) = (flags[lhs.id] ?? 0, flags[rhs.id] ?? 0)
            if leftFlags != rightFlags { return leftFlags > rightFlags }
            let names = lhs.patientName.localizedStandardCompare(rhs.patientName)
            if names != .orderedSame { return names == .orderedAscending }
            return lhs.id.description < rhs.id.description
        }
        let size = max(size, 1)
        let start = ordered.isEmpty ? 0 : min(max(offset, 0), (ordered.count - 1) / size * size)
        return PatientPage(records: Array(ordered[start..<min(start + size, ordered.count)]), offset: start, matching: ordered.count,
                           counts: counts, flags: flags)
    }

    /// `GET /` for someone who is a clinician in at least one record: the triage queue, a page of their patients
    /// (`?from=` where it starts, `?q=` a name to find), then their other records.
    func clinicianHome(_ request: Request, _ context: CareRequestContext, _ identity: CareIdentity,
                       memberships: [(membership: CareMembership, record: CareRecord)]) async throws -> Response {
        let language = renderContext(for: request).localization.language
        let patients = memberships.filter { $0.membership.role == .clinician }.map(\.record)
        let parameters = request.uri.queryParameters
        let query = Self.formValue("q", in: request.uri.query).map { String($0.prefix(100)).trimmingCharacters(in: .whitespacesAndNewlines) }
            .flatMap { $0.isEmpty ? nil : $0 }
        let size = max(configuration.clinicianHomeLimit, 1)
        let page = try await patientPage(patients, query: query, offset: parameters.get("from").flatMap { Int($0) } ?? 0, size: size)
        let shown = page.records
        let others = memberships.filter { $0.membership.role != .clinician }
        let now = configuration.now()
        let queue = try await triageQueue(of: patients, language: language)
        // Audited before any store is read, as every record route is: the page's patients and the queue's.
        try await auditSummaries(shown.map(\.id) + queue.records, identity: identity, context: context, detail: "GET /")
        // The page's summaries only: a home of 500 patients reads 50 stores, not 500.
        let rows = await patientRows(shown)
        let needing = patients.count { page.needsAttention($0.id) }
        let text = PatientRowText(language: language, contexts: zoneContexts)
        let unread = await unreadMessages(of: identity.account.id, in: shown.map(\.id) + others.map(\.record.id))
        func address(from offset: Int) -> String {
            var items = offset > 0 ? ["from=\(offset)"] : []
            if let query { items.append("q=" + (query.addingPercentEncoding(withAllowedCharacters: Self.unreservedCharacters) ?? "")) }
            return "/" + (items.isEmpty ? "" : "?" + items.joined(separator: "&"))
        }
        let here = address(from: page.offset)
        return hostPage(request, title: HostText.patientsTitle.text(language),
                        metadata: ["ock-refresh": here, "ock-changes": "/live/home"]) { token in [
            .element("h1", [:], [.text(HostText.patientsTitle.text(language))]),
            queue.html(token),
            .element("p", ["class": "ock-home-summary", "id": "patients-summary"], [
                .text(HostText.needAttention.text(language, String(needing), String(patients.count))),
            ]),
            .element("form", ["method": "get", "action": "/", "role": "search", "class": "ock-patient-search"], [
                .element("label", ["for": "patient-search"], [.text(HostText.findPatient.text(language))]),
                .element("input", ["id": "patient-search", "name": "q", "type": "search", "value": query ?? "", "maxlength": "100",
                                   "autocomplete": "off"], []),
                .element("button", ["type": "submit", "class": "ock-button"], [.text(HostText.search.text(language))]),
            ]),
            query != nil && page.matching == 0
                ? .element("p", ["class": "ock-notice", "role": "status"], [.text(HostText.noPatientMatches.text(language, query ?? ""))])
                : .empty,
            page.matching > shown.count
                ? .element("p", ["class": "ock-notice", "role": "status", "id": "patients-shown"], [.text(HostText.showingPatients.text(
                    language, String(page.offset + 1), String(page.offset + shown.count), String(page.matching)))])
                : .empty,
            .element("ul", ["class": "ock-patients", "aria-labelledby": "patients-summary"], rows.map { row in
                text.render(row, now: now, unread: unread[row.record.id] ?? 0, open: page.counts[row.record.id]?.open ?? 0)
            }),
            page.matching > shown.count || query != nil
                ? .element("nav", ["class": "ock-patient-pages", "aria-label": HostText.patientPages.text(language)], [
                    page.offset > 0
                        ? .element("a", ["href": address(from: max(page.offset - size, 0)), "class": "ock-link-row", "rel": "prev"],
                                   [.text(HostText.previousPatients.text(language))])
                        : .empty,
                    page.offset + shown.count < page.matching
                        ? .element("a", ["href": address(from: page.offset + size), "class": "ock-link-row", "rel": "next"],
                                   [.text(HostText.nextPatients.text(language))])
                        : .empty,
                    query != nil ? .element("a", ["href": "/", "class": "ock-link-row"], [.text(HostText.allPatients.text(language))]) : .empty,
                ])
                : .empty,
            others.isEmpty ? .empty : .element("section", ["aria-labelledby": "other-records"], [
                .element("h2", ["id": "other-records"], [.text(HostText.otherRecords.text(language))]),
                recordList(others, unread: unread, language: language),
            ]),
            accountLinks(token: token, language: language, identity: identity),
        ] }
    }

    /// `GET /live/home`: a `changed` event naming a record whenever one of the person's records changes (at most one
    /// a second: a burst names its last record), for the home to refresh itself; it ends when the person signs out.
    func liveHome(_ request: Request, _ context: CareRequestContext, _ identity: CareIdentity) async throws -> Response {
        guard let slot = liveSlots.take(for: context.liveStreamOwner) else { throw CareServer.tooManyStreams }
        let account = identity.account.id
        let events = changes(of: account, throttle: Self.homeRefreshInterval).map { record in
            "event: changed\ndata: {\"record\":\"\(record)\"}\n\n"
        }
        let check = AccessCheck(interval: configuration.liveAccessInterval) { [self] in
            await self.isStillSignedIn(request, account: account)
        }
        return CareServer.eventStream(request, slot: slot, first: "retry: 1000\n\nevent: ready\ndata: {}\n\n", events,
                                      accessCheck: check)
    }

    /// The records of `account` that change from now on (those it is a member of when they change): changes to a
    /// store at most one per `throttle` (the first at once, then the changes of each `throttle` collapse into the
    /// newest); a triage item raised or changed at once, since the care team waits for it (a pain of 9 reaches the
    /// home within a second, not after the store's change that raised it).
    package func changes(of account: CareAccountID, throttle: Duration) -> AsyncStream<CareRecordID> {
        let (stores, triage, messages) = (changeFeed.subscribe(), triageFeed.subscribe(), messageFeed.subscribe())
        let directory = self.directory
        let (members, memberInput) = AsyncStream<CareRecordID>.makeStream(bufferingPolicy: .bufferingNewest(1))
        return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let filter = Task {
                for await record in stores where (try? await directory.membership(record: record, account: account)) != nil {
                    memberInput.yield(record)
                }
                memberInput.finish()
            }
            let urgent = Task {
                for await record in triage where (try? await directory.membership(record: record, account: account)) != nil {
                    continuation.yield(record)
                }
            }
            // A message sent or read: unpaced too (a badge counts it at once), and only where the person sees its thread.
            let talk = Task { [self] in
                for await event in messages {
                    guard await self.mayHear(event, account: account) else { continue }
                    if case let .message(author) = event.kind, author == account { continue }
                    continuation.yield(event.record)
                }
            }
            let pace = Task {
                for await record in members {
                    continuation.yield(record)
                    // Meanwhile `members` keeps only the newest change.
                    try? await Task.sleep(for: throttle)
                    if Task.isCancelled { break }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                filter.cancel()
                urgent.cancel()
                talk.cancel()
                pace.cancel()
            }
        }
    }
}

/// Renders the patient rows of a clinician's home in one language.
struct PatientRowText {
    let language: OCKLanguage
    let contexts: ZoneRenderContexts

    func render(_ row: CareHost.PatientRow, now: Date, unread: Int, open: Int = 0) -> HTML {
        let summary = row.summary
        let calendar = row.calendar
        let context = contexts.context(language: language, timeZone: calendar.timeZone)
        let weekLabel = summary.adherence.map { HostText.lastSevenDays.text(language, Self.percent($0)) }
            ?? HostText.lastSevenDaysNothing.text(language)

        var flags: [HTML] = open > 0 ? [.element("li", ["class": "ock-flag"], [.text(HostText.openItems.text(language, String(open)))])] : []
        for flag in summary.flags {
            let text = switch flag {
            case let .missedDoses(days): HostText.flagMissedDoses.text(language, String(days))
            case let .pain(score): HostText.flagPain.text(language, context.localization.number(score, fractionDigits: 1))
            case .unreadable: HostText.flagUnreadable.text(language)
            }
            flags.append(.element("li", ["class": "ock-flag"], [.text(text)]))
        }
        let attributes = ["class": summary.flags.isEmpty && open == 0 ? "ock-patient" : "ock-patient ock-flagged",
                          "data-record": row.record.id.description, "data-flags": String(summary.flags.count), "data-open": String(open)]
        return .element("li", attributes, [
            .element("a", ["href": "/records/\(row.record.id)/care", "class": "ock-patient-name"], [.text(row.record.patientName)]),
            Self.weekFigure(summary.days.map(\.completion), label: weekLabel),
            .element("p", ["class": "ock-patient-activity"], [.text(activity(summary.lastActivity, now: now, calendar: calendar))]),
            flags.isEmpty ? .empty : .element("ul", ["class": "ock-flags", "aria-label": HostText.needsAttention.text(language)], flags),
            CareHost.unreadLink(row.record.id, count: unread, language: language),
        ])
    }

    /// The week's days as seven bars, each as high as the share of its tasks done (a faint full bar behind): one small
    /// figure for the row, labelled with the week's share in words, in place of seven rings (a page of 50 rows stays
    /// light: issue 42).
    static func weekFigure(_ completions: [Double?], label: String) -> HTML {
        var track = "", fill = ""
        for (index, completion) in completions.suffix(7).enumerated() {
            let x = index * 10
            track += "M\(x) 0h8v24h-8z"
            if let completion, completion > 0 {
                let height = max(1, Int((min(completion, 1) * 24).rounded()))
                fill += "M\(x) \(24 - height)h8v\(height)h-8z"
            }
        }
        return .element("svg", ["class": "ock-patient-week", "viewBox": "0 0 68 24", "role": "img", "aria-label": label, "focusable": "false"], [
            track.isEmpty ? .empty : .element("path", ["class": "ock-week-track", "d": track], []),
            fill.isEmpty ? .empty : .element("path", ["class": "ock-week-fill", "d": fill], []),
        ])
    }

    func activity(_ date: Date?, now: Date, calendar: Calendar) -> String {
        guard let date else { return HostText.noActivity.text(language) }
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: date), to: calendar.startOfDay(for: now)).day ?? 0
        let when = switch days {
        case ...0: HostText.today.text(language)
        case 1: HostText.yesterday.text(language)
        default: HostText.daysAgo.text(language, String(days))
        }
        return HostText.lastActivity.text(language, when)
    }

    /// A whole percentage, as both languages write it ("71%"), without a formatter per row.
    static func percent(_ fraction: Double) -> String {
        "\(Int((min(max(fraction, 0), 1) * 100).rounded()))%"
    }
}

/// Render contexts per language and time zone, made once each (they are costly to make).
final class ZoneRenderContexts: Sendable {
    private struct Key: Hashable {
        let language: OCKLanguage
        let timeZone: String
    }

    private let contexts = Mutex<[Key: OCKRenderContext]>([:])

    func context(language: OCKLanguage, timeZone: TimeZone) -> OCKRenderContext {
        let key = Key(language: language, timeZone: timeZone.identifier)
        if let context = contexts.withLock({ $0[key] }) { return context }
        let context = OCKRenderContext(localization: OCKLocalization(language: language, timeZone: timeZone))
        contexts.withLock { $0[key] = context }
        return context
    }
}
