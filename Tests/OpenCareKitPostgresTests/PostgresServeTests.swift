import Foundation
import OpenCareKitDirectory
import OpenCareKitPostgresTesting
import OpenCareKitCommandTesting
import OpenCareKitStore
import OpenCareKitSurveys
import Testing

/// `opencarekit serve --database` as real processes on one database: several app servers starting together, the
/// command line beside them, and a database that goes away and comes back.
@Suite(.serialized) struct PostgresServeTests {
    @Test func twoServersStartTogetherOnANewDatabaseAndServeOneAnothersWrites() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        // Started at once: the migration and the demo are each done by one of them.
        let browser = TestBrowser()
        async let first = AppServer.start(["--database", url, "--demo", "--demo-patients", "1"], browser: browser)
        async let second = AppServer.start(["--database", url, "--demo", "--demo-patients", "1"], browser: browser)
        let servers = try await [first, second]
        defer { servers.forEach { $0.stop() } }
        for server in servers { #expect(server.url.hasPrefix("http://127.0.0.1:"), "\(server.output)") }
        #expect(servers.filter { $0.output.contains("Added the demo people") }.count == 1)
        let (one, two) = (servers[0], servers[1])

        // Signed in through one server, the session is good on the other: sessions are in the shared directory.
        let care = try await one.signInAsDemoPatient()
        let path = try #require(URL(string: care)?.path)
        let (status, page) = try await two.get(path)
        #expect(status == 200 && page.contains("id=\"task-onboarding\""))

        // The patient onboards (the plan's outcomes wait for the consent), through the JSON API as a phone would.
        let onboarding = try #require(try await two.json(path.replacingOccurrences(of: "/care", with: "/api/v1/events?taskID=onboarding"))
            as? [[String: Any]]).first
        let onboardingTask = try #require((onboarding?["task"] as? [String: Any])?["uuid"] as? String)
        let consent = OCKOutcome(taskUUID: try #require(UUID(uuidString: onboardingTask)),
                                 taskOccurrenceIndex: try #require((onboarding?["scheduleEvent"] as? [String: Any])?["occurrence"] as? Int),
                                 values: try OCKDemoSurveys.signedOnboarding(signerName: "Alex Rivera", at: Date()))
        let signed = try await one.send("POST", path.replacingOccurrences(of: "/care", with: "/api/v1/outcomes"), json: try JSONEncoder().encode(consent))
        #expect(signed.status == 201, "\(signed.body)")

        // An outcome recorded through one server is in the other's answers and on its page at once.
        let today = try await two.json(path.replacingOccurrences(of: "/care", with: "/api/v1/events?taskID=ibuprofen"))
        let event = try #require((today as? [[String: Any]])?.first)
        let task = try #require(event["task"] as? [String: Any])
        let occurrence = try #require((event["scheduleEvent"] as? [String: Any])?["occurrence"] as? Int)
        let taskUUID = try #require((task["uuid"] as? String).flatMap(UUID.init(uuidString:)))
        let outcome = OCKOutcome(taskUUID: taskUUID, taskOccurrenceIndex: occurrence, values: [OCKOutcomeValue(true)])
        let posted = try await one.send("POST", path.replacingOccurrences(of: "/care", with: "/api/v1/outcomes"),
                                        json: try JSONEncoder().encode(outcome))
        #expect(posted.status == 201, "\(posted.body)")
        let after = try await two.json(path.replacingOccurrences(of: "/care", with: "/api/v1/events?taskID=ibuprofen"))
        #expect((after as? [[String: Any]])?.first?["outcome"] is [String: Any])
    }

    /// `--database-connections` is the pool: a server given 3 opens no more than 3 connections to the database
    /// however many requests come at once (they wait for one), and serves them all.
    @Test func theServerOpensNoMoreConnectionsThanItIsGiven() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let server = try await AppServer.start(["--database", url, "--database-connections", "3", "--demo", "--demo-patients", "0"],
                                               browser: TestBrowser())
        defer { server.stop() }
        let care = try await server.signInAsDemoPatient()
        let path = try #require(URL(string: care)?.path)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<40 { group.addTask { try await server.get(path).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count == 40 && statuses.allSatisfy { $0 == 200 })
        let database = try #require(url.split(separator: "/").last.map(String.init))
        let connections = try await PostgresTestCluster.connectionCount(toDatabase: database)
        #expect((1...3).contains(connections), "\(connections) connections")
        let refused = try AppServer.run(["serve", "--database", url, "--database-connections", "1", "--port", "0"])
        #expect(refused.status != 0 && refused.errors.contains("must be from 2 to 1000"), "\(refused.errors)")
    }

    @Test func aDatabaseThatGoesDownIsAnsweredWith503AndTheServerRecoversByItself() async throws {
        let cluster = try PostgresTestCluster.OwnCluster.start()
        defer { cluster.stop() }
        let server = try await AppServer.start(["--database", cluster.url, "--demo", "--demo-patients", "0"], browser: TestBrowser())
        defer { server.stop() }
        let care = try await server.signInAsDemoPatient()
        let path = try #require(URL(string: care)?.path)
        #expect(try await server.get(path).status == 200)

        try cluster.kill()
        // Every kind of request that needs the database: a page, the API, the sign-in page's session look-up.
        let started = ContinuousClock.now
        for (target, wantsJSON) in [(path, false), (path.replacingOccurrences(of: "/care", with: "/api/v1/tasks"), true), ("/", false)] {
            let answer = try await server.request("GET", target, accept: wantsJSON ? "application/json" : "text/html")
            #expect(answer.status == 503, "\(target): \(answer.body)")
            #expect(answer.headers["Retry-After"] == "5")
            #expect(answer.body.contains(wantsJSON ? "\"status\":503" : "cannot be reached right now"))
        }
        // Never a hang: the first waited the connection wait (5 s), the others a moment, the database known down.
        #expect(ContinuousClock.now - started < .seconds(12))

        try cluster.restart()
        // Back without restarting the app: the first tries may still find the pool's dead connections.
        var status = 0
        for _ in 0..<40 where status != 200 {
            status = try await server.get(path).status
        }
        #expect(status == 200)
    }

    @Test func aServerCannotStartOnAnUnreachableDatabaseAndSaysSoInOneLine() throws {
        // A port nothing listens on: the connection is refused at once.
        let result = try AppServer.run(["serve", "--database", "postgres://opencarekit@127.0.0.1:1/opencarekit", "--port", "0"])
        #expect(result.status != 0)
        #expect(result.errors.hasPrefix("opencarekit: cannot use the database postgres://opencarekit@127.0.0.1:1/opencarekit: "), "\(result.errors)")
        #expect(result.errors.split(separator: "\n").count == 1)
        let bad = try AppServer.run(["serve", "--database", "mysql://x@y/z"])
        #expect(bad.status != 0 && bad.errors.hasPrefix("opencarekit: --database: "), "\(bad.errors)")
    }

    @Test func theCommandLineWorksOnTheDatabase() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let environment = ["DATABASE_URL": url]
        let added = try AppServer.run(["account", "add", "pat@example.org", "--name", "Pat Lee"], environment: environment,
                                      input: "a long enough password\n")
        #expect(added.status == 0, "\(added.errors)")
        let record = try AppServer.run(["record", "add", "--patient-name", "Pat Lee", "--owner", "pat@example.org", "--demo-plan",
                                        "--signed-by", "Pat Lee", "--database", url])
        #expect(record.status == 0, "\(record.errors)")
        let id = record.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let listed = try AppServer.run(["record", "list"], environment: environment)
        #expect(listed.output.contains(id) && listed.output.contains("pat@example.org (patient, owner)"))
        let tasks = try AppServer.run(["store", "tasks", "--record", id, "--zone", "UTC"], environment: environment)
        #expect(tasks.status == 0 && tasks.output.contains("ibuprofen"), "\(tasks.errors)")
        let logged = try AppServer.run(["store", "log", "nausea", "--record", id, "--value", "2", "--zone", "UTC"], environment: environment)
        #expect(logged.status == 0, "\(logged.errors)")
        let events = try AppServer.run(["store", "events", "--record", id, "--zone", "UTC"], environment: environment)
        #expect(events.output.contains("nausea") && events.output.contains("done 2"))
        let audit = try AppServer.run(["audit", "verify"], environment: environment)
        #expect(audit.status == 0 && audit.output.hasPrefix("The audit log is intact"), "\(audit.errors)")
        // A record of the data directory is not one of the database.
        let missing = try AppServer.run(["store", "tasks", "--record", CareRecordID.random().description], environment: environment)
        #expect(missing.status != 0 && missing.errors.contains("there is no such record"))
    }
}

/// An `opencarekit serve` process on a free port, and the requests a test makes to it through its browser (shared by
/// the servers of one test, as a browser shares cookies across the ports of one host).
struct AppServer: Sendable {
    let process: Process
    let url: String
    let output: String
    let browser: TestBrowser

    /// Starts the server on a free port and waits for the line with its address.
    static func start(_ arguments: [String], browser: TestBrowser) async throws -> AppServer {
        let server = try CommandProcess.startServer(["--port", "0"] + arguments, environment: environment)
        return AppServer(process: server.process, url: server.url, output: server.output, browser: browser)
    }

    static var environment: [String: String] {
        CommandProcess.environment().merging(["HOME": FileManager.default.temporaryDirectory.path]) { $1 }
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    func request(_ method: String, _ path: String, accept: String = "text/html", body: Data? = nil) async throws -> TestBrowser.Answer {
        try await browser.request(method, url + path.drop { $0 == "/" }, accept: accept, body: body)
    }

    func get(_ path: String) async throws -> (status: Int, body: String) {
        let answer = try await request("GET", path)
        return (answer.status, answer.body)
    }

    /// The JSON of a 200 answer; any other answer fails the test, showing what came instead.
    func json(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Any {
        let answer = try await request("GET", path, accept: "application/json")
        try #require(answer.status == 200, "\(answer.status) \(answer.body)", sourceLocation: sourceLocation)
        return try JSONSerialization.jsonObject(with: Data(answer.body.utf8))
    }

    func send(_ method: String, _ path: String, json: Data) async throws -> TestBrowser.Answer {
        try await request(method, path, accept: "application/json", body: json)
    }

    /// Signs in as the demo patient in one click; returns the address of the page it leads to.
    func signInAsDemoPatient() async throws -> String {
        try await browser.signInAsDemoPatient(at: url).url
    }

    /// Runs a command to its end.
    static func run(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws -> CommandProcess.Result {
        try CommandProcess.run(arguments, environment: self.environment.merging(environment) { $1 }, input: input)
    }
}
