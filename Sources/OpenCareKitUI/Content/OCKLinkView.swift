import Foundation

/// CareKit's link view: a card of labelled links to a website, a phone call, a message, an email or a place.
///
/// Each link is a row with an icon, its title and its kind ("Website", "Call" …). A link whose target is not safe
/// or not valid keeps its row, dimmed and not clickable, so nothing silently disappears.
///
/// For example:
/// ```swift
/// let links = OCKLinkView(title: "Learn more", links: [
///     .website("https://www.example.org/knee-recovery", title: "Knee recovery guide"),
///     .call(phoneNumber: "(503) 555-0142", title: "Clinic"),
///     .location("2101 NW Lovejoy St, Portland, OR", title: "Clinic location"),
/// ])
/// ```
public struct OCKLinkView: OCKComponent {
    /// One link: its target and the title its row shows.
    public enum Link: Sendable, Hashable {
        /// A web page: an absolute `https` or `http` URL (a path on this site is not accepted).
        case website(String, title: String)
        /// A phone call to a number, read as ``SafeURL/telephone(_:)`` reads it.
        case call(phoneNumber: String, title: String)
        /// A text message to a number, read as ``SafeURL/message(_:)`` reads it.
        case message(phoneNumber: String, title: String)
        /// An email to an address.
        case email(address: String, title: String)
        /// A place, by its address or name, opened on a map (an OpenStreetMap search).
        case location(String, title: String)

        var title: String {
            switch self {
            case let .website(_, title), let .call(_, title), let .message(_, title), let .email(_, title),
                 let .location(_, title): title
            }
        }

        /// The target, or nil if the address is not a safe link (`javascript:`, `data:`, not a number …).
        var url: SafeURL? {
            switch self {
            case let .website(url, _): SafeURL(url).flatMap { $0.description.hasPrefix("http") ? $0 : nil }
            case let .call(number, _): SafeURL.telephone(number)
            case let .message(number, _): SafeURL.message(number)
            case let .email(address, _): SafeURL.email(address)
            case let .location(place, _): OCKDetailedContactView.mapSearch(place)
            }
        }

        var icon: OCKIcon {
            switch self {
            case .website: .website
            case .call: .phone
            case .message: .message
            case .email: .email
            case .location: .location
            }
        }

        var kind: OCKStringKey {
            switch self {
            case .website: .website
            case .call: .call
            case .message: .message
            case .email: .email
            case .location: .location
            }
        }
    }

    /// The card's title.
    public var title: String
    /// A line under the title; nil shows none.
    public var detail: String?
    /// The links, one row each, in order.
    public var links: [Link]
    /// The `id` of the card's `<article>`, or nil.
    public var identifier: String?

    /// Creates a link card.
    ///
    /// - Parameters:
    ///   - title: The card's title.
    ///   - detail: A line under the title, or nil.
    ///   - links: The links, in order.
    ///   - identifier: The `id` of the card's `<article>`, or nil.
    public init(title: String, detail: String? = nil, links: [Link], identifier: String? = nil) {
        self.title = title
        self.detail = detail
        self.links = links
        self.identifier = identifier
    }

    public func render(in context: OCKRenderContext) -> HTML {
        let rows = links.map { link -> HTML in
            let content: [HTML] = [
                link.icon.html,
                .element("span", ["class": "ock-link-title"], [.text(link.title)]),
                .element("span", ["class": "ock-link-kind"], [.text(context.string(link.kind))]),
            ]
            // A link that is not safe keeps its text, so nothing silently disappears, but is not clickable.
            let row: HTML = if let url = link.url {
                .element("a", ["class": "ock-link-row", "href": url.description], content)
            } else {
                .element("span", ["class": "ock-link-row ock-link-unavailable"], content)
            }
            return .element("li", [:], [row])
        }
        return OCKCardView(header: OCKHeaderView(title: title, detail: detail),
                           contentStack: [HTML.element("ul", ["class": "ock-links"], rows)], identifier: identifier)
            .render(in: context).withClass("ock-link-view")
    }
}

/// CareKit's featured content: a large image with a label over it, optionally leading to an article.
///
/// For example:
/// ```swift
/// let featured = OCKFeaturedContentView(label: "Easing nausea after surgery",
///                                       image: SafeURL("/images/nausea.jpg"), url: SafeURL("/articles/nausea"))
/// ```
public struct OCKFeaturedContentView: OCKComponent {
    /// The text over the image's lower edge; the link's name when there is a ``url``.
    public var label: String
    /// The image, or nil for the label alone.
    public var image: SafeURL?
    /// Describes the image when it adds more than the label; nil treats it as decoration.
    public var imageDescription: String?
    /// Where the card leads, such as an article; nil makes it static.
    public var url: SafeURL?
    /// The `id` of the card's `<article>`, or nil.
    public var identifier: String?

    /// Creates a featured content card.
    ///
    /// - Parameters:
    ///   - label: The text over the image.
    ///   - image: The image, or nil.
    ///   - imageDescription: The image's alt text, or nil for a decorative image.
    ///   - url: Where the card leads, or nil.
    ///   - identifier: The `id` of the card's `<article>`, or nil.
    public init(label: String, image: SafeURL?, imageDescription: String? = nil, url: SafeURL? = nil,
                identifier: String? = nil) {
        self.label = label
        self.image = image
        self.imageDescription = imageDescription
        self.url = url
        self.identifier = identifier
    }

    public func render(in context: OCKRenderContext) -> HTML {
        var content: [HTML] = []
        if let image {
            content.append(.element("img", ["class": "ock-featured-image", "src": image.description,
                                            "alt": imageDescription ?? ""], []))
        }
        content.append(.element("span", ["class": "ock-featured-label"], [.text(label)]))
        let inner: HTML = if let url {
            .element("a", ["class": "ock-featured-link", "href": url.description], content)
        } else {
            .element("div", ["class": "ock-featured-link"], content)
        }
        var attributes = ["class": "ock-card ock-featured"]
        if let identifier { attributes["id"] = identifier }
        return .element("article", attributes, [inner])
    }
}
