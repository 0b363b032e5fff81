/// CareKit's simple task: a header with the task's title and schedule beside a round completion button, which
/// fills with a checkmark (or shows a custom image) once the event is done.
///
/// It renders an `<article class="ock-card ock-simple-task">` with the header beside an
/// ``OCKCompletionButton/Style/circle`` button named "Mark Ibuprofen 8:00 AM as done".
///
/// For example:
/// ```swift
/// let toggle = OCKFormAction(url: SafeURL("/events/toggle")!, fields: ["task": "ibuprofen", "occurrence": "0"])
/// let eight = Calendar.current.date(bySettingHour: 8, minute: 0, second: 0, of: Date())!
/// let card = OCKSimpleTaskView(title: "Ibuprofen", detail: "8:00 AM, 400 mg", eventTime: .time(eight),
///                              isComplete: false, action: toggle)
/// let html = card.render().rendered
/// ```
public struct OCKSimpleTaskView: OCKComponent {
    /// The card's header: the title and detail given to the initializer.
    public var header: OCKHeaderView
    /// The event's time, used in the button's accessible name ("Mark Ibuprofen 08:00 as done"); nil names the button
    /// by the title alone.
    public var eventTime: OCKTimeText?
    /// Whether the event is done: the button is pressed and shows its checkmark or image.
    public var isComplete: Bool
    /// Where the button posts; nil shows it disabled (a future day, a read-only page).
    public var action: OCKFormAction?
    /// An image shown in the button once the event is done, in place of the checkmark.
    public var completedImage: SafeURL?
    /// The `id` of the card's `<article>`, or nil.
    public var identifier: String?

    /// Creates a simple task card.
    ///
    /// - Parameters:
    ///   - title: The task's title, such as "Ibuprofen".
    ///   - detail: The schedule or dose, such as "08:00, 400 mg".
    ///   - eventTime: The event's time, for the button's accessible name, or nil.
    ///   - isComplete: Whether the event is done.
    ///   - action: Where the button posts, or nil for a disabled button.
    ///   - completedImage: An image shown in the button once the event is done, or nil for the checkmark.
    ///   - identifier: The `id` of the card's `<article>`, or nil.
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
///
/// It renders a card (`ock-instructions-task`) with a separated header, the instructions, and a full-width
/// ``OCKCompletionButton`` reading "Mark as Completed" or "Completed".
///
/// For example:
/// ```swift
/// let card = OCKInstructionsTaskView(
///     title: "Knee Exercises", detail: "Every other day",
///     instructions: "Three sets of ten straight-leg raises, slowly, on each leg.",
///     eventTime: .allDay, isComplete: false,
///     action: OCKFormAction(url: SafeURL("/events/toggle")!, fields: ["task": "knee"]))
/// ```
public struct OCKInstructionsTaskView: OCKComponent {
    /// The card's header: the title and detail given to the initializer, with a separator below.
    public var header: OCKHeaderView
    /// The instructions, between the header and the button; nil shows none.
    public var instructions: String?
    /// The event's time, used in the button's accessible name ("Mark Knee Exercises All day as done"); nil leaves it
    /// out.
    public var eventTime: OCKTimeText?
    /// Whether the event is done: the button is pressed and reads "Completed".
    public var isComplete: Bool
    /// Where the button posts; nil shows it disabled.
    public var action: OCKFormAction?
    /// The `id` of the card's `<article>`, or nil.
    public var identifier: String?

    /// Creates an instructions task card.
    ///
    /// - Parameters:
    ///   - title: The task's title, such as "Knee Exercises".
    ///   - detail: The schedule, or nil.
    ///   - instructions: The instructions, or nil.
    ///   - eventTime: The event's time, for the button's accessible name, or nil.
    ///   - isComplete: Whether the event is done.
    ///   - action: Where the button posts, or nil for a disabled button.
    ///   - identifier: The `id` of the card's `<article>`, or nil.
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
