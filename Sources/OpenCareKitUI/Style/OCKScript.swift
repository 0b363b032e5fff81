/// The script pages load (from a file, so a Content-Security-Policy without inline script allows it). Everything
/// works without it; with it, charts gain keyboard and touch navigation with a live readout, and an audio graph.
///
/// Serve ``source`` at a URL of your own and list that URL in ``OCKPage/scripts``. It sets up every chart on the
/// page once the document has loaded; for content added later, call `OpenCareKitUI.setUp(element)` from script.
///
/// For example:
/// ```swift
/// let assets: [String: String] = [
///     "/assets/opencarekit.css": OCKStylesheet.css(),
///     "/assets/opencarekit.js": OCKScript.source,
/// ]
/// ```
public enum OCKScript {
    /// The script's text (`Resources/opencarekit.js`, compiled in), to serve as `text/javascript`.
    public static let source = String(decoding: PackageResources.opencarekit_js, as: UTF8.self)
}

/// A whole HTML page around components, linking the stylesheet and scripts by URL.
///
/// ``rendered(in:)`` writes the doctype; `<html lang>` in the context's language; a `<head>` with the charset, the
/// viewport, the title, the stylesheet, the optional icons, manifest and theme colors, the metadata and the deferred
/// scripts; and a `<body>` with the components rendered one after another. The page adds no landmark of its own:
/// put a `<main>` element among the body's components.
///
/// For example:
/// ```swift
/// let context = OCKRenderContext(localization: OCKLocalization(language: .english))
/// let main = HTML.element("main", [:], [
///     OCKSimpleTaskView(title: "Ibuprofen", isComplete: false, action: nil).render(in: context),
/// ])
/// let page = OCKPage(title: "Care", body: [main], stylesheet: SafeURL("/assets/opencarekit.css")!,
///                    scripts: [SafeURL("/assets/opencarekit.js")!])
/// let document: String = page.rendered(in: context)
/// ```
public struct OCKPage: Sendable {
    /// The document's `<title>`, shown in the browser's tab and announced when the page opens.
    public var title: String
    /// The components of `<body>`, top to bottom.
    public var body: [any OCKComponent]
    /// The stylesheet's URL: where you serve ``OCKStylesheet/css(_:)``.
    public var stylesheet: SafeURL
    /// Script URLs (such as where you serve ``OCKScript/source``), loaded with `defer` in this order; empty for a page
    /// without script, which still works.
    public var scripts: [SafeURL]
    /// Named values for the page's scripts (such as a CSRF token), written as `<meta name content>` elements sorted by
    /// name.
    public var metadata: [String: String]
    /// The page's icon (`<link rel="icon">`); nil lets the browser ask for /favicon.ico.
    public var icon: SafeURL?
    /// Forces light or dark (`data-appearance` on `<html>`); nil follows the reader's system setting.
    public var appearance: Appearance?
    /// The web app manifest (`<link rel="manifest">`) of a page that can be installed; nil links none. Not in the
    /// initializer: set it afterwards.
    public var manifest: SafeURL?
    /// The icon a home screen shows for the installed page (`<link rel="apple-touch-icon">`, which Safari reads); nil
    /// links none. Not in the initializer: set it afterwards.
    public var touchIcon: SafeURL?
    /// The colour of the browser's or the installed app's bars, usually the styler's page background in light and dark:
    /// one `theme-color` for each color scheme, or only the forced one's when ``appearance`` is set; nil writes none.
    public var themeColors: (light: OCKColor, dark: OCKColor)?

    /// A color scheme a page forces: `light` or `dark`. The raw value goes into `<html data-appearance>`, which the
    /// stylesheet follows instead of the reader's system setting.
    public enum Appearance: String, Sendable {
        /// Dark text on light backgrounds, whatever the reader's system prefers.
        case light
        /// Light text on dark backgrounds, whatever the reader's system prefers.
        case dark
    }

    /// Creates a page.
    ///
    /// - Parameters:
    ///   - title: The document's title.
    ///   - body: The components of the body, top to bottom.
    ///   - stylesheet: The stylesheet's URL.
    ///   - scripts: Script URLs, loaded deferred in order.
    ///   - icon: The page's icon, or nil.
    ///   - appearance: A color scheme to force, or nil to follow the reader's setting.
    ///   - metadata: Named values written as `<meta>` elements.
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

    /// The whole document, starting with `<!DOCTYPE html>`, with every component rendered for `context`.
    ///
    /// - Parameter context: The reader; its language also sets `<html lang>`.
    /// - Returns: The page's HTML text.
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
