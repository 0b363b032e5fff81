/// CareKit's simple task: a header with the task's title and schedule beside a round completion button, which
/// fills with a checkmark (or shows a custom image) once the event is done.
public struct OCKSimpleTaskView: OCKComponent {
    public var header: OCKHeaderView
    /// The event's time, used in the button's accessible name ("Mark Ibuprofen 08:00 as done").
    public var eventTime: OCKTimeText?
    public var isComplete: Bool
    public var action: OCKFormAction?
    /// An image shown in the button once the event is done, in place of the checkmark.
    public var completedImage: SafeURL?
    public var identifier: String?

    /// - Parameters:
    ///   - title: The task's title, such as "Ibuprofen".
    ///   - detail: The schedule or dose, such as "08:00, 400 mg".
    public init(title: String, detail: String? = nil, eventTime: OCKTimeText? = nil, isComplete: Bool,
                action: OCKFormAction?, completedImage: SafeURL? = nil, identifier: String? = nil) {
        header = OCKHeaderView(title: title, detail: detail)
        self.eventTime = eventTime
        self.isComplete = isComplete
        self.action = action
        self.completedImage = completedImage
        self.identifier = identifier
    }

    public func render(in context: OCKRenderContext) -> HTML {
        let button = OCKCompletionButton(isComplete: isComplete, subject: header.subject(eventTime, in: context),
                                         action: action, style: .circle, completedImage: completedImage)
        var attributes = ["class": "ock-card ock-simple-task"]
        if let identifier { attributes["id"] = identifier }
        return .element("article", attributes, [
            .element("div", ["class": "ock-simple-row"], [header.render(in: context), button.render(in: context)]),
        ])
    }
}

/// CareKit's instructions task: the simple task with instructions between the header and the button.
public struct OCKInstructionsTaskView: OCKComponent {
    public var header: OCKHeaderView
    public var instructions: String?
    public var eventTime: OCKTimeText?
    public var isComplete: Bool
    public var action: OCKFormAction?
    public var identifier: String?

    public init(title: String, detail: String? = nil, instructions: String?, eventTime: OCKTimeText? = nil,
                isComplete: Bool, action: OCKFormAction?, identifier: String? = nil) {
        header = OCKHeaderView(title: title, detail: detail, showsSeparator: true)
        self.instructions = instructions
        self.eventTime = eventTime
        self.isComplete = isComplete
        self.action = action
        self.identifier = identifier
    }

    public func render(in context: OCKRenderContext) -> HTML {
        var stack: [any OCKComponent] = []
        stack += HTML.instructions(instructions)
        stack.append(OCKCompletionButton(isComplete: isComplete, subject: header.subject(eventTime, in: context),
                                         action: action))
        return OCKCardView(header: header, contentStack: stack, identifier: identifier).render(in: context)
            .withClass("ock-instructions-task")
    }
}

extension OCKHeaderView {
    /// What a control of this card acts on: the title and, if any, the event's time ("Ibuprofen 08:00").
    func subject(_ time: OCKTimeText?, in context: OCKRenderContext) -> String {
        [title, time?.text(in: context)].compactMap { $0 }.joined(separator: " ")
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
