import Foundation

/// Where a `next=` parameter may send the browser: a path on this site, never another site (an open redirect).
enum SafeRedirect {
    /// `text` if it is a path on this site (`/records/…?date=…`), else `/`.
    static func path(_ text: String?) -> String {
        guard let text, text.utf8.count <= 2_000, text.hasPrefix("/"), !text.hasPrefix("//"), !text.hasPrefix("/\\"),
              text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f && $0 != "\\" }),
              let components = URLComponents(string: text), components.scheme == nil, components.host == nil else { return "/" }
        return text
    }

    /// `path` percent-encoded for a query value.
    static func encode(_ path: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#?")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? "/"
    }
}
