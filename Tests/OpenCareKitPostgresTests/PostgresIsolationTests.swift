import Foundation
import Logging
import OpenCareKitPostgres
import OpenCareKitPostgresTesting
import OpenCareKitStore
import PostgresNIO
import Testing

/// Row-level security keeps each record's rows to itself, whatever a statement forgets; migrations run once however
/// many servers start together, and a newer schema is refused.
@Suite struct PostgresIsolationTests {
    let logger = Logger(label: "test")

    /// A connection of the application's own role (no superuser, no BYPASSRLS) to `url`.
    func connect(_ url: String) async throws -> PostgresConnection {
        try await PostgresConnection.connect(configuration: try PostgresAddress(url: url).testConnectionConfiguration(), id: 7,
                                             logger: logger)
    }

    func rows(_ connection: PostgresConnection, _ sql: String) async throws -> [PostgresRow] {
        try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
    }

    func task(_ id: String) -> OCKTask {
        OCKTask(id: id, title: id, carePlanUUID: nil,
                schedule: .dailyAtTime(hour: 8, minutes: 0, start: Date(timeIntervalSince1970: 1_790_000_000), end: nil, text: nil))
    }

    @Test func anotherRecordsRowsAreInvisibleEvenToAStatementWithoutItsRecord() async throws {
        let database = try await PostgresTestDatabase()
        let ana = database.records.store(forRecord: "ana"), ben = database.records.store(forRecord: "ben")
        try await ana.addTask(task("ibuprofen"))
        try await ana.addOutcome(OCKOutcome(taskUUID: try await ana.fetchTask(withID: "ibuprofen").uuid, taskOccurrenceIndex: 0,
                                            values: [OCKOutcomeValue(true)]))
        try await ben.addTask(task("walk"))
        _ = try await ana.revisions(since: .init())   // ana's clock and knowledge (sync)
        // Through the stores.
        #expect(try await ben.fetchTasks(query: OCKTaskQuery()).map(\.id) == ["walk"])
        #expect(try await ana.fetchTasks(query: OCKTaskQuery()).map(\.id) == ["ibuprofen"])
        #expect(try await ben.fetchOutcomes(query: OCKOutcomeQuery()).isEmpty)

        let connection = try await connect(database.url)
        defer { Task { try? await connection.close() } }
        // The base tables, read with no WHERE at all: nothing without a record, only ben's rows as ben.
        for table in ["tasks", "outcomes", "outcome_values", "entity_tags", "record_state", "sync_clock", "sync_knowledge"] {
            #expect(try await rows(connection, "SELECT * FROM opencarekit.\(table)").isEmpty, "\(table) with no record set")
        }
        _ = try await rows(connection, "BEGIN")
        _ = try await rows(connection, "SELECT set_config('opencarekit.record_id', 'ben', true)")
        let seen = try await rows(connection, "SELECT id, record_id FROM opencarekit.tasks").map { try $0.decode((String, String).self) }
        #expect(seen.map(\.0) == ["walk"])
        #expect(seen.allSatisfy { $0.1 == "ben" })
        #expect(try await rows(connection, "SELECT * FROM opencarekit.outcomes").isEmpty)
        // Writing a row of another record is refused by the policy (SQLSTATE 42501), and so is moving one there.
        await #expect {
            _ = try await rows(connection, """
                INSERT INTO opencarekit.tasks (record_id, uuid, id, effective_date, title, impacts_adherence, schedule_start, payload)
                VALUES ('ana', gen_random_uuid(), 'planted', 0, 'planted', 1, 0, '\\x7b7d')
                """)
        } throws: { error in
            (error as? PSQLError)?.serverInfo?[.sqlState] == "42501"
        }
        _ = try await rows(connection, "ROLLBACK")
        _ = try await rows(connection, "BEGIN")
        _ = try await rows(connection, "SELECT set_config('opencarekit.record_id', 'ben', true)")
        await #expect {
            _ = try await rows(connection, "UPDATE opencarekit.tasks SET record_id = 'ana'")
        } throws: { error in
            (error as? PSQLError)?.serverInfo?[.sqlState] == "42501"
        }
        _ = try await rows(connection, "ROLLBACK")
        // After a transaction ends, its record is no longer set: nothing is visible again.
        #expect(try await rows(connection, "SELECT * FROM opencarekit.tasks").isEmpty)
        #expect(try await ana.fetchTasks(query: OCKTaskQuery()).map(\.id) == ["ibuprofen"])
        // Each write counts in its record's revision, and only there (ana's: a task, an outcome, her sync clock).
        #expect(try await database.records.revision(ofRecord: "ana") == 3)
        #expect(try await database.records.revision(ofRecord: "ben") == 1)
        #expect(try await database.records.revision(ofRecord: "nobody") == 0)
        // The revision is read in one statement that names its record for itself alone: on the same connection, the
        // next statement sees no record's rows again.
        let revision = try await rows(connection, "SELECT opencarekit.record_revision('ana')").first?.decode(Int64.self)
        #expect(revision == 3)
        #expect(try await rows(connection, "SELECT * FROM opencarekit.tasks").isEmpty)
        #expect(try await rows(connection, "SELECT current_setting('opencarekit.record_id', true)").first?.decode(String?.self) ?? "" == "")
        // Inside a transaction of another record it refuses, rather than change that transaction's record.
        _ = try await rows(connection, "BEGIN")
        _ = try await rows(connection, "SELECT set_config('opencarekit.record_id', 'ben', true)")
        await #expect {
            _ = try await rows(connection, "SELECT opencarekit.record_revision('ana')")
        } throws: { error in
            (error as? PSQLError)?.serverInfo?[.sqlState] == "42501"
        }
        _ = try await rows(connection, "ROLLBACK")
    }

    @Test func serversStartingTogetherMigrateOnceAndANewerSchemaIsRefused() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let servers = try (0..<4).map { _ in try PostgresCareRecords.forTests(url: url) }
        let runners = servers.map { server in Task { try await server.run() } }
        defer { runners.forEach { $0.cancel() } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for server in servers { group.addTask { try await server.migrate() } }
            try await group.waitForAll()
        }
        let connection = try await connect(url)
        defer { Task { try? await connection.close() } }
        let names = try await rows(connection, "SELECT name FROM public.opencarekit_migrations").map { try $0.decode(String.self) }
        #expect(names == ["1: stores and directory", "2: surveys in progress", "3: the audit chain appended in the database",
                          "4: one open survey per browser and event", "5: one open or saving survey per browser and event",
                          "6: sync knowledge", "7: sync pages", "8: HealthKit tasks",
                          "9: reminders", "10: shared values", "11: two-step codes used once", "12: triage", "13: messages",
                          "14: a record's revision in one statement", "15: outcomes in creation order"])
        try await servers[0].store(forRecord: "r").addTask(task("t"))

        _ = try await rows(connection, "INSERT INTO public.opencarekit_migrations (name) VALUES ('99: from the future')")
        await #expect {
            try await servers[1].migrate()
        } throws: { error in
            "\(error)".contains("newer OpenCareKit") && "\(error)".contains("99: from the future")
        }
        // Refused without changing anything.
        #expect(try await servers[2].store(forRecord: "r").fetchTasks(query: OCKTaskQuery()).map(\.id) == ["t"])
    }

    @Test func aRoleThatBypassesRowLevelSecurityIsRefused() async throws {
        // The cluster's superuser, on a new database.
        var components = URLComponents(string: try await PostgresTestCluster.newDatabase())!
        components.user = "ock"
        let superuser = try PostgresCareRecords.forTests(url: components.string!)
        let runner = Task { try await superuser.run() }
        defer { runner.cancel() }
        await #expect {
            try await superuser.migrate()
        } throws: { error in
            "\(error)".contains("\"ock\" is a superuser or has BYPASSRLS")
        }
        let connection = try await connect(components.string!)
        defer { Task { try? await connection.close() } }
        #expect(try await rows(connection, "SELECT 1 FROM pg_tables WHERE schemaname = 'opencarekit'").isEmpty)
    }
}
