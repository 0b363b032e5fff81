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
    associatedtype View: OCKComponent
    associatedtype ViewModel: Sendable

    /// A view with no data yet.
    func makeView() -> View

    /// Fills `view` from the context's view model.
    func updateView(_ view: inout View, context: OCKSynchronizationContext<ViewModel>)
}

extension OCKViewSynchronizing {
    /// A view made and updated for `viewModel`.
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
    public var viewModel: ViewModel
    /// The view model the view last showed; nil for the first update.
    public var oldViewModel: ViewModel?
    /// Whether the change may animate (an update rather than the first render).
    public var animated: Bool
    public var environment: OCKSynchronizationEnvironment

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
public struct OCKSynchronizationEnvironment: Sendable {
    public var render: OCKRenderContext
    /// Builds the forms of controls; nil shows every control disabled.
    public var actions: (any OCKEventActions)?
    public var isReadOnly: Bool

    public init(render: OCKRenderContext, actions: (any OCKEventActions)?, isReadOnly: Bool = false) {
        self.render = render
        self.actions = actions
        self.isReadOnly = isReadOnly
    }

    /// The actions, unless the view is read-only.
    public var writableActions: (any OCKEventActions)? { isReadOnly ? nil : actions }
}

/// How the controls of a task card post: the server supplies URLs and hidden fields (the event, a CSRF token).
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
    public func startSurvey(_ event: OCKAnyEvent) -> OCKFormAction? { nil }
    public func surveyOnOnePage(_ event: OCKAnyEvent) -> SafeURL? { nil }
    public func deleteSurveyAnswers(_ event: OCKAnyEvent) -> SafeURL? { nil }
}

/// A stable element id for a task's card, made from the task's id: "task-knee-exercises". Characters other than
/// ASCII letters, digits and `-` become `_` and their hex code (`_` itself too), so different ids never share a card id.
public func cardIdentifier(forTaskID id: String) -> String {
    "task-" + id.unicodeScalars.map { scalar in
        scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-")
            ? String(scalar) : "_" + String(scalar.value, radix: 16) + "_"
    }.joined()
}
