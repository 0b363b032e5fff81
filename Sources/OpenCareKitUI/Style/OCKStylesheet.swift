/// The stylesheet of OpenCareKitUI's components: the styler's custom properties followed by rules that use only
/// them. Text sizes are in rem so the browser's text size scales them; targets are at least 44 CSS px; rows stack
/// at large text sizes; `prefers-reduced-motion` stops transitions.
public enum OCKStylesheet {
    /// The whole stylesheet for `styler`.
    public static func css(_ styler: OCKStyler = OCKStyler()) -> String {
        styler.customProperties + rules
    }

    /// The rules (`Resources/opencarekit.css`).
    static let rules = String(decoding: PackageResources.opencarekit_css, as: UTF8.self)
}
