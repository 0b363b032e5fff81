import Foundation

/// Reads `application/x-www-form-urlencoded` bodies, as the forms of OpenCareKitUI's views post them.
///
/// Each name maps to its values in the order they came (the checkboxes of one question share a name). `+` reads as a
/// space; a name or value whose percent-encoding is broken reads as empty. Nothing in a body can make reading it
/// fail, and reading takes time in proportion to the body's length.
public enum OCKFormBody {
    /// The fields of `body`, each name with its values in order.
    ///
    /// Pairs are separated by `&`; a pair without `=` is a name with an empty value, and empty pairs are skipped.
    ///
    /// For example:
    /// ```swift
    /// let fields = OCKFormBody.fields("event=a&event=b&note=Feeling+better%21")
    /// fields["event"] // ["a", "b"]
    /// fields["note"]  // ["Feeling better!"]
    /// ```
    ///
    /// - Parameter body: The request body, as text.
    /// - Returns: The values of each field name; an empty dictionary for an empty body.
    public static func fields(_ body: String) -> [String: [String]] {
        var all: [String: [String]] = [:]
        for pair in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            all[decode(parts[0]), default: []].append(parts.count > 1 ? decode(parts[1]) : "")
        }
        return all
    }

    private static func decode(_ text: Substring) -> String {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
    }
}
