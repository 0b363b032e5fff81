import ArgumentParser
import Foundation
import OpenCareKitDirectory
import OpenCareKitPostgres
import OpenCareKitServer
import OpenCareKitStore

/// `opencarekit migrate --from DATA_DIR --to postgres://…`: moves a data directory (the embedded default) into a
/// PostgreSQL database, as `CareDataImport` copies and checks it.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy a data directory's accounts, audit log and every care record into a PostgreSQL database.",
        discussion: """
            Stop the servers of the data directory first. Each record is copied, then checked (row counts and a \
            checksum of every value, read again on both sides), and only then added to the database's directory. \
            A record already in the database is never overwritten: the same one is left as it is, a different one is \
            refused (the exit status is then 1). After an interruption, run the command again: it copies what is \
            missing, without duplicates. Sessions and surveys in progress are not copied: people sign in again.
            """)

    @Option(help: "The data directory to copy.") var from: String
    @Option(help: "The PostgreSQL database, as postgres://user[:password]@host[:port]/database (default: $DATABASE_URL).")
    var to: String?
    @Option(help: .hidden) var rowsPerTransaction = 2_000

    func run() async throws {
        let source = CareDataDirectory(path: from)
        guard FileManager.default.fileExists(atPath: source.url.appending(path: "directory.sqlite").path) else {
            throw ValidationError("--from: not a data directory (it has no directory.sqlite)")
        }
        guard let url = to ?? DataOptions.environmentDatabaseURL else {
            throw ValidationError("--to: give the database's URL, or set $DATABASE_URL")
        }
        guard (1...CareDataImport.maximumRowsPerTransaction).contains(rowsPerTransaction) else {
            throw ValidationError("--rows-per-transaction: from 1 to \(CareDataImport.maximumRowsPerTransaction)")
        }
        let target = try DataOptions.postgres(url, option: "--to", logger: DataOptions.quietLogger)
        let directory = try DataOptions.openDirectory(of: source)
        if let adopted = try await source.adoptLegacyStore(into: directory, timeZone: .current, now: Date()) {
            ServeRun.say("Adopted the store from before records existed as record \(adopted.id).")
        }
        ServeRun.say("Copying the data directory \(source.url.path) into \(target.address).")
        let copy = CareDataImport(directory: directory, stores: source, into: target, rowsPerTransaction: rowsPerTransaction)
        let summary = try await target.withRunning {
            try await DataOptions.migrate(target)
            do {
                return try await copy.run { ServeRun.say(Self.describe($0)) }
            } catch let error as CareDataImportError {
                throw ValidationError(error.description)
            } catch {
                throw ValidationError("cannot copy into the database \(target.address): \(PostgresCareRecords.describe(error))")
            }
        }
        ServeRun.say("Done: \(Self.count(summary.copied.count, "record")) copied, \(summary.alreadyThere.count) already there, "
                         + "\(summary.refused.count) refused.")
        if !summary.refused.isEmpty {
            let refused = summary.refused.map(\.record.description).joined(separator: ", ")
            FileHandle.standardError.write(Data("opencarekit: \(Self.count(summary.refused.count, "record")) not copied: \(refused)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// A line of progress: counts, ids and checksums, never patient data.
    static func describe(_ progress: CareDataImport.Progress) -> String {
        switch progress {
        case let .accounts(copied, alreadyThere):
            "Accounts: \(copied) copied, \(alreadyThere) already there."
        case let .auditLog(copied, alreadyThere):
            "Audit log: \(count(copied, "entry", "entries")) copied, \(alreadyThere) already there."
        case let .recordStarted(id, number, count):
            "Record \(number) of \(count), \(id):"
        case let .rowsCopied(_, table, rows):
            "  \(table): \(rows) rows"
        case let .recordCopied(copy):
            "  copied and checked: \(count(copy.rowCount, "row")), checksum \(copy.checksum)."
        case let .recordAlreadyThere(copy):
            "  already in the database, the same: \(count(copy.rowCount, "row")), checksum \(copy.checksum)."
        case let .recordRefused(_, reason):
            "  not copied: \(reason)."
        }
    }

    static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
    }
}
