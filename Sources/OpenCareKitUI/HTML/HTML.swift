/// A fragment of HTML built from typed values, escaped by construction: text and attribute values are always escaped
/// when rendered, so strings from a care record (titles, names, notes) can never become markup.
///
/// OpenCareKitUI uses this small builder rather than a template engine (swift-mustache) or Plot because it is
/// `Sendable` (Plot's nodes are not, in Swift 6), has no dependency, and leaves no way to splice an unescaped string
/// into a page: there is no raw-HTML case. Attribute values are escaped but not otherwise checked, so put link
/// targets through ``SafeURL`` before they go into `href` or `src`.
///
/// Every component renders to an `HTML` value, and `HTML` is itself an ``OCKComponent``, so markup of your own can
/// sit in a card's content stack.
///
/// For example:
/// ```swift
/// let node: HTML = .element("p", ["class": "detail"], [.text("Take 2 <pills>")])
/// node.rendered // <p class="detail">Take 2 &lt;pills&gt;</p>
/// ```
public indirect enum HTML: Sendable, Hashable {
    /// An element: its name, its attributes and its children.
    ///
    /// Attributes are written sorted by name, their values escaped. `br`, `hr`, `img`, `input`, `meta` and `link` are
    /// written without children or a closing tag. Element and attribute names keep only ASCII letters, digits and `-`
    /// (SVG's mixed case, such as `viewBox`, is kept); a name with nothing left becomes `span`.
    case element(String, [String: String], [HTML])
    /// Text, with `&`, `<`, `>`, `"` and `'` escaped when rendered, so any string from a care record is safe here.
    case text(String)
    /// Several nodes written one after another, with no element around them.
    case group([HTML])

    /// Elements that have no closing tag.
    static let voidElements: Set<String> = ["br", "hr", "img", "input", "meta", "link"]

    /// The markup as a string, with every text and attribute value escaped.
    public var rendered: String {
        var output = ""
        render(into: &output)
        return output
    }

    func render(into output: inout String) {
        switch self {
        case let .text(text):
            HTML.appendEscaped(text, to: &output)
        case let .group(nodes):
            for node in nodes { node.render(into: &output) }
        case let .element(name, attributes, children):
            let tag = HTML.safeName(name)
            output.append("<")
            output.append(tag)
            // Appended piece by piece, without interpolated temporaries: the profile of a long page showed them.
            func append(_ key: String, _ value: String) {
                output.append(" ")
                output.append(HTML.safeName(key))
                output.append("=\"")
                HTML.appendEscaped(value, to: &output)
                output.append("\"")
            }
            if attributes.count == 1, let (key, value) = attributes.first {
                append(key, value)
            } else {
                for (key, value) in attributes.sorted(by: { $0.key < $1.key }) { append(key, value) }
            }
            output.append(">")
            guard !HTML.voidElements.contains(tag) else { return }
            for child in children { child.render(into: &output) }
            output.append("</")
            output.append(tag)
            output.append(">")
        }
    }

    /// Returns `text` with `&`, `<`, `>`, `"` and `'` replaced by character references, for markup written outside
    /// ``HTML`` (text inside an ``HTML`` value is escaped when it is rendered, and must not be escaped twice).
    ///
    /// For example:
    /// ```swift
    /// HTML.escape("Tom & \"Jerry\" <b>") // Tom &amp; &quot;Jerry&quot; &lt;b&gt;
    /// ```
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        appendEscaped(text, to: &escaped)
        return escaped
    }

    /// Appends `text` to `output` with `&`, `<`, `>`, `"` and `'` escaped; text without them is appended as it is.
    static func appendEscaped(_ text: String, to output: inout String) {
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = start
        while index < utf8.endIndex {
            let replacement: String? = switch utf8[index] {
            case UInt8(ascii: "&"): "&amp;"
            case UInt8(ascii: "<"): "&lt;"
            case UInt8(ascii: ">"): "&gt;"
            case UInt8(ascii: "\""): "&quot;"
            case UInt8(ascii: "'"): "&#39;"
            default: nil
            }
            if let replacement {
                // The escaped characters are ASCII, so `index` is on a character boundary.
                output.append(contentsOf: text[start..<index])
                output.append(replacement)
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        if start == utf8.startIndex {
            output.append(text)
        } else {
            output.append(contentsOf: text[start..<utf8.endIndex])
        }
    }

    /// Element and attribute names come from this module, but are still limited to `[A-Za-z0-9-]` so no value can
    /// break out of a tag. Case is kept for SVG's names (`viewBox`).
    static func safeName(_ name: String) -> String {
        let isSafe = !name.isEmpty && name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
        }
        if isSafe { return name }
        let cleaned = name.unicodeScalars.filter {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
        }
        return cleaned.isEmpty ? "span" : String(String.UnicodeScalarView(cleaned))
    }
}

extension HTML {
    /// An element with its children listed as arguments: shorthand for ``element(_:_:_:)``.
    ///
    /// For example:
    /// ```swift
    /// let link = HTML.tag("a", ["href": "/contacts"], .text("Contacts"))
    /// link.rendered // <a href="/contacts">Contacts</a>
    /// ```
    public static func tag(_ name: String, _ attributes: [String: String] = [:], _ children: HTML...) -> HTML {
        .element(name, attributes, children)
    }

    /// A node that renders nothing (an empty ``group(_:)``), for a part a component leaves out.
    public static let empty = HTML.group([])

    /// A number as a form field's `value`, `min` or `max`, and as a validation message quotes it: no grouping, no
    /// trailing ".0", and a "." decimal point whatever the reader's locale.
    ///
    /// For example:
    /// ```swift
    /// HTML.fieldNumber(7)   // "7"
    /// HTML.fieldNumber(7.5) // "7.5"
    /// ```
    public static func fieldNumber(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
