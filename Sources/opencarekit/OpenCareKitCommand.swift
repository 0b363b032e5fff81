import ArgumentParser
import Foundation

/// The `opencarekit` command line tool.
@main
struct OpenCareKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "opencarekit",
        abstract: "OpenCareKit: CareKit's care plans, schedules and stores for Linux and the web.",
        subcommands: [ServeCommand.self, AccountCommand.self, RecordCommand.self, AuditCommand.self, ScheduleCommand.self,
                      StoreCommand.self, SyncCommand.self, MigrateCommand.self, BackupCommand.self, RestoreCommand.self, GalleryCommand.self])

    /// Runs the command; errors print as one line on standard error with a non-zero exit status.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                return
            }
            // A command that ends with an exit status alone (`ExitCode`) has said what it had to say.
            if let exit = error as? ExitCode { Foundation.exit(exit.rawValue) }
            let message = (error as? LocalizedError)?.errorDescription ?? Self.message(for: error)
                .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                .joined(separator: " ")
            FileHandle.standardError.write(Data("opencarekit: \(message)\n".utf8))
            Foundation.exit(code.rawValue == 0 ? 1 : code.rawValue)
        }
    }
}
