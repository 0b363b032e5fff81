import Foundation

/// The fields of an `application/x-www-form-urlencoded` body, as the forms of OpenCareKitUI's views post them: each
/// name with its values in order (the checkboxes of one question share a name). A name or value whose percent-encoding
/// is broken reads as empty; nothing in a body can make this fail or take more than time in proportion to its length.
public enum OCKFormBody {
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
