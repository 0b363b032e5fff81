/// A form that records a number: a labelled number field with its unit and range, and a save button. Without
/// JavaScript it posts like any form; the browser checks the range before it does.
///
/// The number posts as the field `value`, beside ``action``'s hidden fields. The field is required and takes any
/// decimal. The labeled-value and numeric-progress task views show it under their figures.
///
/// For example:
/// ```swift
/// let entry = OCKValueEntry(action: OCKFormAction(url: SafeURL("/events/record")!, fields: ["task": "weight"]),
///                           label: "Weight", unit: "kg", minimum: 20, maximum: 300)
/// // A field labelled "Weight (kg)" and a "Save" button.
/// ```
public struct OCKValueEntry: OCKComponent, Hashable {
    /// Where the form posts, with its hidden fields.
    public var action: OCKFormAction
    /// What is entered, such as "Weight".
    public var label: String
    /// The unit, shown after the label in parentheses ("Weight (kg)"); nil shows the label alone.
    public var unit: String?
    /// The least value the field accepts; nil, or a value that is not finite, sets no bound.
    public var minimum: Double?
    /// The greatest value the field accepts; nil, or a value that is not finite, sets no bound.
    public var maximum: Double?
    /// The value already in the field, if any (a value that is not finite shows none).
    public var value: Double?

    /// Creates a value form.
    ///
    /// - Parameters:
    ///   - action: Where the form posts.
    ///   - label: What is entered, such as "Weight".
    ///   - unit: The unit, such as "kg", or nil.
    ///   - minimum: The least value accepted, or nil.
    ///   - maximum: The greatest value accepted, or nil.
    ///   - value: The value already in the field, or nil.
    public init(action: OCKFormAction, label: String, unit: String? = nil, minimum: Double? = nil, maximum: Double? = nil,
                value: Double? = nil) {
        self.action = action
        self.label = label
        self.unit = unit
        self.minimum = minimum
        self.maximum = maximum
        self.value = value
    }

    public func render(in context: OCKRenderContext) -> HTML {
        var input = ["type": "number", "name": "value", "inputmode": "decimal", "step": "any", "required": "required",
                     "class": "ock-value-input"]
        if let minimum, minimum.isFinite { input["min"] = "\(minimum)" }
        if let maximum, maximum.isFinite { input["max"] = "\(maximum)" }
        if let value, value.isFinite { input["value"] = "\(value)" }
        let text = unit.map { context.string(.entryLabel, label, $0) } ?? label
        return action.form(.group([
            .element("label", ["class": "ock-value-entry-label"], [
                .element("span", [:], [.text(text)]),
                .element("input", input, []),
            ]),
            .element("button", ["type": "submit", "class": "ock-log-button ock-value-save"], [.text(context.string(.save))]),
        ]), className: "ock-value-entry")
    }
}

/// CareKit's labeled-value task: once recorded, a value with its label (such as "72 kg"); before, only the label
/// (such as "No weight recorded").
///
/// It renders a card (`ock-labeled-value-task`) with the header, the value and its label in one paragraph, and the
/// optional ``entry`` form below.
///
/// For example:
/// ```swift
/// let context = OCKRenderContext()
/// let card = OCKLabeledValueTaskView(
///     title: "Weekly Weigh-in", detail: "Mondays",
///     state: .complete(value: context.localization.number(72.5), label: "kg"))
/// let html = card.render(in: context).rendered
/// ```
public struct OCKLabeledValueTaskView: OCKComponent {
    /// What the view shows.
    public enum State: Sendable, Hashable {
        /// A recorded value and its label or units.
        case complete(value: String, label: String)
        /// Nothing recorded yet: a label saying so.
        case incomplete(label: String)
    }

    /// The card's header: the title and detail given to the initializer.
    public var header: OCKHeaderView
    /// What the card shows: a recorded value, or a label saying nothing is recorded.
    public var state: State
    /// A form to record the value, if it may be recorded here.
    public var entry: OCKValueEntry?
    /// The `id` of the card's `<article>`, or nil.
    public var identifier: String?

    /// Creates a labeled-value task card.
    ///
    /// - Parameters:
    ///   - title: The task's title, such as "Weekly Weigh-in".
    ///   - detail: The schedule, or nil.
    ///   - state: The recorded value, or the label shown before one is.
    ///   - entry: A form to record the value, or nil.
    ///   - identifier: The `id` of the card's `<article>`, or nil.
    public init(title: String, detail: String? = nil, state: State, entry: OCKValueEntry? = nil, identifier: String? = nil) {
        header = OCKHeaderView(title: title, detail: detail)
        self.state = state
        self.entry = entry
        self.identifier = identifier
    }

    public func render(in context: OCKRenderContext) -> HTML {
        let content: HTML = switch state {
        case let .complete(value, label):
            .element("p", ["class": "ock-labeled-value ock-complete"], [
                .element("span", ["class": "ock-value"], [.text(value)]),
                .text(" "),
                .element("span", ["class": "ock-value-label"], [.text(label)]),
            ])
        case let .incomplete(label):
            .element("p", ["class": "ock-labeled-value ock-incomplete"], [
                .element("span", ["class": "ock-value-label"], [.text(label)]),
            ])
        }
        let stack: [any OCKComponent] = [content] + (entry.map { [$0] } ?? [])
        return OCKCardView(header: header, contentStack: stack, identifier: identifier).render(in: context)
            .withClass("ock-labeled-value-task")
    }
}

/// CareKit's numeric-progress task: progress toward a goal (such as 5 of 8 glasses of water), with instructions.
///
/// It renders a card (`ock-numeric-progress-task`) with the figures ("5 / 8 glasses") over a `<meter>` from 0 to
/// the goal named "5 of 8 glasses", the instructions, and the optional ``entry`` form. The figures and meter are
/// wrapped in an element that gets the class `ock-complete` once the goal is reached.
///
/// For example:
/// ```swift
/// let card = OCKNumericProgressTaskView(
///     title: "Hydration", detail: "All day", progress: 5, progressText: "5", goal: 8, goalText: "8 glasses",
///     instructions: "Drink a glass of water every two hours.")
/// ```
public struct OCKNumericProgressTaskView: OCKComponent {
    /// The card's header: the title and detail given to the initializer.
    public var header: OCKHeaderView
    /// The amount so far, which fills the meter (kept within 0 and the goal).
    public var progress: Double
    /// The amount so far as the reader sees it, such as "5"; format it with
    /// ``OCKLocalization/number(_:fractionDigits:)``.
    public var progressText: String
    /// The goal, the meter's maximum; a goal that is not above 0 gives a meter out of 1, never complete.
    public var goal: Double
    /// The goal as the reader sees it, with its unit, such as "8 glasses".
    public var goalText: String
    /// Text under the meter; nil shows none.
    public var instructions: String?
    /// A form to record progress, if it may be recorded here.
    public var entry: OCKValueEntry?
    /// The `id` of the card's `<article>`, or nil.
    public var identifier: String?

    /// Creates a numeric-progress task card.
    ///
    /// - Parameters:
    ///   - title: The task's title, such as "Hydration".
    ///   - detail: The schedule, or nil.
    ///   - progress: The amount so far.
    ///   - progressText: The amount so far as text, such as "5".
    ///   - goal: The goal.
    ///   - goalText: The goal as text, with its unit, such as "8 glasses".
    ///   - instructions: Text under the meter, or nil.
    ///   - entry: A form to record progress, or nil.
    ///   - identifier: The `id` of the card's `<article>`, or nil.
    public init(title: String, detail: String? = nil, progress: Double, progressText: String, goal: Double,
                goalText: String, instructions: String? = nil, entry: OCKValueEntry? = nil, identifier: String? = nil) {
        self.entry = entry
        header = OCKHeaderView(title: title, detail: detail)
        self.progress = progress
        self.progressText = progressText
        self.goal = goal
        self.goalText = goalText
        self.instructions = instructions
        self.identifier = identifier
    }

    /// Whether the goal is reached: the goal is above 0 and the progress is at least the goal.
    public var isComplete: Bool { goal > 0 && progress >= goal }

    public func render(in context: OCKRenderContext) -> HTML {
        let maximum = goal.isFinite && goal > 0 ? goal : 1
        let value = progress.isFinite ? min(max(progress, 0), maximum) : 0
        var stack: [any OCKComponent] = [
            HTML.element("div", ["class": isComplete ? "ock-numeric-progress ock-complete" : "ock-numeric-progress"], [
                .element("p", ["class": "ock-progress-figures"], [
                    .element("span", ["class": "ock-value"], [.text(progressText)]),
                    .text(" / "),
                    .element("span", ["class": "ock-goal"], [.text(goalText)]),
                ]),
                .element("meter", ["min": "0", "max": "\(maximum)", "value": "\(value)",
                                   "aria-label": context.string(.progressOfGoal, progressText, goalText)], []),
            ]),
        ]
        stack += HTML.instructions(instructions)
        if let entry { stack.append(entry) }
        return OCKCardView(header: header, contentStack: stack, identifier: identifier).render(in: context)
            .withClass("ock-numeric-progress-task")
    }
}
