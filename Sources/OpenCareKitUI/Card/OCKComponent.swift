import Foundation

/// A piece of a card: renders itself as HTML. Task views, charts, contacts and custom content all conform, so a card
/// can stack any of them.
///
/// A custom component implements `render(in:)`, taking its strings and formats from the context's localization.
public protocol OCKComponent: Sendable {
    /// The component's HTML for a reader described by `context`.
    func render(in context: OCKRenderContext) -> HTML
}

extension OCKComponent {
    /// The component's HTML in English, in the process's time zone.
    public func render() -> HTML { render(in: .standard) }
}

extension HTML: OCKComponent {
    public func render(in context: OCKRenderContext) -> HTML { self }
}

/// Text that names a moment of a task: a time formatted for the reader, "All day", or text given as is.
public enum OCKTimeText: Sendable, Hashable, ExpressibleByStringLiteral {
    case time(Date)
    case allDay
    case text(String)

    public init(stringLiteral value: String) { self = .text(value) }

    /// The text for the reader.
    public func text(in context: OCKRenderContext) -> String {
        switch self {
        case let .time(date): context.localization.time(date)
        case .allDay: context.string(.allDay)
        case let .text(text): text
        }
    }
}

/// The header of a card: title, optional detail, icon, disclosure indicator and separator.
public struct OCKHeaderView: OCKComponent, Hashable {
    public var title: String
    public var detail: String?
    /// An icon name, rendered as a decorative symbol.
    public var iconName: String?
    public var showsSeparator: Bool
    /// Shows a chevron meaning "opens details".
    public var showsDisclosureIndicator: Bool
    /// The heading level for the title (2 by default), so pages keep a sensible outline.
    public var headingLevel: Int
    /// An id for the title heading, for content that names itself by it.
    public var titleID: String?

    public init(title: String, detail: String? = nil, iconName: String? = nil, showsSeparator: Bool = false,
                showsDisclosureIndicator: Bool = false, headingLevel: Int = 2) {
        self.title = title
        self.detail = detail
        self.iconName = iconName
        self.showsSeparator = showsSeparator
        self.showsDisclosureIndicator = showsDisclosureIndicator
        self.headingLevel = headingLevel
    }

    public func render(in context: OCKRenderContext) -> HTML {
        var titleAttributes = ["class": "ock-header-title"]
        if let titleID { titleAttributes["id"] = titleID }
        var text: [HTML] = [.element("h\(min(max(headingLevel, 1), 6))", titleAttributes, [.text(title)])]
        if let detail { text.append(.element("p", ["class": "ock-header-detail"], [.text(detail)])) }
        var parts: [HTML] = []
        if let iconName {
            parts.append(.element("span", ["class": "ock-icon", "data-icon": iconName, "aria-hidden": "true"], []))
        }
        parts.append(.element("div", ["class": "ock-header-text"], text))
        if showsDisclosureIndicator {
            parts.append(.element("span", ["class": "ock-disclosure", "aria-hidden": "true"], [.text("›")]))
        }
        var classes = "ock-header"
        if showsSeparator { classes += " ock-header-separated" }
        return .element("header", ["class": classes], parts)
    }
}

/// CareKit's card anatomy: a header over a vertical stack of content components.
public struct OCKCardView: OCKComponent {
    public var header: OCKHeaderView
    /// The content, top to bottom.
    public var contentStack: [any OCKComponent]
    /// An id for the card element (for live updates), if any.
    public var identifier: String?

    public init(header: OCKHeaderView, contentStack: [any OCKComponent] = [], identifier: String? = nil) {
        self.header = header
        self.contentStack = contentStack
        self.identifier = identifier
    }

    public func render(in context: OCKRenderContext) -> HTML {
        var attributes = ["class": "ock-card"]
        if let identifier { attributes["id"] = identifier }
        return .element("article", attributes, [
            header.render(in: context),
            .element("div", ["class": "ock-content-stack"], contentStack.map { $0.render(in: context) }),
        ])
    }
}
