import Foundation
import GRDB
import OpenCareKitStore
import Testing

/// What only an on-disk store has: its file, its permissions, reopening, and refusing files it must not touch.
@Suite struct OnDiskStoreTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ock-disk-\(UUID().uuidString)")

    private func task(_ id: String) -> OCKTask {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return OCKTask(id: id, title: id, carePlanUUID: nil,
                       schedule: .dailyAtTime(hour: 8, minutes: 0, start: Date(timeIntervalSinceReferenceDate: 8e8), end: nil,
                                              text: nil, calendar: calendar))
    }

    /// Runs `sql` on a store's file behind the store's back, and folds the log into the file.
    private func rewrite(_ url: URL, _ sql: String) async throws {
        let queue = try DatabaseQueue(path: url.path)
        try await queue.writeWithoutTransaction { db in
            try db.execute(sql: sql)
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        try queue.close()
    }

    @Test func theFileIsOwnerOnlyAndDataSurvivesReopening() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let store = OCKStore(name: "care", type: .onDisk(), directory: directory)
            try await store.addTask(task("walk"))
            let url = try #require(store.fileURL)
            #expect(url.lastPathComponent == "care.sqlite")
            for file in [url.path, url.path + "-wal"] where FileManager.default.fileExists(atPath: file) {
                let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
                #expect(mode == 0o600, "\(file)")
            }
            let directoryMode = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int
            #expect(directoryMode == 0o700)
        }
        let reopened = OCKStore(name: "care", type: .onDisk(), directory: directory)
        #expect(try await reopened.fetchTasks(query: OCKTaskQuery()).map(\.id) == ["walk"])
        #expect(try reopened.checkIntegrity() == ["ok"])
    }

    @Test func aFileThatIsNotAStoreIsRefusedAndLeftUntouched() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("notes.sqlite")
        let content = Data("these are someone's notes, not a database\n".utf8)
        try content.write(to: url)
        let store = OCKStore(name: "notes", type: .onDisk(), directory: directory)
        #expect(throws: OCKStoreError.self) { try store.open() }
        await #expect(throws: OCKStoreError.self) { try await store.fetchTasks(query: OCKTaskQuery()) }
        #expect(try Data(contentsOf: url) == content)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test func anotherSQLiteDatabaseIsRefusedAndLeftUntouched() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("other.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1)") }
        try queue.close()
        let before = try Data(contentsOf: url)
        do {
            try OCKStore(name: "other", type: .onDisk(), directory: directory).open()
            Issue.record("opening should fail")
        } catch let error as OCKStoreError {
            #expect(error.reason.contains("not an OpenCareKit store"))
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aStoreFromANewerSchemaIsRefusedAndLeftUntouched() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = OCKStore(name: "future", type: .onDisk(), directory: directory)
        try await store.addTask(task("walk"))
        let url = try #require(store.fileURL)
        // Pretend a newer OpenCareKit wrote it: a higher schema version in the header.
        try await rewrite(url, "PRAGMA user_version = 99")
        let before = try Data(contentsOf: url)
        let future = OCKStore(name: "future", type: .onDisk(), directory: directory)
        do {
            try future.open()
            Issue.record("opening should fail")
        } catch let error as OCKStoreError {
            #expect(error.reason.contains("newer OpenCareKit"))
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aStoreOfSchema4GainsHealthKitTasksAndKeepsItsData() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = OCKStore(name: "older", type: .onDisk(), directory: directory)
        let walk = try await store.addTask(task("walk"))
        let url = try #require(store.fileURL)
        // As OpenCareKit wrote it before HealthKit tasks: schema 4, migration v5 not applied.
        try await rewrite(url, "DROP TABLE healthkit_tasks; DELETE FROM grdb_migrations WHERE identifier = 'v5'; PRAGMA user_version = 4")
        let upgraded = OCKStore(name: "older", type: .onDisk(), directory: directory)
        #expect(try await upgraded.fetchTasks(query: OCKTaskQuery()) == [walk])
        let linkage = OCKHealthKitLinkage(quantityIdentifier: "HKQuantityTypeIdentifierStepCount", quantityType: .cumulative,
                                          unitString: "count")
        let steps = try await upgraded.addHealthKitTasks([OCKHealthKitTask(id: "walk", title: "Steps", carePlanUUID: nil,
                                                                           schedule: walk.schedule, healthKitLinkage: linkage)])
        #expect(try await upgraded.fetchHealthKitTasks(query: OCKTaskQuery()) == steps)
        #expect(Set(try await upgraded.revisions(since: .init()).revisions.flatMap(\.entities).map(\.uuid))
                == [walk.uuid, steps[0].uuid])
        #expect(try upgraded.checkIntegrity() == ["ok"])
        var readOnly = Configuration()
        readOnly.readonly = true
        let version = try await DatabaseQueue(path: url.path, configuration: readOnly).read { try Int.fetchOne($0, sql: "PRAGMA user_version") }
        #expect(version == 8)
    }

    @Test func aStoreOfSchema5KeepsItsDataAndItsUnsealedVersionsAwayFromThePullIndex() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = OCKStore(name: "five", type: .onDisk(), directory: directory)
        let walk = try await store.addTask(task("walk"))
        let done = try await store.addOutcome(OCKOutcome(taskUUID: walk.uuid, taskOccurrenceIndex: 0, values: [OCKOutcomeValue(true)]))
        let url = try #require(store.fileURL)
        // As OpenCareKit wrote it before migration v6: schema 5's indexes (v7 then drops the event-time ones).
        let tables = ["patients", "care_plans", "contacts", "tasks", "healthkit_tasks", "outcomes"]
        try await rewrite(url, tables.map { table in
            """
            DROP INDEX \(table)_unsealed; DROP INDEX \(table)_by_knowledge_uuid;
            CREATE INDEX \(table)_by_knowledge_uuid ON \(table)(knowledge_id, uuid);
            """
        }.joined() + """
            CREATE INDEX outcomes_by_task ON outcomes(task_uuid, occurrence);
            CREATE INDEX outcomes_by_effective_date ON outcomes(effective_date);
            CREATE INDEX outcomes_by_event_end ON outcomes(event_end, event_start);
            CREATE INDEX outcomes_by_task_event_end ON outcomes(task_uuid, event_end);
            DELETE FROM grdb_migrations WHERE identifier IN ('v6', 'v7'); PRAGMA user_version = 5
            """)
        let upgraded = OCKStore(name: "five", type: .onDisk(), directory: directory)
        #expect(try await upgraded.fetchOutcomes(query: OCKOutcomeQuery()) == [done])
        // An interval's outcomes come from the occurrence ranges of its task versions.
        let firstDay = DateInterval(start: walk.schedule[0].start, duration: 86_400)
        #expect(try await upgraded.fetchOutcomes(query: OCKOutcomeQuery(dateInterval: firstDay)) == [done])
        var readOnly = Configuration()
        readOnly.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: readOnly)
        func plan(_ sql: String) async throws -> String {
            try await queue.read { try Row.fetchAll($0, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }.joined(separator: "; ") }
        }
        // Versions written since the last synchronization are found in write order, not among the sealed ones.
        #expect(try await plan("SELECT 1 FROM outcomes WHERE knowledge_id IS NULL LIMIT 1").contains("outcomes_unsealed"))
        #expect(try await plan("SELECT knowledge_id, uuid FROM outcomes WHERE knowledge_id IN (1, 2) ORDER BY knowledge_id, uuid LIMIT 9")
            .contains("outcomes_by_knowledge_uuid"))
        let indexes = try await queue.read { try String.fetchSet($0, sql: "SELECT name FROM sqlite_master WHERE type = 'index'") }
        #expect(indexes.isDisjoint(with: ["outcomes_by_task", "outcomes_by_effective_date", "outcomes_by_event_end",
                                          "outcomes_by_task_event_end"]))
        // Pages of outcome values start at their place in creation order, without a sort of the record's values.
        #expect(indexes.contains("outcomes_by_created_date_uuid") && !indexes.contains("outcomes_by_created_date"))
        let pagePlan = try await plan("""
            SELECT v.position FROM outcome_values v JOIN outcomes o ON o.uuid = v.outcome_uuid
            WHERE o.created_date >= 1 AND (o.created_date > 1 OR (o.created_date = 1 AND o.uuid > x'00'))
            ORDER BY o.created_date, o.uuid, v.position LIMIT 5
            """)
        #expect(pagePlan.contains("INDEX outcomes_by_created_date_uuid (created_date>?)"), "\(pagePlan)")
        #expect(try await queue.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == 8)
        try queue.close()
        // Sealing and pulling go through the new indexes.
        #expect(Set(try await upgraded.revisions(since: .init()).revisions.flatMap(\.entities).map(\.uuid)) == [walk.uuid, done.uuid])
        #expect(try upgraded.checkIntegrity() == ["ok"])
    }

    @Test func storeNamesCannotLeaveTheDirectory() async {
        let store = OCKStore(name: "../escape", type: .onDisk(), directory: directory)
        await #expect(throws: OCKStoreError.self) { try await store.fetchTasks(query: OCKTaskQuery()) }
        #expect(!FileManager.default.fileExists(atPath: directory.deletingLastPathComponent().appendingPathComponent("escape.sqlite").path))
    }

    @Test func deleteRemovesTheFilesAndTheStoreStartsOver() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = OCKStore(name: "gone", type: .onDisk(), directory: directory)
        try await store.addTask(task("walk"))
        let url = try #require(store.fileURL)
        try store.delete()
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try await store.fetchTasks(query: OCKTaskQuery()).isEmpty)
        try await store.addTask(task("walk"))
    }
}

@Suite struct LiveQueryFailureTests {
    @Test(.timeLimit(.minutes(1)))
    func liveQueriesOfAStoreThatCannotOpenEndWithItsError() async {
        let store = OCKStore(name: "../nowhere", type: .onDisk(), directory: FileManager.default.temporaryDirectory)
        await #expect(throws: OCKStoreError.self) {
            for try await _ in store.tasks(matching: OCKTaskQuery()) {}
        }
        await #expect(throws: OCKStoreError.self) {
            for try await _ in store.events(matching: OCKEventQuery(for: Date())) {}
        }
    }
}

@Suite struct ExternalChangeTests {
    @Test func commitsByAnotherConnectionReachLiveQueries() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ock-external-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let reader = OCKStore(name: "shared", type: .onDisk(), directory: directory)
        let writer = OCKStore(name: "shared", type: .onDisk(), directory: directory)
        #expect(try await reader.checkForExternalChanges() == false) // the first check only records
        var results = reader.tasks(matching: OCKTaskQuery()).makeAsyncIterator()
        #expect(try await results.next()?.isEmpty == true)
        // The reader's own writes are not "external".
        _ = try await reader.addTask(OCKTask(id: "own", title: "Own", carePlanUUID: nil,
                                            schedule: .dailyAtTime(hour: 8, minutes: 0, start: Date(), end: nil, text: nil)))
        #expect(try await results.next()?.map(\.id) == ["own"])
        #expect(try await reader.checkForExternalChanges() == false)
        _ = try await writer.addTask(OCKTask(id: "other", title: "Other", carePlanUUID: nil,
                                            schedule: .dailyAtTime(hour: 9, minutes: 0, start: Date(), end: nil, text: nil)))
        #expect(try await reader.checkForExternalChanges() == true)
        #expect(Set(try await results.next()?.map(\.id) ?? []) == ["own", "other"])
        #expect(try await reader.checkForExternalChanges() == false)
    }
}
