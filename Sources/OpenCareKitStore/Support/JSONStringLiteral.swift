import Foundation

/// Text as a JSON string literal: quotes, backslashes and control characters escaped (and the line and paragraph
/// separators, which some readers take for line ends), so that the literal stays on one line. For the JSON that is
/// written by hand, where the order of keys matters (FHIR's, the log's lines).
package enum JSONStringLiteral {
    package static func append(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                output += String(format: "\\u%04x", scalar.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    package static func quoted(_ text: String) -> String {
        var output = ""
        append(text, to: &output)
        return output
    }
}
