/// A fragment of HTML built from typed values, escaped by construction: text and attribute values are always escaped
/// when rendered, so strings from a care record (titles, names, notes) can never become markup.
///
/// OpenCareKitUI uses this small builder rather than a template engine (swift-mustache) or Plot because it is
/// `Sendable` (Plot's nodes are not, in Swift 6), has no dependency, and leaves no way to splice an unescaped string
/// into a page: there is no raw-HTML case.
///
/// For example:
/// ```swift
/// let node: HTML = .element("p", ["class": "detail"], [.text("Take 2 <pills>")])
/// node.rendered // <p class="detail">Take 2 &lt;pills&gt;</p>
/// ```
public indirect enum HTML: Sendable, Hashable {
    /// An element with attributes (rendered in name order) and children.
    case element(String, [String: String], [HTML])
    /// Text, escaped.
    case text(String)
    /// Several nodes side by side.
    case group([HTML])

    /// Elements that have no closing tag.
    static let voidElements: Set<String> = ["br", "hr", "img", "input", "meta", "link"]

    /// The HTML text.
    public var rendered: String {
        var output = ""
        render(into: &output)
        return output
    }

    func render(into output: inout String) {
        switch self {
        case let .text(text):
            output += HTML.escape(text)
        case let .group(nodes):
            for node in nodes { node.render(into: &output) }
        case let .element(name, attributes, children):
            let tag = HTML.safeName(name)
            output += "<\(tag)"
            for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
                output += " \(HTML.safeName(key))=\"\(HTML.escape(value))\""
            }
            output += ">"
            guard !HTML.voidElements.contains(tag) else { return }
            for child in children { child.render(into: &output) }
            output += "</\(tag)>"
        }
    }

    /// Escapes `&`, `<`, `>`, `"` and `'`.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// Element and attribute names come from this module, but are still limited to `[A-Za-z0-9-]` so no value can
    /// break out of a tag. Case is kept for SVG's names (`viewBox`).
    static func safeName(_ name: String) -> String {
        let cleaned = name.unicodeScalars.filter {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
        }
        return cleaned.isEmpty ? "span" : String(String.UnicodeScalarView(cleaned))
    }
}

extension HTML {
    /// An element with attributes and children.
    public static func tag(_ name: String, _ attributes: [String: String] = [:], _ children: HTML...) -> HTML {
        .element(name, attributes, children)
    }

    /// Nothing.
    public static let empty = HTML.group([])

    /// A number as a form field's value or bound, and as messages about it quote it: no grouping and no trailing
    /// ".0" (7, 7.5, 24).
    public static func fieldNumber(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
