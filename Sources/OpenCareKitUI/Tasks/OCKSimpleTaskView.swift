/// CareKit's simple task: a header with the task's title and schedule, and one completion button.
public struct OCKSimpleTaskView: OCKComponent {
    public var header: OCKHeaderView
    public var button: OCKCompletionButton
    public var identifier: String?

    /// - Parameters:
    ///   - title: The task's title, such as "Ibuprofen".
    ///   - detail: The schedule or dose, such as "08:00, 400 mg".
    ///   - eventTime: The event's time text, used in the button's accessible name ("Mark Ibuprofen 08:00 as done").
    public init(title: String, detail: String? = nil, eventTime: String? = nil, isComplete: Bool,
                action: OCKFormAction?, identifier: String? = nil) {
        header = OCKHeaderView(title: title, detail: detail)
        let subject = [title, eventTime].compactMap { $0 }.joined(separator: " ")
        button = OCKCompletionButton(isComplete: isComplete, subject: subject, action: action)
        self.identifier = identifier
    }

    public func render() -> HTML {
        OCKCardView(header: header, contentStack: [button], identifier: identifier).render()
            .withClass("ock-simple-task")
    }
}

/// CareKit's instructions task: the simple task with instructions between the header and the button.
public struct OCKInstructionsTaskView: OCKComponent {
    public var header: OCKHeaderView
    public var instructions: String?
    public var button: OCKCompletionButton
    public var identifier: String?

    public init(title: String, detail: String? = nil, instructions: String?, eventTime: String? = nil,
                isComplete: Bool, action: OCKFormAction?, identifier: String? = nil) {
        header = OCKHeaderView(title: title, detail: detail, showsSeparator: true)
        self.instructions = instructions
        let subject = [title, eventTime].compactMap { $0 }.joined(separator: " ")
        button = OCKCompletionButton(isComplete: isComplete, subject: subject, action: action)
        self.identifier = identifier
    }

    public func render() -> HTML {
        var stack: [any OCKComponent] = []
        stack += HTML.instructions(instructions)
        stack.append(button)
        return OCKCardView(header: header, contentStack: stack, identifier: identifier).render()
            .withClass("ock-instructions-task")
    }
}

extension HTML {
    /// A task's instructions paragraph, or nothing.
    static func instructions(_ text: String?) -> [any OCKComponent] {
        text.map { [HTML.element("p", ["class": "ock-instructions"], [.text($0)])] } ?? []
    }

    /// The same element with `className` added to its classes.
    func withClass(_ className: String) -> HTML {
        guard case let .element(name, attributes, children) = self else { return self }
        var updated = attributes
        updated["class"] = [attributes["class"], className].compactMap { $0 }.joined(separator: " ")
        return .element(name, updated, children)
    }
}
