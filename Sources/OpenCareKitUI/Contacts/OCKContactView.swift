import Foundation

/// Who a contact is to the patient; shown by color and by a text badge with an icon, never by color alone.
public enum OCKContactViewCategory: String, Sendable, Hashable, CaseIterable {
    /// `careTeam`: the patient's clinicians, with a "Care team" badge and a plus icon; `friendsAndFamily`: people close
    /// to the patient, with a "Friends and family" badge and a heart.
    case careTeam, friendsAndFamily

    var key: OCKStringKey { self == .careTeam ? .careTeam : .friendsAndFamily }
    var icon: OCKIcon { self == .careTeam ? .careTeam : .heart }
    var className: String { self == .careTeam ? "ock-care-team" : "ock-friends-family" }
}

/// CareKit's simple contact: a photo or an initials monogram, the name, the title or role, the category, and a
/// disclosure indicator when the card opens the detailed contact.
///
/// It renders an `<article class="ock-card ock-contact">` with the portrait, the name as a heading, the title and
/// the category badge; with a ``detailURL`` the whole header is one link. The portrait is decoration (the name
/// beside it says who it is).
///
/// For example:
/// ```swift
/// let contact = OCKSimpleContactView(name: "Dr. Maria Ruiz", title: "Family Practice Doctor",
///                                    category: .careTeam, detailURL: SafeURL("/contacts/ruiz"))
/// let html = contact.render().rendered // the monogram "MR", the heading, "Care team"
/// ```
public struct OCKSimpleContactView: OCKComponent {
    /// The contact's name: the card's heading, and the source of the monogram.
    public var name: String
    /// A title or role, such as "Family Practice Doctor".
    public var title: String?
    /// A photo shown beside the name (with empty alt text); nil shows the initials monogram instead.
    public var image: SafeURL?
    /// Who the contact is to the patient: it colors the monogram and adds a badge; nil shows neither.
    public var category: OCKContactViewCategory?
    /// Where the card leads (the detailed contact); nil makes it static.
    public var detailURL: SafeURL?
    /// The name's heading level (2 by default; 3 under a list's section headings), kept within 1 through 6. Not in the
    /// initializer: set it afterwards.
    public var headingLevel: Int = 2
    /// The `id` of the card's `<article>`, or nil.
    public var identifier: String?

    /// Creates a simple contact card.
    ///
    /// - Parameters:
    ///   - name: The contact's name.
    ///   - title: A title or role, or nil.
    ///   - image: A photo, or nil for the monogram.
    ///   - category: Who the contact is to the patient, or nil.
    ///   - detailURL: Where the card leads, or nil for a static card.
    ///   - identifier: The `id` of the card's `<article>`, or nil.
    public init(name: String, title: String? = nil, image: SafeURL? = nil, category: OCKContactViewCategory? = nil,
                detailURL: SafeURL? = nil, identifier: String? = nil) {
        self.name = name
        self.title = title
        self.image = image
        self.category = category
        self.detailURL = detailURL
        self.identifier = identifier
    }

    /// Up to two initials: the first letters of the first and last words ("Dr. Maria Ruiz" → "MR", titles such as
    /// "Dr." skipped), or the first letter of a one-word name ("김민지" → "김"). Only words that begin with a letter
    /// count; a name without one gives "?".
    public static func monogram(for name: String) -> String {
        let all = name.split(whereSeparator: \.isWhitespace).filter { $0.first?.isLetter == true }
        let untitled = all.filter { !$0.hasSuffix(".") }
        let words = untitled.isEmpty ? all : untitled
        guard let first = words.first?.first else { return "?" }
        guard words.count > 1, let last = words.last?.first else { return String(first).uppercased() }
        return (String(first) + String(last)).uppercased()
    }

    func identity(in context: OCKRenderContext, headingLevel: Int) -> [HTML] {
        let portrait: HTML = if let image {
            .element("img", ["class": "ock-contact-photo", "src": image.description, "alt": ""], [])
        } else {
            .element("span", ["class": "ock-monogram", "aria-hidden": "true"], [.text(Self.monogram(for: name))])
        }
        var text: [HTML] = [.element("h\(min(max(headingLevel, 1), 6))", ["class": "ock-contact-name"], [.text(name)])]
        if let title { text.append(.element("p", ["class": "ock-contact-title"], [.text(title)])) }
        if let category {
            text.append(.element("p", ["class": "ock-category-badge"], [
                category.icon.html,
                .text(context.string(category.key)),
            ]))
        }
        var parts: [HTML] = [portrait, .element("div", ["class": "ock-contact-text"], text)]
        if detailURL != nil {
            parts.append(.element("span", ["class": "ock-disclosure", "aria-hidden": "true"], [.text("›")]))
        }
        return parts
    }

    var classes: String {
        ["ock-card", "ock-contact", category?.className].compactMap { $0 }.joined(separator: " ")
    }

    public func render(in context: OCKRenderContext) -> HTML {
        var attributes = ["class": classes]
        if let identifier { attributes["id"] = identifier }
        let identity = identity(in: context, headingLevel: headingLevel)
        let header: HTML = if let detailURL {
            .element("a", ["class": "ock-contact-header ock-contact-link", "href": detailURL.description], identity)
        } else {
            .element("div", ["class": "ock-contact-header"], identity)
        }
        return .element("article", attributes, [header])
    }
}

/// CareKit's detailed contact: the simple contact with labelled ways to reach them (call, message, email) and the
/// address with a map link.
///
/// It renders an `<article>` with the contact's header, the instructions, a list of actions — "Call", "Message",
/// "Email", each named in full for assistive technology ("Call Dr. Maria Ruiz") — and the address with a "Location"
/// link. A way to reach the contact that is missing or not valid (a phone number with letters, an email without
/// `@`) is left out.
///
/// For example:
/// ```swift
/// let contact = OCKDetailedContactView(
///     name: "Dr. Maria Ruiz", title: "Family Practice Doctor", category: .careTeam,
///     instructions: "Call for refills or if your pain gets worse.",
///     phoneNumber: "(503) 555-0142", emailAddress: "m.ruiz@example.org",
///     address: "2101 NW Lovejoy St\nPortland, OR 97210")
/// let html = contact.render().rendered
/// ```
public struct OCKDetailedContactView: OCKComponent {
    /// The name, title, portrait and category, shown as in ``OCKSimpleContactView``; its
    /// ``OCKSimpleContactView/identifier`` is this card's `id`. Here the name is always an `<h2>`, and the header is
    /// not a link.
    public var contact: OCKSimpleContactView
    /// Text under the header, such as when to call; nil shows none.
    public var instructions: String?
    /// The number the "Call" action dials; nil, or text that is not a phone number, shows no call action.
    public var phoneNumber: String?
    /// The number the "Message" action texts; nil, or text that is not a phone number, shows no message action.
    public var messagingNumber: String?
    /// The address the "Email" action writes to; nil, or text without `@`, shows no email action.
    public var emailAddress: String?
    /// The address as it is written on an envelope, lines separated by newlines.
    public var address: String?
    /// The map link for the address; nil searches OpenStreetMap for it.
    public var mapURL: SafeURL?

    /// Creates a detailed contact card.
    ///
    /// - Parameters:
    ///   - name: The contact's name.
    ///   - title: A title or role, or nil.
    ///   - image: A photo, or nil for the monogram.
    ///   - category: Who the contact is to the patient, or nil.
    ///   - instructions: Text under the header, or nil.
    ///   - phoneNumber: The number to call, or nil.
    ///   - messagingNumber: The number to text, or nil.
    ///   - emailAddress: The address to email, or nil.
    ///   - address: The postal address, lines separated by newlines, or nil.
    ///   - mapURL: The map link for the address, or nil for an OpenStreetMap search.
    ///   - identifier: The `id` of the card's `<article>`, or nil.
    public init(name: String, title: String? = nil, image: SafeURL? = nil, category: OCKContactViewCategory? = nil,
                instructions: String? = nil, phoneNumber: String? = nil, messagingNumber: String? = nil,
                emailAddress: String? = nil, address: String? = nil, mapURL: SafeURL? = nil, identifier: String? = nil) {
        contact = OCKSimpleContactView(name: name, title: title, image: image, category: category, identifier: identifier)
        self.instructions = instructions
        self.phoneNumber = phoneNumber
        self.messagingNumber = messagingNumber
        self.emailAddress = emailAddress
        self.address = address
        self.mapURL = mapURL
    }

    /// An OpenStreetMap search for `address`, its lines joined with ", ".
    ///
    /// For example:
    /// ```swift
    /// OCKDetailedContactView.mapSearch("2101 NW Lovejoy St\nPortland, OR 97210")
    /// // https://www.openstreetmap.org/search?query=2101%20NW%20Lovejoy%20St%2C%20Portland%2C%20OR%2097210
    /// ```
    public static func mapSearch(_ address: String) -> SafeURL? {
        let query = address.split(whereSeparator: \.isNewline).joined(separator: ", ")
        guard let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) else { return nil }
        return SafeURL("https://www.openstreetmap.org/search?query=\(encoded)")
    }

    public func render(in context: OCKRenderContext) -> HTML {
        let name = contact.name
        var actions: [HTML] = []
        func action(_ url: SafeURL?, icon: OCKIcon, label: OCKStringKey, name accessible: OCKStringKey) {
            guard let url else { return }
            actions.append(.element("li", [:], [.element("a", [
                "class": "ock-contact-action", "href": url.description, "aria-label": context.string(accessible, name),
            ], [
                icon.html,
                .element("span", ["class": "ock-action-label"], [.text(context.string(label))]),
            ])]))
        }
        action(phoneNumber.flatMap(SafeURL.telephone), icon: .phone, label: .call, name: .callContact)
        action(messagingNumber.flatMap(SafeURL.message), icon: .message, label: .message, name: .messageContact)
        action(emailAddress.flatMap(SafeURL.email), icon: .email, label: .email, name: .emailContact)

        var body: [HTML] = [.element("div", ["class": "ock-contact-header"], contact.identity(in: context, headingLevel: 2))]
        body += HTML.instructions(instructions).map { $0.render(in: context) }
        if !actions.isEmpty { body.append(.element("ul", ["class": "ock-contact-actions"], actions)) }
        if let address {
            let lines = address.split(whereSeparator: \.isNewline).map(String.init)
            var block: [HTML] = [
                .element("h3", ["class": "ock-address-label"], [.text(context.string(.address))]),
                .element("p", ["class": "ock-address"], lines.enumerated().flatMap { index, line -> [HTML] in
                    index == 0 ? [.text(line)] : [.element("br", [:], []), .text(line)]
                }),
            ]
            if let map = mapURL ?? Self.mapSearch(address) {
                block.append(.element("a", ["class": "ock-contact-action ock-map-link", "href": map.description,
                                            "aria-label": context.string(.mapContact, name)], [
                    OCKIcon.location.html,
                    .element("span", ["class": "ock-action-label"], [.text(context.string(.location))]),
                ]))
            }
            body.append(.element("div", ["class": "ock-contact-address"], block))
        }
        var attributes = ["class": contact.classes + " ock-detailed-contact"]
        if let identifier = contact.identifier { attributes["id"] = identifier }
        return .element("article", attributes, body)
    }
}
