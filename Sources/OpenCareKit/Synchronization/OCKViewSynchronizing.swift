import Foundation
import OpenCareKitStore
import OpenCareKitUI

/// CareKit's view synchronizer for the web: it makes a view and updates it from store data.
///
/// Views are values, so `updateView` changes the view in place (`inout`) where CareKit mutates a `UIView`. Any card
/// can be given a custom synchronizer: conform a type, choose its view (a built-in one or your own `OCKComponent`)
/// and fill it from the view model.
///
/// For example:
/// ```swift
/// struct DoseCountSynchronizer: OCKViewSynchronizing {
///     func makeView() -> OCKLabeledValueTaskView {
///         OCKLabeledValueTaskView(title: "", state: .incomplete(label: ""))
///     }
///     func updateView(_ view: inout OCKLabeledValueTaskView, context: OCKSynchronizationContext<[OCKAnyEvent]>) {
///         let done = context.viewModel.filter { $0.outcome != nil }.count
///         view.header.title = context.viewModel.first?.task.title ?? ""
///         view.state = .complete(value: "\(done)", label: "doses")
///     }
/// }
/// ```
public protocol OCKViewSynchronizing<ViewModel>: Sendable {
    /// The view the synchronizer renders: a view of OpenCareKitUI (`OCKSimpleTaskView`, `OCKCartesianChartView`…)
    /// or any `OCKComponent` of your own.
    associatedtype View: OCKComponent
    /// The store data a view is filled from: ``OCKTaskEvents`` for a task card, ``OCKChartData`` for a chart,
    /// `any OCKAnyContact` for a contact card.
    associatedtype ViewModel: Sendable

    /// Makes the view with no data yet (empty title, no events, no controls), which
    /// ``updateView(_:context:)`` then fills.
    func makeView() -> View

    /// Fills `view` from `context.viewModel`.
    ///
    /// Set every part the view shows from the view model, so that the result does not depend on what the view held
    /// before. Give controls their forms from `context.environment.writableActions`: when it is nil (no actions, or
    /// a read-only day) the controls show disabled.
    ///
    /// - Parameters:
    ///   - view: The view to fill, as ``makeView()`` made it.
    ///   - context: The view model to show, the one shown before it, and the reader and actions.
    func updateView(_ view: inout View, context: OCKSynchronizationContext<ViewModel>)
}

extension OCKViewSynchronizing {
    /// A new view filled from `viewModel`: ``makeView()``, then one ``updateView(_:context:)``.
    ///
    /// For example:
    /// ```swift
    /// let card = OCKSimpleTaskViewSynchronizer().view(for: events, environment: environment)
    /// let html = card.render(in: environment.render).rendered
    /// ```
    ///
    /// - Parameters:
    ///   - viewModel: The data to show.
    ///   - previous: The view model shown before, if any; when given, the update is marked as animated.
    ///   - environment: The reader, the controls' actions and whether the view is read-only.
    /// - Returns: The filled view.
    public func view(for viewModel: ViewModel, previous: ViewModel? = nil,
                     environment: OCKSynchronizationEnvironment) -> View {
        var view = makeView()
        updateView(&view, context: OCKSynchronizationContext(viewModel: viewModel, oldViewModel: previous,
                                                             animated: previous != nil, environment: environment))
        return view
    }
}

/// What a synchronizer updates a view from: the new view model, the one before it, and the environment.
public struct OCKSynchronizationContext<ViewModel: Sendable>: Sendable {
    /// The data the view shows now.
    public var viewModel: ViewModel
    /// The view model the view last showed; nil for the first update.
    public var oldViewModel: ViewModel?
    /// Whether the change may animate (an update rather than the first render).
    public var animated: Bool
    /// The reader the view is rendered for, how its controls post, and whether it may change anything.
    public var environment: OCKSynchronizationEnvironment

    /// A context for one update.
    ///
    /// - Parameters:
    ///   - viewModel: The data to show.
    ///   - oldViewModel: The view model the view showed before; nil (the default) for the first update.
    ///   - animated: Whether the change may animate; false by default.
    ///   - environment: The reader, the controls' actions and whether the view is read-only.
    public init(viewModel: ViewModel, oldViewModel: ViewModel? = nil, animated: Bool = false,
                environment: OCKSynchronizationEnvironment) {
        self.viewModel = viewModel
        self.oldViewModel = oldViewModel
        self.animated = animated
        self.environment = environment
    }
}

/// Where a view is shown: for whom (language and time zone), how its controls post, and whether it may change
/// anything (a future day is read-only).
///
/// For example, an environment for cards that show their state but post nothing (a clinician's view, a printout):
/// ```swift
/// let render = OCKRenderContext(localization: OCKLocalization(language: .english, timeZone: calendar.timeZone))
/// let environment = OCKSynchronizationEnvironment(render: render, actions: nil)
/// ```
public struct OCKSynchronizationEnvironment: Sendable {
    /// The reader's language, locale and time zone, in which views write their text, times and numbers.
    public var render: OCKRenderContext
    /// Builds the forms of controls; nil shows every control disabled.
    public var actions: (any OCKEventActions)?
    /// Whether the view may change nothing: when true, ``writableActions`` is nil and every control shows disabled,
    /// whatever ``actions`` holds.
    public var isReadOnly: Bool

    /// An environment for rendering views.
    ///
    /// - Parameters:
    ///   - render: The reader's language, locale and time zone.
    ///   - actions: Builds the forms of controls; nil shows every control disabled.
    ///   - isReadOnly: Whether the view may change nothing (false by default).
    public init(render: OCKRenderContext, actions: (any OCKEventActions)?, isReadOnly: Bool = false) {
        self.render = render
        self.actions = actions
        self.isReadOnly = isReadOnly
    }

    /// The actions, unless the view is read-only.
    public var writableActions: (any OCKEventActions)? { isReadOnly ? nil : actions }
}

/// How the controls of a task card post: the server supplies URLs and hidden fields (the event, a CSRF token).
///
/// The synchronizers ask for a form per control and per event; the routes the forms post to make the change, usually
/// with the store's event actions (`setEventCompletion(_:taskUUID:occurrence:now:userInfo:)`,
/// `appendOutcomeValue(_:taskUUID:occurrence:)`, `deleteOutcomeValue(at:taskUUID:occurrence:)`,
/// `recordOutcomeValue(_:taskUUID:occurrence:userInfo:)`). The survey members have defaults that offer no survey.
///
/// For example:
/// ```swift
/// struct CareActions: OCKEventActions {
///     func form(_ path: String, _ event: OCKAnyEvent, _ extra: [String: String] = [:]) -> OCKFormAction {
///         let fields = ["task": event.task.uuid.uuidString, "occurrence": String(event.scheduleEvent.occurrence)]
///         return OCKFormAction(url: SafeURL(path)!, fields: fields.merging(extra) { $1 })
///     }
///     func toggle(_ event: OCKAnyEvent) -> OCKFormAction { form("/events/toggle", event) }
///     func log(_ event: OCKAnyEvent) -> OCKFormAction { form("/events/log", event) }
///     func deleteLoggedValue(_ event: OCKAnyEvent, at index: Int) -> OCKFormAction {
///         form("/events/log/delete", event, ["index": String(index)])
///     }
///     func record(_ event: OCKAnyEvent) -> OCKFormAction { form("/events/record", event) }
/// }
/// ```
public protocol OCKEventActions: Sendable {
    /// Marks the event done (an outcome with the value `true`) or not done (deleting its outcome).
    func toggle(_ event: OCKAnyEvent) -> OCKFormAction
    /// Appends a value logged now to the event's outcome.
    func log(_ event: OCKAnyEvent) -> OCKFormAction
    /// Deletes the logged value at `index` of the event's outcome.
    func deleteLoggedValue(_ event: OCKAnyEvent, at index: Int) -> OCKFormAction
    /// Records a number for the event (labeled-value and numeric-progress cards), replacing the one recorded.
    func record(_ event: OCKAnyEvent) -> OCKFormAction
    /// Opens the event's survey (survey cards); nil when the app runs no survey for it.
    func startSurvey(_ event: OCKAnyEvent) -> OCKFormAction?
    /// The page that asks before deleting the event's survey answers; nil when they cannot be deleted here.
    func deleteSurveyAnswers(_ event: OCKAnyEvent) -> SafeURL?
    /// The event's whole survey as one form, which a device keeps to answer it offline; nil when its survey is
    /// answered step by step only (a consent).
    func surveyOnOnePage(_ event: OCKAnyEvent) -> SafeURL?
}

extension OCKEventActions {
    /// By default nil: the app runs no surveys, so a survey card offers no "Start survey".
    public func startSurvey(_ event: OCKAnyEvent) -> OCKFormAction? { nil }
    /// By default nil: surveys are answered step by step only.
    public func surveyOnOnePage(_ event: OCKAnyEvent) -> SafeURL? { nil }
    /// By default nil: a completed survey's card offers no link to delete its answers.
    public func deleteSurveyAnswers(_ event: OCKAnyEvent) -> SafeURL? { nil }
}

/// A stable element id for a task's card, made from the task's id: "task-knee-exercises". Characters other than
/// ASCII letters, digits and `-` become `_` and their hex code (`_` itself too), so different ids never share a card
/// id: "blood pressure" gives "task-blood_20_pressure".
public func cardIdentifier(forTaskID id: String) -> String {
    "task-" + id.unicodeScalars.map { scalar in
        scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-")
            ? String(scalar) : "_" + String(scalar.value, radix: 16) + "_"
    }.joined()
}
