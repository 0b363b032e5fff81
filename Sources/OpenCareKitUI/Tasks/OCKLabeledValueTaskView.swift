/// A form that records a number: a labelled number field with its unit and range, and a save button. Without
/// JavaScript it posts like any form; the browser checks the range before it does.
public struct OCKValueEntry: OCKComponent, Hashable {
    public var action: OCKFormAction
    /// What is entered, such as "Weight".
    public var label: String
    public var unit: String?
    public var minimum: Double?
    public var maximum: Double?
    /// The value shown in the field, if any.
    public var value: Double?

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
public struct OCKLabeledValueTaskView: OCKComponent {
    /// What the view shows.
    public enum State: Sendable, Hashable {
        /// A recorded value and its label or units.
        case complete(value: String, label: String)
        /// Nothing recorded yet: a label saying so.
        case incomplete(label: String)
    }

    public var header: OCKHeaderView
    public var state: State
    /// A form to record the value, if it may be recorded here.
    public var entry: OCKValueEntry?
    public var identifier: String?

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
public struct OCKNumericProgressTaskView: OCKComponent {
    public var header: OCKHeaderView
    /// The amount so far, as a number and as text ("5").
    public var progress: Double
    public var progressText: String
    /// The goal, as a number and as text ("8 glasses").
    public var goal: Double
    public var goalText: String
    public var instructions: String?
    /// A form to record progress, if it may be recorded here.
    public var entry: OCKValueEntry?
    public var identifier: String?

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

    /// Whether the goal is reached.
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
