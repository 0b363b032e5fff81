/// Line icons drawn as inline SVG in the current text color, so they never depend on a font having the glyph.
/// Icons are decoration beside a text label and are hidden from assistive technology.
///
/// For example:
/// ```swift
/// let row = HTML.element("p", [:], [OCKIcon.phone.html, .text("Call the clinic")])
/// ```
public enum OCKIcon: String, Sendable, Hashable, CaseIterable {
    /// The icons: `phone` (a handset), `message` (a speech bubble), `email` (an envelope), `location` (a map pin),
    /// `website` (an arrow out of a box), `careTeam` (a plus: the care team's badge), `heart` (friends and family's
    /// badge), `audio` (a speaker: the chart's audio graph), `checklist` (ticked lines), `signature` (a signed line),
    /// `lock` (a padlock) and `bell` (reminders).
    case phone, message, email, location, website, careTeam, heart, audio, checklist, signature, lock, bell

    var paths: [String] {
        switch self {
        case .phone: ["M5 3.5h3.5l2 5-2.4 1.6a11 11 0 0 0 5.3 5.3l1.6-2.4 5 2v3.5a2 2 0 0 1-2 2A17 17 0 0 1 3 5.5a2 2 0 0 1 2-2z"]
        case .message: ["M4 5h16v11H9l-5 4z"]
        case .email: ["M3 6h18v12H3z", "M3 7l9 6.5L21 7"]
        case .location: ["M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21z", "M12 12a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z"]
        case .website: ["M14 4h6v6", "M20 4l-9 9", "M18 14v6H4V6h6"]
        case .careTeam: ["M12 5v14", "M5 12h14"]
        case .heart: ["M12 20s-7.5-4.6-7.5-10.2A4.2 4.2 0 0 1 12 7.3a4.2 4.2 0 0 1 7.5 2.5C19.5 15.4 12 20 12 20z"]
        case .audio: ["M4 9h4l5-4v14l-5-4H4z", "M16.5 8.5a5 5 0 0 1 0 7", "M19 6a8.5 8.5 0 0 1 0 12"]
        case .checklist: ["M4 6l1.5 1.5L8 5", "M4 12l1.5 1.5L8 11", "M4 18l1.5 1.5L8 17", "M11 6h9", "M11 12h9", "M11 18h9"]
        case .signature: ["M3 17c3-6 5-9 6-8s-2 7 0 7 3-5 4-4 0 4 2 4 3-2 6-2", "M3 21h18"]
        case .lock: ["M6 11h12v9H6z", "M8.5 11V8a3.5 3.5 0 0 1 7 0v3"]
        case .bell: ["M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15z", "M10 20a2 2 0 0 0 4 0"]
        }
    }

    /// The icon as an `<svg>` element, 24 units square, hidden from assistive technology and not focusable, with the
    /// classes `ock-glyph` and `ock-glyph-` plus its raw value (`ock-glyph-phone`) for styling.
    public var html: HTML {
        .element("svg", ["class": "ock-glyph ock-glyph-\(rawValue)", "viewBox": "0 0 24 24", "aria-hidden": "true",
                         "focusable": "false"], paths.map { .element("path", ["d": $0], []) })
    }
}
