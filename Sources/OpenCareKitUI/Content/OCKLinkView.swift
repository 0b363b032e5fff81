import Foundation

/// CareKit's link view: a card of labelled links to a website, a phone call, a message, an email or a place.
public struct OCKLinkView: OCKComponent {
    /// One link.
    public enum Link: Sendable, Hashable {
        case website(String, title: String)
        case call(phoneNumber: String, title: String)
        case message(phoneNumber: String, title: String)
        case email(address: String, title: String)
        /// A place, by its address or name, opened on a map.
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

    public var title: String
    public var detail: String?
    public var links: [Link]
    public var identifier: String?

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
public struct OCKFeaturedContentView: OCKComponent {
    public var label: String
    public var image: SafeURL?
    /// Describes the image when it adds more than the label; nil treats it as decoration.
    public var imageDescription: String?
    public var url: SafeURL?
    public var identifier: String?

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
