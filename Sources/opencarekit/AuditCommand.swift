import ArgumentParser
import Foundation
import OpenCareKitDirectory
import OpenCareKitServer
import OpenCareKitStore

/// `opencarekit audit …`: the audit log.
struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Check the audit log.", subcommands: [AuditVerify.self, AuditCheckpoint.self])
}

/// A point of the audit chain noted outside the database: the number of an entry and its hash. Whoever can write the
/// database can rewrite the chain's tail and its hashes with it; they cannot change a checkpoint kept elsewhere, so
/// `audit verify --against` finds a rewrite of anything up to it.
struct AuditCheckpointLine: Equatable {
    let sequence: Int64
    let hash: String

    /// `N HASH`, as `audit checkpoint` prints it, or the path of a file whose last such line is read.
    init(_ text: String) throws {
        let isFile = text.contains("/") || FileManager.default.fileExists(atPath: text)
        var line = text
        if isFile {
            guard let contents = try? String(contentsOfFile: text, encoding: .utf8) else {
                throw ValidationError("--against: \(text) cannot be read")
            }
            // Each line a checkpoint (CR LF or LF); the last one counts, every one must be one.
            let lines = contents.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard let last = lines.last, try lines.allSatisfy({ try Self.parse($0) != nil }) else {
                throw ValidationError("--against: \(text) holds a line that is not a checkpoint (N HASH)")
            }
            line = last
        }
        guard let (sequence, hash) = try Self.parse(line) else {
            throw ValidationError("--against: a checkpoint is an entry's number and hash (as audit checkpoint prints), or a file of them")
        }
        (self.sequence, self.hash) = (sequence, hash)
    }

    private static func parse(_ line: String) throws -> (Int64, String)? {
        let parts = line.split(separator: " ")
        guard parts.count == 2, let sequence = Int64(parts[0]), sequence >= 1, parts[1].count == 64,
              parts[1].allSatisfy(\.isHexDigit) else { return nil }
        return (sequence, String(parts[1]).lowercased())
    }
}

struct AuditVerify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check that no audit entry was changed or deleted; exits with status 1 if one was.")
    @OptionGroup var options: DataOptions
    @Option(help: "A checkpoint kept outside the database (\"N HASH\" as audit checkpoint prints it, or a file whose last line is one): the chain must still hold that entry with that hash.")
    var against: String?

    func run() async throws {
        let checkpoint = try against.map(AuditCheckpointLine.init)
        let (result, entry) = try await options.withData { data in
            let result = try await data.directory.verifyAuditLog()
            var entry: AuditEntry?
            if let checkpoint { entry = try await data.directory.auditEntries(after: checkpoint.sequence - 1, limit: 1).first }
            return (result, entry)
        }
        func tampered(_ problem: String) throws -> Never {
            FileHandle.standardError.write(Data("opencarekit: the audit log was tampered with: \(problem)\n".utf8))
            throw ExitCode(1)
        }
        if let problem = result.problem { try tampered(problem) }
        if let checkpoint {
            guard let entry, entry.sequence == checkpoint.sequence else {
                try tampered("it ends before the checkpoint's entry \(checkpoint.sequence)")
            }
            guard entry.hash == checkpoint.hash else {
                try tampered("entry \(checkpoint.sequence) is not the one the checkpoint noted: the chain was rewritten up to it")
            }
        }
        print("The audit log is intact: \(result.entries) entries, the last with hash \(result.headHash)"
              + (checkpoint.map { ", and holds checkpoint \($0.sequence)." } ?? "."))
    }
}

struct AuditCheckpoint: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkpoint",
        abstract: "Print the audit chain's head as a checkpoint (\"N HASH\") to keep outside the database, for audit verify --against.")
    @OptionGroup var options: DataOptions

    func run() async throws {
        let result = try await options.withData { try await $0.directory.verifyAuditLog() }
        if let problem = result.problem {
            FileHandle.standardError.write(Data("opencarekit: the audit log was tampered with: \(problem)\n".utf8))
            throw ExitCode(1)
        }
        guard result.entries > 0 else { throw ValidationError("the audit log is empty: there is nothing to checkpoint yet") }
        print("\(result.entries) \(result.headHash)")
    }
}
