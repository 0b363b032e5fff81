/// Where a control posts: a URL on this site and hidden form fields (the event to change, a CSRF token).
///
/// Controls with an action are real `<form method="post">`s, so they work without JavaScript. Read the posted
/// fields back with ``OCKFormBody/fields(_:)``.
///
/// For example:
/// ```swift
/// let toggle = OCKFormAction(url: SafeURL("/events/toggle")!, fields: ["task": "ibuprofen", "occurrence": "2"])
/// let form = toggle.form(.element("button", ["type": "submit"], [.text("Done")]), className: "done-form")
/// // <form action="/events/toggle" class="done-form" method="post"><input name="occurrence" type="hidden" …
/// ```
public struct OCKFormAction: Sendable, Hashable {
    /// Where the form posts (its `action`).
    public var url: SafeURL
    /// Hidden fields posted with the form, written sorted by name before its content.
    public var fields: [String: String]

    /// Creates an action.
    ///
    /// - Parameters:
    ///   - url: Where the form posts.
    ///   - fields: Hidden fields posted with it; none by default.
    public init(url: SafeURL, fields: [String: String] = [:]) {
        self.url = url
        self.fields = fields
    }

    /// A POST form holding `content`, with the hidden fields first.
    ///
    /// - Parameters:
    ///   - content: The form's visible content, usually a submit button.
    ///   - className: The form's `class`.
    /// - Returns: A `<form method="post">` element.
    public func form(_ content: HTML, className: String) -> HTML {
        .element("form", ["method": "post", "action": url.description, "class": className],
                 fields.sorted { $0.key < $1.key }.map {
                     .element("input", ["type": "hidden", "name": $0.key, "value": $0.value], [])
                 } + [content])
    }
}

/// A toggle button that marks an event done or not done. It is a real `<button>` in a form, so it works without
/// JavaScript; `aria-pressed` says its state, and its accessible name says what pressing it does.
///
/// The task views make their buttons with it; use it directly in a card of your own.
///
/// For example:
/// ```swift
/// let button = OCKCompletionButton(isComplete: false, subject: "Ibuprofen 8:00 AM",
///                                  action: OCKFormAction(url: SafeURL("/events/toggle")!))
/// // A button named "Mark Ibuprofen 8:00 AM as done" that shows "Mark as Completed".
/// let html = button.render().rendered
/// ```
public struct OCKCompletionButton: OCKComponent, Hashable {
    /// Whether the event is done: the button is pressed (`aria-pressed="true"`) and shows a checkmark.
    public var isComplete: Bool
    /// What the button acts on, such as "Ibuprofen 8:00 AM": the accessible name is "Mark Ibuprofen 8:00 AM as done".
    public var subject: String
    /// The visible text; nil shows CareKit's "Mark as Completed" / "Completed" in the reader's language.
    public var title: String?
    /// Where pressing it posts; nil renders a disabled button (a future event, a read-only page).
    public var action: OCKFormAction?
    /// The button's look: a full-width button, a checklist row, a grid cell, or the simple task's circle.
    public var style: Style
    /// An image shown in place of the checkmark once the event is done (CareKit's custom completion image).
    public var completedImage: SafeURL?

    /// How a completion button looks.
    public enum Style: String, Sendable, Hashable {
        /// `standard`: a full-width button, as in the instructions task; `row`: a checklist row; `cell`: a compact
        /// cell of a grid. All three show the checkmark and the button's title.
        case standard, row, cell
        /// A round button showing only the checkmark (or the completed image); its name is its accessible name.
        case circle
    }

    /// Creates a completion button.
    ///
    /// - Parameters:
    ///   - isComplete: Whether the event is done.
    ///   - subject: What the button acts on, such as "Ibuprofen 8:00 AM", for its accessible name.
    ///   - title: The visible text, or nil for "Mark as Completed" and "Completed" in the reader's language.
    ///   - action: Where pressing it posts, or nil for a disabled button.
    ///   - style: The button's look.
    ///   - completedImage: An image to show once the event is done, in place of the checkmark, or nil.
    public init(isComplete: Bool, subject: String, title: String? = nil, action: OCKFormAction?, style: Style = .standard,
                completedImage: SafeURL? = nil) {
        self.isComplete = isComplete
        self.subject = subject
        self.title = title
        self.action = action
        self.style = style
        self.completedImage = completedImage
    }

    /// The accessible name, the same in both states as a toggle button's must be ("Mark Ibuprofen 08:00 as done");
    /// `aria-pressed` says whether it is done.
    ///
    /// - Parameter context: The reader, whose language the name is in.
    /// - Returns: The name, such as "Mark Ibuprofen 8:00 AM as done" or "Ibuprofen 8:00 AM 완료로 표시".
    public func accessibleName(in context: OCKRenderContext) -> String {
        context.string(.markSubjectDone, subject)
    }

    public func render(in context: OCKRenderContext) -> HTML {
        var attributes = [
            "type": "submit", "class": "ock-completion-button ock-\(style.rawValue)", "aria-pressed": isComplete ? "true" : "false",
            "aria-label": accessibleName(in: context),
        ]
        if action == nil { attributes["disabled"] = "disabled" }
        let mark: HTML = if isComplete, let completedImage {
            .element("img", ["class": "ock-checkmark ock-completed-image", "src": completedImage.description, "alt": ""], [])
        } else {
            .element("span", ["class": "ock-checkmark", "aria-hidden": "true"], [.text(isComplete ? "✓" : "")])
        }
        var content = [mark]
        if style != .circle {
            let text = title ?? context.string(isComplete ? .completed : .markAsCompleted)
            content.append(.element("span", ["class": "ock-button-title"], [.text(text)]))
        }
        let button = HTML.element("button", attributes, content)
        return action?.form(button, className: "ock-completion-form") ?? button
    }
}
