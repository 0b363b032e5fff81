import Foundation
import Logging
import OpenCareKitPostgres
import PostgresNIO
import Synchronization

/// The PostgreSQL cluster the tests use: `OPENCAREKIT_TEST_DATABASE_URL` when set (scripts/test starts one), else a
/// throwaway cluster this process starts with scripts/pg-test-cluster and stops when it exits. A cluster that cannot
/// start fails the tests that need it; they never skip.
public enum PostgresTestCluster {
    private static let started = Mutex<String?>(nil)

    /// The URL of the cluster's `opencarekit` database, as the unprivileged `opencarekit` role.
    public static func url() throws -> String {
        if let url = ProcessInfo.processInfo.environment["OPENCAREKIT_TEST_DATABASE_URL"], !url.isEmpty { return url }
        return try started.withLock { started in
            if let started { return started }
            let own = try OwnCluster.start()
            directory = own.directory
            atexit {
                if let directory = PostgresTestCluster.directory {
                    _ = try? PostgresTestCluster.run(PostgresTestCluster.script, ["stop", directory])
                }
            }
            started = own.url
            return own.url
        }
    }

    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "scripts/pg-test-cluster").path

    /// A cluster of a test's own, which it may crash and restart without disturbing the others.
    public struct OwnCluster: Sendable {
        public let directory: String
        public let url: String

        public static func start() throws -> OwnCluster {
            let lines = try run(script, ["start"]).split(separator: "\n").map(String.init)
            guard lines.count >= 2, let url = lines.last, url.hasPrefix("postgres://") else {
                throw ClusterError("scripts/pg-test-cluster start printed no URL")
            }
            return OwnCluster(directory: lines[lines.count - 2], url: url)
        }

        /// kill -9 of the server and all its processes, as a crash.
        public func kill() throws { try run(script, ["kill", directory]) }
        /// Starts it again on its port; it recovers from its log.
        public func restart() throws { try run(script, ["restart", directory]) }
        public func stop() { _ = try? run(script, ["stop", directory]) }
    }

    nonisolated(unsafe) public private(set) static var directory: String?

    /// Runs a program and returns what it printed. Its output goes through a file, not a pipe: the database server it
    /// starts lives on and would hold a pipe open.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let outputFile = FileManager.default.temporaryDirectory.appending(path: "pg-test-\(UUID().uuidString).out")
        let errorFile = FileManager.default.temporaryDirectory.appending(path: "pg-test-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        process.waitUntilExit()
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            throw ClusterError("\(executable) \(arguments.joined(separator: " ")) failed: \(errors)")
        }
        return output
    }

    /// A new, empty database on the cluster, owned by the `opencarekit` role.
    public static func newDatabase() async throws -> String {
        let url = try url()
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let address = try PostgresAddress(url: url)
        let connection = try await PostgresConnection.connect(configuration: try address.testConnectionConfiguration(),
                                                              id: 1, logger: Logger(label: "test"))
        defer { Task { try? await connection.close() } }
        _ = try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: Logger(label: "test")).collect()
        var components = URLComponents(string: url)!
        components.path = "/\(name)"
        return components.string!
    }

    /// How many connections the cluster has to `database` now (a pool's connections stay open a minute when idle).
    public static func connectionCount(toDatabase database: String) async throws -> Int {
        let address = try PostgresAddress(url: try url())
        let connection = try await PostgresConnection.connect(configuration: try address.testConnectionConfiguration(),
                                                              id: 1, logger: Logger(label: "test"))
        defer { Task { try? await connection.close() } }
        let rows = try await connection.query("SELECT count(*)::int8 FROM pg_stat_activity WHERE datname = \(database)",
                                              logger: Logger(label: "test")).collect()
        return Int(try rows.first?.decode(Int64.self) ?? 0)
    }

    public struct ClusterError: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }
}

extension PostgresCareRecords {
    /// How long a test's records wait for a connection. One may take long to come while the whole suite runs at once
    /// on two cores (clean-clone runs waited past the server's 5 s at their start, in suites that made records of
    /// their own); a test waits longer than a server would, and still fails.
    public static let testConnectionWait = Duration.seconds(30)

    /// Records as a server makes them, waiting `testConnectionWait` for a connection: every test's records are made
    /// here, so that none waits the server's 5 s.
    public static func forTests(url: String, limits: PostgresSessionLimits = PostgresSessionLimits()) throws -> PostgresCareRecords {
        try PostgresCareRecords(url: url, connectionWait: testConnectionWait, limits: limits)
    }
}

extension PostgresAddress {
    public func testConnectionConfiguration() throws -> PostgresConnection.Configuration {
        PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: .disable)
    }
}

/// A migrated database with its records source running, for the tests of one suite.
public final class PostgresTestDatabase: Sendable {
    public let url: String
    public let records: PostgresCareRecords
    private let runner: Task<Void, any Error>

    public init() async throws {
        url = try await PostgresTestCluster.newDatabase()
        records = try PostgresCareRecords.forTests(url: url)
        let records = self.records
        runner = Task { try await records.run() }
        try await records.migrate()
    }

    deinit { runner.cancel() }

    /// One database shared by the tests that each use records of their own.
    public static func shared() async throws -> PostgresTestDatabase {
        try await sharedDatabase.value
    }

    private static let sharedDatabase = Task { try await PostgresTestDatabase() }
}
