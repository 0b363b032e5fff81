import OpenCareKitUI

/// Words of the host's pages in every language the app speaks: each enum of them (`HostText`, `AccountText`) gives
/// its English and Korean as exhaustive switches, so a missing translation is a compile error.
protocol HostWords {
    var english: String { get }
    var korean: String { get }
}

extension HostWords {
    func text(_ language: OCKLanguage) -> String {
        switch language {
        case .english: english
        case .korean: korean
        }
    }

    /// The text with `{0}`, `{1}` … replaced by the arguments, in one pass: an argument's own text (a task's title
    /// holding "{1}") is never read as a placeholder.
    func text(_ language: OCKLanguage, _ arguments: String...) -> String {
        text(language, arguments: arguments)
    }

    func text(_ language: OCKLanguage, arguments: [String]) -> String {
        let template = text(language)
        guard !arguments.isEmpty else { return template }
        var output = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            output += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"), let index = Int(rest[afterOpen..<close]), arguments.indices.contains(index) {
                output += arguments[index]
                rest = rest[rest.index(after: close)...]
            } else {
                output += "{"
                rest = rest[afterOpen...]
            }
        }
        return output + rest
    }
}
