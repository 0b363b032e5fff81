import Foundation
import Hummingbird
import Logging
import OpenCareKit
import OpenCareKitDirectory
import OpenCareKitStore
import OpenCareKitSurveys
import OpenCareKitUI

/// The care app of one care record: CareKit's daily tasks page, its forms, live updates and JSON API over one
/// patient's store. `CareHost` serves many records, each under its base path, behind sign-in and authorization;
/// a `CareServer` never answers a request that `CareHost` has not checked.
public struct CareServer: Sendable {
    /// How the app shows the care plan.
    public struct Configuration: Sendable {
        /// The patient's time zone: where days begin and end.
        public var timeZone: TimeZone
        /// A look for the record's pages. ``CareHost`` sets it to its own `styler`, but the pages' stylesheet is the
        /// host's (made from `CareHost.Configuration.styler`), so a value set here changes nothing shown.
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
        /// The surveys the server has, by their own id: a task naming one (`OCKSurvey.taskUserInfoKey`) runs it.
        public var surveyCatalog: [String: OCKSurvey] = [:]
        /// The survey task whose outcome opens the care feed; until it has one, the Care tab shows only its card.
        /// Its outcome holds the signed consent, so its card never offers to delete it.
        public var onboardingTaskID: String?
        /// The current moment; tests pass a fixed one.
        public var now: @Sendable () -> Date
        /// Pages sign out after this long without activity, warning a minute before; nil: they do not.
        public var signOutAfter: Duration?
        /// Prints reports to PDF; nil: the report page says PDFs cannot be made (printing still works).
        public var reportPrinter: ReportPrinter?

        /// Settings for one record's app; the properties without a parameter keep their defaults until set.
        /// ``CareHost`` makes these from each record's care plan (`CarePlanCatalog`) unless it is given its own.
        ///
        /// - Parameters:
        ///   - timeZone: The patient's time zone, where days begin and end (the server's by default).
        ///   - styler: A look for the record's pages (not read: the pages use the host's stylesheet).
        ///   - cardStyles: Card styles by task id, replacing CareKit's choice; survey tasks get survey cards whatever
        ///     this says.
        ///   - insights: The charts of the Insights tab.
        ///   - surveys: The surveys the app runs, by the id of their task.
        ///   - onboardingTaskID: The survey task whose outcome opens the care feed; nil: no onboarding.
        ///   - allowedHosts: Host names the app answers to; nil accepts any.
        ///   - publicOrigin: The origin people reach the app at, the only one allowed to write; nil: the `Host` over
        ///     plain HTTP.
        ///   - now: The clock; tests pass a fixed one.
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

    /// The record's store: the pages read it, and the forms, API and sync write it. The record's rules were
    /// installed on it when the server was made, so every writer through this store passes them.
    public let store: OCKStore
    /// The settings the server was made with.
    public let configuration: Configuration
    /// Where the record's pages live: `/records/{id}`.
    public let basePath: String
    /// Watches the store file for other processes' writes, and tells the host of changes, while anything uses this
    /// server.
    let lifetime: RecordLifetime?
    let hub = LiveCareHub()
    let pageCache = PageCache()
    /// The record's surveys in progress, kept in the directory.
    let surveySessions: SurveySessions
    /// Live streams per client address, shared by every record a host serves.
    let liveSlots: LiveStreamSlots
    /// Reports running, with the host's other heavy work.
    let heavyWork: HeavyWork

    /// The Gregorian calendar of the patient's time zone.
    let calendar: Calendar
    /// A render context per language, made once (locales and calendars are costly to make per request).
    let renderContexts: [OCKLanguage: OCKRenderContext]

    /// A server for `store`. The store gets the record's rules (`Configuration.recordRules`), so every writer — this
    /// app's pages, API and sync, and anything else writing through the same store — passes them.
    ///
    /// - Parameters:
    ///   - store: The record's store, which the pages read and the forms write (through the record's rules).
    ///   - configuration: The record's app: its plan's rules, names, styler, clock and limits.
    ///   - basePath: Where the record's pages live, such as `/records/{id}`.
    ///   - directory: Where the record's surveys in progress are kept (so that any app server carries one on).
    ///   - record: The record's id in `directory`.
    ///   - watchesExternalChanges: Whether live pages follow other processes' writes to the store file, checked
    ///     four times a second while this server is in use.
    ///   - liveSlots: The live streams each client may open, shared with the host's other records.
    ///   - heavyWork: The reports (and the host's imports and FHIR reads) that may run at once.
    ///   - onChange: Called after each change to the store while this server is in use (the host's record feed).
    public init(store: OCKStore, configuration: Configuration = Configuration(), basePath: String = "",
                directory: any CareDirectory, record: CareRecordID,
                watchesExternalChanges: Bool = true, liveSlots: LiveStreamSlots = LiveStreamSlots(), heavyWork: HeavyWork = HeavyWork(),
                onChange: (@Sendable () -> Void)? = nil) {
        self.liveSlots = liveSlots
        self.heavyWork = heavyWork
        surveySessions = SurveySessions(directory: directory, record: record) { [configuration] surveyID, taskID in
            if let survey = configuration.surveys[taskID], survey.id == surveyID { return survey }
            return configuration.surveyCatalog[surveyID]
        }
        self.store = store
        self.configuration = configuration
        self.basePath = basePath
        lifetime = RecordLifetime(store: store, interval: watchesExternalChanges ? .milliseconds(250) : nil, onChange: onChange)
        configuration.installRules(on: store)
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

    /// The surveys' store rule, which also says which survey a task runs.
    var surveyRule: OCKSurveyStoreRule { Self.surveyRule(configuration) }

    static func surveyRule(_ configuration: Configuration) -> OCKSurveyStoreRule {
        OCKSurveyStoreRule(surveys: configuration.surveys, consentTaskID: configuration.onboardingTaskID, catalog: configuration.surveyCatalog)
    }

    /// The survey `task` runs: the one configured for its id, else the one it names from the server's catalog.
    func survey(for task: OCKTask) -> OCKSurvey? { surveyRule.survey(for: task) }

    /// Seconds without activity after which the record's pages sign out.
    var idleSeconds: Int? { configuration.signOutAfter.map { Int($0.components.seconds) } }

    /// `path` within the record: the record's base path, then `path`.
    func url(_ path: String) -> String { basePath + path }

    /// A page that explains what went wrong, with the way back to the record's Care page.
    func errorPage(_ message: PageMessage, status: HTTPResponse.Status, context: OCKRenderContext) -> Response {
        AppPage.error(message, status: status, context: context, back: url("/care"))
    }
}
