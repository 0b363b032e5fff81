import Foundation

/// A piece of a page that renders itself as HTML. Every OpenCareKitUI view conforms — task cards, charts, contacts,
/// the week calendar, links — and so does ``HTML`` itself, so a card's content stack can hold any mix of them.
///
/// Render a component with ``render(in:)`` and a context that names the reader's language, locale and time zone (or
/// with ``render()`` for English in the process's time zone), then take the ``HTML/rendered`` string. A custom
/// component implements ``render(in:)``, taking its words and formats from the context's localization.
///
/// For example:
/// ```swift
/// struct StreakBadge: OCKComponent {
///     var days: Int
///
///     func render(in context: OCKRenderContext) -> HTML {
///         .element("p", ["class": "streak-days"], [.text(context.localization.number(Double(days)))])
///     }
/// }
///
/// let card = OCKCardView(header: OCKHeaderView(title: "Streak"), contentStack: [StreakBadge(days: 12)])
/// let korean = OCKRenderContext(localization: OCKLocalization(language: .korean))
/// let html: String = card.render(in: korean).rendered
/// ```
public protocol OCKComponent: Sendable {
    /// The component's HTML for the reader that `context` describes: its visible text and accessible names in the
    /// context's language, its dates, times and numbers formatted for the context's locale and time zone.
    ///
    /// - Parameter context: The reader's language, locale and time zone.
    /// - Returns: The markup; take ``HTML/rendered`` for the text.
    func render(in context: OCKRenderContext) -> HTML
}

extension OCKComponent {
    /// The component's HTML for ``OCKRenderContext/standard``: English, in the process's time zone. Use
    /// ``render(in:)`` to render for a particular reader.
    public func render() -> HTML { render(in: .standard) }
}

extension HTML: OCKComponent {
    /// Returns the markup unchanged, whatever the context, so plain ``HTML`` can sit in a card's content stack beside
    /// other components.
    public func render(in context: OCKRenderContext) -> HTML { self }
}

/// The text that names an event's moment on a task card: a time formatted for the reader, "All day", or text of your
/// own, such as "Morning". A string literal makes ``text(_:)``.
///
/// It is a checklist row's or grid cell's label, and it completes task buttons' accessible names ("Mark Ibuprofen
/// 8:00 AM as done").
///
/// For example:
/// ```swift
/// let korean = OCKRenderContext(localization: OCKLocalization(language: .korean))
/// let allDay = OCKTimeText.allDay.text(in: korean) // "종일"
/// let evening: OCKTimeText = "Evening"             // .text("Evening")
/// ```
public enum OCKTimeText: Sendable, Hashable, ExpressibleByStringLiteral {
    /// A moment, shown as a time of day in the reader's locale and time zone ("8:00 AM", "오전 8:00").
    case time(Date)
    /// An event without a time of day: "All day" in the reader's language.
    case allDay
    /// Text shown as it is, in whatever language it was written.
    case text(String)

    public init(stringLiteral value: String) { self = .text(value) }

    /// The text for the reader that `context` describes.
    public func text(in context: OCKRenderContext) -> String {
        switch self {
        case let .time(date): context.localization.time(date)
        case .allDay: context.string(.allDay)
        case let .text(text): text
        }
    }
}

/// The header of a card, as in CareKitUI: a title, an optional detail line, an optional icon, a disclosure
/// indicator and a separator below.
///
/// It renders a `<header class="ock-header">` whose title is an `<h2>` (or the ``headingLevel`` you set), so each
/// card's title shows in the page's outline and in screen readers' lists of headings. The icon and the "›"
/// disclosure indicator are hidden from assistive technology.
///
/// For example:
/// ```swift
/// let header = OCKHeaderView(title: "Doxylamine", detail: "3 times a day", showsSeparator: true)
/// let card = OCKCardView(header: header, contentStack: [HTML.text("Take with food to ease nausea.")])
/// ```
public struct OCKHeaderView: OCKComponent, Hashable {
    /// The card's title: its heading, read first by screen readers.
    public var title: String
    /// A line under the title, such as the schedule ("3 times a day"); nil shows none.
    public var detail: String?
    /// A name for a decorative icon before the title; nil shows none. The stylesheet draws every name as the same
    /// small tinted dot; the name is in the element's `data-icon` attribute for styles of your own.
    public var iconName: String?
    /// Whether a line separates the header from the card's content.
    public var showsSeparator: Bool
    /// Whether a "›" after the title shows that the card opens details. It does not make the header a link.
    public var showsDisclosureIndicator: Bool
    /// The heading level of the title (2 by default, kept within 1 through 6), so pages keep a sensible outline.
    public var headingLevel: Int
    /// An `id` for the title heading, so content can name itself by it (`aria-labelledby`); nil gives it none. Not in
    /// the initializer: set it afterwards.
    public var titleID: String?

    /// Creates a header.
    ///
    /// - Parameters:
    ///   - title: The heading text.
    ///   - detail: A line under the title, or nil.
    ///   - iconName: A name for a decorative icon before the title, or nil.
    ///   - showsSeparator: Whether a line separates the header from the card's content.
    ///   - showsDisclosureIndicator: Whether a "›" shows that the card opens details.
    ///   - headingLevel: The title's heading level, from 1 to 6.
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

/// A card, with CareKitUI's anatomy: an ``OCKHeaderView`` over a vertical stack of content components.
///
/// It renders an `<article class="ock-card">` holding the header and a `<div class="ock-content-stack">`. The task,
/// chart and link views build their cards with it; use it for cards of your own.
///
/// For example:
/// ```swift
/// let card = OCKCardView(
///     header: OCKHeaderView(title: "This week"),
///     contentStack: [OCKCompletionRingView(fraction: 0.6), HTML.text("3 of 5 tasks done")],
///     identifier: "week-summary")
/// let html = card.render().rendered
/// ```
public struct OCKCardView: OCKComponent {
    /// The card's header: its title, detail and decorations.
    public var header: OCKHeaderView
    /// The content under the header, top to bottom, each rendered for the card's reader.
    public var contentStack: [any OCKComponent]
    /// The `id` of the card's `<article>`, so a link or a live update can find it; nil gives it none.
    public var identifier: String?

    /// Creates a card.
    ///
    /// - Parameters:
    ///   - header: The header over the content.
    ///   - contentStack: The components under the header, top to bottom.
    ///   - identifier: The `id` of the card's `<article>`, or nil.
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
