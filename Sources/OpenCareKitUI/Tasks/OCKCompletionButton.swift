/// Where a control posts: a URL on this site and hidden form fields (the event to change, a CSRF token).
public struct OCKFormAction: Sendable, Hashable {
    public var url: SafeURL
    public var fields: [String: String]

    public init(url: SafeURL, fields: [String: String] = [:]) {
        self.url = url
        self.fields = fields
    }

    /// A POST form holding `content`, with the hidden fields first.
    public func form(_ content: HTML, className: String) -> HTML {
        .element("form", ["method": "post", "action": url.description, "class": className],
                 fields.sorted { $0.key < $1.key }.map {
                     .element("input", ["type": "hidden", "name": $0.key, "value": $0.value], [])
                 } + [content])
    }
}

/// A toggle button that marks an event done or not done. It is a real `<button>` in a form, so it works without
/// JavaScript; `aria-pressed` says its state, and its accessible name says what pressing it does.
public struct OCKCompletionButton: OCKComponent, Hashable {
    /// Whether the event is done.
    public var isComplete: Bool
    /// What the button acts on, such as "Ibuprofen 08:00": the accessible name is "Mark Ibuprofen 08:00 as done".
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
        case standard, row, cell
        /// A round button showing only the checkmark (or the completed image); its name is its accessible name.
        case circle
    }

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
