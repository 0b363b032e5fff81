/// The care app's script (served as /assets/app.js; the CSP allows no inline script). The pages work without it;
/// with it, forms post in place, every open page follows the store over server-sent events, a swipe changes the day,
/// and the page moves to the new day at local midnight.
enum AppScript {
    /// `Resources/app.js`, compiled in.
    static let source = String(decoding: PackageResources.app_js, as: UTF8.self)
}
