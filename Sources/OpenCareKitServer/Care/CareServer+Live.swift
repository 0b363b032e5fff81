import Foundation
import Hummingbird
import OpenCareKit
import OpenCareKitStore
import OpenCareKitUI
import ServiceLifecycle

extension CareServer {
    /// The parts of the Care page for `day` that change with the store: the cards, the week and the notice.
    struct CareParts {
        var cards: [(id: String, html: HTML)]
        var calendar: HTML
        var notice: String?
        /// False until the onboarding survey is done (always true without one).
        var isOnboarded = true

        /// The parts as the live update pages receive.
        var update: CareUpdate {
            CareUpdate(cards: cards.map { CareUpdate.Card(id: $0.id, html: $0.html.rendered) }, calendar: calendar.rendered,
                       notice: notice)
        }
    }

    /// The most events one Care page shows (a hundred tasks at the schedule limit of 48 a day is 4,800); a day with
    /// more is refused with a clear error rather than rendered.
    static let maximumEventsPerPage = 5_000

    /// A day with more than `maximumEventsPerPage` events. The store keeps a plan's current tasks within
    /// `OCKStoreLimits.maximumEventsPerDay`, far fewer; a past day of older task versions can still hold more.
    struct DayTooFull: Error {
        var message: PageMessage { PageMessage(ErrorText.dayTooFull, String(CareServer.maximumEventsPerPage)) }
    }

    /// The changing parts of the Care page for `day`. Forms carry `token`; live updates pass an empty one for the
    /// page's script to fill with its own.
    func careParts(day: Date, context: OCKRenderContext, token: String) async throws -> CareParts {
        let today = calendar.startOfDay(for: configuration.now())
        let isFuture = day > today
        let page = self.page
        let feed = try await page.feedEvents(on: day, today: today, in: store)
        guard feed.events.count <= Self.maximumEventsPerPage else { throw DayTooFull() }
        // Before onboarding, the card shown is today's onboarding, whatever day the page is.
        let cardDay = feed.isOnboarded ? day : today
        let environment = OCKSynchronizationEnvironment(render: context, actions: ServerActions(
            token: token, day: dayString(cardDay), base: basePath, answersOnOnePage: { [self] task in
                (task as? OCKTask).flatMap(surveyOnOnePage(for:)) != nil
            }),
                                                        isReadOnly: cardDay > today)
        let cards = page.cards(for: feed.events, environment: environment).map { card in
            (id: cardIdentifier(forTaskID: card.taskID), html: card.view.render(in: context))
        }
        guard feed.isOnboarded else {
            // No week until the care plan opens.
            return CareParts(cards: cards, calendar: .element("div", ["id": "week", "hidden": "hidden"], []),
                             notice: context.string(.finishOnboarding), isOnboarded: false)
        }
        let week = try await page.week(containing: day, in: store).map { day, completion in
            OCKWeekCalendarView.Day(date: day, completion: completion, url: SafeURL(url("/care?date=\(dayString(day))")))
        }
        let calendarView = OCKWeekCalendarView(days: week, selectedDate: day, now: configuration.now(), identifier: "week")
        let notice = isFuture ? context.string(.readOnlyDay) : cards.isEmpty ? context.string(.noTasksForDay) : nil
        return CareParts(cards: cards, calendar: calendarView.render(in: context), notice: notice)
    }

    /// `GET /care/live?date=YYYY-MM-DD`: server-sent events with the day's cards and week after every change to
    /// the store, from this server, the JSON API or another process writing the same file.
    func liveCare(_ request: Request, owner: LiveStreamSlots.Owner, accessCheck: AccessCheck? = nil) async throws -> Response {
        let context = renderContext(for: request)
        guard let slot = liveSlots.take(for: owner) else { throw Self.tooManyStreams }
        let text = request.uri.queryParameters.get("date") ?? dayString(configuration.now())
        guard let day = day(from: text) else {
            throw LocalizedRefusal(.badRequest, PageMessage(ErrorText.badDay))
        }
        let key = LiveCareHub.Key(day: dayString(day), language: context.localization.language,
                                  today: dayString(configuration.now()))
        let server = self
        let subscription = await hub.subscribe(key) {
            // The week's events cover the day's cards and the rings.
            let week = OCKWeekCalendarView.week(containing: day, calendar: server.calendar)
            let interval = DateInterval(start: week.first ?? day, end: server.page.day(containing: week.last ?? day).end)
            let changes = server.store.events(matching: OCKEventQuery(dateInterval: interval))
            return AsyncThrowingStream { continuation in
                let work = Task {
                    do {
                        for try await _ in changes {
                            continuation.yield(try await server.careParts(day: day, context: context, token: "").update)
                        }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in work.cancel() }
            }
        }
        guard let updates = subscription else {
            throw ClientError(status: .serviceUnavailable, message: "Too many days are followed at once.")
        }
        // Reconnect after a second when the connection drops; the first update then catches the page up.
        return Self.eventStream(request, slot: slot, first: "retry: 1000\n\n", updates.map(\.serverSentEvent), accessCheck: accessCheck)
    }

    /// The answer to a client whose address has `LiveStreamSlots.perClient` live streams open already, or whose person
    /// has `LiveStreamSlots.perPerson`.
    static var tooManyStreams: ClientError {
        ClientError(status: .tooManyRequests,
                    message: "Too many live pages are open (at most \(LiveStreamSlots.perClient) from one address, \(LiveStreamSlots.perPerson) for one person). Close some and reload.",
                    headers: [.retryAfter: "5"])
    }

    /// A server-sent-event response from `messages`, with a comment every 15 seconds (which keeps proxies from
    /// closing a quiet stream). The stream ends as soon as the client closes its connection, freeing `slot` and the
    /// subscription behind `messages`, and as soon as `accessCheck` finds the person no longer may see the record
    /// (signed out, removed, token revoked).
    static func eventStream<Messages: AsyncSequence & Sendable>(_ request: Request, slot: LiveStreamSlots.Slot, first: String,
                                                                _ messages: Messages, accessCheck: AccessCheck? = nil) -> Response
        where Messages.Element == String {
        let (merged, output) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(8))
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                        body: ResponseBody { writer in
            defer { withExtendedLifetime(slot) {} }
            try await request.body.consumeWithCancellationOnInboundClose { _ in
                try await stream(first: first, messages, merged: merged, output: output, accessCheck: accessCheck, to: &writer)
            }
            try await writer.finish(nil)
        })
    }

    private static func stream<Messages: AsyncSequence & Sendable>(first: String, _ messages: Messages, merged: AsyncStream<String>,
                                                                   output: AsyncStream<String>.Continuation, accessCheck: AccessCheck?,
                                                                   to writer: inout any ResponseBodyWriter) async throws
        where Messages.Element == String {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await message in messages { output.yield(message) }
                    output.finish()
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: .seconds(15))
                        output.yield(": ping\n\n")
                    }
                }
                if let accessCheck {
                    group.addTask {
                        while !Task.isCancelled {
                            try await Task.sleep(for: accessCheck.interval)
                            if await !accessCheck.isAllowed() {
                                output.finish()
                                return
                            }
                        }
                    }
                }
                defer { group.cancelAll() }
                try await writer.write(ByteBuffer(string: first))
                for await message in merged.cancelOnGracefulShutdown() {
                    try await writer.write(ByteBuffer(string: message))
                }
            }
    }
}

extension CareServer {
    /// `GET /live/changes`: a server-sent event after each change to the store, for pages that refresh themselves
    /// as a whole (Insights, Contacts). Bursts collapse into one event.
    func liveChanges(_ request: Request, owner: LiveStreamSlots.Owner, accessCheck: AccessCheck? = nil) async throws -> Response {
        guard let slot = liveSlots.take(for: owner) else { throw Self.tooManyStreams }
        return Self.eventStream(request, slot: slot, first: "retry: 1000\n\nevent: ready\ndata: {}\n\n",
                                store.changeSignals().map { "event: changed\ndata: {}\n\n" }, accessCheck: accessCheck)
    }
}
