import Foundation
import GRDB

/// Copies and checks whole SQLite files (a store's, or a directory's) for backups.
public enum SQLiteFileCopy {
    /// Writes a consistent copy of the SQLite database at `source` to `destination` (which must not exist) while
    /// other connections and processes go on writing: SQLite's `VACUUM INTO` reads one snapshot (a read transaction,
    /// which in WAL mode holds no writer up) and writes it out compacted. Every transaction committed before the call
    /// is in the copy.
    ///
    /// - Throws: `SQLiteFileCopyError` naming what failed, without data.
    public static func copy(from source: URL, to destination: URL) throws {
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(10)
            let queue = try DatabaseQueue(path: source.path, configuration: configuration)
            defer { try? queue.close() }
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "VACUUM INTO ?", arguments: [destination.path])
            }
            // The copy is one self-contained file: a rollback journal rather than a write-ahead log, so opening it
            // read-only later makes no files beside it.
            let copy = try DatabaseQueue(path: destination.path)
            try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            try copy.close()
        } catch let error as DatabaseError {
            throw SQLiteFileCopyError(file: source.lastPathComponent, reason: error.message ?? "SQLite error \(error.resultCode.rawValue)")
        }
    }

    /// SQLite's `PRAGMA integrity_check` of the file at `url`, opened read-only: `["ok"]` for a sound file.
    ///
    /// - Throws: `SQLiteFileCopyError` when the file cannot be opened as a database at all.
    public static func integrityCheck(of url: URL) throws -> [String] {
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        } catch let error as DatabaseError {
            throw SQLiteFileCopyError(file: url.lastPathComponent, reason: error.message ?? "SQLite error \(error.resultCode.rawValue)")
        }
    }
}

/// A SQLite file could not be copied or read.
public struct SQLiteFileCopyError: Error, CustomStringConvertible {
    /// The file's name (its last path component), not its directory.
    public let file: String
    /// SQLite's message, such as "file is not a database"; it never includes the file's data.
    public let reason: String
    public var description: String { "\(file): \(reason)" }

    package init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }
}
