import Foundation
import OpenCareKitCommandTesting
import Testing

/// `opencarekit schedule`, run as a separate process.
@Suite struct CommandLineTests {
    static var executable: URL { CommandProcess.executable }

    typealias Result = CommandProcess.Result

    static func run(_ arguments: [String], timeZone: String = "UTC", input: String? = nil) throws -> Result {
        try CommandProcess.run(arguments, environment: CommandProcess.environment(timeZone: timeZone), input: input)
    }

    @Test func printsEventsAtTheSameLocalTimeWhateverTheMachinesTimeZone() throws {
        let arguments = ["schedule", "--start", "2026-03-01", "--time", "08:00", "--time", "20:00", "--every", "1d",
                         "--zone", "America/New_York", "--from", "2026-03-07", "--to", "2026-03-10"]
        let seoul = try Self.run(arguments, timeZone: "Asia/Seoul")
        let losAngeles = try Self.run(arguments, timeZone: "America/Los_Angeles")
        #expect(seoul.status == 0)
        #expect(seoul.output == losAngeles.output)
        let lines = seoul.output.split(separator: "\n")
        #expect(lines.count == 6)
        #expect(lines.first?.hasPrefix("12\t2026-03-07T08:00:00-05:00") == true)
        #expect(lines[2].hasPrefix("14\t2026-03-08T08:00:00-04:00"))
    }

    @Test(arguments: [
        (["schedule", "--start", "2026-03-01", "--every", "0d", "--zone", "UTC"], "interval: must move forward in time"),
        (["schedule", "--start", "2026-02-30", "--zone", "UTC"], "--start: not a day of that month"),
        (["schedule", "--start", "tomorrow", "--zone", "UTC"], "--start: expected a date"),
        (["schedule", "--start", "2026-03-01", "--zone", "Mars/Olympus"], "--zone: not a known time zone identifier"),
        (["schedule", "--start", "2026-03-01", "--end", "2026-02-01", "--zone", "UTC"], "end: must be after start"),
        (["schedule", "--start", "2026-03-01", "--every", "3fortnights", "--zone", "UTC"], "--every: unknown unit"),
        (["schedule", "--start", "2026-03-01", "--time", "25:00", "--zone", "UTC"], "--time: expected a time"),
        (["schedule", "--start", "2026-03-01", "--duration", "-5min", "--zone", "UTC"], "--duration"),
        (["schedule", "--start", "2026-03-01", "--to", "2400-01-01", "--zone", "UTC"], "--to: at most 100 years"),
        (["schedule"], "--start"),
    ])
    func invalidArgumentsGetOneLineAndANonZeroExit(arguments: [String], message: String) throws {
        let result = try Self.run(arguments)
        #expect(result.status != 0)
        #expect(result.output.isEmpty)
        #expect(result.errors.split(separator: "\n").count == 1)
        #expect(result.errors.hasPrefix("opencarekit: "))
        #expect(result.errors.contains(message), "\(result.errors)")
    }

    @Test func helpIsPrintedAndSucceeds() throws {
        let result = try Self.run(["schedule", "--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("--every"))
    }
}
