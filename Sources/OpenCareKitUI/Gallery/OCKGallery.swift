import Foundation

/// A static catalogue of every OpenCareKitUI component in its states — incomplete, partly done and done; empty,
/// small and year-long charts; very long names — for one language and appearance. `opencarekit gallery` writes it
/// in English and Korean, light and dark; the browser tests load it.
///
/// For example:
/// ```swift
/// var files = OCKGallery.assets
/// files["index.html"] = OCKGallery.index()
/// for gallery in OCKGallery.all { files[gallery.fileName] = gallery.page() }
/// // Write each file into one folder, named by its key.
/// ```
public struct OCKGallery: Sendable {
    /// The language of the variant's text and formats.
    public var language: OCKLanguage
    /// The color scheme the variant's page forces.
    public var appearance: OCKPage.Appearance

    /// Creates a variant.
    ///
    /// - Parameters:
    ///   - language: The language of its text and formats.
    ///   - appearance: The color scheme its page forces.
    public init(language: OCKLanguage, appearance: OCKPage.Appearance) {
        self.language = language
        self.appearance = appearance
    }

    /// Every variant: each language, light and dark.
    public static var all: [OCKGallery] {
        OCKLanguage.allCases.flatMap { language in [.light, .dark].map { OCKGallery(language: language, appearance: $0) } }
    }

    /// The variant's file name, such as `en-light.html` or `ko-dark.html`, which the index and the other variants link.
    public var fileName: String { "\(language.rawValue)-\(appearance.rawValue).html" }

    /// The reader: English in Los Angeles or Korean in Seoul.
    public var context: OCKRenderContext {
        OCKRenderContext(localization: OCKLocalization(
            language: language, timeZone: TimeZone(identifier: language == .english ? "America/Los_Angeles" : "Asia/Seoul")!))
    }

    /// Files besides the pages, keyed by file name: the stylesheet, the script, and the sample images.
    public static var assets: [String: String] {
        [
            "opencarekit.css": OCKStylesheet.css(),
            "opencarekit.js": OCKScript.source,
            "star.svg": ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path fill="#f5b400" d="M12 2l3 7h7l-5.5 4.5L18.5 21 12 16.5 5.5 21l2-7.5L2 9h7z"/></svg>"##,
            "portrait.svg": ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><rect width="48" height="48" fill="#8fb8e8"/><circle cx="24" cy="19" r="9" fill="#f3d2b3"/><path d="M8 48c2-12 10-16 16-16s14 4 16 16z" fill="#3d6aa3"/></svg>"##,
            "featured.svg": ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 320"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#5aa6e8"/><stop offset="1" stop-color="#2b5f9e"/></linearGradient></defs><rect width="640" height="320" fill="url(#g)"/><circle cx="500" cy="90" r="50" fill="#ffe9a8"/><path d="M0 260q160-90 320-20t320-30v110H0z" fill="#2e7d4f"/></svg>"##,
        ]
    }

    /// The index page (`index.html`, in English) linking every variant by its ``fileName``.
    public static func index() -> String {
        let context = OCKRenderContext()
        let links = all.map { gallery in
            HTML.element("li", [:], [.element("a", ["class": "ock-link-row", "href": gallery.fileName],
                                              [.text("\(gallery.language.autonym) · \(context.string(gallery.appearance == .light ? .appearanceLight : .appearanceDark))")])])
        }
        let main = HTML.element("main", ["class": "ock-page-main"], [
            .element("h1", [:], [.text(context.string(.galleryTitle))]),
            .element("ul", ["class": "ock-links ock-card ock-page-index"], links),
        ])
        return OCKPage(title: context.string(.galleryTitle), body: [main], stylesheet: SafeURL("opencarekit.css")!,
                       scripts: [], icon: SafeURL("star.svg")).rendered(in: context)
    }

    /// The page for this variant: every sample component in ``language``, in ``appearance``, with links to the other
    /// variants. It expects ``assets`` beside it.
    public func page() -> String {
        let context = context
        let switcher = HTML.element("nav", ["class": "ock-page-nav", "aria-label": context.string(.galleryVariants)],
                                    [.element("ul", [:], Self.all.map { other in
            var attributes = ["href": other.fileName, "class": "ock-page-nav-link"]
            if other.fileName == fileName { attributes["aria-current"] = "page" }
            return .element("li", [:], [.element("a", attributes, [
                .text("\(other.language.autonym) · \(context.string(other.appearance == .light ? .appearanceLight : .appearanceDark))"),
            ])])
        })])
        let sample = OCKGallerySamples(language: language, context: context)
        let sections = sample.sections.map { title, components in
            HTML.element("section", ["class": "ock-page-section"], [
                .element("h2", ["class": "ock-page-heading"], [.text(title)]),
                .element("div", ["class": "ock-page-grid"], components.map { $0.render(in: context) }),
            ])
        }
        let main = HTML.element("main", ["class": "ock-page-main"], [
            .element("h1", [:], [.text(context.string(.galleryTitle))]),
        ] + sections)
        return OCKPage(title: context.string(.galleryTitle),
                       body: [switcher, main], stylesheet: SafeURL("opencarekit.css")!,
                       scripts: [SafeURL("opencarekit.js")!], icon: SafeURL("star.svg"), appearance: appearance).rendered(in: context)
    }
}
