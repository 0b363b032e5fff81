/// The script pages load (from a file, so a Content-Security-Policy without inline script allows it). Everything
/// works without it; with it, charts gain keyboard navigation with a live readout and an audio graph.
public enum OCKScript {
    /// The script (`Resources/opencarekit.js`, compiled in).
    public static let source = String(decoding: PackageResources.opencarekit_js, as: UTF8.self)
}

/// A whole HTML page around components, linking the stylesheet and script by URL.
public struct OCKPage: Sendable {
    public var title: String
    public var body: [any OCKComponent]
    public var stylesheet: SafeURL
    /// Scripts, loaded deferred in order.
    public var scripts: [SafeURL]
    /// Named values for the page's scripts, as `<meta>` elements (such as a CSRF token).
    public var metadata: [String: String]
    /// The page's icon; nil lets the browser ask for /favicon.ico.
    public var icon: SafeURL?
    /// Forces light or dark; nil follows the reader's system setting.
    public var appearance: Appearance?
    /// An installable web app's manifest, and the icon a home screen shows (Safari's `apple-touch-icon`).
    public var manifest: SafeURL?
    public var touchIcon: SafeURL?
    /// The colour of the browser's or the installed app's bars: the styler's page background in light and dark.
    public var themeColors: (light: OCKColor, dark: OCKColor)?

    public enum Appearance: String, Sendable { case light, dark }

    public init(title: String, body: [any OCKComponent], stylesheet: SafeURL, scripts: [SafeURL], icon: SafeURL? = nil,
                appearance: Appearance? = nil, metadata: [String: String] = [:]) {
        self.metadata = metadata
        self.icon = icon
        self.title = title
        self.body = body
        self.stylesheet = stylesheet
        self.scripts = scripts
        self.appearance = appearance
    }

    /// The document, starting with its doctype.
    public func rendered(in context: OCKRenderContext) -> String {
        var html = ["lang": context.localization.languageTag]
        if let appearance { html["data-appearance"] = appearance.rawValue }
        var head: [HTML] = [
            .element("meta", ["charset": "utf-8"], []),
            .element("meta", ["name": "viewport", "content": "width=device-width, initial-scale=1"], []),
            .element("title", [:], [.text(title)]),
            .element("link", ["rel": "stylesheet", "href": stylesheet.description], []),
        ]
        if let icon { head.append(.element("link", ["rel": "icon", "href": icon.description], [])) }
        if let manifest { head.append(.element("link", ["rel": "manifest", "href": manifest.description], [])) }
        if let touchIcon { head.append(.element("link", ["rel": "apple-touch-icon", "href": touchIcon.description], [])) }
        if let themeColors {
            // A page forced to one appearance has that appearance's bars.
            switch appearance {
            case .light?: head.append(.element("meta", ["name": "theme-color", "content": themeColors.light.description], []))
            case .dark?: head.append(.element("meta", ["name": "theme-color", "content": themeColors.dark.description], []))
            case nil:
                head.append(.element("meta", ["name": "theme-color", "content": themeColors.light.description, "media": "(prefers-color-scheme: light)"], []))
                head.append(.element("meta", ["name": "theme-color", "content": themeColors.dark.description, "media": "(prefers-color-scheme: dark)"], []))
            }
        }
        for (name, content) in metadata.sorted(by: { $0.key < $1.key }) {
            head.append(.element("meta", ["name": name, "content": content], []))
        }
        for script in scripts { head.append(.element("script", ["src": script.description, "defer": "defer"], [])) }
        return "<!DOCTYPE html>\n" + HTML.element("html", html, [
            .element("head", [:], head),
            .element("body", [:], body.map { $0.render(in: context) }),
        ]).rendered
    }
}
