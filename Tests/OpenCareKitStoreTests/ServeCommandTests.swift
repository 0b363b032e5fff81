import Foundation
import GRDB
import OpenCareKitCommandTesting
import Testing

/// `opencarekit serve` as a real process: it prints its URL, serves, stops cleanly on SIGTERM and SIGINT, and
/// explains a busy port or an unusable data directory in one line.
@Suite(.serialized) struct ServeCommandTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ock-serve-\(UUID().uuidString)")

    /// Starts the server and waits for the line with its URL (or for the process to end).
    func start(_ arguments: [String]) throws -> CommandProcess.Server {
        try CommandProcess.startServer(arguments, environment: CommandProcess.environment().merging(["HOME": directory.path]) { $1 })
    }

    /// This test's browser: its cookies are its own.
    let browser = TestBrowser()

    func get(_ url: String) async throws -> (Int, String) {
        let answer = try await browser.get(url)
        return (answer.status, answer.body)
    }

    /// Signs in as the demo patient in one click, as the sign-in page offers on loopback; returns the page it leads
    /// to and its address.
    func signInAsDemoPatient(_ url: String) async throws -> (status: Int, url: String, page: String) {
        let answer = try await browser.signInAsDemoPatient(at: url)
        return (answer.status, answer.url, answer.body)
    }

    func run(_ arguments: [String]) throws -> CommandLineTests.Result {
        try CommandLineTests.run(["serve"] + arguments)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func servesTheDemoAndStopsGracefully(signal: Int32) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try start(["--demo", "--data", directory.path, "--port", "0"])
        #expect(server.output.contains("Added the demo people and the demo care plan."))
        #expect(server.url.hasPrefix("http://127.0.0.1:"))
        let (status, body) = try await get(server.url + "healthz")
        #expect(status == 200 && body == "ok")
        // Without signing in, a record's page sends the browser to sign in.
        let (_, signInPage) = try await get(server.url + "records/00000000000000000000000000/care")
        #expect(signInPage.contains(#"action="/sign-in""#))
        let (pageStatus, pageURL, page) = try await signInAsDemoPatient(server.url)
        #expect(pageStatus == 200)
        #expect(pageURL.contains("/records/") && pageURL.hasSuffix("/care"))
        // A fresh demo store meets the onboarding first: its card alone.
        #expect(page.contains("id=\"task-onboarding\"") && !page.contains("id=\"task-ibuprofen\""))
        _ = try await get(pageURL.replacingOccurrences(of: "/care", with: "/contacts"))
        _ = try await get(pageURL.replacingOccurrences(of: "/care", with: "/api/v1/tasks"))
        kill(server.process.processIdentifier, signal)
        server.process.waitUntilExit()
        #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0)
        // Nothing about the patient reaches the output: only the start-up lines.
        let log = server.output + String(decoding: (server.process.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data(),
                                         as: UTF8.self)
        for secret in ["Ibuprofen", "Okafor", "Rivera", "Alex", "Penicillin", "knee"] { #expect(!log.contains(secret), "\(secret)") }
        // The store persists: a second start does not add the plan again.
        let again = try start(["--demo", "--data", directory.path, "--port", "0"])
        #expect(!again.output.contains("Added the demo"))
        kill(again.process.processIdentifier, SIGTERM)
        again.process.waitUntilExit()
    }

    @Test func theDirectorysSecretsAreSealedWithAKeyFileBesideIt() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // A directory from before sealing: a shared value kept as it is.
        let file = directory.appendingPathComponent("directory.sqlite").path
        let first = try start(["--data", directory.path, "--port", "0"])
        kill(first.process.processIdentifier, SIGTERM)
        first.process.waitUntilExit()
        try await DatabaseQueue(path: file).write { db in
            try db.execute(sql: "INSERT INTO shared_value (name, value, created_date) VALUES ('legacy', 'kept as it is', 0)")
        }
        // Served again, with a request (its log line makes the log's key): every value is sealed, the key beside.
        let server = try start(["--data", directory.path, "--port", "0"])
        #expect(try await get(server.url + "healthz").0 == 200)
        kill(server.process.processIdentifier, SIGTERM)
        server.process.waitUntilExit()
        let keyFile = directory.appendingPathComponent("secrets.key").path
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(Data(base64Encoded: try String(contentsOfFile: keyFile, encoding: .utf8))?.count == 32)
        let values = try await DatabaseQueue(path: file).read { db in try String.fetchAll(db, sql: "SELECT value FROM shared_value ORDER BY name") }
        #expect(values.count >= 2 && values.allSatisfy { $0.hasPrefix("ock-sealed:v1:") }, "\(values)")
        #expect(!values.contains { $0.contains("kept as it is") })
        // A key given that is not one is refused in one line.
        let bad = try CommandProcess.run(["serve", "--data", directory.path, "--port", "0"],
                                         environment: CommandProcess.environment().merging(["OPENCAREKIT_SECRETS_KEY": "short"]) { $1 })
        #expect(bad.status != 0 && bad.errors.contains("OPENCAREKIT_SECRETS_KEY"), "\(bad.errors)")
        // Another key (a restored directory served without its own) is refused at start, in one line, nothing changed.
        let other = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let wrong = try CommandProcess.run(["serve", "--data", directory.path, "--port", "0"],
                                           environment: CommandProcess.environment().merging(["OPENCAREKIT_SECRETS_KEY": other]) { $1 })
        #expect(wrong.status != 0 && wrong.errors.contains("the secrets key does not open the directory's secrets"), "\(wrong.errors)")
        #expect(wrong.errors.split(separator: "\n").count == 1)
        #expect(try await DatabaseQueue(path: file).read { db in try String.fetchAll(db, sql: "SELECT value FROM shared_value ORDER BY name") } == values)
    }

    @Test func aBusyPortOrABadDataDirectoryIsOneLine() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try start(["--data", directory.path, "--port", "0"])
        let port = try #require(server.url.split(separator: ":").last?.split(separator: "/").first.map(String.init))
        let busy = try run(["--data", directory.path, "--port", port])
        kill(server.process.processIdentifier, SIGTERM)
        server.process.waitUntilExit()
        #expect(busy.status != 0)
        #expect(busy.errors.contains("the port is in use"))
        #expect(busy.errors.split(separator: "\n").count == 1)

        let file = directory.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: file)
        let bad = try run(["--data", file.path, "--port", "0"])
        #expect(bad.status != 0)
        #expect(bad.errors.hasPrefix("opencarekit: cannot open the data directory"))
        #expect(bad.errors.split(separator: "\n").count == 1)
        #expect(try run(["--port", "70000"]).errors.contains("--port"))
        #expect(try run(["--heavy-work", "0"]).errors.contains("--heavy-work: must be from 1 to 1000"))
        #expect(try run(["--heavy-work-per-person", "0"]).errors.contains("--heavy-work-per-person"))
    }
}
