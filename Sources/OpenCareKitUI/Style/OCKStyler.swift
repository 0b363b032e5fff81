import Foundation

/// A color written as `#RRGGBB`; anything else is refused, so a styler can never inject CSS.
public struct OCKColor: Sendable, Hashable, CustomStringConvertible {
    public let description: String

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
public struct OCKStyler: Sendable, Hashable {
    /// The colors of one appearance.
    public struct Colors: Sendable, Hashable {
        public var background: OCKColor
        public var cardBackground: OCKColor
        public var label: OCKColor
        public var secondaryLabel: OCKColor
        public var separator: OCKColor
        public var tint: OCKColor
        /// The text color on a tint-filled button.
        public var onTint: OCKColor
        /// The fill of an incomplete button.
        public var tintFill: OCKColor
        public var focus: OCKColor
        public var careTeam: OCKColor
        public var friendsAndFamily: OCKColor
        /// Six colors for chart series, in order.
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
        public var cornerRadius: Double = 0.75
        public var cardPadding: Double = 1
        public var spacing: Double = 0.75
        public var buttonHeight: Double = 2.75
        public var ringSize: Double = 2.25
        public var maxCardWidth: Double = 40

        public init() {}
    }

    /// Motion. Durations in milliseconds; `prefers-reduced-motion` turns them off.
    public struct Animation: Sendable, Hashable {
        public var stateChangeDuration: Double = 200

        public init() {}
    }

    /// Card surface.
    public struct Appearance: Sendable, Hashable {
        public var shadowOpacity: Double = 0.12
        public var shadowRadius: Double = 8
        public var borderWidth: Double = 0

        public init() {}
    }

    public var light: Colors
    public var dark: Colors
    public var dimensions: Dimensions
    public var animation: Animation
    public var appearance: Appearance

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
