import Foundation

/// Benchmarks: `OpenCareKitBenchmarks schedule [--python PATH]`, `store …`, `records --data DIR [--count N]`. Run through scripts/bench-schedule, which builds in
/// release mode and installs python-dateutil into .venv.
let arguments = Array(CommandLine.arguments.dropFirst())
var python = ProcessInfo.processInfo.environment["OPENCAREKIT_PYTHON"] ?? "/usr/bin/python3"
if let index = arguments.firstIndex(of: "--python"), index + 1 < arguments.count {
    python = arguments[index + 1]
}
/// The number after option `name`, if there is one.
func value(_ name: String) -> Int? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil }
}
do {
    switch arguments.first {
    case "schedule":
        try ScheduleBenchmark(python: python).run()
    case "store":
        var benchmark = StoreBenchmark()
        if let index = arguments.firstIndex(of: "--outcomes"), index + 1 < arguments.count, let count = Int(arguments[index + 1]) {
            benchmark.outcomeCount = count
        }
        if let index = arguments.firstIndex(of: "--years"), index + 1 < arguments.count, let years = Int(arguments[index + 1]),
           (1...50).contains(years) {
            benchmark.years = years
        }
        if let index = arguments.firstIndex(of: "--part"), index + 1 < arguments.count {
            benchmark.part = arguments[index + 1]
        }
        if let index = arguments.firstIndex(of: "--rounds"), index + 1 < arguments.count, let rounds = Int(arguments[index + 1]) {
            benchmark.rounds = rounds
        }
        if let index = arguments.firstIndex(of: "--database"), index + 1 < arguments.count {
            let psql = arguments.firstIndex(of: "--psql").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } ?? "/usr/bin/psql"
            benchmark.database = (arguments[index + 1], psql)
        }
        try await benchmark.run()
    case "sync":
        var benchmark = SyncBenchmark()
        if let count = value("--outcomes") { benchmark.outcomeCount = count }
        if let count = value("--pull") { benchmark.pullVersions = count }
        if let size = value("--page") { benchmark.pageSize = size }
        try await benchmark.run()
    case "sync-pull":
        guard let index = arguments.firstIndex(of: "--data"), index + 1 < arguments.count,
              let page = arguments.firstIndex(of: "--page").flatMap({ Int(arguments[$0 + 1]) }),
              let expect = arguments.firstIndex(of: "--expect").flatMap({ Int(arguments[$0 + 1]) }) else {
            throw CocoaError(.fileNoSuchFile)
        }
        try await SyncBenchmark.pull(data: URL(fileURLWithPath: arguments[index + 1], isDirectory: true), page: page, expect: expect)
    case "report":
        var benchmark = ReportBenchmark()
        if let years = value("--years") { benchmark.years = min(max(1, years), 20) }
        if let days = value("--days") { benchmark.reportDays = min(max(1, days), 366) }
        if let rounds = value("--rounds") { benchmark.rounds = max(1, rounds) }
        try await benchmark.run()
    case "fhir":
        var benchmark = FHIRBenchmark()
        if let index = arguments.firstIndex(of: "--outcomes"), index + 1 < arguments.count, let count = Int(arguments[index + 1]) {
            benchmark.outcomeCount = max(100, count)
        }
        if let index = arguments.firstIndex(of: "--rounds"), index + 1 < arguments.count, let rounds = Int(arguments[index + 1]) {
            benchmark.rounds = max(1, rounds)
        }
        try await benchmark.run()
    case "reminders":
        var benchmark = RemindersBenchmark()
        if let count = value("--records") { benchmark.records = max(1, count) }
        if let count = value("--tasks") { benchmark.tasksPerRecord = max(1, count) }
        if let count = value("--minutes") { benchmark.minutes = max(1, count) }
        benchmark.run()
    case "reminder-burst":
        var benchmark = ReminderBurstBenchmark()
        if let count = value("--records") { benchmark.records = max(1, count) }
        if let count = value("--tasks") { benchmark.tasks = max(1, count) }
        if let count = value("--members") { benchmark.members = max(1, count) }
        try await benchmark.run()
    case "triage":
        var benchmark = TriageBenchmark()
        if let count = value("--records") { benchmark.records = max(1, count) }
        if let days = value("--days") { benchmark.historyDays = min(max(1, days), 60) }
        if let count = value("--patients") { benchmark.patients = max(1, count) }
        if let count = value("--items") { benchmark.items = max(1, count) }
        if let count = value("--homes") { benchmark.homes = max(1, count) }
        if let count = value("--rounds") { benchmark.rounds = max(1, count) }
        try await benchmark.run()
    case "records":
        guard let index = arguments.firstIndex(of: "--data"), index + 1 < arguments.count else {
            throw CocoaError(.fileNoSuchFile)
        }
        var benchmark = RecordsBenchmark(data: URL(fileURLWithPath: arguments[index + 1], isDirectory: true))
        if let index = arguments.firstIndex(of: "--count"), index + 1 < arguments.count, let count = Int(arguments[index + 1]) {
            benchmark.count = count
        }
        try await benchmark.run()
    default:
        FileHandle.standardError.write(Data("usage: OpenCareKitBenchmarks schedule [--python PATH] | store [--outcomes N] [--years N] [--part insert|events] [--rounds N] [--database URL --psql PATH] | records --data DIR [--count N] | sync [--outcomes N] [--pull N] [--page N] | reminders [--records N] [--tasks N] [--minutes N] | reminder-burst [--records N] [--tasks N] [--members N] | triage [--records N] [--days N] [--patients N] [--items N] [--homes N] [--rounds N]\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    exit(1)
}
