import Foundation
import OpenCareKitStore

/// Expands the benchmark care plan over ten years with OpenCareKit and with python-dateutil in the same run, then
/// times one day's events for a schedule that began yesterday and one that began ten years ago.
struct ScheduleBenchmark {
    var python: String
    var repetitions = 5

    func run() throws {
        let calendar = BenchmarkCarePlan.calendar
        let start = calendar.date(from: DateComponents(year: 2016, month: 1, day: 1))!
        let end = calendar.date(byAdding: .year, value: 10, to: start)!
        let plan = BenchmarkCarePlan.schedules(startingOn: start)
        print("Schedule benchmark: \(plan.count) tasks, \(plan.map(\.schedule.elements.count).reduce(0, +)) elements, "
              + "America/New_York, 2016-01-01 … 2026-01-01")

        // 1. Ten-year expansion: OpenCareKit.
        var swiftOccurrences: [String: [Int]] = [:]
        var swiftSeconds = Double.infinity
        for _ in 0..<repetitions {
            let began = DispatchTime.now().uptimeNanoseconds
            var result: [String: [Int]] = [:]
            for (id, schedule) in plan {
                result[id] = schedule.events(from: start, to: end).map { Int($0.start.timeIntervalSince1970) }
            }
            swiftSeconds = min(swiftSeconds, Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9)
            swiftOccurrences = result
        }
        let count = swiftOccurrences.values.map(\.count).reduce(0, +)

        // 2. The same rules with python-dateutil.
        let spec = BenchmarkCarePlan.dateutilSpec(startingOn: start, until: end)
        var pythonSeconds = Double.infinity
        var pythonOccurrences: [String: [Int]] = [:]
        for _ in 0..<2 {
            let output = try DateutilRunner(python: python).expand(spec)
            pythonSeconds = min(pythonSeconds, output.seconds)
            pythonOccurrences = output.occurrences
        }
        let identical = pythonOccurrences.keys.sorted() == swiftOccurrences.keys.sorted()
            && swiftOccurrences.allSatisfy { pythonOccurrences[$0.key] == $0.value.sorted() }

        let swiftRate = Double(count) / swiftSeconds
        let pythonCount = pythonOccurrences.values.map(\.count).reduce(0, +)
        let pythonRate = Double(pythonCount) / pythonSeconds
        print("")
        print("Ten-year expansion         occurrences   seconds     occurrences/s")
        print(row("OpenCareKit", count, swiftSeconds, swiftRate))
        print(row("python-dateutil 2.9", pythonCount, pythonSeconds, pythonRate))
        print(String(format: "Ratio: %.1f× dateutil's rate (target ≥ 10×); occurrence sets identical: %@",
                     swiftRate / pythonRate, identical ? "yes" : "NO"))

        // 3. One day's events at schedule age 0 and age 10 years.
        let day = calendar.date(from: DateComponents(year: 2026, month: 1, day: 2))!
        let dayEnd = calendar.date(byAdding: .day, value: 1, to: day)!
        let young = BenchmarkCarePlan.schedules(startingOn: calendar.date(byAdding: .day, value: -1, to: day)!)
        let (ageZero, ageTen) = timeOneDay(young.map(\.schedule), plan.map(\.schedule), from: day, to: dayEnd)
        let stepping = timeStepping(plan.map(\.schedule), to: dayEnd)
        print("")
        print("One day's events, all 20 tasks     median µs")
        print(String(format: "  schedule age 0 (began yesterday)  %9.1f", ageZero * 1e6))
        print(String(format: "  schedule age 10 years             %9.1f", ageTen * 1e6))
        print(String(format: "  age 10, step by step (CareKit)    %9.1f", stepping * 1e6))
        print(String(format: "Ratio age 10 / age 0: %.2f (target ≤ 2); step-by-step / fast at age 10: %.0f×",
                     ageTen / ageZero, stepping / ageTen))
        if !identical { throw BenchmarkError.mismatch }
    }

    private func row(_ name: String, _ count: Int, _ seconds: Double, _ rate: Double) -> String {
        name.padding(toLength: 26, withPad: " ", startingAt: 0)
            + String(format: "%11d %9.3f %17.0f", count, seconds, rate)
    }

    /// Median seconds to fetch the events of [from, to) for every schedule of each plan. Samples of the two plans
    /// alternate, so both see the same machine noise.
    private func timeOneDay(_ first: [OCKSchedule], _ second: [OCKSchedule], from: Date, to: Date) -> (Double, Double) {
        var samples: ([Double], [Double]) = ([], [])
        var sink = 0
        func sample(_ schedules: [OCKSchedule]) -> Double {
            let began = DispatchTime.now().uptimeNanoseconds
            for schedule in schedules { sink &+= schedule.events(from: from, to: to).count }
            return Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        }
        for _ in 0..<200 { _ = sample(first); _ = sample(second) } // warm-up
        for _ in 0..<5_000 {
            samples.0.append(sample(first))
            samples.1.append(sample(second))
        }
        precondition(sink > 0)
        return (samples.0.sorted()[samples.0.count / 2], samples.1.sorted()[samples.1.count / 2])
    }

    /// Median seconds to reach the same day by stepping every element from its start, as CareKit does.
    private func timeStepping(_ schedules: [OCKSchedule], to end: Date) -> Double {
        var samples: [Double] = []
        var sink = 0
        for _ in 0..<20 {
            let began = DispatchTime.now().uptimeNanoseconds
            for element in schedules.flatMap(\.elements) {
                var date = element.start
                while date < end, let next = element.calendar.date(byAdding: element.interval, to: date) {
                    date = next
                    sink &+= 1
                }
            }
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9)
        }
        precondition(sink > 0)
        return samples.sorted()[samples.count / 2]
    }
}

enum BenchmarkError: Error, CustomStringConvertible {
    case mismatch
    case python(String)

    var description: String {
        switch self {
        case .mismatch: "the occurrence sets differ"
        case let .python(message): "python-dateutil failed: \(message)"
        }
    }
}

/// Runs scripts/python/dateutil_expand.py.
struct DateutilRunner {
    var python: String

    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/python/dateutil_expand.py").path
    }

    func expand(_ spec: [String: Any]) throws -> (seconds: Double, occurrences: [String: [Int]]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [Self.script]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: spec))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let seconds = json["seconds"] as? Double,
              let occurrences = json["occurrences"] as? [String: [Int]] else {
            throw BenchmarkError.python(message.isEmpty ? "no output" : message)
        }
        return (seconds, occurrences)
    }
}
