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

    /// The text with `{0}` replaced by `argument`.
    func text(_ language: OCKLanguage, _ argument: String) -> String {
        text(language).replacingOccurrences(of: "{0}", with: argument)
    }

    /// The text with `{0}` and `{1}` replaced.
    func text(_ language: OCKLanguage, _ first: String, _ second: String) -> String {
        text(language, first).replacingOccurrences(of: "{1}", with: second)
    }
}
