import Foundation
import OpenCareKitStore
import OpenCareKitUI

/// CareKit's daily tasks page (OCKDailyTasksPageViewController) without the view controller: for a day, one card per
/// task in the style CareKit would choose, and the week calendar with each day's completion ring.
///
/// CareKit's choice: a button-log card for tasks that do not count toward adherence, a simple card for a task with
/// one event that day, a grid otherwise. `styles` overrides it per task id, and `synchronizers` replaces the
/// synchronizer of a task altogether.
///
/// For example, today's cards and the week's completion rings:
/// ```swift
/// var page = OCKDailyTasksPage(calendar: calendar)
/// page.styles["weigh-in"] = .labeledValue
/// let events = try await page.events(on: today, in: store)
/// let cards = page.cards(for: events, environment: environment)
/// let html = cards.map { $0.view.render(in: environment.render).rendered }.joined()
/// let week = try await page.week(containing: today, in: store)  // seven (day, completion) pairs
/// ```
public struct OCKDailyTasksPage: Sendable {
    /// The card styles of CareKit's task views, each drawn by its synchronizer (``synchronizer(for:)``): `simple`
    /// (``OCKSimpleTaskViewSynchronizer``), `instructions` (``OCKInstructionsTaskViewSynchronizer``), `checklist`
    /// (``OCKChecklistTaskViewSynchronizer``), `grid` (``OCKGridTaskViewSynchronizer``), `log`
    /// (``OCKButtonLogTaskViewSynchronizer``), `labeledValue` (``OCKLabeledValueTaskViewSynchronizer``) and
    /// `numericProgress` (``OCKNumericProgressTaskViewSynchronizer``). The raw values are the names a task's
    /// `userInfo` (``cardStyleKey``) and a care plan template use.
    public enum CardStyle: String, Sendable, Hashable, CaseIterable {
        /// A task card style; ``OCKDailyTasksPage/CardStyle`` names the synchronizer that draws each.
        case simple, instructions, checklist, grid, log, labeledValue, numericProgress
        /// A survey's card: "Start survey", then "Completed" (``OCKSurveyTaskViewSynchronizer``).
        case survey
    }

    /// A task's card: its task id and its view.
    public struct Card: Sendable {
        /// The id of the task the card shows.
        public var taskID: String
        /// The card's view, ready to render.
        public var view: any OCKComponent
    }

    /// The calendar whose days the page shows (the patient's time zone).
    public var calendar: Calendar
    /// Card styles by task id, replacing CareKit's choice.
    public var styles: [String: CardStyle]
    /// Synchronizers by task id, replacing the style's synchronizer.
    public var synchronizers: [String: any OCKViewSynchronizing<OCKTaskEvents>]

    /// The task whose outcome opens the feed, as in the WWDC21 sample: until the task has an outcome on any day,
    /// the page shows only that task's card; afterwards, every other task's. Nil shows every task.
    public var onboardingTaskID: String?

    /// A page whose days are those of `calendar`.
    ///
    /// - Parameters:
    ///   - calendar: The calendar whose days the page shows (the patient's time zone).
    ///   - styles: Card styles by task id; none by default (each task's own style, else CareKit's choice).
    ///   - synchronizers: Synchronizers by task id, replacing any style; none by default.
    ///   - onboardingTaskID: The task whose outcome opens the feed; nil (the default) shows every task.
    public init(calendar: Calendar, styles: [String: CardStyle] = [:],
                synchronizers: [String: any OCKViewSynchronizing<OCKTaskEvents>] = [:], onboardingTaskID: String? = nil) {
        self.calendar = calendar
        self.styles = styles
        self.synchronizers = synchronizers
        self.onboardingTaskID = onboardingTaskID
    }

    /// Whether the onboarding task has an outcome on any day. True when the page has no onboarding task or the
    /// store has no task with its id (a care plan without onboarding).
    ///
    /// - Throws: What the store's outcome and task fetches throw.
    public func hasCompletedOnboarding<Store: OCKReadOnlyEventStore>(in store: Store) async throws -> Bool {
        guard let onboardingTaskID else { return true }
        var outcomes = OCKOutcomeQuery()
        outcomes.taskIDs = [onboardingTaskID]
        outcomes.limit = 1
        if try await !store.fetchOutcomes(query: outcomes).isEmpty { return true }
        var tasks = OCKTaskQuery()
        tasks.ids = [onboardingTaskID]
        tasks.limit = 1
        return try await store.fetchTasks(query: tasks).isEmpty
    }

    /// The events the feed shows for the day containing `date`: before onboarding, only the onboarding task's
    /// events of `today` (whatever day is asked for), or its latest earlier event when it has none today; after it,
    /// every task's events of the day but the onboarding task's.
    ///
    /// - Parameters:
    ///   - date: Any moment of the day asked for.
    ///   - today: The current moment, whose day shows the onboarding until it is done.
    ///   - store: The store to read.
    /// - Returns: The events to show, and whether onboarding is done (always true without an onboarding task).
    /// - Throws: What the store's fetches throw.
    public func feedEvents<Store: OCKReadOnlyEventStore>(on date: Date, today: Date, in store: Store) async throws
        -> (events: [OCKAnyEvent], isOnboarded: Bool) {
        guard let onboardingTaskID else { return (try await events(on: date, in: store), true) }
        if try await hasCompletedOnboarding(in: store) {
            return (try await events(on: date, in: store).filter { $0.task.id != onboardingTaskID }, true)
        }
        var query = OCKEventQuery(dateInterval: day(containing: today))
        query.taskIDs = [onboardingTaskID]
        var events = try await store.fetchEvents(query: query).map(\.anyEvent)
        if events.isEmpty {
            // An onboarding that is not scheduled today (a one-time task): its latest event of the past year.
            let start = calendar.date(byAdding: .year, value: -1, to: today) ?? today
            query.dateInterval = DateInterval(start: start, end: day(containing: today).end)
            let latest = try await store.fetchEvents(query: query).max { $0.scheduleEvent.start < $1.scheduleEvent.start }
            events = latest.map { [$0.anyEvent] } ?? []
        }
        return (events, false)
    }

    /// CareKit's choice of card for a task with `eventCount` events on the day.
    public static func automaticStyle(for task: any OCKAnyTask, eventCount: Int) -> CardStyle {
        if !task.impactsAdherence { return .log }
        return eventCount == 1 ? .simple : .grid
    }

    /// The synchronizer for a style.
    public static func synchronizer(for style: CardStyle) -> any OCKViewSynchronizing<OCKTaskEvents> {
        switch style {
        case .simple: OCKSimpleTaskViewSynchronizer()
        case .instructions: OCKInstructionsTaskViewSynchronizer()
        case .checklist: OCKChecklistTaskViewSynchronizer()
        case .grid: OCKGridTaskViewSynchronizer()
        case .log: OCKButtonLogTaskViewSynchronizer()
        case .labeledValue: OCKLabeledValueTaskViewSynchronizer()
        case .numericProgress: OCKNumericProgressTaskViewSynchronizer()
        case .survey: OCKSurveyTaskViewSynchronizer()
        }
    }

    /// The `userInfo` key under which a task keeps its own card style (a `CardStyle` raw value), as a plan editor
    /// saves it.
    public static let cardStyleKey = "ock.card"

    /// The style this page shows `task` in: a survey's card for a configured survey task, else the task's own style
    /// (`cardStyleKey`), else the configured one, else CareKit's choice.
    public func style(for task: any OCKAnyTask, eventCount: Int) -> CardStyle {
        let configured = styles[task.id]
        if configured == .survey { return .survey }
        let own = (task as? OCKTask)?.userInfo?[Self.cardStyleKey].flatMap(CardStyle.init(rawValue:))
        return own ?? configured ?? Self.automaticStyle(for: task, eventCount: eventCount)
    }

    /// The synchronizer this page uses for `task`.
    public func synchronizer(for task: any OCKAnyTask, eventCount: Int) -> any OCKViewSynchronizing<OCKTaskEvents> {
        if let custom = synchronizers[task.id] { return custom }
        return Self.synchronizer(for: style(for: task, eventCount: eventCount))
    }

    /// The day containing `date`.
    public func day(containing date: Date) -> DateInterval {
        calendar.dateInterval(of: .day, for: date) ?? DateInterval(start: date, duration: 86_400)
    }

    /// The events of the day containing `date`, every task's, in start order.
    ///
    /// - Throws: What the store's event fetch throws.
    public func events<Store: OCKReadOnlyEventStore>(on date: Date, in store: Store) async throws -> [OCKAnyEvent] {
        try await store.fetchEvents(query: OCKEventQuery(dateInterval: day(containing: date))).map(\.anyEvent)
    }

    /// The events grouped by task id, each group in start order, and the tasks ordered by their first event's start
    /// (then its occurrence number).
    ///
    /// For example:
    /// ```swift
    /// for (taskID, taskEvents) in OCKDailyTasksPage.group(events) { print(taskID, taskEvents.count) }
    /// ```
    public static func group(_ events: [OCKAnyEvent]) -> [(taskID: String, events: OCKTaskEvents)] {
        var order: [String] = []
        var groups: [String: OCKTaskEvents] = [:]
        for event in events.sorted(by: { ($0.scheduleEvent.start, $0.scheduleEvent.occurrence) < ($1.scheduleEvent.start, $1.scheduleEvent.occurrence) }) {
            if groups[event.task.id] == nil { order.append(event.task.id) }
            groups[event.task.id, default: []].append(event)
        }
        return order.map { ($0, groups[$0] ?? []) }
    }

    /// One card per task with events in `events`, in the order of ``group(_:)``, each made by the task's
    /// synchronizer (``synchronizer(for:eventCount:)``). Empty `events` give no cards.
    public func cards(for events: [OCKAnyEvent], environment: OCKSynchronizationEnvironment) -> [Card] {
        Self.group(events).compactMap { taskID, taskEvents in
            guard let task = taskEvents.last?.task else { return nil }
            let synchronizer = synchronizer(for: task, eventCount: taskEvents.count)
            return Card(taskID: taskID, view: synchronizer.view(for: taskEvents, environment: environment))
        }
    }

    /// The card of one task for its events that day, or nil if it has none.
    public func card(taskID: String, events: [OCKAnyEvent], environment: OCKSynchronizationEnvironment) -> Card? {
        cards(for: events.filter { $0.task.id == taskID }, environment: environment).first
    }

    /// The week containing `date` with each day's completion, from the store's adherence (tasks that do not
    /// impact adherence are left out, as in CareKit).
    ///
    /// - Returns: The week's seven days (as `OCKWeekCalendarView.week(containing:calendar:)` gives them), each with
    ///   its completion from 0 to 1, or nil for a day without tasks or events that count.
    /// - Throws: What the store's adherence fetch throws.
    public func week<Store: OCKAnyReadOnlyEventStore>(containing date: Date, in store: Store) async throws -> [(day: Date, completion: Double?)] {
        try await completion(of: OCKWeekCalendarView.week(containing: date, calendar: calendar), in: store)
    }

    /// Each of `days` (the starts of consecutive days) with its completion, from the store's adherence: nil for a
    /// day without tasks or events that count. Empty `days` give an empty list.
    ///
    /// - Throws: What the store's adherence fetch throws.
    public func completion<Store: OCKAnyReadOnlyEventStore>(of days: [Date], in store: Store) async throws -> [(day: Date, completion: Double?)] {
        guard let first = days.first, let last = days.last else { return [] }
        let interval = DateInterval(start: first, end: day(containing: last).end)
        let adherence = try await store.fetchAdherence(query: OCKAdherenceQuery(taskIDs: [], dateInterval: interval),
                                                       calendar: calendar)
        return days.enumerated().map { index, day in
            let completion: Double? = switch index < adherence.count ? adherence[index] : .noTasks {
            case .noTasks, .noEvents: nil
            case let .progress(fraction): fraction
            }
            return (day, completion)
        }
    }
}
