import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
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
    var host: String = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port: Int = 8080

    @OptionGroup var storage: DataOptions

    @Flag(help: "Add the demo people (a patient, her caregiver daughter, a clinician) and the patient's record with the demo care plan, if they are missing; on loopback the sign-in page offers one-click sign-in as each.")
    var demo = false

    @Option(help: "With --demo: how many patients the demo clinician follows besides the demo patient, each with a few weeks of history (default 12, at most 1000).")
    var demoPatients: Int = DemoPeople.defaultClinicSize

    @Option(help: "Flag a patient on the clinician's home after missed doses on this many of the last days (default 2; 0 turns the rule off).")
    var flagMissedDoseDays: Int = 2

    @Option(help: "Flag a patient on the clinician's home after a check-in pain score at or above this in the last 7 days (default 7; 0 turns the rule off).")
    var flagPainScore: Double = 7

    @Option(help: "The time zone of new records and of a record adopted from before records (default: this machine's).")
    var zone: String = TimeZone.current.identifier

    @Option(help: "The address people use to reach the app, such as https://care.example.org; required with a --host other than loopback. Its host becomes the only Host the app answers to, and its origin the only one allowed to write.")
    var publicURL: String?

    @Option(help: "The most open connections (default 1000); more are answered 503 and closed.")
    var maxConnections: Int = ConnectionLimits().maximumConnections

    @Option(help: "Seconds a new connection has to send a request's head (default 10).")
    var headerTimeout: Double = 10

    @Option(help: "Seconds a request has to send its body after its head (default 30).")
    var bodyTimeout: Double = 30

    @Option(help: "Seconds a kept-alive connection may wait for its next request (default 60).")
    var idleTimeout: Double = 60

    @Option(help: "Minutes without activity after which a person is signed out, with a warning in the page a minute before (default 15, HIPAA's automatic logoff).")
    var signOutAfter: Double = 15

    @Flag(help: "Require every clinician to turn on two-step sign-in (an authenticator app) before anything else.")
    var requireTwoStepForClinicians = false

    @Option(help: "Who runs this server, for browsers' push services to reach about its reminders: a mailto: or https: address (default: the public URL when it is https, else mailto:admin@localhost).")
    var pushContact: String?

    @Option(help: .hidden)
    var pushServiceForTests: String?

    @Option(help: "The Chromium (or Chrome) that prints reports to PDF (default: chromium, chromium-browser, google-chrome or google-chrome-stable on PATH; without one, reports print from the browser only).")
    var chromium: String?

    @Flag(help: "Send no reminders from this server (with several app servers on one database, exactly one sends them).")
    var noReminders = false

    @Option(help: "The least important log messages written: trace, debug, info (every request), notice, warning, error or critical (default info).")
    var logLevel: String = "info"

    @Option(help: "How the log is written to standard error: text, or json (one JSON object a line).")
    var logFormat: String = "text"

    @Option(help: "A store call slower than this many milliseconds is logged as a warning (default 250).")
    var slowStoreCall: Int = 250

    @Option(help: "The operator's token for /metrics from other machines (Authorization: Bearer TOKEN); without it, /metrics answers only on this machine, not through a proxy. Also read from OPENCAREKIT_METRICS_TOKEN.")
    var metricsToken: String?

    @Option(help: .hidden)
    var now: String?

    static let loopback: Set<String> = ["127.0.0.1", "localhost", "::1"]

    /// The connection limits from the options.
    func connectionLimits() throws -> ConnectionLimits {
        guard (1...1_000_000).contains(maxConnections) else { throw ValidationError("--max-connections: must be from 1 to 1000000") }
        func duration(_ seconds: Double, _ option: String) throws -> Duration {
            guard seconds.isFinite, (0.1...3_600).contains(seconds) else { throw ValidationError("\(option): must be from 0.1 to 3600 seconds") }
            return .milliseconds(Int64(seconds * 1_000))
        }
        return ConnectionLimits(headerTimeout: try duration(headerTimeout, "--header-timeout"),
                                bodyTimeout: try duration(bodyTimeout, "--body-timeout"),
                                idleTimeout: try duration(idleTimeout, "--idle-timeout"),
                                maximumConnections: maxConnections)
    }

    /// The public origin (`scheme://host[:port]`) and host name from `--public-url`; required off loopback.
    func publicOrigin() throws -> (origin: String, host: String)? {
        guard let publicURL else {
            guard Self.loopback.contains(host.lowercased()) else {
                throw ValidationError("--public-url: required when --host is not a loopback address (the address people use to reach the app, such as https://care.example.org)")
            }
            return nil
        }
        guard let origin = SameOriginMiddleware<CareRequestContext>.origin(of: publicURL),
              let components = URLComponents(string: publicURL), let host = components.host, !host.isEmpty,
              components.user == nil, components.password == nil else {
            throw ValidationError("--public-url: must be an http or https address such as https://care.example.org")
        }
        return (origin, host.lowercased())
    }

    /// The clock: the real one, or for tests (`--now`, a hidden option) one that starts at the given ISO 8601 moment
    /// and runs on from there.
    func clock() throws -> @Sendable () -> Date {
        guard let now else { return { Date() } }
        guard let start = ISO8601DateFormatter().date(from: now) else { throw ValidationError("--now: must be an ISO 8601 date and time") }
        let launched = ContinuousClock.now
        return {
            let elapsed = ContinuousClock.now - launched
            return start.addingTimeInterval(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
    }

    func run() async throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port: must be from 0 to 65535") }
        guard let timeZone = TimeZone(identifier: zone) else { throw ValidationError("--zone: not a known time zone identifier") }
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
            throw ValidationError("--sign-out-after: must be from 1 to 720 minutes")
        }
        guard (0...DemoPeople.maximumClinicSize).contains(demoPatients) else {
            throw ValidationError("--demo-patients: must be from 0 to \(DemoPeople.maximumClinicSize)")
        }
        guard (0...7).contains(flagMissedDoseDays) else { throw ValidationError("--flag-missed-dose-days: must be from 0 to 7") }
        guard flagPainScore.isFinite, (0...10).contains(flagPainScore) else { throw ValidationError("--flag-pain-score: must be from 0 to 10") }
        let publicOrigin = try publicOrigin()
        let clock = try clock()
        guard let level = Logger.Level(rawValue: logLevel.lowercased()) else {
            throw ValidationError("--log-level: must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let format = LogFormat(rawValue: logFormat.lowercased()) else {
            throw ValidationError("--log-format: must be text or json")
        }
        guard (1...600_000).contains(slowStoreCall) else { throw ValidationError("--slow-store-call: must be from 1 to 600000 milliseconds") }
        let operatorToken = metricsToken ?? ProcessInfo.processInfo.environment["OPENCAREKIT_METRICS_TOKEN"]
        if let operatorToken, operatorToken.utf8.count < 16 {
            throw ValidationError("--metrics-token: must be at least 16 characters")
        }
        let logger = format.logger(label: "opencarekit", level: level)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        // PostgresNIO's debug and trace lines carry queries: never below notice.
        var databaseLogger = logger
        databaseLogger.logLevel = max(level, .notice)
        let data = try storage.open(logger: databaseLogger)
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
        var settings = CareHost.Configuration(
            stores: stores, allowedHosts: publicOrigin.map { [$0.host] } ?? Self.loopback, publicOrigin: publicOrigin?.origin,
            idleTimeout: .milliseconds(Int64(signOutAfter * 60_000)), demoAccounts: demo && isLoopback ? DemoPeople.emails : [], now: clock)
        settings.requiresTwoStepForClinicians = requireTwoStepForClinicians
        settings.logger = logger
        settings.operatorToken = operatorToken
        settings.slowStoreCall = .milliseconds(slowStoreCall)
        let contact = pushContact ?? (publicOrigin?.origin.hasPrefix("https://") == true ? publicOrigin?.origin : nil) ?? "mailto:admin@localhost"
        guard contact.hasPrefix("mailto:") || contact.hasPrefix("https://"), contact.utf8.count <= 200 else {
            throw ValidationError("--push-contact: must be a mailto: or https: address")
        }
        settings.reminders = ReminderConfiguration(contact: contact)
        // Tests: a local push service (plain http on loopback) as the only one.
        if let pushServiceForTests {
            settings.reminders?.pushHosts = [pushServiceForTests]
            settings.reminders?.allowsLoopbackHTTP = true
        }
        if let chromium, !FileManager.default.isExecutableFile(atPath: chromium) {
            throw ValidationError("--chromium: \(chromium) is not an executable file")
        }
        settings.chromium = chromium
        settings.flagRules = ClinicianFlagRules(missedDoseDays: flagMissedDoseDays == 0 ? nil : flagMissedDoseDays,
                                                painScore: flagPainScore == 0 ? nil : flagPainScore)
        let careHost = CareHost(directory: CachingCareDirectory(directory), configuration: settings)
        if !noReminders { services.append(careHost.reminderService()) }
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
