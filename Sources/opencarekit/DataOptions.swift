import ArgumentParser
import Foundation
import Logging
import OpenCareKitDirectory
import OpenCareKitPostgres
import OpenCareKitServer
import OpenCareKitStore

/// Where the commands that work on a server's records find them, as `serve` does: a PostgreSQL database
/// (`--database` or `$DATABASE_URL`), else a data directory.
struct DataOptions: ParsableArguments {
    @Option(help: "The data directory (default: $OPENCAREKIT_DATA_DIR, else $XDG_DATA_HOME/opencarekit, else ~/.local/share/opencarekit).")
    var data: String?

    @Option(help: "A PostgreSQL database holding the directory and every care record instead of a data directory, as postgres://user[:password]@host[:port]/database (default: $DATABASE_URL). Give a password in $DATABASE_URL rather than here: other users of the machine can see a command's arguments.")
    var database: String?

    mutating func validate() throws {
        if data != nil, database != nil { throw ValidationError("--data and --database: give one of them") }
    }

    var dataDirectory: CareDataDirectory { CareDataDirectory(path: data) }

    /// `--database`, else a non-empty `$DATABASE_URL` unless `--data` names a data directory.
    var databaseURL: String? {
        if let database { return database }
        return data == nil ? Self.environmentDatabaseURL : nil
    }

    /// A non-empty `$DATABASE_URL`.
    static var environmentDatabaseURL: String? {
        ProcessInfo.processInfo.environment["DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Opens the directory and the records' stores and runs `body` with them: on PostgreSQL while the connection
    /// pool runs, once the schema is migrated.
    func withData<T: Sendable>(logger: Logger = Self.quietLogger, _ body: (CareData) async throws -> T) async throws -> T {
        let data = try open(logger: logger)
        guard let records = data.postgres else { return try await body(data) }
        return try await records.withRunning {
            try await Self.migrate(records)
            return try await body(data)
        }
    }

    /// The directory and the records' stores, or a one-line error. On PostgreSQL they work once `postgres` runs
    /// and is migrated.
    func open(logger: Logger, databaseConnections: Int = PostgresCareRecords.defaultMaximumConnections) throws -> CareData {
        guard let databaseURL else {
            let data = dataDirectory
            return CareData(directory: try Self.openDirectory(of: data), stores: data, dataDirectory: data, postgres: nil)
        }
        let records = try Self.postgres(databaseURL, option: "--database", logger: logger, maximumConnections: databaseConnections)
        return CareData(directory: records.directory(), stores: records, dataDirectory: nil, postgres: records)
    }

    /// The database at `url`, or a one-line error naming the `option` it came from.
    static func postgres(_ url: String, option: String, logger: Logger,
                         maximumConnections: Int = PostgresCareRecords.defaultMaximumConnections) throws -> PostgresCareRecords {
        do {
            return try PostgresCareRecords(url: url, maximumConnections: maximumConnections, logger: logger)
        } catch {
            throw ValidationError("\(option): \(error)")
        }
    }

    /// Creates or upgrades the database's schema, or explains in one line why it cannot.
    static func migrate(_ records: PostgresCareRecords) async throws {
        do {
            try await records.migrate()
        } catch {
            throw ValidationError("cannot use the database \(records.address): \(PostgresCareRecords.describe(error))")
        }
    }

    /// Warnings and errors only: a command's output is its result.
    static var quietLogger: Logger {
        var logger = Logger(label: "opencarekit")
        logger.logLevel = .error
        return logger
    }

    /// The directory of `data`, or an error in one line.
    static func openDirectory(of data: CareDataDirectory) throws -> SQLiteCareDirectory {
        do {
            return try data.openDirectory()
        } catch {
            throw ValidationError("cannot open the data directory: \((error as? CareDirectoryError)?.reason ?? "it is not a folder this process can write")")
        }
    }

    /// The account with `email`, or a clear error.
    func account(_ email: String, in directory: any CareDirectory) async throws -> CareAccount {
        guard let account = try await directory.account(email: email) else {
            throw ValidationError("there is no account with that email address (add it with: opencarekit account add EMAIL --name NAME)")
        }
        return account
    }
}

/// A server's directory and records' stores, on whichever engine holds them.
struct CareData: Sendable {
    let directory: SQLCareDirectory
    let stores: any CareRecordStores
    /// The data directory, when the records are its files.
    let dataDirectory: CareDataDirectory?
    /// The database, when the records are on PostgreSQL.
    let postgres: PostgresCareRecords?

    /// Appends the audit log's entry for a command that touches a record or the directory: no account (an operator
    /// at this machine), from the command line and the machine's user, the subcommand as the detail (with the id of
    /// the account it concerns, never an email or a name).
    func audit(record: CareRecordID?, resource: String, _ action: AuditEntry.Action, command: String) async throws {
        try await directory.appendAudit([AuditEntry.Draft(
            recorded: Date(), account: nil, record: record, resource: resource, action: action, outcome: .allowed,
            address: "command line, user \(ProcessInfo.processInfo.userName)", detail: "opencarekit \(command)")])
    }
}
