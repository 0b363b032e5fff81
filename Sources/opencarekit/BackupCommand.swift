import ArgumentParser
import Foundation
import OpenCareKitServer
import OpenCareKitStore

/// `opencarekit backup --to DIR`: an online backup of a data directory while the server runs.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back up a data directory (the directory and every record) while the server runs and writes.",
        discussion: """
            Each file is a consistent copy (SQLite's VACUUM INTO) holding every write acknowledged before the backup \
            began; manifest.json lists every file with its size and SHA-256. For records on PostgreSQL, back up the \
            database with pg_dump instead (see the OpenCareKitServer documentation, Run a clinic server: "Backups and restore").
            """)

    @OptionGroup var storage: DataOptions

    @Option(help: "The folder to write the backup to; it must not exist or be empty.")
    var to: String

    func run() throws {
        try BackupError.requireDataDirectory(storage, tool: "back them up with pg_dump")
        let manifest = try BackupError.asValidation {
            try DataBackup.backUp(storage.dataDirectory, to: URL(fileURLWithPath: to, isDirectory: true))
        }
        let bytes = manifest.files.reduce(0) { $0 + $1.bytes }
        print("Backed up \(manifest.records) records (\(manifest.files.count) files, \(ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file))) to \(to).")
    }
}

/// `opencarekit restore --from DIR`: a backup into an empty data directory.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into an empty data directory, after checking every file against its manifest.",
        discussion: "A backup with a missing, added, changed or damaged file is refused, and nothing is written.")

    @OptionGroup var storage: DataOptions

    @Option(help: "The backup's folder (made by opencarekit backup).")
    var from: String

    func run() throws {
        try BackupError.requireDataDirectory(storage, tool: "restore them with pg_restore")
        let manifest = try BackupError.asValidation {
            try DataBackup.restore(from: URL(fileURLWithPath: from, isDirectory: true), into: storage.dataDirectory)
        }
        print("Restored \(manifest.records) records (\(manifest.files.count) files, every checksum and integrity check passed) into \(storage.dataDirectory.url.path).")
        // The backup holds no secrets key: the directory's sealed secrets open only with the original's.
        print("Serve it with the secrets key of the directory it was taken from (copy its secrets.key here, or give --secrets-key-file or $OPENCAREKIT_SECRETS_KEY).")
    }
}

extension BackupError {
    /// Refuses records on PostgreSQL, whose own tools (`tool`) back them up.
    static func requireDataDirectory(_ storage: DataOptions, tool: String) throws {
        guard storage.databaseURL == nil else {
            throw ValidationError("--database: the records are on PostgreSQL; \(tool) (see the OpenCareKitServer documentation, Run a clinic server: \"Backups and restore\")")
        }
    }

    /// Runs `body`, its refusal as the command's one-line error.
    static func asValidation<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as BackupError {
            throw ValidationError(error.description)
        }
    }
}
