/// The stylesheet of OpenCareKitUI's components: the styler's custom properties followed by rules that use only
/// them. Text sizes are in rem so the browser's text size scales them; targets are at least 44 CSS px; rows stack
/// at large text sizes; `prefers-reduced-motion` stops transitions.
///
/// Serve it as `text/css` at the URL in ``OCKPage/stylesheet``.
///
/// For example:
/// ```swift
/// var styler = OCKStyler()
/// styler.light.tint = OCKColor(hex: "#00796b")!
/// let css: String = OCKStylesheet.css(styler)
/// ```
public enum OCKStylesheet {
    /// The whole stylesheet for `styler`.
    ///
    /// - Parameter styler: The colors and sizes; CareKit's look by default.
    /// - Returns: The styler's ``OCKStyler/customProperties`` followed by the component rules.
    public static func css(_ styler: OCKStyler = OCKStyler()) -> String {
        styler.customProperties + rules
    }

    /// The rules (`Resources/opencarekit.css`).
    static let rules = String(decoding: PackageResources.opencarekit_css, as: UTF8.self)
}
