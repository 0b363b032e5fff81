/// The stylesheet and script of survey pages. The rules use only OpenCareKitUI's custom properties, so a styler's
/// colors, radius and dark mode apply; append them to `OCKStylesheet.css(_:)`. The script is served as a file (the
/// app's CSP allows no inline script) and the pages work without it: the typed name signs and permissions are
/// skipped.
public enum OCKSurveyAssets {
    /// `Resources/surveys.css`, compiled in, as the script (`Resources/surveys.js`).
    public static let stylesheet = String(decoding: PackageResources.surveys_css, as: UTF8.self)

    /// Draws the signature with pointer events (mouse, touch, pen) into the form's hidden PNG field, and asks the
    /// browser for notification permission, recording its answer.
    public static let script = String(decoding: PackageResources.surveys_js, as: UTF8.self)
}
