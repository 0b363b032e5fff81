import Foundation
import Hummingbird
import OpenCareKitDirectory
import OpenCareKitStore
import OpenCareKitUI

/// A record's secure messages: threads between the patient, the caregivers and the care team, and notes among the
/// clinicians that the patient and caregivers never see (`CareThread.Audience`). Every route passes the record's gate
/// (404 for strangers, CSRF, audited: reading a thread is an entry of the activity page); what a person may read or
/// write of a thread is decided by the directory from their membership, so no route can show a team note to a
/// patient. Open pages hear of new messages and receipts at once (`messageFeed`, filtered by audience); a push says
/// only "New message".
extension CareHost {
    /// The newest messages a thread page shows; earlier ones are a link away.
    static let messagesPerPage = 50
    /// The most recently active threads the list shows.
    static let threadsPerPage = 50

    func addMessageRoutes(to routes: inout HostRoutes) {
        let host = self
        addRecordRoute(&routes, .get, "/messages", .page("messages")) { request, _, access in
            try await host.threadsPage(request, access)
        }
        addRecordRoute(&routes, .post, "/messages", .page("messages", .message, action: .create)) { request, context, access in
            try await host.recordForm(request, context, access) { fields in try await host.startThread(fields, request, access) }
        }
        addRecordRoute(&routes, .get, "/messages/live", .page("messages-live")) { request, context, access in
            try await host.liveMessages(request, context, access)
        }
        addRecordRoute(&routes, .get, "/messages/:id", .page("message-thread")) { request, context, access in
            try await host.threadPage(request, context, access)
        }
        addRecordRoute(&routes, .post, "/messages/:id", .page("message-thread", .message, action: .create)) { request, context, access in
            try await host.recordForm(request, context, access) { fields in try await host.reply(fields, request, context, access) }
        }
        // The person's unread counts, by record (numbers only), for the record pages' Messages link.
        routes.account(.get, "/account/unread") { _, _, identity in
            let records = try await host.directory.memberships(of: identity.account.id).map(\.record.id)
            let counts = await host.unreadMessages(of: identity.account.id, in: records)
            let json = "{" + counts.keys.sorted().map { "\"\($0)\":\(counts[$0] ?? 0)" }.joined(separator: ",") + "}"
            return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(string: json)))
        }
    }

    // MARK: Writing

    /// `POST /records/R/messages`: a new thread (or, with `item`, the triage item's thread) with its first message.
    func startThread(_ fields: FormFields, _ request: Request, _ access: RecordAccess) async throws -> Response {
        let audience = fields.values["audience"].flatMap(CareThread.Audience.init(rawValue:)) ?? .everyone
        let item = fields.values["item"].flatMap { $0.isEmpty ? nil : RandomIdentifier($0) }
        var subject = fields.values["subject"] ?? ""
        if let item, subject.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            // A reply from the triage queue: the thread is named after what raised the item.
            subject = try await triageSubject(item, access: access, language: renderContext(for: request).localization.language)
        }
        let body = fields.values["body"] ?? ""
        do {
            let sent = try await directory.startThread(CareThreadDraft(record: access.record, audience: audience, subject: subject,
                                                                       triageItem: item, body: body),
                                                       by: access.identity.account.id, now: configuration.now())
            announce(sent.thread, .message(author: access.identity.account.id))
            if item != nil, fields.values["back"] == "home" { return Response.redirect(to: "/#triage", type: .normal) }
            return Response.redirect(to: "/records/\(access.record)/messages/\(sent.thread.id)#latest", type: .normal)
        } catch let error as CareDirectoryError where error.kind != .storage {
            return try await threadsPage(request, access, message: Self.messageRefusal(error), status: Self.status(of: error),
                                         draft: (subject, body, audience))
        }
    }

    /// `POST /records/R/messages/T`: a reply.
    func reply(_ fields: FormFields, _ request: Request, _ context: CareRequestContext, _ access: RecordAccess) async throws -> Response {
        // A thread of this record only: one of another record the person is in is no thread here.
        guard let id = context.parameters.get("id").flatMap(RandomIdentifier.init),
              try await directory.thread(id, reader: access.identity.account.id)?.record == access.record else {
            return try await threadsPage(request, access, message: PageMessage(MessageText.noSuchThread), status: .notFound)
        }
        let body = fields.values["body"] ?? ""
        do {
            let sent = try await directory.postMessage(thread: id, body: body, by: access.identity.account.id, now: configuration.now())
            announce(sent.thread, .message(author: access.identity.account.id))
            return Response.redirect(to: "/records/\(access.record)/messages/\(id)#latest", type: .normal)
        } catch let error as CareDirectoryError where error.kind != .storage {
            guard error != .noSuchThread else {
                return try await threadsPage(request, access, message: PageMessage(MessageText.noSuchThread), status: .notFound)
            }
            return try await threadPage(request, context, access, id: id, message: Self.messageRefusal(error), status: Self.status(of: error),
                                        draft: body)
        }
    }

    static func status(of error: CareDirectoryError) -> HTTPResponse.Status {
        switch error {
        case .tooManyMessages: .tooManyRequests
        case .noSuchThread: .notFound
        default: error.kind == .notFound ? .notFound : .unprocessableContent
        }
    }

    /// What the person is told when the directory refuses a message, in their language.
    static func messageRefusal(_ error: CareDirectoryError) -> PageMessage {
        switch error {
        case .tooManyMessages: PageMessage(MessageText.tooMany, String(CareMessage.maximumPerMinutePerPerson))
        case .messageLength: PageMessage(MessageText.lengthNeeded, String(CareMessage.maximumBodyLength))
        case .subjectLength: PageMessage(MessageText.subjectNeeded, String(CareThread.maximumSubjectLength))
        case .tooManyThreads: PageMessage(MessageText.tooManyThreads, String(CareThread.maximumPerRecord))
        case .recordFullOfMessages: PageMessage(MessageText.recordFull, String(CareMessage.maximumPerRecord))
        default: PageMessage(MessageText.noSuchThread)
        }
    }

    /// Tells open pages (and the push sender) of a thread's news.
    func announce(_ thread: CareThread, _ kind: MessageEvent.Kind) {
        messageActivity.note(thread.record, audience: thread.audience)
        messageFeed.publish(MessageEvent(record: thread.record, thread: thread.id, audience: thread.audience, kind: kind))
    }

    /// The subject of a triage item's thread: what its rule saw.
    func triageSubject(_ item: RandomIdentifier, access: RecordAccess, language: OCKLanguage) async throws -> String {
        guard let found = try await directory.triageItem(item), found.record == access.record,
              let record = try await directory.record(access.record) else { return "" }
        let text = TriageItemText(language: language, contexts: zoneContexts)
        let calendar = Self.calendar(of: record)
        let subject = text.describe(found.alert, zoneContexts.context(language: language, timeZone: calendar.timeZone).localization)
        return String(subject.prefix(CareThread.maximumSubjectLength))
    }

    // MARK: Reading

    /// `GET /records/R/messages`: the threads the person sees, most recent first, with what they have not read, and a
    /// form to start one.
    func threadsPage(_ request: Request, _ access: RecordAccess, message: PageMessage? = nil, status: HTTPResponse.Status = .ok,
                     draft: (subject: String, body: String, audience: CareThread.Audience)? = nil) async throws -> Response {
        let language = renderContext(for: request).localization.language
        let before = request.uri.queryParameters.get("before").flatMap { RandomIdentifier(String($0)) }
        let reader = access.identity.account.id
        let listings = try await directory.threads(record: access.record, reader: reader, before: before, limit: Self.threadsPerPage + 1)
        let record = try await directory.record(access.record)
        let localization = recordLocalization(record, language: language)
        let base = "/records/\(access.record)/messages"
        let audiences = CareThread.Audience.visible(to: access.membership.role)
        let unread = listings.prefix(Self.threadsPerPage).reduce(0) { $0 + $1.unread }
        let metadata = ["ock-refresh": base + (before.map { "?before=\($0)" } ?? ""), "ock-changes": Self.liveAddress(base)]
        return hostPage(request, title: MessageText.title.text(language), status: status, metadata: metadata) { token in [
            .element("h1", [:], [.text(MessageText.title.text(language) + " – " + (record?.patientName ?? ""))]),
            Self.notice(message?.text(language)),
            .element("p", ["id": "messages-summary", "class": "ock-home-summary", "data-unread": String(unread)],
                     [.text(unread == 0 ? MessageText.allRead.text(language) : MessageText.unreadCount.text(language, String(unread)))]),
            listings.isEmpty ? .element("p", [:], [.text(MessageText.noThreads.text(language))])
                : .element("ul", ["class": "ock-threads", "aria-labelledby": "messages-summary"], listings.prefix(Self.threadsPerPage).map { listing in
                    let thread = listing.thread
                    var details = [MessageText.lastMessage.text(language, localization.dateAndTime(thread.lastMessageDate)),
                                   MessageText.messageCount.text(language, String(thread.messageCount))]
                    if thread.audience == .careTeam { details.insert(MessageText.teamOnly.text(language), at: 0) }
                    return .element("li", ["class": listing.unread > 0 ? "ock-thread ock-thread-unread" : "ock-thread",
                                           "data-thread": thread.id.description, "data-audience": thread.audience.rawValue], [
                        .element("a", ["href": "\(base)/\(thread.id)#latest", "class": "ock-link-row"], [
                            .element("span", ["class": "ock-thread-subject"], [.text(thread.subject)]),
                            listing.unread > 0
                                ? .element("span", ["class": "ock-badge ock-badge-unread", "data-unread": String(listing.unread)],
                                           [.text(MessageText.unreadBadge.text(language, String(listing.unread)))])
                                : .empty,
                        ]),
                        .element("p", ["class": "ock-thread-details"], [.text(details.joined(separator: " · "))]),
                    ])
                }),
            listings.count > Self.threadsPerPage
                ? .element("p", [:], [.element("a", ["href": "\(base)?before=\(listings[Self.threadsPerPage - 1].thread.id)", "class": "ock-link-row"],
                                               [.text(MessageText.olderThreads.text(language))])])
                : .empty,
            .element("section", ["aria-labelledby": "new-thread"], [
                .element("h2", ["id": "new-thread"], [.text(MessageText.newThread.text(language))]),
                .element("form", ["method": "post", "action": base, "class": "ock-message-form"], [
                    Self.hidden(CSRF.fieldName, token),
                    .element("p", ["class": "ock-field"], [
                        .element("label", ["for": "thread-subject"], [.text(MessageText.subject.text(language))]),
                        .element("input", ["id": "thread-subject", "name": "subject", "required": "required", "value": draft?.subject ?? "",
                                           "maxlength": String(CareThread.maximumSubjectLength)], []),
                    ]),
                    // The survey's choices (their look, and 44-pixel labels): who sees it, for those who may choose.
                    audiences.count > 1 ? .element("fieldset", ["class": "ock-choices ock-choices-radio"], [
                        .element("legend", [:], [.text(MessageText.whoSees.text(language))]),
                        .element("div", ["class": "ock-choice-list"], audiences.map { audience in
                            .element("div", ["class": "ock-choice"], [
                                .element("input", ["type": "radio", "name": "audience", "value": audience.rawValue, "id": "audience-\(audience.rawValue)",
                                                   "checked": audience == (draft?.audience ?? .everyone) ? "checked" : nil].compactMapValues { $0 }, []),
                                .element("label", ["for": "audience-\(audience.rawValue)"],
                                         [.text((audience == .everyone ? MessageText.everyone : MessageText.careTeamOnly).text(language))]),
                            ])
                        }),
                    ]) : Self.hidden("audience", CareThread.Audience.everyone.rawValue),
                    Self.messageField(id: "thread-body", label: MessageText.message.text(language), value: draft?.body ?? ""),
                    .element("button", ["type": "submit", "class": "ock-button"], [.text(MessageText.send.text(language))]),
                ]),
            ]),
            .element("p", [:], [.element("a", ["href": "/records/\(access.record)/care", "class": "ock-link-row"],
                                         [.text(MessageText.backToRecord.text(language))])]),
        ] }
    }

    /// `GET /records/R/messages/T`: the thread's newest messages, oldest first, with who has seen the latest; reading it
    /// marks it read (and tells the others' open pages, for their receipts).
    func threadPage(_ request: Request, _ context: CareRequestContext, _ access: RecordAccess, id: RandomIdentifier? = nil,
                    message: PageMessage? = nil, status: HTTPResponse.Status = .ok, draft: String = "") async throws -> Response {
        let reader = access.identity.account.id
        guard let id = id ?? context.parameters.get("id").flatMap(RandomIdentifier.init),
              let thread = try await directory.thread(id, reader: reader), thread.record == access.record else {
            return try await threadsPage(request, access, message: PageMessage(MessageText.noSuchThread), status: .notFound)
        }
        let language = renderContext(for: request).localization.language
        let before = request.uri.queryParameters.get("before").flatMap { RandomIdentifier(String($0)) }
        let page = try await directory.threadMessages(id, reader: reader, before: before, limit: Self.messagesPerPage + 1)
        let messages = Array(page.suffix(Self.messagesPerPage))
        // Read through the newest message shown (one that came meanwhile is not "seen").
        if before == nil, let shown = messages.last?.position,
           try await directory.markThreadRead(id, reader: reader, through: shown, now: configuration.now()) {
            announce(thread, .read)
        }
        let reads = try await directory.threadReads(id, reader: reader)
        let record = try await directory.record(access.record)
        let names = try await accountNames(messages.compactMap(\.author) + reads.map(\.account))
        let localization = recordLocalization(record, language: language)
        let base = "/records/\(access.record)/messages"
        // "Seen by": the others who have read through the newest message shown.
        let seen = messages.last.map { latest in
            reads.filter { $0.account != reader && $0.account != latest.author && $0.readThrough >= latest.position }
        } ?? []
        let metadata = ["ock-refresh": "\(base)/\(id)" + (before.map { "?before=\($0)" } ?? ""), "ock-changes": Self.liveAddress(base)]
        return hostPage(request, title: thread.subject, status: status, metadata: metadata) { token in [
            .element("h1", [:], [.text(thread.subject)]),
            .element("p", ["class": "ock-thread-details"], [.text((thread.audience == .careTeam ? MessageText.teamOnlyExplained
                                                                   : MessageText.everyoneExplained).text(language, record?.patientName ?? ""))]),
            page.count > Self.messagesPerPage
                ? .element("p", [:], [.element("a", ["href": "\(base)/\(id)?before=\(messages.first?.id.description ?? "")", "class": "ock-link-row"],
                                               [.text(MessageText.earlierMessages.text(language))])])
                : .empty,
            .element("ol", ["class": "ock-messages", "aria-label": MessageText.messagesOf.text(language, thread.subject)],
                     messages.enumerated().map { index, message in
                let mine = message.author == reader
                let author = mine ? MessageText.you.text(language)
                    : message.author.flatMap { names[$0] } ?? message.authorName.map { MessageText.importedAuthor.text(language, $0) }
                    ?? MessageText.formerMember.text(language)
                return .element("li", ["class": mine ? "ock-message ock-message-mine" : "ock-message", "data-message": message.id.description,
                                       "id": index == messages.count - 1 ? "latest" : "message-\(message.id)"], [
                    .element("p", ["class": "ock-message-meta"], [
                        .element("span", ["class": "ock-message-author"], [.text(author)]),
                        .text(" · "),
                        .element("time", ["datetime": ISO8601DateFormatter().string(from: message.sentDate)],
                                 [.text(localization.dateAndTime(message.sentDate))]),
                    ]),
                    .element("p", ["class": "ock-message-body"], Self.linkedText(message.body)),
                ])
            }),
            .element("p", ["id": "seen", "class": "ock-seen", "role": "status"], seen.isEmpty ? [] : [
                .text(seen.map { read in
                    MessageText.seenBy.text(language, names[read.account] ?? MessageText.formerMember.text(language), localization.time(read.readDate))
                }.joined(separator: " · ")),
            ]),
            Self.notice(message?.text(language)),
            .element("form", ["method": "post", "action": "\(base)/\(id)", "class": "ock-message-form"], [
                Self.hidden(CSRF.fieldName, token),
                Self.messageField(id: "reply-body", label: MessageText.reply.text(language), value: draft),
                .element("button", ["type": "submit", "class": "ock-button"], [.text(MessageText.send.text(language))]),
            ]),
            .element("p", [:], [.element("a", ["href": base, "class": "ock-link-row"], [.text(MessageText.allThreads.text(language))])]),
        ] }
    }

    static func messageField(id: String, label: String, value: String) -> HTML {
        .element("p", ["class": "ock-field"], [
            .element("label", ["for": id], [.text(label)]),
            .element("textarea", ["id": id, "name": "body", "required": "required", "rows": "3",
                                  "maxlength": String(CareMessage.maximumBodyLength)], [.text(value)]),
        ])
    }

    /// A message's text with its web addresses as links: only `http` and `https` ones, opened without the page's
    /// reference; everything else is text (escaped by the HTML it is put in, so no one's words are ever markup).
    static func linkedText(_ body: String) -> [HTML] {
        var parts: [HTML] = []
        var rest = Substring(body)
        while let match = rest.firstMatch(of: #/https?://[^\s<>"']+/#.ignoresCase()) {
            var link = match.output
            // Punctuation that ends a sentence is not part of the address.
            while let last = link.last, ".,;:!?)]".contains(last) { link = link.dropLast() }
            parts.append(.text(String(rest[rest.startIndex..<match.range.lowerBound])))
            if let url = URL(string: String(link)), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil {
                parts.append(.element("a", ["href": url.absoluteString, "rel": "noopener noreferrer nofollow", "class": "ock-message-link"],
                                      [.text(String(link))]))
            } else {
                parts.append(.text(String(link)))
            }
            rest = rest[link.endIndex...]
        }
        parts.append(.text(String(rest)))
        return parts
    }

    // MARK: Live

    /// The live stream of a messages page made now: it names the moment, so that a change between the page's making
    /// and the stream's connecting is not missed.
    static func liveAddress(_ base: String) -> String {
        "\(base)/live?since=\(Int64(Date().timeIntervalSince1970 * 1_000))"
    }

    /// `GET /records/R/messages/live`: a `changed` event whenever a thread the person sees gets a message or a receipt,
    /// for the messages pages to refresh themselves. A team note's events reach clinicians only.
    func liveMessages(_ request: Request, _ context: CareRequestContext, _ access: RecordAccess) async throws -> Response {
        guard let slot = liveSlots.take(for: context.liveStreamOwner) else { throw CareServer.tooManyStreams }
        let record = access.record, account = access.identity.account.id
        let events = messageFeed.subscribe().filter { [self] event in
            guard event.record == record else { return false }
            guard event.audience != .everyone else { return true }
            // The role now, not when the page opened.
            return await self.mayHear(event, account: account)
        }.map { event in "event: changed\ndata: {\"thread\":\"\(event.thread)\"}\n\n" }
        let policy = RecordRoutePolicy.page("messages-live")
        let check = AccessCheck(interval: configuration.liveAccessInterval) { [self] in
            await self.isStillAllowed(request, access: access, policy: policy)
        }
        // Something happened since the page was made (or too long ago to know): it refreshes at once.
        let since = request.uri.queryParameters.get("since").flatMap { Int64($0) }.map { Date(timeIntervalSince1970: Double($0) / 1_000) }
        let audiences = CareThread.Audience.visible(to: access.membership.role)
        let missed = since.map { messageActivity.changed(record, audiences: audiences, since: $0) } ?? false
        let first = "retry: 1000\n\nevent: ready\ndata: {}\n\n" + (missed ? "event: changed\ndata: {}\n\n" : "")
        return CareServer.eventStream(request, slot: slot, first: first, events, accessCheck: check)
    }

    /// Words and dates in `language` and `record`'s time zone (the server's when there is no record).
    func recordLocalization(_ record: CareRecord?, language: OCKLanguage) -> OCKLocalization {
        zoneContexts.context(language: language, timeZone: record.map { Self.calendar(of: $0).timeZone } ?? .current).localization
    }

    /// Whether `account` may hear of `event`: a member of its record now whose role its thread's audience includes.
    func mayHear(_ event: MessageEvent, account: CareAccountID) async -> Bool {
        guard let membership = try? await directory.membership(record: event.record, account: account) else { return false }
        return event.audience.includes(membership.role)
    }

    /// The messages `account` has not read, per record of `records`.
    package func unreadMessages(of account: CareAccountID, in records: [CareRecordID]) async -> [CareRecordID: Int] {
        (try? await directory.unreadMessageCounts(account: account, records: records)) ?? [:]
    }

    /// A link to a record's messages with its unread count, when there is any.
    static func unreadLink(_ record: CareRecordID, count: Int, language: OCKLanguage) -> HTML {
        guard count > 0 else { return .empty }
        return .element("a", ["href": "/records/\(record)/messages", "class": "ock-badge ock-badge-unread ock-unread-link",
                              "data-unread": String(count)], [.text((count == 1 ? MessageText.unreadMessage : .unreadMessages).text(language, String(count)))])
    }
}
