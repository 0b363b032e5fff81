import Foundation
import GRDB

extension OCKStore {
    /// Checks whether another process (the command line tool, another server) has committed to the store file since
    /// the last check, and if so lets every live query fetch again.
    ///
    /// SQLite's `data_version` changes only for commits made through other connections, so the store's own writes,
    /// which notify live queries already, do not count. The first call only records the version.
    ///
    /// - Returns: Whether there were such commits.
    @discardableResult
    public func checkForExternalChanges() async throws -> Bool {
        let database = try self.database()
        let version = try await database.writeWithoutTransaction { db in
            try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
        }
        let previous = externalDataVersion.withLock { last in
            defer { last = version }
            return last
        }
        guard let previous, previous != version else { return false }
        changes.publish(.all)
        return true
    }

    /// Checks for other processes' commits every `interval` until the calling task is cancelled, so live queries
    /// follow them within about that time. A check that fails (the file went away) is retried at the next interval.
    ///
    /// For example, as part of a server's services:
    /// ```swift
    /// let watcher = Task { await store.watchExternalChanges(every: .milliseconds(250)) }
    /// ```
    public func watchExternalChanges(every interval: Duration = .milliseconds(250)) async {
        while !_Concurrency.Task.isCancelled {
            _ = try? await checkForExternalChanges()
            try? await _Concurrency.Task.sleep(for: interval)
        }
    }
}

extension OCKStore {
    /// The directory stores live in when the caller does not choose one: `$OPENCAREKIT_DATA_DIR`, else
    /// `$XDG_DATA_HOME/opencarekit`, else `~/.local/share/opencarekit`.
    public static var defaultDirectory: URL { StoreFile.defaultDirectory() }
}
