import ArgumentParser
import Configuration
import Foundation
import SystemPackage

/// Every setting of `serve`: its key in a config file, its environment variable, its command-line option, its
/// default and what it does. This table is the reference: `--print-config` shows it with the values in effect, and
/// the README's "Configuration" lists it (a test checks both against it).
///
/// A setting's value comes from, in this order of precedence: the command line, the environment, the config file
/// (`--config FILE`, JSON: `{"http": {"port": 8080}}` is the key `http.port`), the default.
struct ServeSetting: Sendable {
    enum Kind: Sendable {
        case string, int, double, bool

        var type: ConfigType {
            switch self {
            case .string: .string
            case .int: .int
            case .double: .double
            case .bool: .bool
            }
        }

        /// What a value of this kind must be, for a refusal.
        var expected: String {
            switch self {
            case .string: "text"
            case .int: "a whole number"
            case .double: "a number"
            case .bool: "true or false"
            }
        }
    }

    /// The key in a config file, dotted (`http.port`).
    let key: String
    /// The command-line option (`--port`).
    let option: String
    /// The environment variable (`OPENCAREKIT_HTTP_PORT`).
    let environment: String
    let kind: Kind
    /// The default, as the reference shows it.
    let defaultValue: String
    /// Shown as `(hidden)` by `--print-config`.
    var isSecret = false
    let help: String

    init(_ key: String, _ option: String, _ kind: Kind, default defaultValue: String, environment: String? = nil,
         secret: Bool = false, _ help: String) {
        self.key = key
        self.option = option
        self.kind = kind
        self.defaultValue = defaultValue
        self.environment = environment ?? "OPENCAREKIT_" + key.replacing(".", with: "_").replacing(/([a-z])([A-Z])/) { "\($0.1)_\($0.2)" }.uppercased()
        isSecret = secret
        self.help = help
    }

    static let all: [ServeSetting] = [
        ServeSetting("http.host", "--host", .string, default: "127.0.0.1", "The address to listen on (this machine only by default)."),
        ServeSetting("http.port", "--port", .int, default: "8080", "The port to listen on (0 picks a free one)."),
        ServeSetting("http.publicURL", "--public-url", .string, default: "none",
                     "The address people use to reach the app, such as https://care.example.org; required with a host other than loopback. Its host becomes the only Host the app answers to, and its origin the only one allowed to write; with https, cookies are Secure."),
        ServeSetting("http.maxConnections", "--max-connections", .int, default: "1000", "The most open connections; more are answered 503 and closed."),
        ServeSetting("http.headerTimeout", "--header-timeout", .double, default: "10", "Seconds a new connection has to send a request's head."),
        ServeSetting("http.bodyTimeout", "--body-timeout", .double, default: "30", "Seconds a request has to send its body after its head."),
        ServeSetting("http.liveStreamsPerPerson", "--live-streams-per-person", .int, default: "32",
                     "The most live pages (server-sent event streams) one person may have open over all their addresses; one address may have 16."),
        ServeSetting("http.idleTimeout", "--idle-timeout", .double, default: "60", "Seconds a kept-alive connection may wait for its next request."),
        ServeSetting("http.heavyWorkPerPerson", "--heavy-work-per-person", .int, default: "1",
                     "The most heavy requests (FHIR imports, reports, FHIR exports and searches) one person may have running; more are answered 503."),
        ServeSetting("http.heavyWork", "--heavy-work", .int, default: "the number of cores less one, at least 1",
                     "The most heavy requests the server runs at once, everyone's together; more are answered 503."),
        ServeSetting("data", "--data", .string, default: "$XDG_DATA_HOME/opencarekit, else ~/.local/share/opencarekit",
                     environment: "OPENCAREKIT_DATA_DIR", "The data directory (the directory and the records' stores)."),
        ServeSetting("database", "--database", .string, default: "none", environment: "DATABASE_URL", secret: true,
                     "A PostgreSQL database holding the directory and every record instead of a data directory: postgres://user[:password]@host[:port]/database."),
        ServeSetting("database.connections", "--database-connections", .int, default: "16",
                     "The most connections to PostgreSQL this server opens, one of them listening for other servers' commits: each transaction under way holds one (and no thread), so this is how many run at once; more wait for one (up to 5 s, then 503)."),
        ServeSetting("secrets.keyFile", "--secrets-key-file", .string, default: "secrets.key in the data directory (made on first run)",
                     environment: "OPENCAREKIT_SECRETS_KEY_FILE",
                     "The key that seals the secrets the directory keeps (two-step keys, the Web Push and log keys), kept outside the database: every app server of one database needs the same, and a backup restores only with it. $OPENCAREKIT_SECRETS_KEY (32 bytes in base64) gives the key itself instead."),
        ServeSetting("records.zone", "--zone", .string, default: "this machine's",
                     "The time zone of new records and of a record adopted from before records."),
        ServeSetting("sessions.signOutAfter", "--sign-out-after", .double, default: "15",
                     "Minutes without activity after which a person is signed out (HIPAA's automatic logoff)."),
        ServeSetting("sessions.requireTwoStepForClinicians", "--require-two-step-for-clinicians", .bool, default: "false",
                     "Require every clinician to turn on two-step sign-in before anything else."),
        ServeSetting("clinician.flagMissedDoseDays", "--flag-missed-dose-days", .int, default: "2",
                     "Flag a patient on the clinician's home after missed doses on this many of the last days (0: never)."),
        ServeSetting("clinician.flagPainScore", "--flag-pain-score", .double, default: "7",
                     "Flag a patient after a check-in pain score at or above this in the last 7 days (0: never)."),
        ServeSetting("reminders.send", "--reminders", .bool, default: "true",
                     "Send reminders from this server (--no-reminders: with several app servers on one database, exactly one sends them)."),
        ServeSetting("triage.sweep", "--triage-sweep", .bool, default: "true",
                     "Raise each record's daily alerts (missed doses, nothing recorded) at the start of its day from this server (--no-triage-sweep: with several app servers on one database, exactly one sweeps)."),
        ServeSetting("reminders.pushContact", "--push-contact", .string, default: "the public URL when https, else mailto:admin@localhost",
                     "Who runs this server, for browsers' push services: a mailto: or https: address."),
        ServeSetting("reports.chromium", "--chromium", .string, default: "chromium, chromium-browser, google-chrome or google-chrome-stable on PATH",
                     "The Chromium that prints reports to PDF (without one, reports print from the browser only)."),
        ServeSetting("log.level", "--log-level", .string, default: "info",
                     "The least important log messages written: trace, debug, info (a line per request), notice, warning, error or critical."),
        ServeSetting("log.format", "--log-format", .string, default: "text", "How the log is written to standard error: text, or json (one object a line)."),
        ServeSetting("log.slowStoreCall", "--slow-store-call", .int, default: "250", "A store call slower than this many milliseconds is logged as a warning."),
        ServeSetting("metrics.token", "--metrics-token", .string, default: "none", secret: true,
                     "The operator's token for /metrics from other machines (Authorization: Bearer TOKEN, at least 16 characters); without it, /metrics answers only on this machine, not through a proxy."),
        ServeSetting("demo.enabled", "--demo", .bool, default: "false",
                     "Add the demo people and the demo patient's record if missing; on loopback the sign-in page offers one-click sign-in."),
        ServeSetting("demo.patients", "--demo-patients", .int, default: "12", "With the demo: how many patients the demo clinician follows besides the demo patient (at most 1000)."),
    ]

    static func named(_ key: String) -> ServeSetting {
        guard let setting = all.first(where: { $0.key == key }) else { preconditionFailure("no setting \(key)") }
        return setting
    }
}

/// The settings in effect, each with where it came from.
struct ResolvedSettings: Sendable {
    enum Source: Sendable, Equatable {
        case commandLine, environment, file(String), defaultValue
    }

    struct Value: Sendable {
        let content: ConfigContent?
        let source: Source
    }

    private(set) var values: [String: Value] = [:]

    /// Resolves every setting from the command line's values (by key), the environment and the config file at
    /// `configFile`; a value of the wrong kind is refused in one line naming it as it was given.
    static func resolve(commandLine: [String: ConfigContent], environment: [String: String], configFile: String?) async throws -> ResolvedSettings {
        let variables = EnvironmentVariablesProvider(environmentVariables: environment)
        var file: (path: String, provider: FileProvider<JSONSnapshot>)?
        if let configFile {
            guard let bytes = FileManager.default.contents(atPath: configFile) else {
                throw ValidationError("--config: cannot read \(configFile)")
            }
            guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any] else {
                throw ValidationError("--config: \(configFile) is not a JSON object")
            }
            // A misspelt key would be ignored without a word: every key must be a setting's.
            let known = Set(ServeSetting.all.map(\.key))
            if let unknown = Self.keys(of: object).sorted().first(where: { !known.contains($0) }) {
                throw ValidationError("\(unknown) in \(configFile): not a setting (opencarekit serve --print-config lists them)")
            }
            do {
                file = (configFile, try await FileProvider<JSONSnapshot>(filePath: FilePath(configFile)))
            } catch {
                throw ValidationError("--config: cannot read \(configFile) as a JSON object")
            }
        }
        var resolved = ResolvedSettings()
        for setting in ServeSetting.all {
            if let given = commandLine[setting.key] {
                resolved.values[setting.key] = Value(content: given, source: .commandLine)
                continue
            }
            // The variable's name as the provider spells keys: its words, joined by underscores, in capitals.
            let variableKey = AbsoluteConfigKey(setting.environment.lowercased().split(separator: "_").map(String.init))
            if let found = try lookUp(setting, in: variables, key: variableKey, as: setting.environment) {
                resolved.values[setting.key] = Value(content: found, source: .environment)
                continue
            }
            if let file, let found = try lookUp(setting, in: file.provider, key: AbsoluteConfigKey(setting.key.split(separator: ".").map(String.init)),
                                                 as: "\(setting.key) in \(file.path)") {
                resolved.values[setting.key] = Value(content: found, source: .file(file.path))
                continue
            }
            resolved.values[setting.key] = Value(content: nil, source: .defaultValue)
        }
        return resolved
    }

    private static func lookUp(_ setting: ServeSetting, in provider: some ConfigProvider, key: AbsoluteConfigKey, as name: String) throws -> ConfigContent? {
        do {
            let content = try provider.value(forKey: key, type: setting.kind.type).value?.content
            if case let .string(text)? = content, text.isEmpty { return nil }
            return content
        } catch {
            throw ValidationError("\(name): must be \(setting.kind.expected)")
        }
    }

    /// The dotted keys of a JSON object's values (`{"http": {"port": 1}}`: `http.port`).
    static func keys(of object: [String: Any], prefix: String = "") -> [String] {
        object.flatMap { key, value -> [String] in
            let path = prefix.isEmpty ? key : prefix + "." + key
            if let nested = value as? [String: Any] { return keys(of: nested, prefix: path) }
            return [path]
        }
    }

    /// How the value of `key` was given, for a refusal: `--port`, `OPENCAREKIT_HTTP_PORT`, `http.port in FILE`, or
    /// the option for a setting not given.
    func label(_ key: String) -> String {
        let setting = ServeSetting.named(key)
        switch values[key]?.source {
        case .commandLine: return setting.option
        case .environment: return setting.environment
        case let .file(path): return "\(key) in \(path)"
        case .defaultValue, nil: return setting.option
        }
    }

    /// Whether `key`'s value was given with a higher precedence than `other`'s; nil when both came from the same
    /// place.
    func precedence(_ key: String, over other: String) -> Bool? {
        func rank(_ key: String) -> Int {
            switch values[key]?.source {
            case .commandLine?: 0
            case .environment?: 1
            case .file?: 2
            case .defaultValue?, nil: 3
            }
        }
        return rank(key) == rank(other) ? nil : rank(key) < rank(other)
    }

    /// A refusal of the value of `key`, in one line naming where it came from.
    func invalid(_ key: String, _ message: String) -> ValidationError {
        ValidationError("\(label(key)): \(message)")
    }

    func string(_ key: String) -> String? {
        if case let .string(text)? = values[key]?.content { return text }
        return nil
    }

    func int(_ key: String, default value: Int) -> Int {
        if case let .int(number)? = values[key]?.content { return number }
        return value
    }

    func double(_ key: String, default value: Double) -> Double {
        switch values[key]?.content {
        case let .double(number)?: number
        case let .int(number)?: Double(number)
        default: value
        }
    }

    func bool(_ key: String, default value: Bool) -> Bool {
        if case let .bool(flag)? = values[key]?.content { return flag }
        return value
    }

    /// The settings in effect, one a line, as `key = value (source)`; secrets show as `(hidden)`.
    func printed() -> String {
        let width = ServeSetting.all.map(\.key.count).max() ?? 0
        return ServeSetting.all.map { setting in
            let value = values[setting.key]
            let shown: String = switch value?.content {
            case nil: setting.defaultValue
            case _ where setting.isSecret: "(hidden)"
            case let .string(text)?: text
            case let .int(number)?: "\(number)"
            case let .double(number)?: "\(number)"
            case let .bool(flag)?: "\(flag)"
            default: "?"
            }
            let source = switch value?.source {
            case .commandLine?: setting.option
            case .environment?: setting.environment
            case let .file(path)?: path
            case .defaultValue?, nil: "default"
            }
            return setting.key.padding(toLength: width, withPad: " ", startingAt: 0) + " = \(shown)  (\(source))"
        }.joined(separator: "\n")
    }
}
