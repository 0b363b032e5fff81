import Foundation
import OpenCareKitCommandTesting
import Testing

/// `serve`'s settings: the command line, then the environment, then a config file, then the default; `--print-config`
/// shows each with where it came from, secrets hidden; a bad value is one line naming the setting as it was given; the
/// reference in the OpenCareKitServer documentation's article Operate lists every setting.
@Suite struct ServeSettingsTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ock-settings-\(UUID().uuidString)")

    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> CommandProcess.Result {
        try CommandProcess.run(["serve"] + arguments, environment: CommandProcess.environment().merging(extra) { $1 })
    }

    /// A config file with `json`.
    func file(_ json: String) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        return url.path
    }

    /// `--print-config`'s lines as key → (value, source).
    func printed(_ result: CommandProcess.Result) -> [String: (value: String, source: String)] {
        Dictionary(uniqueKeysWithValues: result.output.split(separator: "\n").compactMap { line -> (String, (String, String))? in
            guard let equals = line.range(of: " = "), let open = line.range(of: "  (", options: .backwards) else { return nil }
            return (line[..<equals.lowerBound].trimmingCharacters(in: .whitespaces),
                    (String(line[equals.upperBound..<open.lowerBound]), String(line[open.upperBound...].dropLast())))
        })
    }

    @Test func theCommandLineThenTheEnvironmentThenTheFileThenTheDefault() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = try file(#"{"http": {"port": 7001, "headerTimeout": 5, "idleTimeout": 45}, "log": {"format": "json"}, "demo": {"patients": 3}}"#)
        let result = try run(["--print-config", "--config", config, "--port", "7003", "--log-level", "debug"],
                             environment: ["OPENCAREKIT_HTTP_PORT": "7002", "OPENCAREKIT_HTTP_HEADER_TIMEOUT": "6", "OPENCAREKIT_DEMO_ENABLED": "true"])
        #expect(result.status == 0, "\(result.errors)")
        let settings = printed(result)
        #expect(settings["http.port"]! == ("7003", "--port"))
        #expect(settings["http.headerTimeout"]! == ("6.0", "OPENCAREKIT_HTTP_HEADER_TIMEOUT"))
        #expect(settings["http.idleTimeout"]! == ("45.0", config))
        #expect(settings["log.format"]! == ("json", config))
        #expect(settings["log.level"]! == ("debug", "--log-level"))
        #expect(settings["demo.enabled"]! == ("true", "OPENCAREKIT_DEMO_ENABLED"))
        #expect(settings["demo.patients"]! == ("3", config))
        #expect(settings["http.bodyTimeout"]! == ("30", "default"))
        // The config file can also come from the environment.
        let fromEnvironment = printed(try run(["--print-config"], environment: ["OPENCAREKIT_CONFIG": config]))
        #expect(fromEnvironment["http.port"]! == ("7001", config))
        // A flag turned off on the command line wins over the environment's on.
        #expect(printed(try run(["--print-config", "--no-demo"], environment: ["OPENCAREKIT_DEMO_ENABLED": "true"]))["demo.enabled"]! == ("false", "--demo"))
    }

    @Test func secretsAreHidden() throws {
        let token = "a-secret-operator-token-1234"
        let result = try run(["--print-config", "--metrics-token", token],
                             environment: ["DATABASE_URL": "postgres://care:hunter2-password@db.example/care"])
        #expect(result.status == 0)
        #expect(!result.output.contains(token) && !result.output.contains("hunter2"))
        let settings = printed(result)
        #expect(settings["metrics.token"]! == ("(hidden)", "--metrics-token"))
        #expect(settings["database"]! == ("(hidden)", "DATABASE_URL"))
    }

    @Test func aBadValueIsOneLineNamingTheSettingAsItWasGiven() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(arguments: [String], environment: [String: String], message: String)] = [
            (["--port", "70000"], [:], "opencarekit: --port: must be from 0 to 65535"),
            ([], ["OPENCAREKIT_HTTP_PORT": "eighty"], "opencarekit: OPENCAREKIT_HTTP_PORT: must be a whole number"),
            ([], ["OPENCAREKIT_HTTP_PORT": "70000"], "opencarekit: OPENCAREKIT_HTTP_PORT: must be from 0 to 65535"),
            ([], ["OPENCAREKIT_LOG_LEVEL": "loud"], "opencarekit: OPENCAREKIT_LOG_LEVEL: must be one of trace, debug, info, notice, warning, error, critical"),
            ([], ["OPENCAREKIT_REMINDERS_SEND": "maybe"], "opencarekit: OPENCAREKIT_REMINDERS_SEND: must be true or false"),
            (["--config", try file(#"{"http": {"port": "x"}}"#)], [:], "must be a whole number"),
            (["--config", try file(#"{"sessions": {"signOutAfter": 0}}"#)], [:], "sessions.signOutAfter in "),
            (["--config", try file(#"{"http": {"prot": 8080}}"#)], [:], "http.prot in "),
            (["--config", try file("{nope")], [:], "is not a JSON object"),
            (["--config", folder.appendingPathComponent("missing.json").path], [:], "opencarekit: --config: cannot read "),
            ([], ["OPENCAREKIT_METRICS_TOKEN": "short"], "opencarekit: OPENCAREKIT_METRICS_TOKEN: must be at least 16 characters"),
        ]
        for (arguments, environment, message) in cases {
            let result = try run(arguments + ["--data", folder.appendingPathComponent("data").path], environment: environment)
            #expect(result.status != 0, "\(arguments) \(environment)")
            #expect(result.errors.contains(message), "\(arguments) \(environment): \(result.errors)")
            #expect(result.errors.split(separator: "\n").count == 1, "\(result.errors)")
        }
    }

    /// The reference in the Operate article is the one the program prints from its table (`scripts/settings-reference`
    /// writes it there), and each of its rows is a setting `--print-config` shows and `--help` lists.
    @Test func theOperateArticlesReferenceIsTheTables() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(contentsOf: root.appendingPathComponent("Sources/OpenCareKitServer/OpenCareKitServer.docc/Operate.md"),
                                 encoding: .utf8)
        let begin = try #require(article.range(of: "<!-- settings-table:begin -->\n"))
        let end = try #require(article.range(of: "\n<!-- settings-table:end -->"))
        let written = String(article[begin.upperBound..<end.lowerBound])
        let generated = try run(["--settings-reference"])
        #expect(generated.status == 0)
        #expect(written == generated.output.trimmingCharacters(in: .newlines),
                "Operate.md's settings table is not the program's: run scripts/settings-reference")
        let keys = printed(try run(["--print-config"])).keys
        let help = try run(["--help"]).output
        let rows = written.split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(rows.count == keys.count && keys.count >= 20)
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(keys.contains(cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))), "\(row)")
            let option = cells[1].split(separator: "`").first.map(String.init) ?? ""
            #expect(option.hasPrefix("--") && help.contains(option + " "), "\(row)")
        }
    }

    /// The settings' options parse as the table declares them: `--x value`, `--x=value`, `--flag`, `--no-flag`; an
    /// option no setting has, or one without its value, is one line naming it.
    @Test func theCommandLineIsParsedFromTheTable() throws {
        let settings = printed(try run(["--print-config", "--port=7005", "--header-timeout", "2.5", "--demo", "--no-reminders",
                                        "--zone", "Asia/Seoul"]))
        #expect(settings["http.port"]! == ("7005", "--port"))
        #expect(settings["http.headerTimeout"]! == ("2.5", "--header-timeout"))
        #expect(settings["demo.enabled"]! == ("true", "--demo"))
        #expect(settings["reminders.send"]! == ("false", "--reminders"))
        #expect(settings["records.zone"]! == ("Asia/Seoul", "--zone"))
        for (arguments, message) in [(["--colour", "red"], "opencarekit: --colour: not an option of serve"),
                                     (["--port"], "opencarekit: --port: a value is missing"),
                                     (["--demo=yes"], "opencarekit: --demo: takes no value"),
                                     (["--demo="], "opencarekit: --demo: takes no value"),
                                     // A misspelt option is named without its value, which may be a secret.
                                     (["--databse=postgres://care:hunter2-secret@db/care"], "opencarekit: --databse: not an option of serve"),
                                     (["--sign-out-after", "soon"], "opencarekit: --sign-out-after: must be a number"),
                                     (["--sign-out-after", "800"], "opencarekit: --sign-out-after: must be from 1 to 720 minutes"),
                                     (["--zone", "Mars/Olympus"], "opencarekit: --zone: not a known time zone identifier")] {
            let result = try run(arguments + ["--data", folder.appendingPathComponent("data").path])
            #expect(result.status != 0, "\(arguments)")
            #expect(result.errors.hasPrefix(message), "\(arguments): \(result.errors)")
            #expect(!result.errors.contains("hunter2"))
            #expect(result.errors.split(separator: "\n").count == 1, "\(result.errors)")
        }
    }
}
