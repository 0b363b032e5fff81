import ArgumentParser
import Foundation
import OpenCareKitServer
import OpenCareKitStore

/// `opencarekit audit …`: the audit log.
struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Check the audit log.", subcommands: [AuditVerify.self])
}

struct AuditVerify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check that no audit entry was changed or deleted; exits with status 1 if one was.")
    @OptionGroup var options: DataOptions

    func run() async throws {
        let result = try await options.withData { try await $0.directory.verifyAuditLog() }
        if let problem = result.problem {
            FileHandle.standardError.write(Data("opencarekit: the audit log was tampered with: \(problem)\n".utf8))
            throw ExitCode(1)
        }
        print("The audit log is intact: \(result.entries) entries, the last with hash \(result.headHash).")
    }
}
