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
        abstract: "Run the care app: the daily tasks page in a browser, on this machine only by default.",
        discussion: ServeSettingTable.help)

    /// The settings' options (`ServeSettingTable`: `--port 8080`, `--port=8080`, `--demo`, `--no-demo`), parsed from
    /// the table rather than declared here a second time.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The settings' options, listed below.", valueName: "setting"))
    var settingOptions: [String] = []

    @Option(help: "A JSON file of settings (keys as listed by --print-config); the command line, then the environment, take precedence over it (default: $OPENCAREKIT_CONFIG).")
    var config: String?

    @Flag(help: "Print the settings in effect, and where each came from (secrets hidden), and exit.")
    var printConfig = false

    /// The reference of every setting as a Markdown table, for the documentation (`scripts/settings-reference`).
    @Flag(help: .hidden)
    var settingsReference = false

    @Option(help: .hidden)
    var pushServiceForTests: String?

    @Option(help: .hidden)
    var now: String?

    /// Tests: another app shell than this build's (its scripts carry the revision), as a new version of the server
    /// would bring, to try the update of installed apps.
    @Option(help: .hidden)
    var shellRevisionForTests: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let file = config ?? environment["OPENCAREKIT_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        if settingsReference {
            print(ServeSettingTable.reference)
            return
        }
        let settings = try await ResolvedSettings.resolve(commandLine: try ResolvedSettings.commandLine(settingOptions),
                                                          environment: environment, configFile: file)
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
    let storage: DataOptions
    let pushServiceForTests: String?
    let shellRevisionForTests: String?
    let now: String?

    /// Checks every value given against its setting (`ServeSettingTable`), and finds the data's place.
    init(settings: ResolvedSettings, pushServiceForTests: String?, shellRevisionForTests: String? = nil, now: String?) throws {
        try settings.check()
        self.settings = settings
        var storage = DataOptions()
        storage.data = settings[\.data]
        storage.database = settings[\.database]
        if storage.data != nil, storage.database != nil {
            // The one given with the higher precedence (--data over $DATABASE_URL); both at once are a mistake.
            switch settings.precedence(\.data, over: \.database) {
            case true?: storage.database = nil
            case false?: storage.data = nil
            case nil: throw ValidationError("\(settings.label(\.data)) and \(settings.label(\.database)): give one of them")
            }
        }
        self.storage = storage
        self.pushServiceForTests = pushServiceForTests
        self.shellRevisionForTests = shellRevisionForTests
        self.now = now
    }

    static let loopback: Set<String> = ["127.0.0.1", "localhost", "::1"]

    /// The connection limits from the options.
    func connectionLimits() -> ConnectionLimits {
        func duration(_ seconds: Double) -> Duration { .milliseconds(Int64(seconds * 1_000)) }
        return ConnectionLimits(headerTimeout: duration(settings[\.headerTimeout]), bodyTimeout: duration(settings[\.bodyTimeout]),
                                idleTimeout: duration(settings[\.idleTimeout]), maximumConnections: settings[\.maxConnections])
    }

    /// The public origin (`scheme://host[:port]`) and host name from `--public-url`; required off loopback.
    func publicOrigin() throws -> (origin: String, host: String)? {
        guard let publicURL = settings[\.publicURL] else {
            guard Self.loopback.contains(settings[\.host].lowercased()) else {
                throw settings.invalid(\.publicURL, "required when \(settings.label(\.host)) is not a loopback address (the address people use to reach the app, such as https://care.example.org)")
            }
            return nil
        }
        guard let origin = SameOriginMiddleware<CareRequestContext>.origin(of: publicURL),
              let components = URLComponents(string: publicURL), let host = components.host, !host.isEmpty,
              components.user == nil, components.password == nil else {
            throw settings.invalid(\.publicURL, "must be an http or https address such as https://care.example.org")
        }
        return (origin, host.lowercased())
    }

    /// The key that seals the directory's secrets: `$OPENCAREKIT_SECRETS_KEY`, else the key file (made if missing).
    func secretBox() throws -> SecretBox {
        if let text = ProcessInfo.processInfo.environment["OPENCAREKIT_SECRETS_KEY"], !text.isEmpty {
            guard let box = SecretBox(base64: text) else { throw ValidationError("$OPENCAREKIT_SECRETS_KEY: 32 bytes in base64") }
            return box
        }
        let file = settings[\.secretsKeyFile].map { URL(fileURLWithPath: $0) }
            ?? CareDataDirectory(path: storage.data).url.appending(path: "secrets.key")
        do {
            return try SecretBox.loadOrCreate(file: file)
        } catch let error as SecretBox.KeyFileError {
            throw settings.invalid(\.secretsKeyFile, error.description)
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
        let zone = settings[\.zone] ?? TimeZone.current.identifier
        guard let timeZone = TimeZone(identifier: zone) else { throw settings.invalid(\.zone, "not a known time zone identifier") }
        let wanted = connectionLimits()
        let fileDescriptors = Self.raiseFileDescriptorLimit(to: wanted.maximumConnections + wanted.refusalReserve
                                                            + ConnectionLimits.otherFileDescriptors)
        guard let limits = wanted.fitted(toFileDescriptors: fileDescriptors) else {
            throw ValidationError("this process may open only \(fileDescriptors) files: too few to serve (raise ulimit -n)")
        }
        if limits.maximumConnections < wanted.maximumConnections {
            Self.warn("warning: this process may open only \(fileDescriptors) files, so at most \(limits.maximumConnections) connections are served (raise ulimit -n for more)")
        }
        let publicOrigin = try publicOrigin()
        let clock = try clock()
        // The table's checks let through only what these read.
        let level = Logger.Level(rawValue: settings[\.logLevel].lowercased()) ?? .info
        let format = LogFormat(rawValue: settings[\.logFormat].lowercased()) ?? .text
        let logger = format.logger(label: "opencarekit", level: level)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        // PostgresNIO's debug and trace lines carry queries: never below notice.
        var databaseLogger = logger
        databaseLogger.logLevel = max(level, .notice)
        let data = try storage.open(logger: databaseLogger, databaseConnections: settings[\.databaseConnections])
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
        let demo = settings[\.demo], demoPatients = settings[\.demoPatients]
        if demo {
            startup.append { [calendar] in
                if try await DemoPeople.ensure(in: directory, stores: stores, calendar: calendar, now: clock(), clinicSize: demoPatients) {
                    Self.say("Added the demo people and the demo care plan.")
                }
            }
        }
        services.append(SessionSweeper(directory: directory, now: clock))
        let host = settings[\.host]
        let isLoopback = Self.loopback.contains(host.lowercased())
        // Answer only to the names people use: loopback names on loopback, else the public URL's host, so that a
        // rebinding DNS name cannot reach the app.
        var configuration = CareHost.Configuration(
            stores: stores, allowedHosts: publicOrigin.map { [$0.host] } ?? Self.loopback, publicOrigin: publicOrigin?.origin,
            idleTimeout: .milliseconds(Int64(settings[\.signOutAfter] * 60_000)), demoAccounts: demo && isLoopback ? DemoPeople.emails : [], now: clock)
        configuration.requiresTwoStepForClinicians = settings[\.requireTwoStepForClinicians]
        configuration.shellRevision = shellRevisionForTests
        configuration.logger = logger
        configuration.operatorToken = settings[\.metricsToken]
        configuration.slowStoreCall = .milliseconds(settings[\.slowStoreCall])
        configuration.liveStreamsPerPerson = settings[\.liveStreamsPerPerson]
        configuration.heavyWorkPerPerson = settings[\.heavyWorkPerPerson]
        configuration.heavyWorkOverall = settings[\.heavyWork]
        let contact = settings[\.pushContact]
            ?? (publicOrigin?.origin.hasPrefix("https://") == true ? publicOrigin?.origin : nil) ?? "mailto:admin@localhost"
        configuration.reminders = ReminderConfiguration(contact: contact)
        // Tests: a local push service (plain http on loopback) as the only one.
        if let pushServiceForTests {
            configuration.reminders?.pushHosts = [pushServiceForTests]
            configuration.reminders?.allowsLoopbackHTTP = true
        }
        configuration.chromium = settings[\.chromium]
        let (missedDoseDays, painScore) = (settings[\.flagMissedDoseDays], settings[\.flagPainScore])
        configuration.flagRules = ClinicianFlagRules(missedDoseDays: missedDoseDays == 0 ? nil : missedDoseDays,
                                                painScore: painScore == 0 ? nil : painScore)
        let secrets = try secretBox()
        configuration.secrets = secrets
        // Before the first request: secrets stored before sealing are sealed, and those sealed must open with this
        // key (a restored directory served without its key refuses to start, saying so, rather than fail later).
        let keyLabel = settings.label(\.secretsKeyFile)
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
        if settings[\.reminders] { services.append(AfterStartup(started: started, service: careHost.reminderService())) }
        // Every server raises alerts for the changes it sees; one sweeps each record's new day.
        services.append(AfterStartup(started: started, service: careHost.triageService(sweepsDaily: settings[\.triageSweep])))
        let port = settings[\.port]
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
