import Foundation
import OpenCareKitStore
import Testing

/// Acknowledged writes survive SIGKILL: a child process (`opencarekit store stress-writer`) adds outcomes one
/// transaction at a time and prints `ack <occurrence>` after each returns; the test kills it at a random point, reopens
/// the store, and checks every acknowledged outcome is there and the file passes `PRAGMA integrity_check`.
///
/// 50 trials by default; `scripts/stress-durability` runs 1,000 (OPENCAREKIT_DURABILITY_TRIALS).
@Suite struct DurabilityTests {
    static var trials: Int {
        Int(ProcessInfo.processInfo.environment["OPENCAREKIT_DURABILITY_TRIALS"] ?? "") ?? 50
    }

    @Test func acknowledgedWritesSurviveSIGKILL() async throws {
        var rng = SeededGenerator(seed: UInt64(Date().timeIntervalSince1970))
        var acknowledgedInTotal = 0
        for trial in 0..<Self.trials {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ock-durability-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            try await Self.prepareStore(in: directory)

            let process = Process()
            process.executableURL = CommandLineTests.executable
            process.arguments = ["store", "stress-writer", "--store", directory.appendingPathComponent("durable.sqlite").path,
                                 "--task", "task"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Kill after a random number of acknowledged writes (0 kills it while it is still starting up).
            let target = Int.random(in: 0...25, using: &rng)
            var received = Data()
            while received.filter({ $0 == UInt8(ascii: "\n") }).count < target {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                received += chunk
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            received += output.fileHandleForReading.readDataToEndOfFile()
            let acknowledged = Self.acknowledgedOccurrences(received)
            acknowledgedInTotal += acknowledged.count

            let store = OCKStore(name: "durable", type: .onDisk(), directory: directory)
            #expect(try store.checkIntegrity() == ["ok"], "trial \(trial)")
            let stored = Set(try await store.fetchOutcomes(query: OCKOutcomeQuery()).map(\.taskOccurrenceIndex))
            #expect(acknowledged.isSubset(of: stored), "trial \(trial): lost \(acknowledged.subtracting(stored).sorted())")
        }
        #expect(acknowledgedInTotal > 0)
        print("Durability: \(Self.trials) SIGKILL trials, \(acknowledgedInTotal) acknowledged writes, all present; integrity_check ok")
    }

    static func prepareStore(in directory: URL) async throws {
        let store = OCKStore(name: "durable", type: .onDisk(), directory: directory)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let schedule = OCKSchedule.dailyAtTime(hour: 8, minutes: 0, start: Date(timeIntervalSinceReferenceDate: 0), end: nil,
                                               text: nil, calendar: calendar)
        try await store.addTask(OCKTask(id: "task", title: "Task", carePlanUUID: nil, schedule: schedule))
    }

    /// Occurrences from complete `ack N` lines.
    static func acknowledgedOccurrences(_ data: Data) -> Set<Int> {
        let text = String(decoding: data, as: UTF8.self)
        let complete = text.hasSuffix("\n") ? text : String(text[..<(text.lastIndex(of: "\n") ?? text.startIndex)])
        return Set(complete.split(separator: "\n").compactMap { line in
            line.hasPrefix("ack ") ? Int(line.dropFirst(4)) : nil
        })
    }
}
