import Foundation
import Hummingbird
import Logging
import OpenCareKit
import OpenCareKitStore
import OpenCareKitSurveys
import OpenCareKitUI

/// The care app over HTTP: CareKit's daily tasks page, its forms and the assets, for one patient's store.
///
/// For example:
/// ```swift
/// let server = CareServer(store: store, configuration: .init(timeZone: .current))
/// let app = Application(router: server.router(), configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
/// try await app.runService()
/// ```
public struct CareServer: Sendable {
    /// How the app shows the care plan.
    public struct Configuration: Sendable {
        /// The patient's time zone: where days begin and end.
        public var timeZone: TimeZone
        public var styler: OCKStyler
        /// Card styles by task id, replacing CareKit's choice.
        public var cardStyles: [String: OCKDailyTasksPage.CardStyle]
        /// Host names the app answers to (DNS-rebinding protection); nil accepts any. `serve` sets the loopback names
        /// on loopback, and the public URL's host otherwise.
        public var allowedHosts: Set<String>?
        /// The origin people reach the app at, such as `https://care.example.org`: the only one allowed to write.
        /// Nil: the `Host` over plain HTTP.
        public var publicOrigin: String?
        /// Charts of the Insights tab after task completion.
        public var insights: [OCKCartesianChartViewSynchronizer]
        /// The surveys the app runs, by the id of their task; those tasks get survey cards.
        public var surveys: [String: OCKSurvey]
        /// The survey task whose outcome opens the care feed; until it has one, the Care tab shows only its card.
        /// Its outcome holds the signed consent, so its card never offers to delete it.
        public var onboardingTaskID: String?
        /// The current moment; tests pass a fixed one.
        public var now: @Sendable () -> Date

        public init(timeZone: TimeZone = .current, styler: OCKStyler = OCKStyler(),
                    cardStyles: [String: OCKDailyTasksPage.CardStyle] = [:], insights: [OCKCartesianChartViewSynchronizer] = [],
                    surveys: [String: OCKSurvey] = [:], onboardingTaskID: String? = nil,
                    allowedHosts: Set<String>? = nil, publicOrigin: String? = nil,
                    now: @escaping @Sendable () -> Date = Date.init) {
            self.publicOrigin = publicOrigin
            self.surveys = surveys
            self.onboardingTaskID = onboardingTaskID
            self.allowedHosts = allowedHosts
            self.timeZone = timeZone
            self.styler = styler
            self.cardStyles = cardStyles
            self.insights = insights
            self.now = now
        }
    }

    public let store: OCKStore
    public let configuration: Configuration
    let stylesheet: String
    let hub = LiveCareHub()
    let pageCache = PageCache()
    let surveySessions = SurveySessions()
    let liveSlots = LiveStreamSlots()

    /// The Gregorian calendar of the patient's time zone.
    let calendar: Calendar
    /// A render context per language, made once (locales and calendars are costly to make per request).
    let renderContexts: [OCKLanguage: OCKRenderContext]

    /// A server for `store`. The store gets the surveys' rule (`OCKSurveyStoreRule`), so every writer — this app's
    /// pages and API, and anything else writing through the same store — keeps the signed consent and records survey
    /// tasks only from their surveys.
    public init(store: OCKStore, configuration: Configuration = Configuration()) {
        self.store = store
        self.configuration = configuration
        if !configuration.surveys.isEmpty || configuration.onboardingTaskID != nil {
            store.addRule(OCKSurveyStoreRule(surveys: configuration.surveys, consentTaskID: configuration.onboardingTaskID))
        }
        stylesheet = OCKStylesheet.css(configuration.styler) + OCKSurveyAssets.stylesheet
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = configuration.timeZone
        self.calendar = calendar
        renderContexts = Dictionary(uniqueKeysWithValues: OCKLanguage.allCases.map { language in
            (language, OCKRenderContext(localization: OCKLocalization(language: language, timeZone: configuration.timeZone)))
        })
    }

    /// The daily tasks page: the configured card styles, survey cards for survey tasks, and the onboarding gate.
    var page: OCKDailyTasksPage {
        var styles = configuration.cardStyles
        for taskID in configuration.surveys.keys { styles[taskID] = .survey }
        var page = OCKDailyTasksPage(calendar: calendar, styles: styles, onboardingTaskID: configuration.onboardingTaskID)
        if let onboarding = configuration.onboardingTaskID {
            page.synchronizers[onboarding] = OCKSurveyTaskViewSynchronizer(allowsDeletingOutcome: false)
        }
        return page
    }

    /// Every route of the app.
    public func router() -> Router<CareRequestContext> {
        // HEAD answers like GET without a body (RFC 9110 §9.3.2).
        let router = Router(context: CareRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.middlewares.add(SecurityHeadersMiddleware())
        router.middlewares.add(SameOriginMiddleware(allowedHosts: configuration.allowedHosts,
                                                    publicOrigin: configuration.publicOrigin))
        addAssetRoutes(to: router)
        addCareRoutes(to: router)
        addContactRoutes(to: router)
        addInsightsRoutes(to: router)
        addSurveyRoutes(to: router)
        addAPIRoutes(to: router)
        return router
    }

    func addAssetRoutes(to router: Router<CareRequestContext>) {
        router.get("/healthz") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                     body: .init(byteBuffer: ByteBuffer(string: "ok")))
        }
        router.get("/assets/opencarekit.css") { _, _ in
            Self.asset(stylesheet, type: "text/css; charset=utf-8")
        }
        router.get("/assets/opencarekit.js") { _, _ in
            Self.asset(OCKScript.source, type: "text/javascript; charset=utf-8")
        }
        router.get("/assets/app.js") { _, _ in
            Self.asset(AppScript.source, type: "text/javascript; charset=utf-8")
        }
        router.get("/assets/surveys.js") { _, _ in
            Self.asset(OCKSurveyAssets.script, type: "text/javascript; charset=utf-8")
        }
        router.get("/assets/icon.svg") { _, _ in
            Self.asset(Self.icon, type: "image/svg+xml")
        }
    }

    static func asset(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=300"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static let icon = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#0062cc"/><path d="M16 25s-8-5-8-11a4.5 4.5 0 0 1 8-2.8A4.5 4.5 0 0 1 24 14c0 6-8 11-8 11z" fill="#fff"/></svg>"##
}
