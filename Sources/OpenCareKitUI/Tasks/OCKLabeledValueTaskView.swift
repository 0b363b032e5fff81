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
    public var identifier: String?

    public init(title: String, detail: String? = nil, state: State, identifier: String? = nil) {
        header = OCKHeaderView(title: title, detail: detail)
        self.state = state
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
        return OCKCardView(header: header, contentStack: [content], identifier: identifier).render(in: context)
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
    public var identifier: String?

    public init(title: String, detail: String? = nil, progress: Double, progressText: String, goal: Double,
                goalText: String, instructions: String? = nil, identifier: String? = nil) {
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
        return OCKCardView(header: header, contentStack: stack, identifier: identifier).render(in: context)
            .withClass("ock-numeric-progress-task")
    }
}
