import Crypto
import Foundation
import OpenCareKit
import Hummingbird
import HummingbirdAuth
import OpenCareKitDirectory
import OpenCareKitStore
import OpenCareKitSurveys
import OpenCareKitUI
import Logging
import Synchronization

/// A care server for a family or a clinic: many care records, people who sign in, their roles in each record, and
/// an audit log. Every route that touches a record checks who is asking, and what their role allows, before the
/// record's store is opened; a person without access to a record gets 404 for all of its addresses.
///
/// For example:
/// ```swift
/// let directory = try SQLiteCareDirectory(path: data.appending(path: "directory.sqlite").path)
/// let host = CareHost(directory: directory, configuration: .init(stores: CareDataDirectory(path: data.path)))
/// let app = Application(router: host.router(), configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
/// try await app.runService()
/// ```
public struct CareHost: Sendable {
    /// The settings of a ``CareHost``: where the records are stored, the names and origin it answers to, sign-in and
    /// session rules, limits, reminders and the clock. Every setting has a default; `init` takes the common ones and
    /// the rest are set as properties. The host keeps a copy: a change made after the host is made does not reach it.
    ///
    /// For example:
    /// ```swift
    /// var configuration = CareHost.Configuration(stores: CareDataDirectory(path: data.path),
    ///                                            allowedHosts: ["care.example.org"],
    ///                                            publicOrigin: "https://care.example.org")
    /// configuration.requiresTwoStepForClinicians = true
    /// configuration.reminders = ReminderConfiguration(contact: "mailto:ops@example.org")
    /// let host = CareHost(directory: directory, configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// Where the records' stores are: a data directory's files (`records/{id}.sqlite`), or a PostgreSQL
        /// database; nil keeps them in memory (tests).
        public var stores: (any CareRecordStores)?
        /// Host names the app answers to (DNS-rebinding protection); nil accepts any.
        public var allowedHosts: Set<String>?
        /// The origin people reach the app at, such as `https://care.example.org`: the only one allowed to write;
        /// with https, cookies are `Secure`.
        public var publicOrigin: String?
        /// A session ends after this long without the person doing anything (HIPAA's automatic logoff).
        public var idleTimeout: Duration
        /// bcrypt's cost for new passwords (each step doubles the work; 12 by default).
        public var passwordCost: UInt8
        /// At most this many records are open at once.
        public var openRecordLimit: Int
        /// Email addresses the sign-in page offers one-click sign-in as, without a password (`serve --demo` on
        /// loopback only).
        public var demoAccounts: [String]
        /// The look of every page (colours for light and dark mode, dimensions, animation): the stylesheet at
        /// `/assets/opencarekit.css` and the one report PDFs are printed with are made from it when the host is made.
        /// OpenCareKitUI's default look unless set.
        public var styler: OCKStyler
        /// The current moment; tests pass a fixed one.
        public var now: @Sendable () -> Date
        /// Whether every clinician must turn on two-step sign-in before anything else.
        public var requiresTwoStepForClinicians = false
        /// Tests: a revision written into the app's script, which makes another app shell (and service worker) than
        /// this build's, as a new server version would.
        public var shellRevision: String?
        /// How often a live stream checks that its person may still see the record (signed in, still a member);
        /// it ends when not.
        public var liveAccessInterval: Duration = .seconds(15)
        /// When a clinician's home flags a patient as needing attention.
        public var flagRules = ClinicianFlagRules()
        /// The patients a page of a clinician's home shows (50): those with open triage items first, then by name, the
        /// rest a link or a search away. Only the page's stores are read for their summaries.
        public var clinicianHomeLimit = 50
        /// How reminders are sent (Web Push and open pages); nil: the server offers none. The host's
        /// `reminderService()` sends them.
        public var reminders: ReminderConfiguration?
        /// The Chromium that prints reports to PDF; nil: the first of `ReportPrinter.executableNames` on `PATH`.
        public var chromium: String?
        /// Where the host logs what is not a request's (the stores' slow calls, reminders); requests are logged with
        /// the application's logger.
        public var logger = Logger(label: "opencarekit")
        /// The operator's token: with it (`Authorization: Bearer …`), `/metrics` answers from any address; without,
        /// only to loopback clients not behind a proxy.
        public var operatorToken: String?
        /// A store call slower than this is logged (warning).
        public var slowStoreCall: Duration = .milliseconds(250)
        /// The most live streams one person may have open over all their addresses (`LiveStreamSlots.perPerson`).
        public var liveStreamsPerPerson = LiveStreamSlots.perPerson
        /// Imports, reports, FHIR exports and searches running at once: per person and for the server (`HeavyWork`).
        public var heavyWorkPerPerson = HeavyWork.perPerson
        /// The most of that heavy work the whole server runs at once, whoever asks (by default the number of active
        /// processors less one, at least 1; below 1 counts as 1). One more request is answered 503 with `Retry-After`.
        public var heavyWorkOverall = HeavyWork.overall
        /// Seals the secrets the directory keeps (two-step keys, the Web Push and log keys) with a key kept outside
        /// the database; nil: they are kept as they are (`serve` always gives one).
        public var secrets: SecretBox?

        /// Settings with the common options; the other properties keep their defaults until set.
        ///
        /// - Parameters:
        ///   - stores: Where the records' stores are kept; nil keeps them in memory, lost with the process (tests).
        ///   - allowedHosts: Host names the app answers to (others get 421); nil accepts any `Host`.
        ///   - publicOrigin: The address people reach the app at, such as `https://care.example.org`: the only origin
        ///     allowed to write, and with https the session cookie is `Secure`. Nil: `http://` and the `Host`.
        ///   - idleTimeout: How long a session lasts without the person doing anything (15 minutes by default); pages
        ///     sign out after it too.
        ///   - passwordCost: bcrypt's cost for new passwords (12 by default). bcrypt takes 4 to 31; the host does not
        ///     check, and a cost outside that range stops the process the first time a password is hashed.
        ///   - openRecordLimit: How many records are open at once (64 by default; below 1 counts as 1); opening one
        ///     more closes the least recently used.
        ///   - demoAccounts: Emails the sign-in page offers one-click sign-in as, without a password: anyone who
        ///     reaches the page can sign in as them, so leave it empty on a server others can reach.
        ///   - styler: The look of every page.
        ///   - now: The clock that sessions, reminders, triage and the audit log read; tests pass a fixed one.
        public init(stores: (any CareRecordStores)? = nil, allowedHosts: Set<String>? = nil, publicOrigin: String? = nil,
                    idleTimeout: Duration = .seconds(15 * 60), passwordCost: UInt8 = 12, openRecordLimit: Int = 64,
                    demoAccounts: [String] = [], styler: OCKStyler = OCKStyler(), now: @escaping @Sendable () -> Date = Date.init) {
            self.stores = stores
            self.allowedHosts = allowedHosts
            self.publicOrigin = publicOrigin
            self.idleTimeout = idleTimeout
            self.passwordCost = passwordCost
            self.openRecordLimit = openRecordLimit
            self.demoAccounts = demoAccounts
            self.styler = styler
            self.now = now
        }

        /// Whether cookies must be `Secure`: the public origin is https.
        var usesSecureCookies: Bool { publicOrigin?.hasPrefix("https://") == true }
    }

    /// The directory the host serves: accounts, records, memberships, sessions, access tokens and the audit log.
    /// Reading or writing it directly goes around the host's permission checks and audit log.
    public let directory: any CareDirectory
    /// The settings the host was made with.
    public let configuration: Configuration
    let records: CareRecordPool
    let audit: AuditLog
    let signInLimiter: SignInLimiter
    /// A bcrypt hash to check unknown emails against (`dummyPasswordHash()`), made on first use.
    let dummyHash = DummyHash()
    let sessionDriver: DirectorySessionDriver
    let stylesheet: String
    let renderContexts: [OCKLanguage: OCKRenderContext]
    /// The routes every record answers, with their policies.
    let recordRoutes: [RecordRouteTable.Route]
    /// Which open record just changed, for the clinicians' live homes.
    let changeFeed = RecordChangeFeed()
    /// Which record's triage items were just raised or changed, for the clinicians' live homes.
    let triageFeed = RecordChangeFeed()
    /// Messages sent and threads read, for open pages and the push sender.
    let messageFeed = LiveFeed<MessageEvent>()
    let messageActivity = RecentRecordActivity()
    let summaries = PatientSummaries()
    let summaryAudits: SummaryViewAudits
    let zoneContexts = ZoneRenderContexts()
    /// Live streams per client address, shared by every record and the homes.
    let liveSlots: LiveStreamSlots
    /// Imports, reports, FHIR exports and searches running, shared by every record.
    let heavyWork: HeavyWork
    /// Records whose reminders changed, and open pages' reminder streams.
    let reminderSignals = ReminderSignals()
    /// The Web Push signing key, once read from the directory.
    let vapidKey: SharedValueCache<P256.Signing.PrivateKey>
    /// The key of records' pseudonyms in logs, once read from the directory.
    let logKey: SharedValueCache<SymmetricKey>
    /// Requests, live streams, store calls, sign-in failures and reminders, for `/metrics`.
    public let metrics = ServerMetrics()

    /// A host over `directory`.
    ///
    /// - Parameters:
    ///   - directory: The accounts, records, memberships, sessions and audit log the host serves.
    ///   - configuration: The host's settings: stores, allowed hosts, public origin, limits, reminders, clock.
    ///   - openStore: Opens a record's store; by default the configuration's `stores` give it (in memory without).
    ///   - recordConfiguration: How a record's app is set up; by default from its care plan (`CarePlanCatalog`),
    ///     with the host's names, origin, styler and clock.
    public init(directory: any CareDirectory, configuration: Configuration = Configuration(),
                openStore: (@Sendable (CareRecord) throws -> OCKStore)? = nil,
                recordConfiguration: (@Sendable (CareRecord) -> CareServer.Configuration)? = nil) {
        self.directory = directory
        self.configuration = configuration
        audit = AuditLog(directory: directory)
        signInLimiter = SignInLimiter(counting: metrics.signInFailures)
        liveSlots = LiveStreamSlots(personLimit: configuration.liveStreamsPerPerson, gauge: metrics.liveStreams)
        heavyWork = HeavyWork(perPerson: configuration.heavyWorkPerPerson, overall: configuration.heavyWorkOverall)
        vapidKey = SharedValueCache.webPushKey(secrets: configuration.secrets)
        logKey = SharedValueCache.logKey(secrets: configuration.secrets)
        sessionDriver = DirectorySessionDriver(directory: directory, now: configuration.now)
        stylesheet = OCKStylesheet.css(configuration.styler) + OCKSurveyAssets.stylesheet + HostStyles.css
        renderContexts = Dictionary(uniqueKeysWithValues: OCKLanguage.allCases.map { language in
            (language, OCKRenderContext(localization: OCKLocalization(language: language, timeZone: .current)))
        })
        let liveSlots = self.liveSlots, heavyWork = self.heavyWork
        let openStore = openStore ?? { [stores = configuration.stores] record in
            try stores?.store(for: record) ?? OCKStore(name: "record-\(record.id)", type: .inMemory)
        }
        let diagnostics = { @Sendable [logKey, metrics, configuration] (record: CareRecord) in
            var logger = configuration.logger
            if let key = logKey.cached { logger[metadataKey: "record"] = "\(RecordLogID.pseudonym(of: record.id.description, key: key))" }
            return OCKStoreDiagnostics(logger: logger, slowCallThreshold: configuration.slowStoreCall,
                                       readTimer: metrics.storeReads, writeTimer: metrics.storeWrites)
        }
        let printer = ReportPrinter(chromium: configuration.chromium, stylesheet: stylesheet)
        let recordConfiguration = recordConfiguration ?? { [configuration] record in
            var settings = CarePlanCatalog.configuration(for: record)
            settings.allowedHosts = configuration.allowedHosts
            settings.publicOrigin = configuration.publicOrigin
            settings.styler = configuration.styler
            settings.now = configuration.now
            settings.signOutAfter = configuration.idleTimeout
            settings.reportPrinter = printer
            return settings
        }
        records = CareRecordPool(capacity: configuration.openRecordLimit) { [changeFeed] record in
            let settings = recordConfiguration(record)
            let store = try openStore(record)
            store.diagnostics = diagnostics(record)
            return CareServer(store: store, configuration: settings, basePath: "/records/\(record.id)",
                              directory: directory, record: record.id, liveSlots: liveSlots, heavyWork: heavyWork,
                              onChange: { changeFeed.publish(record.id) })
        }
        summaryAudits = SummaryViewAudits(interval: TimeInterval(configuration.idleTimeout.components.seconds))
        recordRoutes = Self.recordRouteList
    }

    /// Every route of the server.
    public func router() -> Router<CareRequestContext> {
        makeRouter().router
    }

    /// The router, and for each of its routes (`"GET /path"`) who may reach it: the route walk of the tests checks
    /// that no route is outside this catalog.
    func makeRouter() -> (router: Router<CareRequestContext>, catalog: [String: RouteAccess]) {
        let router = Router(context: CareRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.middlewares.add(RequestLogMiddleware(metrics: metrics) { [logKey, directory, configuration] in
            try? await logKey.value(in: directory, now: configuration.now())
        })
        router.middlewares.add(SecurityHeadersMiddleware())
        router.middlewares.add(ErrorMiddleware())
        router.middlewares.add(SameOriginMiddleware(allowedHosts: configuration.allowedHosts, publicOrigin: configuration.publicOrigin))
        router.middlewares.add(SessionLoadFailureMiddleware())
        router.middlewares.add(SessionMiddleware(storage: sessionDriver, configuration: SessionMiddlewareConfiguration(
            sessionCookieParameters: SessionCookieParameters(name: Self.sessionCookie, path: "/", secure: configuration.usesSecureCookies,
                                                             sameSite: .lax),
            keyPrefix: "session.", defaultSessionExpiration: configuration.idleTimeout)))
        router.middlewares.add(CareAuthenticator(host: self))
        var routes = HostRoutes(router: router)
        addAssetRoutes(to: &routes)
        addAccountRoutes(to: &routes)
        addRecordRoutes(to: &routes)
        addSharingRoutes(to: &routes)
        addTriageRoutes(to: &routes)
        addMessageRoutes(to: &routes)
        addActivityRoutes(to: &routes)
        addTokenRoutes(to: &routes)
        addCalendarRoutes(to: &routes)
        addReminderRoutes(to: &routes)
        addFHIRRoutes(to: &routes)
        addTwoStepRoutes(to: &routes)
        addClinicianRoutes(to: &routes)
        addOperatorRoutes(to: &routes)
        return (router, routes.catalog)
    }

    static let sessionCookie = "ock_session"

    func addAssetRoutes(to routes: inout HostRoutes) {
        routes.public(.get, "/healthz") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                     body: .init(byteBuffer: ByteBuffer(string: "ok")))
        }
        let assets: [(String, String, String)] = [
            ("/assets/opencarekit.css", stylesheet, "text/css; charset=utf-8"),
            ("/assets/opencarekit.js", OCKScript.source, "text/javascript; charset=utf-8"),
            ("/assets/app.js", configuration.shellRevision.map { "/* shell revision \($0.filter { $0.isLetter || $0.isNumber }) */\n" + AppScript.source }
                ?? AppScript.source, "text/javascript; charset=utf-8"),
            ("/assets/surveys.js", OCKSurveyAssets.script, "text/javascript; charset=utf-8"),
            ("/assets/outbox.js", String(decoding: PackageResources.outbox_js, as: UTF8.self), "text/javascript; charset=utf-8"),
            ("/assets/icon.svg", Self.icon, "image/svg+xml"),
            // The template format and the built-in templates (no record's data).
            (CareServer.templateSchemaPath, OCKCarePlanTemplate.jsonSchema, "application/schema+json"),
        ] + OCKCarePlanTemplate.builtIn.map { ("/templates/\($0.id).json", String(decoding: $0.json(), as: UTF8.self), "application/json") }
        for (path, text, type) in assets {
            routes.public(.get, path) { _, _ in Self.asset(text, type: type) }
        }
        addWebAppRoutes(to: &routes, shellTexts: assets.map(\.1))
        routes.public(.get, "/api/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=300"],
                     body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.json)))
        }
    }

    static func asset(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=300"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static let icon = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#0062cc"/><path d="M16 25s-8-5-8-11a4.5 4.5 0 0 1 8-2.8A4.5 4.5 0 0 1 24 14c0 6-8 11-8 11z" fill="#fff"/></svg>"##

    func renderContext(for request: Request) -> OCKRenderContext {
        let language = request.preferredLanguage
        return renderContexts[language] ?? OCKRenderContext(localization: OCKLocalization(language: language, timeZone: .current))
    }
}

/// Who may reach a route of the host.
enum RouteAccess: Equatable, Sendable {
    /// Anyone: sign-in, assets, health.
    case `public`
    /// A signed-in person; the route touches no record (home, account).
    case account
    /// A member of the record in the path whose role holds the policy's permission.
    case record(RecordRoutePolicy)
    /// The holder of a calendar feed's secret (in the path): it names the account and the record, and the
    /// membership and its permission to read are checked, and the fetch audited, before the store is touched.
    case calendarFeed
    /// A FHIR read of the record that the Patient id (in the path, or the `patient` parameter) names: checked as a
    /// record's route with the policy, a token within its SMART scope.
    case fhir(RecordRoutePolicy)
    /// The server's operator: a client on this machine not behind a proxy, or the holder of the operator's token.
    /// Touches no record.
    case `operator`
}

/// Registers the host's routes, each with who may reach it; there is no way here to add a route without saying so.
struct HostRoutes {
    let router: Router<CareRequestContext>
    private(set) var catalog: [String: RouteAccess] = [:]

    init(router: Router<CareRequestContext>) {
        self.router = router
    }

    typealias Handler = @Sendable (Request, CareRequestContext) async throws -> Response

    /// How the catalog names a route: `GET /records/{record}/care` as the router describes its path.
    static func key(_ method: HTTPRequest.Method, _ path: RouterPath) -> String { "\(method.rawValue) \(path)" }

    /// The routes of `router` that the catalog does not cover: each is reachable without an authorization policy.
    static func unguardedRoutes(of router: Router<CareRequestContext>, catalog: [String: RouteAccess]) -> [String] {
        router.routes.map { key($0.method, $0.path) }.filter { route in
            // HEAD answers as GET does (the router makes it), so it has GET's policy.
            let asGet = route.hasPrefix("HEAD ") ? "GET " + route.dropFirst(5) : route
            return catalog[asGet] == nil
        }
    }

    mutating func `public`(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler) {
        add(method, path, .public, handler)
    }

    /// A route for signed-in people: without a session it redirects to sign-in (or answers 401 to a script).
    mutating func account(_ method: HTTPRequest.Method, _ path: String,
                          _ handler: @escaping @Sendable (Request, CareRequestContext, CareIdentity) async throws -> Response) {
        add(method, path, .account) { request, context in
            guard let identity = context.identity, identity.token == nil else {
                throw SignInRequired()
            }
            return try await handler(request, context, identity)
        }
    }

    /// A calendar feed's route: the handler checks the secret in the path (`CareHost.calendarFeed`).
    mutating func calendarFeed(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler) {
        add(method, path, .calendarFeed, handler)
    }

    /// A FHIR endpoint's route: the handler authorizes the record it names (`CareHost.fhirRead`).
    mutating func fhir(_ method: HTTPRequest.Method, _ path: String, _ policy: RecordRoutePolicy, _ handler: @escaping Handler) {
        add(method, path, .fhir(policy), handler)
    }

    /// A route for the server's operator (`CareHost.isOperator`); anyone else gets 404, as if it were not there.
    mutating func `operator`(_ method: HTTPRequest.Method, _ path: String, host: CareHost, _ handler: @escaping Handler) {
        add(method, path, .operator) { request, context in
            guard host.isOperator(request, context) else {
                throw ClientError(status: .notFound, message: "Not found.")
            }
            return try await handler(request, context)
        }
    }

    mutating func record(_ method: HTTPRequest.Method, _ path: String, _ policy: RecordRoutePolicy, _ handler: @escaping Handler) {
        add(method, path, .record(policy), handler)
    }

    private mutating func add(_ method: HTTPRequest.Method, _ path: String, _ access: RouteAccess, _ handler: @escaping Handler) {
        catalog[Self.key(method, RouterPath(path))] = access
        router.on(RouterPath(path), method: method, use: handler)
    }
}
