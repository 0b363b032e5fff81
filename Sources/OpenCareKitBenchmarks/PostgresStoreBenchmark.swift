import Foundation
import OpenCareKitPostgres
import OpenCareKitStore

/// The store benchmark on PostgreSQL, in the same run as SQLite's (`store --database URL --psql PATH`): (a) the same
/// outcomes through `OCKStore.addOutcomes` on `PostgresCareRecords` against PostgreSQL's own `COPY` (psql's `\copy`)
/// of the same rows into tables of the same schema and indexes; (b) one day's events at ten years and at one day.
struct PostgresStoreBenchmark {
    let url: String
    let psql: String
    let outcomeCount: Int
    let years: Int
    let rounds: Int
    /// "insert", "events", or nil for both.
    let part: String?
    let directory: URL

    func run() async throws {
        let records = try PostgresCareRecords(url: url, maximumConnections: 4)
        try await records.withRunning {
            try await records.migrate()
            // Records of their own, so that runs on one database do not meet.
            let prefix = "bench-" + UUID().uuidString.prefix(8).lowercased()
            if part != "events" { try await insertion(records, record: prefix + "-insert") }
            if part != "insert" {
                try await StoreBenchmark.dayFetch(engine: "PostgreSQL", years: years, rounds: rounds, targetMilliseconds: 8) { name in
                    records.store(forRecord: "\(prefix)-\(name)")
                }
            }
        }
    }

    private func insertion(_ records: PostgresCareRecords, record: String) async throws {
        let taskCount = 100
        let count = outcomeCount / taskCount * taskCount
        let batch = 10_000
        print("\n(a) on PostgreSQL: the same \(count) outcomes, \(batch) per transaction, against COPY of the same rows")
        let store = records.store(forRecord: record)
        let tasks = try await store.addTasks(StoreBenchmark.insertionTasks(taskCount))
        let storeSeconds = try await StoreBenchmark.addOutcomes(count, batch: batch, tasks: tasks, to: store)

        // COPY: the same rows, as CSV, into tables made LIKE the store's (columns, defaults, indexes and the
        // one-outcome-per-occurrence rule; no row-level security, which COPY FROM does not support).
        let suffix = record.replacingOccurrences(of: "-", with: "_")
        let outcomesTable = "opencarekit.copy_outcomes_\(suffix)", valuesTable = "opencarekit.copy_values_\(suffix)"
        try psql("""
            CREATE TABLE \(outcomesTable) (LIKE opencarekit.outcomes INCLUDING ALL);
            CREATE TABLE \(valuesTable) (LIKE opencarekit.outcome_values INCLUDING ALL);
            """)
        defer { try? psql("DROP TABLE \(outcomesTable); DROP TABLE \(valuesTable);") }
        let outcomeFile = directory.appending(path: "outcomes.csv"), valueFile = directory.appending(path: "values.csv")
        try writeCSV(count: count, tasks: tasks.map { _ in UUID() }, record: record, outcomes: outcomeFile, values: valueFile)
        let began = DispatchTime.now().uptimeNanoseconds
        try psql("""
            \\copy \(outcomesTable) (record_id, uuid, id, effective_date, created_date, updated_date, task_uuid, occurrence, event_start, event_end, timezone) FROM '\(outcomeFile.path)' WITH (FORMAT csv)
            \\copy \(valuesTable) (record_id, outcome_uuid, position, type, value, units, created_date) FROM '\(valueFile.path)' WITH (FORMAT csv)
            """)
        let copySeconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        print("                            seconds   outcomes/s")
        print(String(format: "  OCKStore.addOutcomes     %8.2f %12.0f", storeSeconds, Double(count) / storeSeconds))
        print(String(format: "  PostgreSQL COPY (psql)   %8.2f %12.0f", copySeconds, Double(count) / copySeconds))
        print(String(format: "  OCKStore on PostgreSQL reaches %.0f%% of COPY (target ≥ 30%%)", copySeconds / storeSeconds * 100))
        try store.delete()
    }

    /// The rows of part (a) as PostgreSQL's CSV files: each outcome with its value (400 mg, stored as bytes), written
    /// 10,000 at a time.
    private func writeCSV(count: Int, tasks: [UUID], record: String, outcomes outcomeFile: URL, values valueFile: URL) throws {
        let created = StoreBenchmark.created.timeIntervalSinceReferenceDate
        let start = StoreBenchmark.calendar.date(from: DateComponents(year: 1990, month: 1, day: 1))!.timeIntervalSinceReferenceDate
        let value = withUnsafeBytes(of: (400.0).bitPattern.bigEndian) { Data($0) }.hexEncoded
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: outcomeFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: valueFile.path, contents: nil)
        let outcomeHandle = try FileHandle(forWritingTo: outcomeFile), valueHandle = try FileHandle(forWritingTo: valueFile)
        defer {
            try? outcomeHandle.close()
            try? valueHandle.close()
        }
        for first in stride(from: 0, to: count, by: 10_000) {
            var outcomes = "", values = ""
            for index in first..<min(first + 10_000, count) {
                let uuid = UUID().uuidString
                let occurrence = index / tasks.count
                let eventStart = start + Double(occurrence) * 86_400
                outcomes += "\(record),\(uuid),\(uuid),\(created),\(created),\(created),\(tasks[index % tasks.count].uuidString),"
                    + "\(occurrence),\(eventStart),\(eventStart + 3_600),America/New_York\n"
                values += "\(record),\(uuid),0,1,\\x\(value),mg,\(created)\n"
            }
            try outcomeHandle.write(contentsOf: Data(outcomes.utf8))
            try valueHandle.write(contentsOf: Data(values.utf8))
        }
    }

    /// Runs SQL and psql commands on the database, stopping at the first error.
    private func psql(_ script: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: psql)
        process.arguments = [url, "-q", "-v", "ON_ERROR_STOP=1"]
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PsqlFailure(description: String(decoding: message, as: UTF8.self))
        }
    }

    struct PsqlFailure: Error, CustomStringConvertible {
        let description: String
    }
}
