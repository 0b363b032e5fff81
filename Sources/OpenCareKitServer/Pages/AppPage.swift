import Foundation
import Hummingbird
import OpenCareKitUI

/// The app's sections, shown as a tab bar.
enum AppTab: String, CaseIterable {
    case care, insights, contacts

    var path: String { "/\(rawValue)" }
    var title: OCKStringKey {
        switch self {
        case .care: .careTab
        case .insights: .insightsTab
        case .contacts: .contactsTab
        }
    }
}

/// Page chrome shared by the app's pages: a skip link, the tab bar and the main landmark.
struct AppPage {
    var title: String
    /// The record's base path (`/records/{id}`) that the tabs and live updates start with; empty for pages that
    /// belong to no record.
    var base = ""
    /// Seconds without activity after which the page signs out (warning a minute before); nil for pages of nobody
    /// signed in.
    var idleSeconds: Int?
    var tab: AppTab?
    var main: [HTML]
    /// Values for the page's script: the CSRF token, the live-update address, the next local midnight.
    var metadata: [String: String] = [:]
    /// Whether the tab bar shows (a survey, like CareKit's modal one, hides it).
    var showsTabs = true
    /// Scripts after the app's own (the survey script).
    var scripts: [SafeURL] = []

    func render(in context: OCKRenderContext) -> String {
        var metadata = self.metadata
        if !base.isEmpty {
            metadata["ock-changes"] = base + "/live/changes"
            metadata["ock-record"] = base
        }
        if let idleSeconds {
            metadata["ock-idle-seconds"] = String(idleSeconds)
            metadata["ock-idle-warning"] = HostText.idleWarning.text(context.localization.language)
            metadata["ock-idle-stay"] = HostText.staySignedIn.text(context.localization.language)
        }
        let language = context.localization.language
        let recordLinks = HTML.element("nav", ["class": "ock-record-links", "aria-label": HostText.account.text(language)], [
            .element("ul", [:], [
                .element("li", [:], [.element("a", ["href": "/", "class": "ock-link-row"], [.text(HostText.allRecords.text(language))])]),
                // The count is the reader's (the page is the same for everyone who reads it): the app's script asks for it.
                .element("li", [:], [.element("a", ["href": base + "/messages", "class": "ock-link-row"], [
                    .text(MessageText.link.text(language) + " "),
                    .element("span", ["class": "ock-badge ock-badge-unread", "data-ock-unread": "", "hidden": "hidden",
                                      "data-words": MessageText.unreadCount.text(language)], []),
                ])]),
                .element("li", [:], [.element("a", ["href": base + "/plan", "class": "ock-link-row"], [.text(EditorText.planLink.text(language))])]),
                .element("li", [:], [.element("a", ["href": base + "/sharing", "class": "ock-link-row"], [.text(HostText.sharingLink.text(language))])]),
                .element("li", [:], [.element("a", ["href": base + "/reminders", "class": "ock-link-row"], [.text(ReminderText.link.text(language))])]),
                .element("li", [:], [.element("a", ["href": base + "/reports", "class": "ock-link-row"], [.text(ReportText.link.text(language))])]),
                .element("li", [:], [.element("a", ["href": "/account", "class": "ock-link-row"], [.text(HostText.account.text(language))])]),
            ]),
        ])
        let tabs = HTML.element("nav", ["class": "ock-tab-bar", "aria-label": context.string(.sections)], [
            .element("ul", [:], AppTab.allCases.map { item in
                var attributes = ["class": "ock-tab", "href": base + item.path]
                if item == tab { attributes["aria-current"] = "page" }
                return .element("li", [:], [.element("a", attributes, [.text(context.string(item.title))])])
            }),
        ])
        // The app on a device (`DeviceData` in the app's script): the offline line and the changes waiting to be
        // sent, the changes the record refused, and the choice to keep the record on this device. Hidden until the
        // script has something to say; their words are the script's.
        let device = HTML.element("section", ["class": "ock-device", "data-ock-device": "", "aria-label": OfflineText.onThisDevice.text(language),
                                              "data-words": OfflineText.json(language)], [
            .element("p", ["class": "ock-device-status", "data-ock-device-status": "", "role": "status"], []),
            // What others changed while this device was offline, that made a change of this one's needless.
            .element("div", ["role": "status"], [
                .element("ul", ["class": "ock-outbox-list ock-device-notices", "data-ock-notices": "", "hidden": "hidden"], []),
            ]),
            .element("section", ["class": "ock-outbox", "data-ock-outbox": "", "hidden": "hidden", "aria-labelledby": "ock-outbox-heading"], [
                .element("h2", ["id": "ock-outbox-heading"], [.text(OfflineText.notSent.text(language))]),
                .element("ul", ["class": "ock-outbox-list"], []),
            ]),
        ])
        let keep = HTML.element("aside", ["class": "ock-keep", "data-ock-keep": "", "hidden": "hidden", "aria-label": OfflineText.onThisDevice.text(language)], [
            .element("button", ["type": "button", "class": "ock-button", "aria-pressed": "false", "aria-describedby": "ock-keep-hint"],
                     [.text(OfflineText.keep.text(language))]),
            .element("p", ["class": "ock-keep-hint", "id": "ock-keep-hint"], [.text(OfflineText.keepHint.text(language))]),
            .element("p", ["class": "ock-keep-status", "role": "status"], []),
        ])
        let body: [any OCKComponent] = [
            HTML.element("a", ["class": "ock-skip-link", "href": "#main"], [.text(context.string(.skipToContent))]),
            showsTabs && !base.isEmpty ? tabs : HTML.empty,
            device,
            HTML.element("main", ["class": "ock-page-main", "id": "main"], main),
            showsTabs && !base.isEmpty ? keep : HTML.empty,
            showsTabs && !base.isEmpty ? recordLinks : HTML.empty,
            // Shown by the app's script when a new version of the app (its service worker) is installed and waits.
            // Its words are set when it is shown, so that screen readers announce the live region's change.
            HTML.element("div", ["class": "ock-update", "data-ock-update": "", "hidden": "hidden",
                                 "data-text": WebAppText.updateReady.text(language)], [
                .element("p", ["role": "status"], []),
                .element("button", ["type": "button", "class": "ock-button"], [.text(WebAppText.reload.text(language))]),
            ]),
            // Shown by the app's script when the browser offers to install the app.
            HTML.element("p", ["class": "ock-install-row", "data-ock-install": "", "hidden": "hidden"], [
                .element("button", ["type": "button", "class": "ock-button"], [.text(WebAppText.install.text(language))]),
            ]),
        ]
        var page = OCKPage(title: title, body: body, stylesheet: SafeURL("/assets/opencarekit.css")!,
                           scripts: [SafeURL("/assets/opencarekit.js")!, SafeURL("/assets/outbox.js")!, SafeURL("/assets/app.js")!] + scripts,
                           icon: SafeURL("/assets/icon.svg"), metadata: metadata)
        // Installable: the manifest, the home-screen icon and the bars' colours (`WebApp`).
        page.manifest = SafeURL(WebApp.manifestPath)
        // Opaque (the maskable one): iOS fills a home-screen icon's transparent corners with black.
        page.touchIcon = SafeURL(AppIcon.path(size: 192, purpose: .maskable))
        page.themeColors = (OCKStyler.Colors.light.background, OCKStyler.Colors.dark.background)
        return page.rendered(in: context)
    }

    /// An HTML response that is never cached (it shows the patient's data).
    static func response(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        response(ByteBuffer(string: html), status: status)
    }

    static func response(_ html: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: html))
    }

    /// A page that explains what went wrong, with the way back.
    static func error(_ message: PageMessage, status: HTTPResponse.Status, context: OCKRenderContext, back: String = "/") -> Response {
        let page = AppPage(title: context.string(.errorTitle), tab: nil, main: [
            .element("h1", [:], [.text(context.string(.errorTitle))]),
            .element("p", ["class": "ock-notice", "role": "alert"], [.text(message.text(context.localization.language))]),
            .element("p", [:], [.element("a", ["href": back, "class": "ock-link-row"], [.text(context.string(.backToCare))])]),
        ])
        return response(page.render(in: context), status: status)
    }
}

extension Request {
    /// The reader's language from Accept-Language: Korean when it comes before English, English otherwise.
    var preferredLanguage: OCKLanguage {
        let header = headers[.acceptLanguage] ?? ""
        let ranked = header.split(separator: ",").enumerated().compactMap { index, part -> (String, Double, Int)? in
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first?.lowercased(), !tag.isEmpty else { return nil }
            let quality = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return (String(tag.prefix { $0 != "-" }), quality, index)
        }.sorted { ($0.1, -$0.2) > ($1.1, -$1.2) }
        for (language, quality, _) in ranked where quality > 0 {
            if let match = OCKLanguage(rawValue: language) { return match }
        }
        return .english
    }
}
