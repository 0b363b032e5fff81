import Foundation
import OpenCareKitStore
import GRDB

/// The directory in one SQLite file, beside the records' store files: WAL with `synchronous = NORMAL`, so a commit
/// is in the file (it survives the process crashing) before the call returns, and reaches the disk at the next
/// checkpoint; an operating-system crash or a power cut may lose the last commits, never the chain's order or the
/// file's integrity. (The records' stores, which hold the patient's data, use `FULL`.) Waiting for the disk at each
/// commit would make every audited request wait for it.
///
/// For example:
/// ```swift
/// let directory = try SQLiteCareDirectory(path: "/var/lib/opencarekit/directory.sqlite")
/// let records = try await directory.memberships(of: account.id)
///
/// let scratch = try SQLiteCareDirectory(path: nil)  // in memory, for tests
/// ```
public typealias SQLiteCareDirectory = SQLCareDirectory

extension SQLCareDirectory {
    /// Opens (creating if needed) the SQLite directory at `path`, or an in-memory one when `path` is nil (tests).
    /// - Throws: `CareDirectoryError.storage` if the file cannot be opened or was written by a newer OpenCareKit.
    public convenience init(path: String?) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // Deleted and overwritten content is zeroed (answers of a survey in progress, once it closes), whatever
            // the SQLite build's default.
            try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA secure_delete = ON")
        }
        do {
            let database: any DatabaseWriter = if let path {
                try DatabasePool(path: path, configuration: configuration)
            } else {
                try DatabaseQueue(configuration: configuration)
            }
            if try database.read(DirectorySchema.migrator.hasBeenSuperseded) {
                throw CareDirectoryError(.storage, "The directory was written by a newer OpenCareKit; update OpenCareKit to open it")
            }
            try DirectorySchema.migrator.migrate(database)
            self.init(runner: SQLiteDirectoryRunner(database: database))
        } catch let error as CareDirectoryError {
            throw error
        } catch {
            throw CareDirectoryError(.storage, "Cannot open the directory: \((error as? DatabaseError)?.message ?? "\(type(of: error))")")
        }
    }
}

/// The SQLite directory's transactions.
struct SQLiteDirectoryRunner: SQLTransactionRunner {
    let database: any DatabaseWriter
    var dialect: SQLDialect { .sqlite }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await database.read { db in try GRDBDatabase.running(body, on: db) }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await database.write { db in try GRDBDatabase.running(body, on: db) }
    }

    func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "SQLite error \(error.resultCode.rawValue)" }
        if let error = error as? SQLFailure { return error.description }
        return "\(type(of: error))"
    }
}
