import ArgumentParser
import Configuration
import Foundation
import Logging
import OpenCareKitPostgres
import OpenCareKitServer
import SystemPackage

/// Every setting of `serve`, each declared once, here: its key in a config file, its command-line option, its
/// environment variable, its default, the values it allows and what it does. Everything else is made from this table:
/// the command line's parsing and `--help`, the environment's and the config file's reading, `--print-config`, the
/// checks of each value, and the reference in the OpenCareKitServer documentation's "Operate" article
/// (`--settings-reference` prints it; `scripts/settings-reference` writes it there; a test compares the two).
///
/// A setting's value comes from, in this order of precedence: the command line, the environment, the config file
/// (`--config FILE`, JSON: `{"http": {"port": 8080}}` is the key `http.port`), the default. The table's settings are
/// found in the order they are declared, so a new setting is one declaration and its use (`settings[\.name]`).
struct ServeSettingTable: Sendable {
    let host = ServeSetting("http.host", "--host", default: "127.0.0.1", "The address to listen on (this machine only by default).")
    let port = ServeSetting("http.port", "--port", default: 8080, in: 0...65_535, "The port to listen on (0 picks a free one).")
    let publicURL = ServeSetting<String?>("http.publicURL", "--public-url", default: nil,
        "The address people use to reach the app, such as https://care.example.org; required with a host other than loopback. Its host becomes the only Host the app answers to, and its origin the only one allowed to write; with https, cookies are Secure.")
    let maxConnections = ServeSetting("http.maxConnections", "--max-connections", default: ConnectionLimits().maximumConnections,
        in: 1...1_000_000, "The most open connections; more are answered 503 and closed.")
    let headerTimeout = ServeSetting("http.headerTimeout", "--header-timeout", default: 10.0, in: 0.1...3_600, unit: "seconds",
        "Seconds a new connection has to send a request's head.")
    let bodyTimeout = ServeSetting("http.bodyTimeout", "--body-timeout", default: 30.0, in: 0.1...3_600, unit: "seconds",
        "Seconds a request has to send its body after its head.")
    let liveStreamsPerPerson = ServeSetting("http.liveStreamsPerPerson", "--live-streams-per-person", default: LiveStreamSlots.perPerson,
        in: 1...100_000, "The most live pages (server-sent event streams) one person may have open over all their addresses; one address may have 16.")
    let idleTimeout = ServeSetting("http.idleTimeout", "--idle-timeout", default: 60.0, in: 0.1...3_600, unit: "seconds",
        "Seconds a kept-alive connection may wait for its next request.")
    let heavyWorkPerPerson = ServeSetting("http.heavyWorkPerPerson", "--heavy-work-per-person", default: HeavyWork.perPerson, in: 1...1_000,
        "The most heavy requests (FHIR imports, reports, FHIR exports and searches) one person may have running; more are answered 503.")
    let heavyWork = ServeSetting("http.heavyWork", "--heavy-work", default: HeavyWork.overall, shown: "the number of cores less one, at least 1",
        in: 1...1_000, "The most heavy requests the server runs at once, everyone's together; more are answered 503.")
    let data = ServeSetting<String?>("data", "--data", default: nil, shown: "$XDG_DATA_HOME/opencarekit, else ~/.local/share/opencarekit",
        environment: "OPENCAREKIT_DATA_DIR", "The data directory (the directory and the records' stores).")
    let database = ServeSetting<String?>("database", "--database", default: nil, environment: "DATABASE_URL", secret: true,
        "A PostgreSQL database holding the directory and every record instead of a data directory: postgres://user[:password]@host[:port]/database. Give a password in the environment rather than on the command line, where other users of the machine can see it.")
    let databaseConnections = ServeSetting("database.connections", "--database-connections", default: PostgresCareRecords.defaultMaximumConnections,
        in: 2...1_000,
        "The most connections to PostgreSQL this server opens, one of them listening for other servers' commits: each transaction under way holds one (and no thread), so this is how many run at once; more wait for one (up to 5 s, then 503).")
    let secretsKeyFile = ServeSetting<String?>("secrets.keyFile", "--secrets-key-file", default: nil,
        shown: "secrets.key in the data directory (made on first run)", environment: "OPENCAREKIT_SECRETS_KEY_FILE",
        "The key that seals the secrets the directory keeps (two-step keys, the Web Push and log keys), kept outside the database: every app server of one database needs the same, and a backup restores only with it. $OPENCAREKIT_SECRETS_KEY (32 bytes in base64) gives the key itself instead.")
    let zone = ServeSetting<String?>("records.zone", "--zone", default: nil, shown: "this machine's",
        check: { TimeZone(identifier: $0) == nil ? "not a known time zone identifier" : nil },
        "The time zone of new records and of a record adopted from before records.")
    let signOutAfter = ServeSetting("sessions.signOutAfter", "--sign-out-after", default: 15.0, in: 1...720, unit: "minutes",
        "Minutes without activity after which a person is signed out, with a warning in the page a minute before (HIPAA's automatic logoff).")
    let requireTwoStepForClinicians = ServeSetting("sessions.requireTwoStepForClinicians", "--require-two-step-for-clinicians", default: false,
        "Require every clinician to turn on two-step sign-in (an authenticator app) before anything else.")
    let flagMissedDoseDays = ServeSetting("clinician.flagMissedDoseDays", "--flag-missed-dose-days", default: 2, in: 0...7,
        "Flag a patient on the clinician's home after missed doses on this many of the last days (0: never).")
    let flagPainScore = ServeSetting("clinician.flagPainScore", "--flag-pain-score", default: 7.0, in: 0...10,
        "Flag a patient after a check-in pain score at or above this in the last 7 days (0: never).")
    let reminders = ServeSetting("reminders.send", "--reminders", default: true,
        "Send reminders from this server (--no-reminders: with several app servers on one database, exactly one sends them).")
    let triageSweep = ServeSetting("triage.sweep", "--triage-sweep", default: true,
        "Raise each record's daily alerts (missed doses, nothing recorded) at the start of its day from this server (--no-triage-sweep: with several app servers on one database, exactly one sweeps).")
    let pushContact = ServeSetting<String?>("reminders.pushContact", "--push-contact", default: nil,
        shown: "the public URL when https, else mailto:admin@localhost",
        check: { ($0.hasPrefix("mailto:") || $0.hasPrefix("https://")) && $0.utf8.count <= 200 ? nil : "must be a mailto: or https: address" },
        "Who runs this server, for browsers' push services to reach about its reminders: a mailto: or https: address.")
    let chromium = ServeSetting<String?>("reports.chromium", "--chromium", default: nil,
        shown: "chromium, chromium-browser, google-chrome or google-chrome-stable on PATH",
        check: { FileManager.default.isExecutableFile(atPath: $0) ? nil : "\($0) is not an executable file" },
        "The Chromium (or Chrome) that prints reports to PDF (without one, reports print from the browser only).")
    let logLevel = ServeSetting("log.level", "--log-level", default: "info",
        checking: { Logger.Level(rawValue: $0.lowercased()) == nil ? "must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))" : nil },
        "The least important log messages written: trace, debug, info (a line per request), notice, warning, error or critical.")
    let logFormat = ServeSetting("log.format", "--log-format", default: "text",
        checking: { LogFormat(rawValue: $0.lowercased()) == nil ? "must be text or json" : nil },
        "How the log is written to standard error: text, or json (one object a line).")
    let slowStoreCall = ServeSetting("log.slowStoreCall", "--slow-store-call", default: 250, in: 1...600_000, unit: "milliseconds",
        "A store call slower than this many milliseconds is logged as a warning.")
    let metricsToken = ServeSetting<String?>("metrics.token", "--metrics-token", default: nil, secret: true,
        check: { $0.utf8.count < 16 ? "must be at least 16 characters" : nil },
        "The operator's token for /metrics from other machines (Authorization: Bearer TOKEN, at least 16 characters); without it, /metrics answers only on this machine, not through a proxy.")
    let demo = ServeSetting("demo.enabled", "--demo", default: false,
        "Add the demo people (a patient, her caregiver daughter, a clinician) and the patient's record with the demo care plan if missing; on loopback the sign-in page offers one-click sign-in as each.")
    let demoPatients = ServeSetting("demo.patients", "--demo-patients", default: DemoPeople.defaultClinicSize, in: 0...DemoPeople.maximumClinicSize,
        "With the demo: how many patients the demo clinician follows besides the demo patient, each with a few weeks of history.")

    static let table = ServeSettingTable()

    /// Every setting, in the order declared above.
    static let all: [any AnyServeSetting] = Mirror(reflecting: table).children.compactMap { $0.value as? any AnyServeSetting }

    static func named(_ key: String) -> (any AnyServeSetting)? {
        all.first { $0.key == key }
    }

    /// The command line's options of the settings, for `--help`: each option with its default and variable on one
    /// line, what it does below (ArgumentParser wraps a discussion's lines to the terminal without indenting them).
    static var help: String {
        "SETTINGS (each also from its environment variable, or a config file's key: see --print-config)\n\n"
            + all.map { setting in
                let value = setting.kind == .bool ? "" : " <\(setting.kind.placeholder)>"
                let negation = setting.kind == .bool ? " | --no-\(setting.option.dropFirst(2))" : ""
                let allowed = setting.allowed.map { " Allowed: \($0)." } ?? ""
                return "\(setting.option)\(negation)\(value)   default: \(setting.shownDefault); \(setting.environment)\n"
                    + "  \(setting.help)\(allowed)"
            }.joined(separator: "\n\n")
    }

    /// The reference, as a Markdown table: key, option, environment variable, default, what it does.
    static var reference: String {
        (["| Key | Option | Environment | Default | What it does |", "|---|---|---|---|---|"] + all.map { setting in
            let option = setting.kind == .bool ? "`\(setting.option)` / `--no-\(setting.option.dropFirst(2))`" : "`\(setting.option)`"
            let allowed = setting.allowed.map { " Allowed: \($0)." } ?? ""
            return "| `\(setting.key)` | \(option) | `\(setting.environment)` | \(setting.shownDefault) | \(setting.help)\(allowed) |"
        }).joined(separator: "\n")
    }
}

/// What kind of value a setting takes.
enum ServeSettingKind: Sendable {
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

    /// The value's placeholder in `--help`.
    var placeholder: String {
        switch self {
        case .string: "text"
        case .int: "whole number"
        case .double: "number"
        case .bool: ""
        }
    }

    /// The content of `text` as given on the command line; nil if it is not of this kind.
    func content(of text: String) -> ConfigContent? {
        switch self {
        case .string: .string(text)
        case .int: Int(text).map { .int($0) }
        case .double: Double(text).flatMap { $0.isFinite ? .double($0) : nil }
        case .bool: ["true": true, "false": false, "1": true, "0": false, "yes": true, "no": false][text.lowercased()].map { .bool($0) }
        }
    }
}

/// A value a setting may hold: text, a whole number, a number, true or false, or one of them or nothing.
protocol ServeSettingValue: Sendable {
    static var kind: ServeSettingKind { get }
    /// The value of `content`; nil if it is of another kind.
    init?(content: ConfigContent)
    /// How the reference and `--print-config` show it.
    var shown: String { get }
}

extension String: ServeSettingValue {
    static var kind: ServeSettingKind { .string }
    init?(content: ConfigContent) {
        guard case let .string(text) = content else { return nil }
        self = text
    }
    var shown: String { self }
}

extension Int: ServeSettingValue {
    static var kind: ServeSettingKind { .int }
    init?(content: ConfigContent) {
        guard case let .int(number) = content else { return nil }
        self = number
    }
    var shown: String { String(self) }
}

extension Double: ServeSettingValue {
    static var kind: ServeSettingKind { .double }
    init?(content: ConfigContent) {
        switch content {
        case let .double(number): self = number
        case let .int(number): self = Double(number)
        default: return nil
        }
    }
    /// Whole numbers without a decimal point (`10`, `0.1`).
    var shown: String { rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}

extension Bool: ServeSettingValue {
    static var kind: ServeSettingKind { .bool }
    init?(content: ConfigContent) {
        guard case let .bool(flag) = content else { return nil }
        self = flag
    }
    var shown: String { String(self) }
}

extension Optional: ServeSettingValue where Wrapped: ServeSettingValue {
    static var kind: ServeSettingKind { Wrapped.kind }
    init?(content: ConfigContent) {
        guard let value = Wrapped(content: content) else { return nil }
        self = .some(value)
    }
    var shown: String { map(\.shown) ?? "none" }
}

/// A setting whatever its value's type: what the table's readers (the command line, `--print-config`, the reference)
/// need.
protocol AnyServeSetting: Sendable {
    var key: String { get }
    var option: String { get }
    var environment: String { get }
    var kind: ServeSettingKind { get }
    var shownDefault: String { get }
    var isSecret: Bool { get }
    var help: String { get }
    /// The values allowed, in words, when not every value of its kind is ("from 0 to 65535").
    var allowed: String? { get }
    /// Why `content` is refused, or nil when it is allowed.
    func problem(with content: ConfigContent) -> String?
}

/// One setting of `serve`, of values of type `Value`.
struct ServeSetting<Value: ServeSettingValue>: AnyServeSetting {
    let key: String
    let option: String
    let environment: String
    let defaultValue: Value
    let shownDefault: String
    let isSecret: Bool
    let help: String
    let allowed: String?
    /// Why a value given is refused, or nil.
    let check: @Sendable (Value) -> String?

    var kind: ServeSettingKind { Value.kind }

    /// - Parameters:
    ///   - key: The config file's dotted key; the environment variable is made from it
    ///     (`http.publicURL`: `OPENCAREKIT_HTTP_PUBLIC_URL`) unless `environment` names another.
    ///   - shown: The default in words, for a default that depends on the machine.
    ///   - check: Why a value given is refused, or nil when it is allowed.
    init(_ key: String, _ option: String, default defaultValue: Value, shown: String? = nil, environment: String? = nil,
         secret: Bool = false, allowed: String? = nil, checking check: @escaping @Sendable (Value) -> String? = { _ in nil }, _ help: String) {
        self.key = key
        self.option = option
        self.defaultValue = defaultValue
        shownDefault = shown ?? defaultValue.shown
        self.environment = environment ?? "OPENCAREKIT_" + key.replacing(".", with: "_").replacing(/([a-z])([A-Z])/) { "\($0.1)_\($0.2)" }.uppercased()
        isSecret = secret
        self.allowed = allowed
        self.check = check
        self.help = help
    }

    func problem(with content: ConfigContent) -> String? {
        guard let value = Value(content: content) else { return "must be \(kind.expected)" }
        return check(value)
    }
}

extension ServeSetting where Value: Comparable {
    /// A setting whose values lie in `range` (`unit` names them in the refusal: "must be from 1 to 720 minutes").
    init(_ key: String, _ option: String, default defaultValue: Value, shown: String? = nil, in range: ClosedRange<Value>,
         unit: String? = nil, _ help: String) {
        let words = "from \(range.lowerBound.shown) to \(range.upperBound.shown)" + (unit.map { " " + $0 } ?? "")
        self.init(key, option, default: defaultValue, shown: shown, allowed: words,
                  checking: { range.contains($0) ? nil : "must be \(words)" }, help)
    }
}

extension ServeSetting {
    /// A setting that may be left unset, whose values given are checked by `check`.
    init<Wrapped: ServeSettingValue>(_ key: String, _ option: String, default defaultValue: Wrapped? = nil, shown: String? = nil,
                                     environment: String? = nil, secret: Bool = false,
                                     check: @escaping @Sendable (Wrapped) -> String?, _ help: String) where Value == Wrapped? {
        self.init(key, option, default: defaultValue, shown: shown, environment: environment, secret: secret,
                  checking: { $0.flatMap(check) }, help)
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

    /// The value of `setting`: as given, else its default.
    subscript<T>(_ setting: KeyPath<ServeSettingTable, ServeSetting<T>>) -> T {
        let setting = ServeSettingTable.table[keyPath: setting]
        return values[setting.key]?.content.flatMap { T(content: $0) } ?? setting.defaultValue
    }

    /// Parses the settings' options among `arguments` (`--port 8080`, `--port=8080`, `--demo`, `--no-demo`), as the
    /// table declares them, into values by key.
    static func commandLine(_ arguments: [String]) throws -> [String: ConfigContent] {
        var options: [String: (any AnyServeSetting, Bool?)] = [:]
        for setting in ServeSettingTable.all {
            if setting.kind == .bool {
                options[setting.option] = (setting, true)
                options["--no-" + setting.option.dropFirst(2)] = (setting, false)
            } else {
                options[setting.option] = (setting, nil)
            }
        }
        var given: [String: ConfigContent] = [:]
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            // Named without its value: a misspelt `--databse=postgres://user:password@…` must not print the password.
            guard let name = parts.first, let (setting, flag) = options[name] else {
                throw ValidationError("\(parts.first ?? ""): not an option of serve (opencarekit serve --help lists them)")
            }
            if let flag {
                guard parts.count == 1 else { throw ValidationError("\(name): takes no value") }
                given[setting.key] = .bool(flag)
                continue
            }
            // The next option is not this one's value (`--port --demo`): a value beginning with "--" is given as `--x=--y`.
            if parts.count == 1, remaining.first?.hasPrefix("--") ?? true { throw ValidationError("\(name): a value is missing") }
            let text = parts.count == 2 ? parts[1] : remaining.removeFirst()
            guard let content = setting.kind.content(of: text) else { throw ValidationError("\(name): must be \(setting.kind.expected)") }
            given[setting.key] = content
        }
        return given
    }

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
            let known = Set(ServeSettingTable.all.map(\.key))
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
        for setting in ServeSettingTable.all {
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

    private static func lookUp(_ setting: any AnyServeSetting, in provider: some ConfigProvider, key: AbsoluteConfigKey, as name: String) throws -> ConfigContent? {
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

    /// Refuses the first value given that its setting does not allow, in one line naming where it came from.
    func check() throws {
        for setting in ServeSettingTable.all {
            if let content = values[setting.key]?.content, let problem = setting.problem(with: content) {
                throw ValidationError("\(label(setting.key)): \(problem)")
            }
        }
    }

    /// How the value of `key` was given, for a refusal: `--port`, `OPENCAREKIT_HTTP_PORT`, `http.port in FILE`, or
    /// the option for a setting not given.
    func label(_ key: String) -> String {
        guard let setting = ServeSettingTable.named(key) else { return key }
        switch values[key]?.source {
        case .commandLine: return setting.option
        case .environment: return setting.environment
        case let .file(path): return "\(key) in \(path)"
        case .defaultValue, nil: return setting.option
        }
    }

    func label<T>(_ setting: KeyPath<ServeSettingTable, ServeSetting<T>>) -> String {
        label(ServeSettingTable.table[keyPath: setting].key)
    }

    /// Whether `setting`'s value was given with a higher precedence than `other`'s; nil when both came from the same
    /// place.
    func precedence<A, B>(_ setting: KeyPath<ServeSettingTable, ServeSetting<A>>, over other: KeyPath<ServeSettingTable, ServeSetting<B>>) -> Bool? {
        func rank(_ key: String) -> Int {
            switch values[key]?.source {
            case .commandLine?: 0
            case .environment?: 1
            case .file?: 2
            case .defaultValue?, nil: 3
            }
        }
        let (key, otherKey) = (ServeSettingTable.table[keyPath: setting].key, ServeSettingTable.table[keyPath: other].key)
        return rank(key) == rank(otherKey) ? nil : rank(key) < rank(otherKey)
    }

    /// A refusal of the value of `setting`, in one line naming where it came from.
    func invalid<T>(_ setting: KeyPath<ServeSettingTable, ServeSetting<T>>, _ message: String) -> ValidationError {
        ValidationError("\(label(setting)): \(message)")
    }

    /// The settings in effect, one a line, as `key = value (source)`; secrets show as `(hidden)`.
    func printed() -> String {
        let width = ServeSettingTable.all.map(\.key.count).max() ?? 0
        return ServeSettingTable.all.map { setting in
            let value = values[setting.key]
            let shown: String = switch value?.content {
            case nil: setting.shownDefault
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
