import Foundation

/// A link target that is safe to put in `href` or `src`: an `https`, `http`, `tel`, `sms`, `mailto` or `maps` URL,
/// or a path on this site. `javascript:`, `data:` (except ``pngImage(_:)``'s) and every other scheme are refused.
///
/// OpenCareKitUI's views take their links and images as `SafeURL`s, or make them from the text they are given, so
/// text typed into a care plan can never run script when a reader follows it. Its ``description`` is the text that
/// goes into the attribute.
///
/// For example:
/// ```swift
/// let day = SafeURL("/care?day=2026-11-16")     // a path on this site
/// let site = SafeURL("https://www.example.org/") // an allowed scheme
/// let refused = SafeURL("javascript:alert(1)")   // nil
/// let call = SafeURL.telephone("(503) 555-0142") // tel:5035550142
/// ```
public struct SafeURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL text, as it goes into the attribute (escaped when rendered).
    public let description: String

    /// The schemes ``init(_:)`` accepts, in lowercase: `https`, `http`, `tel`, `sms`, `mailto` and `maps`.
    public static let allowedSchemes: Set<String> = ["https", "http", "tel", "sms", "mailto", "maps"]

    /// Checks `text` as a link target, or fails.
    ///
    /// Leading and trailing whitespace is trimmed. A relative path (`/care`, `notes.html`, `#top`, `?day=2`) is
    /// accepted; a protocol-relative URL (`//host`), a backslash, any control character (`java\tscript:`) or a scheme
    /// outside ``allowedSchemes`` (compared without case) is refused.
    ///
    /// - Parameter text: The URL or path, as written.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // Browsers read a backslash as a slash, so "\\evil.example" and "/\\evil.example" would leave the site.
        guard !trimmed.isEmpty, !trimmed.contains("\\"),
              !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return nil
        }
        if let colon = trimmed.firstIndex(of: ":"),
           !trimmed[..<colon].contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            let scheme = trimmed[..<colon].lowercased()
            guard Self.allowedSchemes.contains(scheme) else { return nil }
        } else if trimmed.hasPrefix("//") {
            return nil // protocol-relative: could point anywhere
        }
        description = trimmed
    }

    private init(verified text: String) {
        description = text
    }

    /// A `data:` URL of PNG bytes, for an image that must travel inside its page (a downloaded consent). Only
    /// bytes that begin with PNG's eight-byte signature are accepted (as `OCKSignature` requires), and base64 leaves
    /// nothing that could be read as markup or script.
    ///
    /// - Parameter data: The PNG file's bytes.
    /// - Returns: A `data:image/png;base64,…` URL, or nil if `data` is not PNG.
    public static func pngImage(_ data: Data) -> SafeURL? {
        guard data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        return SafeURL(verified: "data:image/png;base64," + data.base64EncodedString())
    }

    /// A `tel:` link that calls `number`, keeping its digits, `+`, `*` and `#` and dropping spaces, `-`, `(`, `)` and
    /// `.`; nil if `number` has any other character (a letter, a non-ASCII digit) or no digit at all.
    ///
    /// For example:
    /// ```swift
    /// SafeURL.telephone("(503) 555-0142") // tel:5035550142
    /// SafeURL.telephone("call me")        // nil
    /// ```
    public static func telephone(_ number: String) -> SafeURL? {
        phone(number, scheme: "tel", keeping: "+*#")
    }

    /// An `sms:` link that starts a text message to `number`, keeping its digits and `+` (`*` and `#` are dropped); nil
    /// if `number` is not a phone number as ``telephone(_:)`` reads one.
    public static func message(_ number: String) -> SafeURL? {
        phone(number, scheme: "sms", keeping: "+")
    }

    private static func phone(_ number: String, scheme: String, keeping symbols: String) -> SafeURL? {
        guard number.allSatisfy({ ($0.isASCII && $0.isNumber) || "+*# -().".contains($0) }) else { return nil }
        let digits = number.filter { ($0.isASCII && $0.isNumber) || symbols.contains($0) }
        return digits.contains(where: \.isNumber) ? SafeURL("\(scheme):\(digits)") : nil
    }

    /// A `mailto:` link for `address`, percent-encoded; nil if it has no `@` (the address is not otherwise checked).
    public static func email(_ address: String) -> SafeURL? {
        guard address.contains("@"),
              let encoded = address.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed.union(["@"])) else { return nil }
        return SafeURL("mailto:\(encoded)")
    }
}
