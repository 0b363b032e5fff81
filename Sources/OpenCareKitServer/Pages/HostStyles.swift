/// The styles of the host's own pages (sign-in, home, account, sharing, activity) and of the idle warning, on
/// OpenCareKitUI's custom properties so a styler's colours and dark mode apply.
enum HostStyles {
    /// `Resources/host.css`, compiled in.
    static let css = String(decoding: PackageResources.host_css, as: UTF8.self)
}
