import Foundation

/// Benchmarks: `OpenCareKitBenchmarks schedule [--python PATH]`. Run through scripts/bench-schedule, which builds in
/// release mode and installs python-dateutil into .venv.
let arguments = Array(CommandLine.arguments.dropFirst())
var python = ProcessInfo.processInfo.environment["OPENCAREKIT_PYTHON"] ?? "/usr/bin/python3"
if let index = arguments.firstIndex(of: "--python"), index + 1 < arguments.count {
    python = arguments[index + 1]
}
do {
    switch arguments.first {
    case "schedule":
        try ScheduleBenchmark(python: python).run()
    default:
        FileHandle.standardError.write(Data("usage: OpenCareKitBenchmarks schedule [--python PATH]\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    exit(1)
}
