import Foundation
import OpenCareKitStore
import OpenCareKitUI

/// The events of one task on one day, as its card shows them: CareKit's view model for task views.
///
/// Give them in start order (``OCKDailyTasksPage/group(_:)`` does): a card shows the first event, and takes the
/// title and instructions from the last event's task version. An empty array gives an empty card.
public typealias OCKTaskEvents = [OCKAnyEvent]

extension OCKAnyEvent {
    /// The event's time for the reader: "8:00 AM", or "All day".
    public var timeText: OCKTimeText {
        scheduleEvent.element.duration == .allDay ? .allDay : .time(scheduleEvent.start)
    }

    /// Whether the event has an outcome (CareKit's default progress).
    public var isComplete: Bool { outcome != nil }

    /// The first numeric value recorded, if any.
    public var recordedNumber: Double? {
        outcome?.values.lazy.compactMap { $0.numberValue?.doubleValue }.first
    }
}

extension Array where Element == OCKAnyEvent {
    /// The task the events belong to (the newest version among them).
    var task: (any OCKAnyTask)? { last?.task }

    /// The card's detail: "3 times a day" for several events, else the event's schedule text or time.
    func detail(in context: OCKRenderContext) -> String? {
        guard let first else { return nil }
        if count > 1 { return context.string(.timesADay, context.localization.number(Double(count), fractionDigits: 0)) }
        if let text = first.scheduleEvent.element.text, !text.isEmpty { return text }
        return first.timeText.text(in: context)
    }
}

/// The cards with one completion button: the simple and the instructions task.
protocol SingleEventCard {
    var header: OCKHeaderView { get set }
    var eventTime: OCKTimeText? { get set }
    var isComplete: Bool { get set }
    var action: OCKFormAction? { get set }
    var identifier: String? { get set }
}

extension OCKSimpleTaskView: SingleEventCard {}
extension OCKInstructionsTaskView: SingleEventCard {}

extension SingleEventCard {
    /// Fills the card from the day's first event of the task.
    mutating func update(from context: OCKSynchronizationContext<OCKTaskEvents>) {
        let events = context.viewModel
        header.title = events.task?.title ?? ""
        header.detail = events.detail(in: context.environment.render)
        identifier = events.task.map { cardIdentifier(forTaskID: $0.id) }
        eventTime = events.first?.timeText
        isComplete = events.first?.isComplete ?? false
        action = events.first.flatMap { context.environment.writableActions?.toggle($0) }
    }
}

/// CareKit's simple task synchronizer: a round completion button for the day's first event, under the task's title
/// and the event's schedule text or time ("3 times a day" when the day has several events).
///
/// The button marks the event done or not done through the environment's `toggle` action; it shows disabled when
/// the environment has no writable actions.
///
/// For example:
/// ```swift
/// var query = OCKEventQuery(for: today, calendar: calendar)
/// query.taskIDs = ["enoxaparin"]
/// let events = try await store.fetchEvents(query: query).map(\.anyEvent)
/// let card = OCKSimpleTaskViewSynchronizer().view(for: events, environment: environment)
/// ```
public struct OCKSimpleTaskViewSynchronizer: OCKViewSynchronizing {
    /// A synchronizer of simple task cards.
    public init() {}

    public func makeView() -> OCKSimpleTaskView {
        OCKSimpleTaskView(title: "", isComplete: false, action: nil)
    }

    public func updateView(_ view: inout OCKSimpleTaskView, context: OCKSynchronizationContext<OCKTaskEvents>) {
        view.update(from: context)
    }
}

/// CareKit's instructions task synchronizer: the simple task with the task's instructions.
///
/// For example, exercises shown with their instructions on the daily tasks page:
/// ```swift
/// let page = OCKDailyTasksPage(calendar: calendar,
///                              synchronizers: ["knee-exercises": OCKInstructionsTaskViewSynchronizer()])
/// ```
public struct OCKInstructionsTaskViewSynchronizer: OCKViewSynchronizing {
    /// A synchronizer of instructions task cards.
    public init() {}

    public func makeView() -> OCKInstructionsTaskView {
        OCKInstructionsTaskView(title: "", instructions: nil, isComplete: false, action: nil)
    }

    public func updateView(_ view: inout OCKInstructionsTaskView, context: OCKSynchronizationContext<OCKTaskEvents>) {
        view.update(from: context)
        view.instructions = context.viewModel.task?.instructions
    }
}

/// The cards with a row or cell per event: the checklist and the grid.
protocol EventListCard {
    var header: OCKHeaderView { get set }
    var items: [OCKEventItem] { get set }
    var instructions: String? { get set }
    var identifier: String? { get set }
}

extension OCKChecklistTaskView: EventListCard {}
extension OCKGridTaskView: EventListCard {}

extension EventListCard {
    /// Fills the card from the task's events: the header, an item and its toggle per event, the instructions.
    mutating func update(from context: OCKSynchronizationContext<OCKTaskEvents>) {
        let events = context.viewModel
        header.title = events.task?.title ?? ""
        header.detail = events.detail(in: context.environment.render)
        instructions = events.task?.instructions
        identifier = events.task.map { cardIdentifier(forTaskID: $0.id) }
        items = events.map { event in
            OCKEventItem(time: event.timeText, isComplete: event.isComplete,
                         action: context.environment.writableActions?.toggle(event))
        }
    }
}

/// CareKit's checklist task synchronizer: a row and a toggle per event, instructions below.
///
/// For example, a medication taken three times a day, following the store:
/// ```swift
/// let card = OCKSynchronizedView.events(of: "ibuprofen", on: today, calendar: calendar, in: store,
///                                       synchronizer: OCKChecklistTaskViewSynchronizer(), environment: environment)
/// ```
public struct OCKChecklistTaskViewSynchronizer: OCKViewSynchronizing {
    /// A synchronizer of checklist task cards.
    public init() {}

    public func makeView() -> OCKChecklistTaskView {
        OCKChecklistTaskView(title: "", items: [])
    }

    public func updateView(_ view: inout OCKChecklistTaskView, context: OCKSynchronizationContext<OCKTaskEvents>) {
        view.update(from: context)
    }
}

/// CareKit's grid task synchronizer: a compact button per event, instructions below. It is the daily tasks
/// page's automatic card for a task with several events in a day.
///
/// For example:
/// ```swift
/// let card = OCKGridTaskViewSynchronizer().view(for: omeprazoleEvents, environment: environment)
/// ```
public struct OCKGridTaskViewSynchronizer: OCKViewSynchronizing {
    /// A synchronizer of grid task cards.
    public init() {}

    public func makeView() -> OCKGridTaskView {
        OCKGridTaskView(title: "", items: [])
    }

    public func updateView(_ view: inout OCKGridTaskView, context: OCKSynchronizationContext<OCKTaskEvents>) {
        view.update(from: context)
    }
}

/// CareKit's button-log task synchronizer: a log button for the day's event and its logged values with their
/// times, each deletable.
///
/// An entry shows a logged value's text, or its number and unit; a value with neither (a boolean) shows as its time
/// only. It is the daily tasks page's automatic card for a task that does not count toward adherence.
///
/// For example, nausea episodes logged as they happen:
/// ```swift
/// let page = OCKDailyTasksPage(calendar: calendar, synchronizers: ["nausea": OCKButtonLogTaskViewSynchronizer()])
/// ```
public struct OCKButtonLogTaskViewSynchronizer: OCKViewSynchronizing {
    /// A synchronizer of button-log task cards.
    public init() {}

    public func makeView() -> OCKLogTaskView {
        OCKLogTaskView(title: "", logAction: nil, entries: [])
    }

    public func updateView(_ view: inout OCKLogTaskView, context: OCKSynchronizationContext<OCKTaskEvents>) {
        let events = context.viewModel
        let actions = context.environment.writableActions
        let l10n = context.environment.render.localization
        view.header.title = events.task?.title ?? ""
        view.header.detail = events.detail(in: context.environment.render)
        view.instructions = events.task?.instructions
        view.identifier = events.task.map { cardIdentifier(forTaskID: $0.id) }
        guard let event = events.first else { view.logAction = nil; view.entries = []; return }
        view.logAction = actions?.log(event)
        view.entries = (event.outcome?.values ?? []).enumerated().map { index, value in
            let number = value.numberValue.map { l10n.number($0.doubleValue, unit: value.units) }
            let text = value.stringValue ?? (value.booleanValue == nil ? number : nil)
            return OCKLogTaskView.Entry(time: .time(value.createdDate), value: text,
                                        deleteAction: actions?.deleteLoggedValue(event, at: index))
        }
    }
}

/// The number to record for a task: the first target value gives the unit and, as the goal, the range.
private func entry(for event: OCKAnyEvent, label: String, context: OCKSynchronizationContext<OCKTaskEvents>) -> OCKValueEntry? {
    guard let action = context.environment.writableActions?.record(event) else { return nil }
    let target = event.scheduleEvent.element.targetValues.first
    return OCKValueEntry(action: action, label: label, unit: target?.units, minimum: 0,
                         maximum: OCKNumericEntryRange.maximum(for: target), value: event.recordedNumber)
}

/// The range a recorded number must be in: from zero to ten times the target, or to one million without one.
public enum OCKNumericEntryRange {
    /// The largest number a card accepts for an event whose first target value is `target`: ten times the target
    /// when it is a positive, finite number, else 1,000,000. The smallest is always 0.
    ///
    /// For example:
    /// ```swift
    /// OCKNumericEntryRange.maximum(for: OCKOutcomeValue(8.0, units: "glasses"))  // 80
    /// OCKNumericEntryRange.maximum(for: nil)                                      // 1,000,000
    /// ```
    public static func maximum(for target: OCKOutcomeValue?) -> Double {
        guard let goal = target?.numberValue?.doubleValue, goal > 0, goal.isFinite else { return 1_000_000 }
        return goal * 10
    }
}

/// CareKit's labeled-value synchronizer: the recorded value and its unit, or "Not recorded", with a form to record
/// it.
///
/// It shows the first number recorded for the day's first event, in the unit of its outcome's first value (else of
/// the event's first target). The form records a number from 0 up to ``OCKNumericEntryRange/maximum(for:)``, replacing
/// the one recorded; it is left out when the environment has no writable actions.
///
/// For example, a weekly weigh-in:
/// ```swift
/// var page = OCKDailyTasksPage(calendar: calendar)
/// page.synchronizers["weigh-in"] = OCKLabeledValueTaskViewSynchronizer()
/// ```
public struct OCKLabeledValueTaskViewSynchronizer: OCKViewSynchronizing {
    /// A synchronizer of labeled-value task cards.
    public init() {}

    public func makeView() -> OCKLabeledValueTaskView {
        OCKLabeledValueTaskView(title: "", state: .incomplete(label: ""))
    }

    public func updateView(_ view: inout OCKLabeledValueTaskView, context: OCKSynchronizationContext<OCKTaskEvents>) {
        let events = context.viewModel
        let render = context.environment.render
        let title = events.task?.title ?? ""
        view.header.title = title
        view.header.detail = events.detail(in: render)
        view.identifier = events.task.map { cardIdentifier(forTaskID: $0.id) }
        guard let event = events.first else { view.state = .incomplete(label: render.string(.notRecorded)); view.entry = nil; return }
        let unit = event.outcome?.values.first?.units ?? event.scheduleEvent.element.targetValues.first?.units ?? ""
        if let number = event.recordedNumber {
            view.state = .complete(value: render.localization.number(number), label: unit)
        } else {
            view.state = .incomplete(label: render.string(.notRecorded))
        }
        view.entry = entry(for: event, label: title, context: context)
    }
}

/// CareKit's numeric-progress synchronizer: the sum recorded against the target value as the goal.
///
/// Progress is the sum of the numeric values of the day's first event's outcome; the goal is that event's first
/// target value (0 without one), written with its unit. The form records a number that replaces the values
/// recorded; it is left out when the environment has no writable actions.
///
/// For example, eight glasses of water a day:
/// ```swift
/// let card = OCKNumericProgressTaskViewSynchronizer().view(for: hydrationEvents, environment: environment)
/// ```
public struct OCKNumericProgressTaskViewSynchronizer: OCKViewSynchronizing {
    /// A synchronizer of numeric-progress task cards.
    public init() {}

    public func makeView() -> OCKNumericProgressTaskView {
        OCKNumericProgressTaskView(title: "", progress: 0, progressText: "0", goal: 0, goalText: "0")
    }

    public func updateView(_ view: inout OCKNumericProgressTaskView, context: OCKSynchronizationContext<OCKTaskEvents>) {
        let events = context.viewModel
        let l10n = context.environment.render.localization
        let title = events.task?.title ?? ""
        view.header.title = title
        view.header.detail = events.detail(in: context.environment.render)
        view.instructions = events.task?.instructions
        view.identifier = events.task.map { cardIdentifier(forTaskID: $0.id) }
        guard let event = events.first else { view.entry = nil; return }
        let target = event.scheduleEvent.element.targetValues.first
        let progress = event.outcome?.values.compactMap { $0.numberValue?.doubleValue }.reduce(0, +) ?? 0
        let goal = target?.numberValue?.doubleValue ?? 0
        view.progress = progress
        view.progressText = l10n.number(progress)
        view.goal = goal
        view.goalText = l10n.number(goal, unit: target?.units)
        view.entry = entry(for: event, label: title, context: context)
    }
}

/// CareKit's survey task synchronizer (OCKSurveyTaskViewController's card): the task's header and instructions
/// with "Start survey" for the day's first event; once it has an outcome, "Completed", and a link to delete the
/// answers that asks first (CareKit's delete confirmation), unless `allowsDeletingOutcome` is false, as for an
/// onboarding whose outcome holds a signed consent.
///
/// "Start survey" posts the environment's `startSurvey` form; without one (the default of ``OCKEventActions``) the
/// card offers no way to start.
///
/// For example, an onboarding whose signed consent must stay:
/// ```swift
/// let consent = OCKSurveyTaskViewSynchronizer(allowsDeletingOutcome: false)
/// let page = OCKDailyTasksPage(calendar: calendar, synchronizers: ["onboarding": consent],
///                              onboardingTaskID: "onboarding")
/// ```
public struct OCKSurveyTaskViewSynchronizer: OCKViewSynchronizing {
    /// Whether a completed survey's card offers to delete its answers (CareKit's
    /// `shouldAllowDeletingOutcomeForEvent`).
    public var allowsDeletingOutcome: Bool

    /// A synchronizer of survey task cards.
    ///
    /// - Parameter allowsDeletingOutcome: Whether a completed survey's card offers to delete its answers (true by
    ///   default).
    public init(allowsDeletingOutcome: Bool = true) {
        self.allowsDeletingOutcome = allowsDeletingOutcome
    }

    public func makeView() -> OCKSurveyTaskView {
        OCKSurveyTaskView(title: "", isComplete: false, startAction: nil)
    }

    public func updateView(_ view: inout OCKSurveyTaskView, context: OCKSynchronizationContext<OCKTaskEvents>) {
        let events = context.viewModel
        let event = events.first
        view.header.title = events.task?.title ?? ""
        view.header.detail = events.detail(in: context.environment.render)
        view.instructions = events.task?.instructions
        view.identifier = events.task.map { cardIdentifier(forTaskID: $0.id) }
        view.isComplete = event?.isComplete ?? false
        let actions = context.environment.writableActions
        view.startAction = event.flatMap { actions?.startSurvey($0) }
        view.onePageURL = view.startAction == nil ? nil : event.flatMap { actions?.surveyOnOnePage($0) }
        view.deleteURL = allowsDeletingOutcome ? event.flatMap { actions?.deleteSurveyAnswers($0) } : nil
    }
}
