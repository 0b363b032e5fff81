import Foundation
import Hummingbird
import OpenCareKit
import OpenCareKitDirectory
import OpenCareKitStore
import OpenCareKitSurveys
import OpenCareKitUI

/// The forms of the Care page: every control is a POST with the event, the desired state, the page's day and the
/// CSRF token; success redirects back to the card (303), so everything works without JavaScript.
struct ServerActions: OCKEventActions {
    let token: String
    let day: String
    /// The record's base path, which every form's address starts with.
    let base: String
    /// Whether a task's survey can be answered as one form (`CareServer.surveyOnOnePage(for:)`).
    var answersOnOnePage: @Sendable (any OCKAnyTask) -> Bool = { _ in false }

    func form(_ path: String, _ event: OCKAnyEvent, _ extra: [String: String] = [:]) -> OCKFormAction {
        var fields = ["task": event.task.uuid.uuidString, "occurrence": String(event.scheduleEvent.occurrence),
                      "date": day, CSRF.fieldName: token]
        fields.merge(extra) { $1 }
        return OCKFormAction(url: SafeURL(base + path)!, fields: fields)
    }

    func toggle(_ event: OCKAnyEvent) -> OCKFormAction {
        // What the page shows: the outcome done (its version's uuid) or none, so that a change sent later (queued
        // offline, or from a page left open) is checked against what its person saw (`CareServer.changedMeanwhile`).
        form("/care/events/toggle", event, ["complete": event.isComplete ? "false" : "true",
                                            CareServer.seenField: (event.outcome as? OCKOutcome)?.uuid.uuidString ?? CareServer.seenNothing])
    }

    func log(_ event: OCKAnyEvent) -> OCKFormAction { form("/care/events/log", event) }

    func deleteLoggedValue(_ event: OCKAnyEvent, at index: Int) -> OCKFormAction {
        let created = event.outcome.flatMap { $0.values.indices.contains(index) ? $0.values[index].createdDate : nil }
        return form("/care/events/log/delete", event, [
            "index": String(index), "created": created.map { String($0.timeIntervalSince1970) } ?? "",
        ])
    }

    func record(_ event: OCKAnyEvent) -> OCKFormAction {
        // What the page shows, as for a toggle: a value recorded from a page that fell behind must not replace a
        // newer one silently (`CareServer.recordedMeanwhile`).
        form("/care/events/record", event, [CareServer.seenField: (event.outcome as? OCKOutcome)?.uuid.uuidString ?? CareServer.seenNothing])
    }

    func startSurvey(_ event: OCKAnyEvent) -> OCKFormAction? { form("/surveys/start", event) }

    func surveyOnOnePage(_ event: OCKAnyEvent) -> SafeURL? {
        guard answersOnOnePage(event.task) else { return nil }
        return SafeURL(base + CareServer.onePageSurveyPath + "?task=\(event.task.uuid.uuidString)&occurrence=\(event.scheduleEvent.occurrence)&date=\(day)")
    }

    func deleteSurveyAnswers(_ event: OCKAnyEvent) -> SafeURL? {
        SafeURL(base + "/care/events/survey/delete?task=\(event.task.uuid.uuidString)&occurrence=\(event.scheduleEvent.occurrence)&date=\(day)")
    }
}

extension CareServer {
    /// `YYYY-MM-DD` for the day containing `date` in the patient's zone.
    func dayString(_ date: Date) -> String {
        Self.dayString(date, calendar: calendar)
    }

    /// `YYYY-MM-DD` for the day containing `date` in `calendar`'s zone.
    static func dayString(_ date: Date, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        // Padded by hand: String(format:) showed in the server's profile.
        func padded(_ value: Int?, _ width: Int) -> String {
            let digits = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(parts.year, 4))-\(padded(parts.month, 2))-\(padded(parts.day, 2))"
    }

    /// The start of the day named `YYYY-MM-DD`, or nil for anything else (including days that do not exist).
    func day(from text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1900...4000).contains(year),
              let date = calendar.date(from: DateComponents(year: year, month: month, day: day)),
              dayString(date) == text else { return nil }
        return date
    }

    func renderContext(for request: Request) -> OCKRenderContext {
        let language = request.preferredLanguage
        return renderContexts[language]
            ?? OCKRenderContext(localization: OCKLocalization(language: language, timeZone: configuration.timeZone))
    }

    static func addCareRoutes(to routes: inout RecordRouteTable) {
        routes.get("", .page("care-page"), handler: CareServer.getRoot)
        routes.get("/care", .page("care-page"), handler: CareServer.getCare)
        routes.get("/care/live", .page("care-page"), handler: CareServer.getCareLive)
        routes.get("/live/changes", .page("live-changes"), handler: CareServer.getLiveChanges)
        routes.post("/care/events/toggle", .page("outcome", .completeTasks, action: .update), handler: CareServer.postCareEventsToggle)
        routes.post("/care/events/log", .page("outcome", .completeTasks, action: .update), handler: CareServer.postCareEventsLog)
        routes.post("/care/events/log/delete", .page("outcome", .completeTasks, action: .update), handler: CareServer.postCareEventsLogDelete)
        routes.post("/care/events/record", .page("outcome", .completeTasks, action: .update), handler: CareServer.postCareEventsRecord)
    }

    /// The field in which the app's offline queue sends when the person acted (milliseconds since 1970, by the
    /// device's clock).
    static let actedField = "acted"
    /// How far ahead of the server's clock a device's may be before its moments are refused.
    static let clockTolerance: TimeInterval = 300

    /// When the person did what the form says about `event`: the moment the app's queue sent (`acted`), else now.
    /// A moment before the event's day is taken as the start of that day, so that the same moment always gives the
    /// same value (what makes a change sent twice harmless); one more than `clockTolerance` after the server's now
    /// is refused (the device's clock is wrong, and the person reads so).
    func actedDate(_ fields: FormFields, for event: OCKEvent<OCKTask, OCKOutcome>) throws -> Date {
        let now = configuration.now()
        guard let text = fields.values[Self.actedField], !text.isEmpty else { return now }
        let acted = Date(timeIntervalSince1970: try fields.number(Self.actedField, in: 0...1e14) / 1000)
        guard acted <= now.addingTimeInterval(Self.clockTolerance) else {
            throw FormError(field: Self.actedField, reason: .fieldClockAhead, status: .unprocessableContent)
        }
        return max(acted, calendar.startOfDay(for: event.scheduleEvent.start))
    }

    /// Whether two values' moments are one: within half a millisecond (the app sends milliseconds; the stores keep
    /// at least that).
    static func sameMoment(_ first: Date, _ second: Date) -> Bool {
        abs(first.timeIntervalSince(second)) < 0.0005
    }

    /// The toggle's field naming what its page showed: the outcome's version uuid, or `seenNothing`.
    static let seenField = "seen"
    static let seenNothing = "none"
    /// The key of an outcome's `userInfo` naming the account that marked the event done through the app.
    static let authorKey = "ock.author"

    /// The rule for a change made on a page that was not current (a phone offline, a page left open): the event
    /// must still be as its person saw it. If it changed meanwhile and now already is as they want, nothing is done
    /// and they are told who changed it and when (200, `{"notice": …}`); if it changed and is not as they want,
    /// their change is refused with the same words (409) — the app lists it under "Not sent", where Retry sends it
    /// again without the check. Nil when the event is as they saw it. The server's state is the one every device
    /// then converges to.
    func changedMeanwhile(_ event: OCKEvent<OCKTask, OCKOutcome>, seen: String, complete: Bool, _ request: Request,
                          _ context: RecordContext) async throws -> Response? {
        guard (event.outcome?.uuid.uuidString ?? Self.seenNothing) != seen else { return nil }
        // Done by this person since (their page had not caught up): no one else's change is in the way.
        let author = event.outcome?.userInfo?[Self.authorKey].flatMap(CareAccountID.init)
        if author == context.identity.account.id { return nil }
        let render = renderContext(for: request)
        let localization = render.localization
        var label = event.task.title ?? event.task.id
        if event.scheduleEvent.element.duration != .allDay { label += " " + localization.time(event.scheduleEvent.start) }
        let message: PageMessage
        if let outcome = event.outcome {
            // When its person marked it (the value's moment: the tap's, for a change the app queued).
            let when = localization.time(outcome.values.first?.createdDate ?? outcome.createdDate ?? configuration.now())
            message = try await authorName(author, context).map { PageMessage(ErrorText.markedDoneMeanwhile, $0, label, when) }
                ?? PageMessage(ErrorText.someoneMarkedDoneMeanwhile, "", label, when)
        } else {
            let deleted = try await store.lastOutcomeDeletion(taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence)
            message = PageMessage(ErrorText.markedNotDoneMeanwhile, "", label, localization.time(deleted ?? configuration.now()))
        }
        let text = message.text(localization.language)
        if (event.outcome != nil) == complete {
            guard request.wantsJSON else { return nil }
            let body = (try? JSONSerialization.data(withJSONObject: ["notice": text])) ?? Data("{}".utf8)
            return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        throw LocalizedRefusal(.conflict, field: Self.seenField, message)
    }

    /// The rule of `changedMeanwhile` for a recorded value (a number that replaces the event's value): recorded by
    /// someone else since the page was current, it is not replaced: the change is refused (409), saying who recorded
    /// what and when, and the app lists it under "Not sent" (Retry replaces it). The same value recorded meanwhile
    /// is no conflict. Nil to go on.
    func recordedMeanwhile(_ event: OCKEvent<OCKTask, OCKOutcome>, seen: String, value: OCKOutcomeValue, _ request: Request,
                           _ context: RecordContext) async throws -> Response? {
        guard let outcome = event.outcome, outcome.uuid.uuidString != seen, let current = outcome.values.first else { return nil }
        let author = outcome.userInfo?[Self.authorKey].flatMap(CareAccountID.init)
        if author == context.identity.account.id || current.doubleValue == value.doubleValue { return nil }
        let render = renderContext(for: request)
        let localization = render.localization
        let title = event.task.title ?? event.task.id
        let amount = current.doubleValue.map { localization.number($0, unit: current.units) } ?? "\(current.value)"
        let when = localization.time(current.createdDate)
        let message = try await authorName(author, context).map { PageMessage(ErrorText.recordedMeanwhile, $0, amount, title, when) }
            ?? PageMessage(ErrorText.someoneRecordedMeanwhile, "", amount, title, when)
        throw LocalizedRefusal(.conflict, field: Self.seenField, message)
    }

    /// The name of `author` (an outcome's `authorKey`) if a member of the record, for the words of a change made
    /// meanwhile: any writer may put an id in an outcome's userInfo, so a stranger's is not named.
    func authorName(_ author: CareAccountID?, _ context: RecordContext) async throws -> String? {
        guard let author else { return nil }
        return try await context.auditTrail.memberName(author)
    }

    /// Whether `task`'s card is a log card (its style, or CareKit's choice for a task that does not count towards
    /// adherence).
    func isLogCard(_ task: OCKTask) -> Bool {
        page.style(for: task, eventCount: 1) == .log
    }

    /// The Care page: the week with its rings, links to move by day and week, and the day's cards.
    func carePage(_ request: Request) async throws -> Response {
        let context = renderContext(for: request)
        let now = configuration.now()
        let today = calendar.startOfDay(for: now)
        var day = today
        if let text = request.uri.queryParameters.get("date") {
            guard let parsed = self.day(from: text) else {
                throw LocalizedRefusal(.badRequest, PageMessage(ErrorText.badDay))
            }
            day = parsed
        }
        let readerToken = CSRF.token(of: request)
        let token = readerToken ?? CSRF.newToken()
        let key = PageCache.Key(path: "/care?date=\(dayString(day))", language: context.localization.languageTag,
                                today: dayString(today), generation: store.changeCount)
        do {
            return try await carePage(request, day: day, today: today, key: key, token: token, readerToken: readerToken, context: context)
        } catch let error as DayTooFull {
            throw LocalizedRefusal(.unprocessableContent, error.message)
        }
    }

    private func carePage(_ request: Request, day: Date, today: Date, key: PageCache.Key, token: String, readerToken: String?,
                          context: OCKRenderContext) async throws -> Response {
        let html = try await pageCache.page(key, token: token) { token in
            let parts = try await careParts(day: day, context: context, token: token)
            let main: [HTML] = [
                .element("div", ["class": "ock-care-header"], [
                    .element("h1", ["class": "ock-day-heading"], [.text(context.localization.fullDay(day))]),
                    dayNavigation(day: day, today: today, context: context),
                    parts.calendar,
                ]),
                .element("p", ["class": "ock-notice", "id": "care-notice", "hidden": parts.notice == nil ? "hidden" : nil]
                    .compactMapValues { $0 }, [.text(parts.notice ?? "")]),
                .element("div", ["class": "ock-page-grid", "id": "care-cards"], parts.cards.map(\.html)),
            ] + (configuration.onboardingTaskID != nil && parts.isOnboarded ? [
                .element("p", ["class": "ock-care-footer"], [
                    .element("a", ["class": "ock-link-row", "href": url("/consent")], [.text(context.string(.viewConsent))]),
                ]),
            ] : [])
            let nextMidnight = calendar.date(byAdding: .day, value: 1, to: today) ?? today
            let metadata = [
                "ock-csrf": token, "ock-live": url("/care/live?date=\(dayString(day))"),
                "ock-next-midnight": String(Int64(nextMidnight.timeIntervalSince1970 * 1000)),
            ]
            return AppPage(title: context.string(.careTab), base: basePath, idleSeconds: idleSeconds, tab: .care, main: main, metadata: metadata).render(in: context)
        }
        var response = AppPage.response(html)
        if readerToken == nil { response.setCookie(CSRF.cookie(token, publicOrigin: configuration.publicOrigin)) }
        return response
    }

    /// Previous and next week and day, and today: short arrows, with the full words for assistive technology.
    func dayNavigation(day: Date, today: Date, context: OCKRenderContext) -> HTML {
        func link(_ offset: Int, _ arrow: String, _ key: OCKStringKey) -> HTML {
            let target = calendar.date(byAdding: .day, value: offset, to: day) ?? day
            return .element("li", [:], [.element("a", ["href": url("/care?date=\(dayString(target))"), "class": "ock-day-step"], [
                .element("span", ["aria-hidden": "true"], [.text(arrow)]),
                .element("span", ["class": "ock-visually-hidden"], [.text(context.string(key))]),
            ])])
        }
        var todayLink = ["href": url("/care"), "class": "ock-today-link"]
        if calendar.isDate(day, inSameDayAs: today) { todayLink["aria-current"] = "date" }
        return .element("nav", ["class": "ock-day-nav", "aria-label": context.string(.dayNavigation)], [
            .element("ul", [:], [
                link(-7, "«", .previousWeek), link(-1, "‹", .previousDay),
                .element("li", ["class": "ock-day-nav-today"], [.element("a", todayLink, [.text(context.string(.today))])]),
                link(1, "›", .nextDay), link(7, "»", .nextWeek),
            ]),
        ])
    }

    /// Checks the token, reads the event fields, makes the change and redirects back to the card's day; bad input
    /// gets a page that says which field is wrong. Scripts asking for JSON get 204, or the error as JSON.
    ///
    /// The record's rules (`Configuration.recordRules`) are asked first, so a form the store would refuse — before
    /// onboarding, or for an event still to come — is refused before anything starts, in the reader's language; the
    /// store checks the change itself again. A survey task's outcome comes only from its survey (`forSurvey`), never
    /// from a card's toggle or log, so a forged form cannot skip a consent.
    func handleForm(_ request: Request, _ context: RecordContext, forSurvey: Bool = false,
                    change: @Sendable (FormFields, OCKEvent<OCKTask, OCKOutcome>) async throws -> Response?) async throws -> Response {
        let wantsJSON = request.headers[.accept]?.contains("application/json") == true
        let fields = try await FormFields.read(request, context: context)
        do {
            let task = try fields.uuid("task")
            let occurrence = try fields.integer("occurrence")
            let date = try fields.string("date")
            guard let day = day(from: date) else { throw FormError(field: "date", reason: .fieldDay) }
            let event = try await store.fetchEvent(taskUUID: task, occurrence: occurrence)
            // The onboarding task counts as a survey task even if misconfigured without one: it is never toggled.
            let isSurveyTask = survey(for: event.task) != nil || event.task.id == configuration.onboardingTaskID
            guard forSurvey == isSurveyTask else {
                throw FormError(field: "task", reason: forSurvey ? .fieldHasNoSurvey : .fieldDoneBySurvey, status: .unprocessableContent)
            }
            try await store.checkRules(.addOutcome(event.outcome ?? OCKOutcome(taskUUID: event.task.uuid, taskOccurrenceIndex: occurrence,
                                                                                 values: []), task: event.task))
            if let response = try await change(fields, event) { return response }
            if wantsJSON { return Response(status: .noContent) }
            return Response.redirect(to: url("/care?date=\(dayString(day))#\(cardIdentifier(forTaskID: event.task.id))"), type: .normal)
        } catch let error as OCKStoreError {
            // The store's refusal in the words of the form.
            if OCKSurveyStoreRule.onboardingFirst.refused(error) { throw LocalizedRefusal(.conflict, PageMessage(ErrorText.finishOnboardingFirst)) }
            if OCKFutureEventsRule.violation.refused(error) {
                throw FormError(field: "occurrence", reason: .fieldFutureEvent, status: .unprocessableContent)
            }
            guard error.status.code < 500 else { throw error }
            // A conflict here is another tab or device that changed the event meanwhile.
            let message = switch error.status {
            case .notFound: ErrorText.noSuchEvent
            case .conflict: ErrorText.eventChanged
            default: ErrorText.changeRefused
            }
            throw LocalizedRefusal(error.status, PageMessage(message))
        }
    }
}

/// The handlers of the routes above, each a method the route table names (`RecordRouteTable`).
extension CareServer {
    /// `GET /records/{record}`.
    func getRoot(_ request: Request, _ context: RecordContext) async throws -> Response {
        Response.redirect(to: url("/care"), type: .normal)
    }

    /// `GET /records/{record}/care`.
    func getCare(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await carePage(request)
    }

    /// `GET /records/{record}/care/live`.
    func getCareLive(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await liveCare(request, owner: context.liveStreamOwner, accessCheck: context.accessCheck)
    }

    /// `GET /records/{record}/live/changes`.
    func getLiveChanges(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await liveChanges(request, owner: context.liveStreamOwner, accessCheck: context.accessCheck)
    }

    /// `POST /records/{record}/care/events/toggle`.
    func postCareEventsToggle(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await handleForm(request, context) { fields, event in
            let complete = try fields.boolean("complete")
            if let seen = fields.values[Self.seenField], !seen.isEmpty,
               let answer = try await changedMeanwhile(event, seen: seen, complete: complete, request, context) {
                return answer
            }
            try await store.setEventCompletion(complete, taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence,
                                               now: try actedDate(fields, for: event), userInfo: [Self.authorKey: context.identity.account.id.description])
            return nil
        }
    }

    /// `POST /records/{record}/care/events/log`.
    func postCareEventsLog(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await handleForm(request, context) { fields, event in
            // Only log cards log; a checklist's or grid's event is completed, not appended to.
            guard isLogCard(event.task) else {
                throw FormError(field: "task", reason: .fieldNoLogCard, status: .unprocessableContent)
            }
            var value = OCKOutcomeValue(true)
            value.createdDate = try actedDate(fields, for: event)
            // A tap the app queued offline names its moment: sent again (the first answer was lost), it is
            // already there, and is not logged twice.
            if fields.values[Self.actedField] != nil, event.outcome?.values.contains(where: { Self.sameMoment($0.createdDate, value.createdDate) }) == true {
                return nil
            }
            try await store.appendOutcomeValue(value, taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence)
            return nil
        }
    }

    /// `POST /records/{record}/care/events/log/delete`.
    func postCareEventsLogDelete(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await handleForm(request, context) { fields, event in
            let shown = try fields.integer("index", in: 0...10_000)
            // The value the page showed, found by when it was logged: at the position the page showed it, else
            // (another tab deleted one before it) wherever it is now; gone already (this delete sent again from
            // the app's queue) is done.
            let created = Date(timeIntervalSince1970: try fields.number("created", in: -1e12...1e12))
            let values = event.outcome?.values ?? []
            guard let index = values.indices.contains(shown) && Self.sameMoment(values[shown].createdDate, created) ? shown
                    : values.firstIndex(where: { Self.sameMoment($0.createdDate, created) }) else {
                return nil
            }
            try await store.deleteOutcomeValue(at: index, taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence)
            return nil
        }
    }

    /// `POST /records/{record}/care/events/record`.
    func postCareEventsRecord(_ request: Request, _ context: RecordContext) async throws -> Response {
        try await handleForm(request, context) { fields, event in
            let target = event.scheduleEvent.element.targetValues.first
            let number = try fields.number("value", in: 0...OCKNumericEntryRange.maximum(for: target))
            var value = OCKOutcomeValue(number, units: target?.units)
            value.createdDate = try actedDate(fields, for: event)
            if let seen = fields.values[Self.seenField], !seen.isEmpty,
               let refusal = try await recordedMeanwhile(event, seen: seen, value: value, request, context) {
                return refusal
            }
            try await store.recordOutcomeValue(value, taskUUID: event.task.uuid, occurrence: event.scheduleEvent.occurrence,
                                               userInfo: [Self.authorKey: context.identity.account.id.description])
            return nil
        }
    }
}

/// The handlers of the routes above, each a method the route table names (`RecordRouteTable`).
extension CareServer {
}
