import ArgumentParser
import Foundation

/// The `opencarekit` command line tool.
@main
struct OpenCareKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "opencarekit",
        abstract: "OpenCareKit: CareKit's care plans, schedules and stores for Linux and the web.",
        subcommands: [ScheduleCommand.self])

    /// Runs the command; errors print as one line on standard error with a non-zero exit status.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                return
            }
            let message = Self.message(for: error)
                .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                .joined(separator: " ")
            FileHandle.standardError.write(Data("opencarekit: \(message)\n".utf8))
            Foundation.exit(code.rawValue == 0 ? 1 : code.rawValue)
        }
    }
}
