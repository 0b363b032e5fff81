import Foundation

/// A color written as `#rrggbb`; anything else is refused, so a styler can never inject CSS. Its `description` is
/// the color in lowercase, as it goes into the stylesheet.
///
/// For example:
/// ```swift
/// let teal = OCKColor(hex: "#00796B") // #00796b
/// let named = OCKColor(hex: "red")    // nil
/// ```
public struct OCKColor: Sendable, Hashable, CustomStringConvertible {
    public let description: String

    /// A color from six hexadecimal digits, with or without a leading `#`; nil for anything else (`#fff`, `red`,
    /// `rgb(0, 98, 204)`).
    ///
    /// - Parameter hex: The color, such as `"#0062cc"`.
    public init?(hex: String) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6, digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        description = "#" + digits.lowercased()
    }

    /// For the built-in palettes, which are known to be valid.
    init(_ literal: StaticString) {
        description = "\(literal)"
    }
}

/// CareKit's styler for the web: colors (light and dark), dimensions, animation and appearance, rendered as CSS
/// custom properties that the stylesheet uses.
///
/// Start from the defaults, change what your app needs, and serve ``OCKStylesheet/css(_:)`` for it. Negative or
/// non-finite sizes are written as 0, and sizes are written with one decimal place (0.75 becomes 0.8).
///
/// For example:
/// ```swift
/// var styler = OCKStyler()
/// styler.light.tint = OCKColor(hex: "#00796b")!
/// styler.dark.tint = OCKColor(hex: "#4db6ac")!
/// styler.dimensions.cornerRadius = 1
/// let css = OCKStylesheet.css(styler)
/// ```
public struct OCKStyler: Sendable, Hashable {
    /// The colors of one appearance, each written as a `--ock-color-…` custom property. There is no initializer: start
    /// from ``light`` or ``dark`` and change the colors you need.
    public struct Colors: Sendable, Hashable {
        /// The page behind the cards. A dark background also makes the browser draw its own controls dark
        /// (`color-scheme`).
        public var background: OCKColor
        /// The cards' surface.
        public var cardBackground: OCKColor
        /// Primary text: the page's text, titles and names.
        public var label: OCKColor
        /// Secondary text: details, instructions, units, chart ticks and dimmed days.
        public var secondaryLabel: OCKColor
        /// Lines: separators under headers and between rows, chart grid lines, the ring's track and card borders.
        public var separator: OCKColor
        /// The accent: links, done buttons, values, the ring's progress and today's date; the chart's color when
        /// ``series`` is empty.
        public var tint: OCKColor
        /// The text color on a tint-filled button or link, such as a done button.
        public var onTint: OCKColor
        /// The fill of a button not yet pressed, the selected day and the selected chart column.
        public var tintFill: OCKColor
        /// The outline around whatever has the keyboard's focus.
        public var focus: OCKColor
        /// The care team's monogram and category badge on contact cards.
        public var careTeam: OCKColor
        /// Friends and family's monogram and category badge on contact cards, and the text of form errors.
        public var friendsAndFamily: OCKColor
        /// The colors of chart series, in order. Six are written: a shorter list repeats from its start, and an empty
        /// one gives every series ``tint``.
        public var series: [OCKColor]

        /// Close to CareKit's look in light mode, with text contrast of at least 4.5:1 on cards.
        public static let light = Colors(
            background: OCKColor("#f2f2f7"), cardBackground: OCKColor("#ffffff"), label: OCKColor("#000000"),
            secondaryLabel: OCKColor("#5e5e63"), separator: OCKColor("#c6c6c8"), tint: OCKColor("#0062cc"),
            onTint: OCKColor("#ffffff"), tintFill: OCKColor("#e6f0fc"), focus: OCKColor("#7a3cff"),
            careTeam: OCKColor("#0062cc"), friendsAndFamily: OCKColor("#b3245c"),
            series: [OCKColor("#0062cc"), OCKColor("#c2410c"), OCKColor("#15803d"), OCKColor("#7c3aed"),
                     OCKColor("#b91c1c"), OCKColor("#0f766e")])

        /// Close to CareKit's look in dark mode.
        public static let dark = Colors(
            background: OCKColor("#000000"), cardBackground: OCKColor("#1c1c1e"), label: OCKColor("#ffffff"),
            secondaryLabel: OCKColor("#aeaeb2"), separator: OCKColor("#48484a"), tint: OCKColor("#409cff"),
            onTint: OCKColor("#000000"), tintFill: OCKColor("#15273d"), focus: OCKColor("#c9a8ff"),
            careTeam: OCKColor("#409cff"), friendsAndFamily: OCKColor("#ff6fa3"),
            series: [OCKColor("#409cff"), OCKColor("#ff9f0a"), OCKColor("#30d158"), OCKColor("#bf5af2"),
                     OCKColor("#ff6961"), OCKColor("#40c8e0")])
    }

    /// Sizes. Lengths in rem follow the browser's text size; interactive targets never go under 44 CSS px.
    public struct Dimensions: Sendable, Hashable {
        /// The cards' corner radius, in rem; buttons use three quarters of it. 0.75 by default.
        public var cornerRadius: Double = 0.75
        /// The space inside a card's edges, in rem. 1 by default.
        public var cardPadding: Double = 1
        /// The space between a card's parts (header, content, rows), in rem. 0.75 by default.
        public var spacing: Double = 0.75
        /// The least height of completion, log and save buttons, in rem, never under 44 CSS px. 2.75 by default.
        public var buttonHeight: Double = 2.75
        /// The width and height of a completion ring, in rem. 2.25 by default.
        public var ringSize: Double = 2.25
        /// The widest a card grows, in rem. 40 by default.
        public var maxCardWidth: Double = 40

        /// The default dimensions.
        public init() {}
    }

    /// Motion. Durations in milliseconds; `prefers-reduced-motion` turns them off.
    public struct Animation: Sendable, Hashable {
        /// How long a button's or ring's change of state takes, in milliseconds. 200 by default.
        public var stateChangeDuration: Double = 200

        /// The default timing.
        public init() {}
    }

    /// The cards' surface: shadow and border.
    public struct Appearance: Sendable, Hashable {
        /// The opacity of the cards' shadow, from 0 to 1 (more counts as 1). 0.12 by default.
        public var shadowOpacity: Double = 0.12
        /// The blur of the cards' shadow, in CSS px. 8 by default.
        public var shadowRadius: Double = 8
        /// The width of a border around each card, in the separator color, in CSS px. 0 (no border) by default.
        public var borderWidth: Double = 0

        /// The default card surface: a soft shadow and no border.
        public init() {}
    }

    /// The colors in light mode: when the reader's system is light, or the page forces light.
    public var light: Colors
    /// The colors in dark mode: when the reader's system is dark, or the page forces dark (``OCKPage/appearance``).
    public var dark: Colors
    /// Corner radius, padding, spacing and the sizes of buttons, rings and cards.
    public var dimensions: Dimensions
    /// How long changes of state take.
    public var animation: Animation
    /// The cards' shadow and border.
    public var appearance: Appearance

    /// Creates a styler; every part defaults to CareKit's look.
    ///
    /// - Parameters:
    ///   - light: The colors in light mode.
    ///   - dark: The colors in dark mode.
    ///   - dimensions: The sizes.
    ///   - animation: The timing of changes.
    ///   - appearance: The cards' shadow and border.
    public init(light: Colors = .light, dark: Colors = .dark, dimensions: Dimensions = Dimensions(),
                animation: Animation = Animation(), appearance: Appearance = Appearance()) {
        self.light = light
        self.dark = dark
        self.dimensions = dimensions
        self.animation = animation
        self.appearance = appearance
    }

    /// The custom properties: dimensions and light colors on `:root`; dark colors under `prefers-color-scheme:
    /// dark`, and under `data-appearance="dark"` for pages that choose.
    public var customProperties: String {
        func number(_ value: Double) -> String { ChartLayout.coordinate(value.isFinite ? max(value, 0) : 0) }
        let d = dimensions
        var css = ":root {\n"
        css += "  --ock-radius: \(number(d.cornerRadius))rem;\n  --ock-padding: \(number(d.cardPadding))rem;\n"
        css += "  --ock-spacing: \(number(d.spacing))rem;\n  --ock-button-height: max(44px, \(number(d.buttonHeight))rem);\n"
        css += "  --ock-ring-size: \(number(d.ringSize))rem;\n  --ock-max-card-width: \(number(d.maxCardWidth))rem;\n"
        css += "  --ock-duration: \(number(animation.stateChangeDuration))ms;\n"
        css += "  --ock-shadow: 0 1px \(number(appearance.shadowRadius))px rgba(0, 0, 0, \(number(min(appearance.shadowOpacity, 1))));\n"
        css += "  --ock-border-width: \(number(appearance.borderWidth))px;\n"
        css += Self.colorProperties(light) + "}\n"
        css += ":root[data-appearance=\"dark\"] {\n\(Self.colorProperties(dark))}\n"
        css += "@media (prefers-color-scheme: dark) {\n  :root:not([data-appearance=\"light\"]) {\n"
        css += Self.colorProperties(dark, indent: "    ") + "  }\n}\n"
        return css
    }

    static func colorProperties(_ colors: Colors, indent: String = "  ") -> String {
        var pairs: [(String, OCKColor)] = [
            ("background", colors.background), ("card", colors.cardBackground), ("label", colors.label),
            ("secondary-label", colors.secondaryLabel), ("separator", colors.separator), ("tint", colors.tint),
            ("on-tint", colors.onTint), ("tint-fill", colors.tintFill), ("focus", colors.focus),
            ("care-team", colors.careTeam), ("friends-family", colors.friendsAndFamily),
        ]
        for index in 0..<6 {
            pairs.append(("series-\(index)", colors.series.isEmpty ? colors.tint : colors.series[index % colors.series.count]))
        }
        let scheme = colors.background.isDark ? "dark" : "light"
        return "\(indent)color-scheme: \(scheme);\n" + pairs.map { "\(indent)--ock-color-\($0.0): \($0.1);\n" }.joined()
    }
}

extension OCKColor {
    /// Whether the color is closer to black than to white.
    var isDark: Bool {
        let value = Int(description.dropFirst(), radix: 16) ?? 0
        let red = Double((value >> 16) & 0xff), green = Double((value >> 8) & 0xff), blue = Double(value & 0xff)
        return (0.299 * red + 0.587 * green + 0.114 * blue) < 128
    }
}
