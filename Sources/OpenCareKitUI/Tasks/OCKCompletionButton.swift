/// Where a control posts: a URL on this site and hidden form fields (the event to change, a CSRF token).
public struct OCKFormAction: Sendable, Hashable {
    public var url: SafeURL
    public var fields: [String: String]

    public init(url: SafeURL, fields: [String: String] = [:]) {
        self.url = url
        self.fields = fields
    }

    /// A POST form holding `content`, with the hidden fields first.
    func form(_ content: HTML, className: String) -> HTML {
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
    /// The visible text (CareKit: "Mark as Completed" / "Completed").
    public var title: String
    /// Where pressing it posts; nil renders a disabled button (a future event, a read-only page).
    public var action: OCKFormAction?
    /// The button's look: a full-width button, a checklist row, or a grid cell.
    public var style: Style

    /// How a completion button looks.
    public enum Style: String, Sendable, Hashable {
        case standard, row, cell
    }

    public init(isComplete: Bool, subject: String, title: String? = nil, action: OCKFormAction?, style: Style = .standard) {
        self.isComplete = isComplete
        self.subject = subject
        self.title = title ?? (isComplete ? "Completed" : "Mark as Completed")
        self.action = action
        self.style = style
    }

    /// The accessible name: what pressing the button does.
    public var accessibleName: String {
        isComplete ? "Mark \(subject) as not done" : "Mark \(subject) as done"
    }

    public func render() -> HTML {
        var attributes = [
            "type": "submit", "class": "ock-completion-button ock-\(style.rawValue)", "aria-pressed": isComplete ? "true" : "false",
            "aria-label": accessibleName,
        ]
        if action == nil { attributes["disabled"] = "disabled" }
        let button = HTML.element("button", attributes, [
            .element("span", ["class": "ock-checkmark", "aria-hidden": "true"], [.text(isComplete ? "✓" : "")]),
            .element("span", ["class": "ock-button-title"], [.text(title)]),
        ])
        return action?.form(button, className: "ock-completion-form") ?? button
    }
}
