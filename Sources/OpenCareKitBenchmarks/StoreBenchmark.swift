import Foundation
import GRDBSQLite
import OpenCareKitStore

/// The store benchmark: (a) one million outcomes through `OCKStore.addOutcomes` and the same rows through the raw
/// SQLite C API, in the same run; (b) one day's events on a store of 50 tasks with ten years of outcomes against the
/// same store whose schedules began yesterday; both again on PostgreSQL when given a database
/// (`PostgresStoreBenchmark`); (c) peak memory.
struct StoreBenchmark {
    var outcomeCount = 1_000_000
    /// How old the old store's schedules are in part (b).
    var years = 10
    /// "insert", "events", or nil for both.
    var part: String?
    /// How many times part (b) fetches the day from each store (the first tenth not counted).
    var rounds = 440
    /// A PostgreSQL database to run the same parts on, and the psql that runs its COPY.
    var database: (url: String, psql: String)?
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ock-bench-\(UUID().uuidString)")
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/New_York")!
        return calendar
    }()

    func run() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        if part != "events" { try await insertion() }
        if part != "insert" { try await dayFetch() }
        if let database {
            try await PostgresStoreBenchmark(url: database.url, psql: database.psql, outcomeCount: outcomeCount, years: years,
                                             rounds: rounds, part: part, directory: directory).run()
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        print(String(format: "\nPeak memory (max resident set): %.0f MiB", Double(usage.ru_maxrss) / 1024))
    }

    // MARK: - (a) Insertion

    private func insertion() async throws {
        let taskCount = 100
        let perTask = outcomeCount / taskCount
        let batch = 10_000
        print("(a) Inserting \(taskCount * perTask) outcomes (\(taskCount) daily tasks × \(perTask) occurrences, one value each), "
              + "\(batch) per transaction, on disk")

        // OpenCareKit: the batch API.
        let store = OCKStore(name: "insert", type: .onDisk(), directory: directory)
        let start = Self.calendar.date(from: DateComponents(year: 1990, month: 1, day: 1))!
        let tasks = try await store.addTasks(Self.insertionTasks(taskCount))
        let created = Self.created
        let storeSeconds = try await Self.addOutcomes(taskCount * perTask, batch: batch, tasks: tasks, to: store)
        // The same with random (version 4) uuids, as CareKit makes them and this store did before: what time-ordered
        // uuids save.
        let randomStore = OCKStore(name: "insert-random", type: .onDisk(), directory: directory)
        let randomTasks = try await randomStore.addTasks(Self.insertionTasks(taskCount))
        let randomSeconds = try await Self.addOutcomes(taskCount * perTask, batch: batch, tasks: randomTasks, to: randomStore,
                                                       randomUUIDs: true)

        // Raw SQLite: the same rows into an identical, empty store file, with prepared statements.
        let raw = OCKStore(name: "raw", type: .onDisk(), directory: directory)
        let rawTasks = try await raw.addTasks(tasks.map { task in
            var copy = task
            copy.uuid = UUID()
            return copy
        })
        let rawURL = try require(raw.fileURL)
        let rawSeconds = try RawInserter(path: rawURL.path, table: .store).insert(
            count: taskCount * perTask, batch: batch, tasks: rawTasks.map(\.uuid), start: start, created: created)

        // Raw SQLite, minimal: the same rows into one table holding the outcome and its value, with only the index
        // CareKit's rule needs (one current outcome per task occurrence), in a file of its own.
        let minimalSeconds = try RawInserter(path: directory.appendingPathComponent("minimal.sqlite").path, table: .minimal).insert(
            count: taskCount * perTask, batch: batch, tasks: rawTasks.map(\.uuid), start: start, created: created)
        // And the same with the two lookups every CareKit store answers: by uuid and by id.
        let lookupsSeconds = try RawInserter(path: directory.appendingPathComponent("lookups.sqlite").path, table: .minimalWithLookups)
            .insert(count: taskCount * perTask, batch: batch, tasks: rawTasks.map(\.uuid), start: start, created: created)

        let total = Double(taskCount * perTask)
        print("                                        seconds   outcomes/s")
        print(String(format: "  OCKStore.addOutcomes                 %8.2f %12.0f", storeSeconds, total / storeSeconds))
        print(String(format: "    the same with random uuids         %8.2f %12.0f", randomSeconds, total / randomSeconds))
        print(String(format: "  raw SQLite C API, the store's schema %8.2f %12.0f", rawSeconds, total / rawSeconds))
        print(String(format: "  raw SQLite C API, minimal table      %8.2f %12.0f", minimalSeconds, total / minimalSeconds))
        print(String(format: "    the same + uuid and id indexes     %8.2f %12.0f", lookupsSeconds, total / lookupsSeconds))
        print(String(format: "  OCKStore reaches %.0f%% of raw into its schema, %.0f%% of the minimal raw insert (target ≥ 60%%)",
                     rawSeconds / storeSeconds * 100, minimalSeconds / storeSeconds * 100))
        // The ceiling of that target: a store must find outcomes by uuid and by id (CareKit's queries, updates and
        // sync do), and the C API writing into a table with just those two indexes, with no work of a store's own
        // (no validation, no event, no rules, no result), is all a store that keeps them could reach.
        print(String(format: "  the C API with only the uuid and id indexes reaches %.0f%% of the minimal raw insert (a store's ceiling)",
                     minimalSeconds / lookupsSeconds * 100))
    }

    static let created = Date(timeIntervalSinceReferenceDate: 8e8)

    /// The outcomes of part (a): one value each, task after task, occurrence after occurrence; with time-ordered
    /// uuids and ids as `OCKOutcome` makes them, or random ones.
    static func outcomes(_ range: Range<Int>, tasks: [OCKTask], randomUUIDs: Bool = false) -> [OCKOutcome] {
        range.map { index in
            var outcome = OCKOutcome(taskUUID: tasks[index % tasks.count].uuid, taskOccurrenceIndex: index / tasks.count,
                                     values: [OCKOutcomeValue(400.0, units: "mg", createdDate: created)])
            outcome.effectiveDate = created
            outcome.timezone = calendar.timeZone
            if randomUUIDs {
                outcome.uuid = UUID()
                outcome.id = UUID().uuidString
            }
            return outcome
        }
    }

    /// Adds `count` outcomes of part (a) through the batch API, `batch` per call; returns the seconds the calls took.
    static func addOutcomes(_ count: Int, batch: Int, tasks: [OCKTask], to store: OCKStore, randomUUIDs: Bool = false) async throws -> Double {
        var seconds = 0.0
        for first in stride(from: 0, to: count, by: batch) {
            let chunk = outcomes(first..<min(first + batch, count), tasks: tasks, randomUUIDs: randomUUIDs)
            let began = DispatchTime.now().uptimeNanoseconds
            try await store.addOutcomes(chunk)
            seconds += Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        }
        return seconds
    }

    /// The 100 daily tasks of part (a).
    static func insertionTasks(_ count: Int) -> [OCKTask] {
        let start = calendar.date(from: DateComponents(year: 1990, month: 1, day: 1))!
        return (0..<count).map { index in
            OCKTask(id: "task-\(index)", title: nil, carePlanUUID: nil,
                    schedule: .dailyAtTime(hour: 8, minutes: 0, start: start, end: nil, text: nil, calendar: calendar))
        }
    }

    // MARK: - (b) One day's events

    private func dayFetch() async throws {
        try await Self.dayFetch(engine: "SQLite", years: years, rounds: rounds, targetMilliseconds: 5) { name in
            OCKStore(name: name, type: .onDisk(), directory: directory)
        }
    }

    /// Part (b) on the stores `makeStore` opens (empty, one per name).
    static func dayFetch(engine: String, years: Int, rounds: Int, targetMilliseconds: Double, makeStore: (String) -> OCKStore) async throws {
        let day = calendar.date(from: DateComponents(year: 2026, month: 11, day: 20))!
        print("\n(b) fetchEvents for one day, 50 tasks (1 to 3 events a day), every event has an outcome, on \(engine)")
        let old = try await fill(makeStore("ten-years"), scheduleStart: calendar.date(byAdding: .year, value: -years, to: day)!, until: day)
        let young = try await fill(makeStore("one-day"), scheduleStart: calendar.date(byAdding: .day, value: -1, to: day)!, until: day)
        FileHandle.standardError.write(Data("measuring\n".utf8))
        let query = OCKEventQuery(for: day, calendar: calendar)
        var samples: ([Double], [Double]) = ([], [])
        for round in 0..<max(rounds, 10) {
            for (store, isOld) in [(young.store, false), (old.store, true)] {
                let began = DispatchTime.now().uptimeNanoseconds
                let events = try await store.fetchEvents(query: query)
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
                precondition(events.count > 50)
                if round >= max(rounds, 10) / 11 { isOld ? samples.1.append(seconds) : samples.0.append(seconds) }
            }
        }
        func percentile(_ values: [Double], _ p: Double) -> Double { values.sorted()[Int(Double(values.count - 1) * p)] }
        print("  store (\(engine))".padding(toLength: 31, withPad: " ", startingAt: 0) + "outcomes    p50 ms    p99 ms")
        print(String(format: "  schedules began yesterday  %11d %9.2f %9.2f", young.outcomes, percentile(samples.0, 0.5) * 1e3, percentile(samples.0, 0.99) * 1e3))
        print(String(format: "  schedules began %2d years ago %9d %9.2f %9.2f", years, old.outcomes, percentile(samples.1, 0.5) * 1e3, percentile(samples.1, 0.99) * 1e3))
        print(String(format: "  ratio p50 (%d years / yesterday): %.2f (target ≤ 2); p50 at %d years %.2f ms (target ≤ %.0f ms)",
                     years, percentile(samples.1, 0.5) / percentile(samples.0, 0.5), years, percentile(samples.1, 0.5) * 1e3,
                     targetMilliseconds))
    }

    /// 50 tasks with one to three events a day from `scheduleStart`, and an outcome for every event before `until`.
    private static func fill(_ store: OCKStore, scheduleStart: Date, until: Date) async throws -> (store: OCKStore, outcomes: Int) {
        let calendar = Self.calendar
        let hours = [[8], [8, 20], [8, 14, 20]]
        let tasks = try await store.addTasks((0..<50).map { index in
            let elements = hours[index % 3].map {
                OCKScheduleElement(start: calendar.date(bySettingHour: $0, minute: 0, second: 0, of: scheduleStart)!, end: nil,
                                   interval: DateComponents(day: 1), calendar: calendar)
            }
            return OCKTask(id: "task-\(index)", title: "Task \(index)", carePlanUUID: nil, schedule: OCKSchedule(composing: elements))
        })
        var count = 0
        for task in tasks {
            let events = task.schedule.events(from: scheduleStart, to: until)
            let outcomes = events.map { OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: $0.occurrence, values: [OCKOutcomeValue(true)]) }
            for first in stride(from: 0, to: outcomes.count, by: 10_000) {
                try await store.addOutcomes(Array(outcomes[first..<min(first + 10_000, outcomes.count)]))
            }
            count += outcomes.count
        }
        return (store, count)
    }
}

struct MissingValue: Error {}

func require<T>(_ value: T?) throws -> T {
    guard let value else { throw MissingValue() }
    return value
}

/// Inserts outcome rows with the SQLite C API: the references the store's batch insert is measured against.
struct RawInserter {
    /// Where the rows go.
    enum Table {
        /// The store's own tables (an empty store file): an outcome row and a value row each.
        case store
        /// One table of the outcome's columns and its value's, with only the index CareKit's rule needs; created here.
        case minimal
        /// `minimal` with a unique index on `uuid` and one on `(id, effective_date)`.
        case minimalWithLookups
    }

    let path: String
    let table: Table

    func insert(count: Int, batch: Int, tasks: [UUID], start: Date, created: Date) throws -> Double {
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw MissingValue() }
        defer { sqlite3_close(db) }
        sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA cache_size = -32768", nil, nil, nil)
        var outcome: OpaquePointer?, value: OpaquePointer?
        switch table {
        case .store:
            sqlite3_prepare_v2(db, """
                INSERT INTO outcomes (uuid, id, effective_date, deleted_date, created_date, updated_date, previous_uuids, next_uuids,
                    next_effective_date, group_identifier, remote_id, task_uuid, occurrence, event_start, event_end, source, asset,
                    schema_version, timezone, user_info, notes, tags)
                VALUES (?, ?, ?, NULL, ?, ?, x'', x'', NULL, NULL, NULL, ?, ?, ?, ?, NULL, NULL, NULL, ?, NULL, NULL, NULL)
                """, -1, &outcome, nil)
            sqlite3_prepare_v2(db, """
                INSERT INTO outcome_values (outcome_uuid, position, type, value, kind, units, created_date, end_date)
                VALUES (?, 0, 1, 400.0, NULL, 'mg', ?, NULL)
                """, -1, &value, nil)
        case .minimal, .minimalWithLookups:
            let lookups = table == .minimal ? "" : """
                CREATE UNIQUE INDEX outcomes_by_uuid ON outcomes(uuid);
                CREATE INDEX outcomes_by_id ON outcomes(id, effective_date);
                """
            guard sqlite3_exec(db, """
                CREATE TABLE outcomes (uuid BLOB NOT NULL, id TEXT NOT NULL, effective_date REAL NOT NULL, deleted_date REAL,
                    created_date REAL, updated_date REAL, previous_uuids BLOB NOT NULL, next_uuids BLOB NOT NULL,
                    next_effective_date REAL, group_identifier TEXT, remote_id TEXT, task_uuid BLOB NOT NULL,
                    occurrence INTEGER NOT NULL, event_start REAL NOT NULL, event_end REAL NOT NULL, source TEXT, asset TEXT,
                    schema_version TEXT, timezone TEXT NOT NULL, user_info BLOB, notes BLOB, tags BLOB,
                    value_type INTEGER NOT NULL, value, value_kind TEXT, value_units TEXT, value_created_date REAL NOT NULL,
                    value_end_date REAL);
                CREATE UNIQUE INDEX outcomes_one_live_per_occurrence ON outcomes(task_uuid, occurrence)
                    WHERE next_effective_date IS NULL AND deleted_date IS NULL;
                \(lookups)
                """, nil, nil, nil) == SQLITE_OK else { throw MissingValue() }
            sqlite3_prepare_v2(db, """
                INSERT INTO outcomes (uuid, id, effective_date, deleted_date, created_date, updated_date, previous_uuids, next_uuids,
                    next_effective_date, group_identifier, remote_id, task_uuid, occurrence, event_start, event_end, source, asset,
                    schema_version, timezone, user_info, notes, tags,
                    value_type, value, value_kind, value_units, value_created_date, value_end_date)
                VALUES (?, ?, ?, NULL, ?, ?, x'', x'', NULL, NULL, NULL, ?, ?, ?, ?, NULL, NULL, NULL, ?, NULL, NULL, NULL,
                    1, 400.0, NULL, 'mg', ?11, NULL)
                """, -1, &outcome, nil)
        }
        guard outcome != nil, table != .store || value != nil else { throw MissingValue() }
        defer {
            sqlite3_finalize(outcome)
            sqlite3_finalize(value)
        }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        // The same values the store writes (time-ordered uuids, as `OCKOutcome` makes), prepared before timing starts.
        let uuids = (0..<count).map { _ in UUID.timeOrdered() }
        let ids = uuids.map(\.uuidString)
        var seconds = 0.0
        for first in stride(from: 0, to: count, by: batch) {
            let began = DispatchTime.now().uptimeNanoseconds
            sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
            for index in first..<min(first + batch, count) {
                var uuid = uuids[index].uuid
                let occurrence = index / tasks.count
                let eventStart = start.timeIntervalSinceReferenceDate + Double(occurrence) * 86_400
                _ = withUnsafeBytes(of: &uuid) { sqlite3_bind_blob(outcome, 1, $0.baseAddress, 16, transient) }
                sqlite3_bind_text(outcome, 2, ids[index], -1, transient)
                sqlite3_bind_double(outcome, 3, created.timeIntervalSinceReferenceDate)
                sqlite3_bind_double(outcome, 4, created.timeIntervalSinceReferenceDate)
                sqlite3_bind_double(outcome, 5, created.timeIntervalSinceReferenceDate)
                var task = tasks[index % tasks.count].uuid
                _ = withUnsafeBytes(of: &task) { sqlite3_bind_blob(outcome, 6, $0.baseAddress, 16, transient) }
                sqlite3_bind_int64(outcome, 7, Int64(occurrence))
                sqlite3_bind_double(outcome, 8, eventStart)
                sqlite3_bind_double(outcome, 9, eventStart + 3_600)
                sqlite3_bind_text(outcome, 10, "America/New_York", -1, transient)
                if table != .store { sqlite3_bind_double(outcome, 11, created.timeIntervalSinceReferenceDate) }
                guard sqlite3_step(outcome) == SQLITE_DONE else { throw MissingValue() }
                sqlite3_reset(outcome)
                guard table == .store else { continue }
                _ = withUnsafeBytes(of: &uuid) { sqlite3_bind_blob(value, 1, $0.baseAddress, 16, transient) }
                sqlite3_bind_double(value, 2, created.timeIntervalSinceReferenceDate)
                guard sqlite3_step(value) == SQLITE_DONE else { throw MissingValue() }
                sqlite3_reset(value)
            }
            guard sqlite3_exec(db, "COMMIT", nil, nil, nil) == SQLITE_OK else { throw MissingValue() }
            seconds += Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        }
        return seconds
    }
}
