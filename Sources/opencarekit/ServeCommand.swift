import ArgumentParser
import Foundation
import OpenCareKitDirectory
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import Configuration
import Hummingbird
import Logging
import OpenCareKit
import OpenCareKitPostgres
import OpenCareKitServer
import OpenCareKitStore
import OpenCareKitSurveys
import ServiceLifecycle

/// `opencarekit serve`: the care app in a browser.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the care app: the daily tasks page in a browser, on this machine only by default.")

    @Option(help: "The address to listen on (default: 127.0.0.1, this machine only).")
    var host: String?

    @Option(help: "The port to listen on (default 8080; 0 picks a free one).")
    var port: Int?

    @Option(help: "The data directory (default: $OPENCAREKIT_DATA_DIR, else $XDG_DATA_HOME/opencarekit, else ~/.local/share/opencarekit).")
    var data: String?

    @Option(help: "A PostgreSQL database holding the directory and every care record instead of a data directory, as postgres://user[:password]@host[:port]/database (default: $DATABASE_URL). Give a password in $DATABASE_URL rather than here: other users of the machine can see a command's arguments.")
    var database: String?

    @Flag(inversion: .prefixedNo, help: "Add the demo people (a patient, her caregiver daughter, a clinician) and the patient's record with the demo care plan, if they are missing; on loopback the sign-in page offers one-click sign-in as each.")
    var demo: Bool?

    @Option(help: "With --demo: how many patients the demo clinician follows besides the demo patient, each with a few weeks of history (default 12, at most 1000).")
    var demoPatients: Int?

    @Option(help: "Flag a patient on the clinician's home after missed doses on this many of the last days (default 2; 0 turns the rule off).")
    var flagMissedDoseDays: Int?

    @Option(help: "Flag a patient on the clinician's home after a check-in pain score at or above this in the last 7 days (default 7; 0 turns the rule off).")
    var flagPainScore: Double?

    @Option(help: "The time zone of new records and of a record adopted from before records (default: this machine's).")
    var zone: String?

    @Option(help: "The address people use to reach the app, such as https://care.example.org; required with a --host other than loopback. Its host becomes the only Host the app answers to, and its origin the only one allowed to write.")
    var publicURL: String?

    @Option(help: "The most open connections (default 1000); more are answered 503 and closed.")
    var maxConnections: Int?

    @Option(help: "Seconds a new connection has to send a request's head (default 10).")
    var headerTimeout: Double?

    @Option(help: "Seconds a request has to send its body after its head (default 30).")
    var bodyTimeout: Double?

    @Option(help: "Seconds a kept-alive connection may wait for its next request (default 60).")
    var idleTimeout: Double?

    @Option(help: "The most live pages one person may have open over all their addresses (default 32; one address may have 16).")
    var liveStreamsPerPerson: Int?

    @Option(help: "The most heavy requests (FHIR imports, reports, FHIR exports and searches) one person may have running (default 1).")
    var heavyWorkPerPerson: Int?

    @Option(help: "The most heavy requests the server runs at once, everyone's together (default: the number of cores less one, at least 1).")
    var heavyWork: Int?

    @Option(help: "The most connections to PostgreSQL this server opens, one of them listening for other servers' commits; each transaction under way holds one (default 16).")
    var databaseConnections: Int?

    @Option(help: "Minutes without activity after which a person is signed out, with a warning in the page a minute before (default 15, HIPAA's automatic logoff).")
    var signOutAfter: Double?

    @Flag(inversion: .prefixedNo, help: "Require every clinician to turn on two-step sign-in (an authenticator app) before anything else.")
    var requireTwoStepForClinicians: Bool?

    @Option(help: "Who runs this server, for browsers' push services to reach about its reminders: a mailto: or https: address (default: the public URL when it is https, else mailto:admin@localhost).")
    var pushContact: String?

    @Option(help: .hidden)
    var pushServiceForTests: String?

    @Option(help: "The Chromium (or Chrome) that prints reports to PDF (default: chromium, chromium-browser, google-chrome or google-chrome-stable on PATH; without one, reports print from the browser only).")
    var chromium: String?

    @Flag(inversion: .prefixedNo, help: "Send reminders from this server (default; with several app servers on one database, exactly one sends them: --no-reminders on the others).")
    var reminders: Bool?

    @Flag(inversion: .prefixedNo, help: "Raise each record's daily alerts (missed doses, nothing recorded) from this server at the start of the record's day (default; with several app servers on one database, exactly one sweeps: --no-triage-sweep on the others).")
    var triageSweep: Bool?

    @Option(help: "The least important log messages written: trace, debug, info (every request), notice, warning, error or critical (default info).")
    var logLevel: String?

    @Option(help: "How the log is written to standard error: text (default), or json (one JSON object a line).")
    var logFormat: String?

    @Option(help: "A store call slower than this many milliseconds is logged as a warning (default 250).")
    var slowStoreCall: Int?

    @Option(help: "The operator's token for /metrics from other machines (Authorization: Bearer TOKEN); without it, /metrics answers only on this machine, not through a proxy. Better given as $OPENCAREKIT_METRICS_TOKEN.")
    var metricsToken: String?

    @Option(help: "The file of the key that seals the secrets the directory keeps, outside the database (default: secrets.key in the data directory, made on first run; $OPENCAREKIT_SECRETS_KEY gives the key itself).")
    var secretsKeyFile: String?

    @Option(help: "A JSON file of settings (see the README's \"Configuration\"); the command line, then the environment, take precedence over it (default: $OPENCAREKIT_CONFIG).")
    var config: String?

    @Flag(help: "Print the settings in effect, and where each came from (secrets hidden), and exit.")
    var printConfig = false

    @Option(help: .hidden)
    var now: String?

    /// Tests: another app shell than this build's (its scripts carry the revision), as a new version of the server
    /// would bring, to try the update of installed apps.
    @Option(help: .hidden)
    var shellRevisionForTests: String?

    /// The settings given on the command line, by key.
    var commandLine: [String: ConfigContent] {
        var given: [String: ConfigContent] = [:]
        func put(_ key: String, _ value: ConfigContent?) { if let value { given[key] = value } }
        put("http.host", host.map { .string($0) })
        put("http.port", port.map { .int($0) })
        put("http.publicURL", publicURL.map { .string($0) })
        put("http.maxConnections", maxConnections.map { .int($0) })
        put("http.headerTimeout", headerTimeout.map { .double($0) })
        put("http.bodyTimeout", bodyTimeout.map { .double($0) })
        put("http.idleTimeout", idleTimeout.map { .double($0) })
        put("http.liveStreamsPerPerson", liveStreamsPerPerson.map { .int($0) })
        put("http.heavyWorkPerPerson", heavyWorkPerPerson.map { .int($0) })
        put("http.heavyWork", heavyWork.map { .int($0) })
        put("database.connections", databaseConnections.map { .int($0) })
        put("data", data.map { .string($0) })
        put("database", database.map { .string($0) })
        put("records.zone", zone.map { .string($0) })
        put("sessions.signOutAfter", signOutAfter.map { .double($0) })
        put("sessions.requireTwoStepForClinicians", requireTwoStepForClinicians.map { .bool($0) })
        put("clinician.flagMissedDoseDays", flagMissedDoseDays.map { .int($0) })
        put("clinician.flagPainScore", flagPainScore.map { .double($0) })
        put("reminders.send", reminders.map { .bool($0) })
        put("triage.sweep", triageSweep.map { .bool($0) })
        put("reminders.pushContact", pushContact.map { .string($0) })
        put("reports.chromium", chromium.map { .string($0) })
        put("log.level", logLevel.map { .string($0) })
        put("log.format", logFormat.map { .string($0) })
        put("log.slowStoreCall", slowStoreCall.map { .int($0) })
        put("metrics.token", metricsToken.map { .string($0) })
        put("secrets.keyFile", secretsKeyFile.map { .string($0) })
        put("demo.enabled", demo.map { .bool($0) })
        put("demo.patients", demoPatients.map { .int($0) })
        return given
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let file = config ?? environment["OPENCAREKIT_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        let settings = try await ResolvedSettings.resolve(commandLine: commandLine, environment: environment, configFile: file)
        if printConfig {
            print(settings.printed())
            return
        }
        try await ServeRun(settings: settings, pushServiceForTests: pushServiceForTests, shellRevisionForTests: shellRevisionForTests, now: now).run()
    }
}

/// `serve` with its settings resolved (`ResolvedSettings`): the command line, the environment, the config file.
struct ServeRun {
    let settings: ResolvedSettings
    let host: String
    let port: Int
    let storage: DataOptions
    let demo: Bool
    let demoPatients: Int
    let flagMissedDoseDays: Int
    let flagPainScore: Double
    let zone: String
    let publicURL: String?
    let maxConnections: Int
    let headerTimeout: Double
    let bodyTimeout: Double
    let idleTimeout: Double
    let liveStreamsPerPerson: Int
    let heavyWorkPerPerson: Int
    let heavyWork: Int
    let databaseConnections: Int
    let signOutAfter: Double
    let requireTwoStepForClinicians: Bool
    let pushContact: String?
    let pushServiceForTests: String?
    let shellRevisionForTests: String?
    let chromium: String?
    let noReminders: Bool
    let sweepsTriage: Bool
    let logLevel: String
    let logFormat: String
    let slowStoreCall: Int
    let metricsToken: String?
    let secretsKeyFile: String?
    let now: String?

    init(settings: ResolvedSettings, pushServiceForTests: String?, shellRevisionForTests: String? = nil, now: String?) throws {
        self.settings = settings
        host = settings.string("http.host") ?? "127.0.0.1"
        port = settings.int("http.port", default: 8080)
        var storage = DataOptions()
        storage.data = settings.string("data")
        storage.database = settings.string("database")
        if storage.data != nil, storage.database != nil {
            // The one given with the higher precedence (--data over $DATABASE_URL); both at once are a mistake.
            switch settings.precedence("data", over: "database") {
            case true?: storage.database = nil
            case false?: storage.data = nil
            case nil: throw ValidationError("\(settings.label("data")) and \(settings.label("database")): give one of them")
            }
        }
        self.storage = storage
        demo = settings.bool("demo.enabled", default: false)
        demoPatients = settings.int("demo.patients", default: DemoPeople.defaultClinicSize)
        flagMissedDoseDays = settings.int("clinician.flagMissedDoseDays", default: 2)
        flagPainScore = settings.double("clinician.flagPainScore", default: 7)
        zone = settings.string("records.zone") ?? TimeZone.current.identifier
        publicURL = settings.string("http.publicURL")
        maxConnections = settings.int("http.maxConnections", default: ConnectionLimits().maximumConnections)
        headerTimeout = settings.double("http.headerTimeout", default: 10)
        bodyTimeout = settings.double("http.bodyTimeout", default: 30)
        idleTimeout = settings.double("http.idleTimeout", default: 60)
        liveStreamsPerPerson = settings.int("http.liveStreamsPerPerson", default: LiveStreamSlots.perPerson)
        heavyWorkPerPerson = settings.int("http.heavyWorkPerPerson", default: HeavyWork.perPerson)
        heavyWork = settings.int("http.heavyWork", default: HeavyWork.overall)
        databaseConnections = settings.int("database.connections", default: PostgresCareRecords.defaultMaximumConnections)
        signOutAfter = settings.double("sessions.signOutAfter", default: 15)
        requireTwoStepForClinicians = settings.bool("sessions.requireTwoStepForClinicians", default: false)
        pushContact = settings.string("reminders.pushContact")
        self.pushServiceForTests = pushServiceForTests
        self.shellRevisionForTests = shellRevisionForTests
        chromium = settings.string("reports.chromium")
        noReminders = !settings.bool("reminders.send", default: true)
        sweepsTriage = settings.bool("triage.sweep", default: true)
        logLevel = settings.string("log.level") ?? "info"
        logFormat = settings.string("log.format") ?? "text"
        slowStoreCall = settings.int("log.slowStoreCall", default: 250)
        metricsToken = settings.string("metrics.token")
        secretsKeyFile = settings.string("secrets.keyFile")
        self.now = now
    }

    static let loopback: Set<String> = ["127.0.0.1", "localhost", "::1"]

    /// The connection limits from the options.
    func connectionLimits() throws -> ConnectionLimits {
        guard (1...1_000_000).contains(maxConnections) else { throw settings.invalid("http.maxConnections", "must be from 1 to 1000000") }
        func duration(_ seconds: Double, _ key: String) throws -> Duration {
            guard seconds.isFinite, (0.1...3_600).contains(seconds) else { throw settings.invalid(key, "must be from 0.1 to 3600 seconds") }
            return .milliseconds(Int64(seconds * 1_000))
        }
        return ConnectionLimits(headerTimeout: try duration(headerTimeout, "http.headerTimeout"),
                                bodyTimeout: try duration(bodyTimeout, "http.bodyTimeout"),
                                idleTimeout: try duration(idleTimeout, "http.idleTimeout"),
                                maximumConnections: maxConnections)
    }

    /// The public origin (`scheme://host[:port]`) and host name from `--public-url`; required off loopback.
    func publicOrigin() throws -> (origin: String, host: String)? {
        guard let publicURL else {
            guard Self.loopback.contains(host.lowercased()) else {
                throw settings.invalid("http.publicURL", "required when \(settings.label("http.host")) is not a loopback address (the address people use to reach the app, such as https://care.example.org)")
            }
            return nil
        }
        guard let origin = SameOriginMiddleware<CareRequestContext>.origin(of: publicURL),
              let components = URLComponents(string: publicURL), let host = components.host, !host.isEmpty,
              components.user == nil, components.password == nil else {
            throw settings.invalid("http.publicURL", "must be an http or https address such as https://care.example.org")
        }
        return (origin, host.lowercased())
    }

    /// The key that seals the directory's secrets: `$OPENCAREKIT_SECRETS_KEY`, else the key file (made if missing).
    func secretBox() throws -> SecretBox {
        if let text = ProcessInfo.processInfo.environment["OPENCAREKIT_SECRETS_KEY"], !text.isEmpty {
            guard let box = SecretBox(base64: text) else { throw ValidationError("$OPENCAREKIT_SECRETS_KEY: 32 bytes in base64") }
            return box
        }
        let file = secretsKeyFile.map { URL(fileURLWithPath: $0) }
            ?? CareDataDirectory(path: storage.data).url.appending(path: "secrets.key")
        do {
            return try SecretBox.loadOrCreate(file: file)
        } catch let error as SecretBox.KeyFileError {
            throw settings.invalid("secrets.keyFile", error.description)
        }
    }

    /// The clock: the real one, or for tests (`--now`, a hidden option) one that starts at the given ISO 8601 moment
    /// and runs on from there.
    func clock() throws -> @Sendable () -> Date {
        try Self.clock(startingAt: now)
    }

    /// The real clock, or with `now` (ISO 8601) one that starts at that moment and runs on from there.
    static func clock(startingAt now: String?) throws -> @Sendable () -> Date {
        guard let now else { return { Date() } }
        guard let start = ISO8601DateFormatter().date(from: now) else { throw ValidationError("--now: must be an ISO 8601 date and time") }
        let launched = ContinuousClock.now
        return {
            let elapsed = ContinuousClock.now - launched
            return start.addingTimeInterval(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
    }

    func run() async throws {
        guard (0...65_535).contains(port) else { throw settings.invalid("http.port", "must be from 0 to 65535") }
        guard let timeZone = TimeZone(identifier: zone) else { throw settings.invalid("records.zone", "not a known time zone identifier") }
        let wanted = try connectionLimits()
        let fileDescriptors = Self.raiseFileDescriptorLimit(to: wanted.maximumConnections + wanted.refusalReserve
                                                            + ConnectionLimits.otherFileDescriptors)
        guard let limits = wanted.fitted(toFileDescriptors: fileDescriptors) else {
            throw ValidationError("this process may open only \(fileDescriptors) files: too few to serve (raise ulimit -n)")
        }
        if limits.maximumConnections < wanted.maximumConnections {
            Self.warn("warning: this process may open only \(fileDescriptors) files, so at most \(limits.maximumConnections) connections are served (raise ulimit -n for more)")
        }
        guard signOutAfter.isFinite, (1...720).contains(signOutAfter) else {
            throw settings.invalid("sessions.signOutAfter", "must be from 1 to 720 minutes")
        }
        guard (0...DemoPeople.maximumClinicSize).contains(demoPatients) else {
            throw settings.invalid("demo.patients", "must be from 0 to \(DemoPeople.maximumClinicSize)")
        }
        guard (0...7).contains(flagMissedDoseDays) else { throw settings.invalid("clinician.flagMissedDoseDays", "must be from 0 to 7") }
        guard flagPainScore.isFinite, (0...10).contains(flagPainScore) else { throw settings.invalid("clinician.flagPainScore", "must be from 0 to 10") }
        let publicOrigin = try publicOrigin()
        let clock = try clock()
        guard let level = Logger.Level(rawValue: logLevel.lowercased()) else {
            throw settings.invalid("log.level", "must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let format = LogFormat(rawValue: logFormat.lowercased()) else {
            throw settings.invalid("log.format", "must be text or json")
        }
        guard (1...600_000).contains(slowStoreCall) else { throw settings.invalid("log.slowStoreCall", "must be from 1 to 600000 milliseconds") }
        let operatorToken = metricsToken
        if let operatorToken, operatorToken.utf8.count < 16 {
            throw settings.invalid("metrics.token", "must be at least 16 characters")
        }
        let logger = format.logger(label: "opencarekit", level: level)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        // PostgresNIO's debug and trace lines carry queries: never below notice.
        var databaseLogger = logger
        databaseLogger.logLevel = max(level, .notice)
        guard (2...1_000).contains(databaseConnections) else { throw settings.invalid("database.connections", "must be from 2 to 1000") }
        let data = try storage.open(logger: databaseLogger, databaseConnections: databaseConnections)
        let directory = data.directory, stores = data.stores
        var services: [any Service] = []
        // What must be done before the first request is answered, while the services run.
        var startup: [@Sendable () async throws -> Void] = []
        if let records = data.postgres {
            // First in, last out: the pool outlives the server and everything else that uses it.
            services.append(records)
            startup.append { try await DataOptions.migrate(records) }
        } else if let data = data.dataDirectory {
            if let adopted = try await data.adoptLegacyStore(into: directory, timeZone: timeZone, now: clock()) {
                Self.say("Adopted the care record in opencarekit.sqlite as record \(adopted.id). Give someone access with:")
                Self.say("  opencarekit record share \(adopted.id) --email EMAIL --role patient")
            }
        }
        if demo {
            startup.append { [demoPatients, calendar] in
                if try await DemoPeople.ensure(in: directory, stores: stores, calendar: calendar, now: clock(), clinicSize: demoPatients) {
                    Self.say("Added the demo people and the demo care plan.")
                }
            }
        }
        services.append(SessionSweeper(directory: directory, now: clock))
        let isLoopback = Self.loopback.contains(host.lowercased())
        // Answer only to the names people use: loopback names on loopback, else the public URL's host, so that a
        // rebinding DNS name cannot reach the app.
        var configuration = CareHost.Configuration(
            stores: stores, allowedHosts: publicOrigin.map { [$0.host] } ?? Self.loopback, publicOrigin: publicOrigin?.origin,
            idleTimeout: .milliseconds(Int64(signOutAfter * 60_000)), demoAccounts: demo && isLoopback ? DemoPeople.emails : [], now: clock)
        configuration.requiresTwoStepForClinicians = requireTwoStepForClinicians
        configuration.shellRevision = shellRevisionForTests
        configuration.logger = logger
        configuration.operatorToken = operatorToken
        configuration.slowStoreCall = .milliseconds(slowStoreCall)
        guard (1...100_000).contains(liveStreamsPerPerson) else {
            throw settings.invalid("http.liveStreamsPerPerson", "must be from 1 to 100000")
        }
        configuration.liveStreamsPerPerson = liveStreamsPerPerson
        guard (1...1_000).contains(heavyWorkPerPerson) else { throw settings.invalid("http.heavyWorkPerPerson", "must be from 1 to 1000") }
        guard (1...1_000).contains(heavyWork) else { throw settings.invalid("http.heavyWork", "must be from 1 to 1000") }
        configuration.heavyWorkPerPerson = heavyWorkPerPerson
        configuration.heavyWorkOverall = heavyWork
        let contact = pushContact ?? (publicOrigin?.origin.hasPrefix("https://") == true ? publicOrigin?.origin : nil) ?? "mailto:admin@localhost"
        guard contact.hasPrefix("mailto:") || contact.hasPrefix("https://"), contact.utf8.count <= 200 else {
            throw settings.invalid("reminders.pushContact", "must be a mailto: or https: address")
        }
        configuration.reminders = ReminderConfiguration(contact: contact)
        // Tests: a local push service (plain http on loopback) as the only one.
        if let pushServiceForTests {
            configuration.reminders?.pushHosts = [pushServiceForTests]
            configuration.reminders?.allowsLoopbackHTTP = true
        }
        if let chromium, !FileManager.default.isExecutableFile(atPath: chromium) {
            throw settings.invalid("reports.chromium", "\(chromium) is not an executable file")
        }
        configuration.chromium = chromium
        configuration.flagRules = ClinicianFlagRules(missedDoseDays: flagMissedDoseDays == 0 ? nil : flagMissedDoseDays,
                                                painScore: flagPainScore == 0 ? nil : flagPainScore)
        let secrets = try secretBox()
        configuration.secrets = secrets
        // Before the first request: secrets stored before sealing are sealed, and those sealed must open with this
        // key (a restored directory served without its key refuses to start, saying so, rather than fail later).
        let keyLabel = settings.label("secrets.keyFile")
        startup.insert({
            // First a look (nothing written), then the sealing.
            let unopened = Mutex(false)
            _ = try await directory.resealSecrets { stored in
                if SecretBox.isSealed(stored), (try? secrets.open(stored)) == nil { unopened.withLock { $0 = true } }
                return nil
            }
            // And the first server's key is everyone's: a value sealed with it is kept once (the first to write wins),
            // and a server whose key does not open it refuses, even on a directory with no secrets yet.
            let check = try await directory.sharedValue(named: "secrets-check", orKeep: try secrets.seal("opencarekit"), now: clock())
            if unopened.withLock({ $0 }) || (try? secrets.open(check)) != "opencarekit" {
                throw ValidationError("the secrets key does not open the directory's secrets: serve it with the key they were sealed with (\(keyLabel), or $OPENCAREKIT_SECRETS_KEY)")
            }
            _ = try await directory.resealSecrets { SecretBox.isSealed($0) ? nil : try secrets.seal($0) }
        }, at: data.postgres == nil ? 0 : 1)
        let careHost = CareHost(directory: CachingCareDirectory(directory), configuration: configuration)
        // Reminders begin once the server has started (the database reached, migrated): a server that cannot start
        // says so in one line, with no reminder's failure before it.
        let (started, serverStarted) = AsyncStream<Void>.makeStream()
        if !noReminders { services.append(AfterStartup(started: started, service: careHost.reminderService())) }
        // Every server raises alerts for the changes it sees; one sweeps each record's new day.
        services.append(AfterStartup(started: started, service: careHost.triageService(sweepsDaily: sweepsTriage)))
        let host = self.host
        let demo = self.demo
        var app = Application(
            router: careHost.router(),
            server: limits.httpServer(),
            configuration: .init(address: .hostname(host, port: port), serverName: "OpenCareKit",
                                 availableConnectionsDelegate: limits.acceptLimit),
            services: services,
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                if let publicOrigin, publicOrigin.origin.hasPrefix("http://"), !isLoopback {
                    Self.warn("warning: \(publicOrigin.origin) is plain http: passwords and sessions cross the network unencrypted (serve behind an https proxy and give its https address)")
                }
                serverStarted.finish()
                Self.say("OpenCareKit is running at http://\(shown):\(bound)/ (Ctrl-C to stop)")
                if demo {
                    Self.say("Sign in as \(DemoPeople.patientEmail) (patient), \(DemoPeople.caregiverEmail) (caregiver) or "
                             + "\(DemoPeople.clinicianEmail) (clinician), password \(DemoPeople.demoPassword)"
                             + (isLoopback ? ", or in one click on the sign-in page." : "."))
                }
            },
            logger: logger)
        for step in startup { app.beforeServerStarts(perform: step) }
        do {
            try await app.runService()
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("cannot serve on \(host):\(port): \(Self.describe(error))")
        }
    }

    /// Writes a line to standard output at once (print is buffered when the output is a file or a pipe).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Raises the soft limit on open files towards `wanted` (up to the hard limit); returns the limit in force.
    static func raiseFileDescriptorLimit(to wanted: Int) -> Int {
        let infinity = rlim_t.max // RLIM_INFINITY on Linux
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return wanted }
        if limit.rlim_cur != infinity, limit.rlim_cur < rlim_t(wanted) {
            var raised = limit
            raised.rlim_cur = limit.rlim_max == infinity ? rlim_t(wanted) : min(limit.rlim_max, rlim_t(wanted))
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur == infinity ? Int.max : Int(clamping: limit.rlim_cur)
    }

    /// Writes a line to standard error.
    static func warn(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// "address already in use" rather than a NIO error dump.
    static func describe(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("Address already in use") || text.contains("EADDRINUSE") { return "the port is in use" }
        if text.contains("Permission denied") || text.contains("EACCES") { return "permission denied" }
        if text.contains("Cannot assign requested address") || text.contains("EADDRNOTAVAIL") { return "no such address here" }
        return text.split(separator: "\n").first.map(String.init) ?? "\(type(of: error))"
    }
}

/// Runs `service` once the server has started; ends without running it on a shutdown before then.
struct AfterStartup: Service {
    let started: AsyncStream<Void>
    let service: any Service

    func run() async throws {
        await cancelWhenGracefulShutdown {
            for await _ in started {}
        }
        guard !Task.isCancelled, !Task.isShuttingDownGracefully else { return }
        try await service.run()
    }
}
