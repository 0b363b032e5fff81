import Foundation

/// A link target that is safe to put in `href`: `https`, `http`, `tel`, `sms`, `mailto` or `maps` URLs, or a path
/// on this site. `javascript:`, `data:` and every other scheme are refused.
public struct SafeURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL text, as it goes into the attribute (escaped when rendered).
    public let description: String

    /// The schemes links may use.
    public static let allowedSchemes: Set<String> = ["https", "http", "tel", "sms", "mailto", "maps"]

    /// Nil unless `text` is a relative path or uses an allowed scheme. Control characters and whitespace tricks
    /// (`java\tscript:`) are refused too.
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
    public static func pngImage(_ data: Data) -> SafeURL? {
        guard data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        return SafeURL(verified: "data:image/png;base64," + data.base64EncodedString())
    }

    /// A `tel:` link for a phone number, or nil if `number` has anything but digits, `+`, `*`, `#` and separators.
    public static func telephone(_ number: String) -> SafeURL? {
        phone(number, scheme: "tel", keeping: "+*#")
    }

    /// An `sms:` link for a phone number, or nil if `number` is not one.
    public static func message(_ number: String) -> SafeURL? {
        phone(number, scheme: "sms", keeping: "+")
    }

    private static func phone(_ number: String, scheme: String, keeping symbols: String) -> SafeURL? {
        guard number.allSatisfy({ ($0.isASCII && $0.isNumber) || "+*# -().".contains($0) }) else { return nil }
        let digits = number.filter { ($0.isASCII && $0.isNumber) || symbols.contains($0) }
        return digits.contains(where: \.isNumber) ? SafeURL("\(scheme):\(digits)") : nil
    }

    /// A `mailto:` link.
    public static func email(_ address: String) -> SafeURL? {
        guard address.contains("@"),
              let encoded = address.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed.union(["@"])) else { return nil }
        return SafeURL("mailto:\(encoded)")
    }
}
