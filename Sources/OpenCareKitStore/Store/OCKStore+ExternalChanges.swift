import Foundation

extension OCKStore {
    /// Checks whether another process (the command line tool, another server) has committed to the store since the
    /// last check, and if so lets every live query fetch again.
    ///
    /// On SQLite this reads the file's `data_version`, which changes only for commits made through other connections,
    /// so the store's own writes, which notify live queries already, do not count. On PostgreSQL it compares the
    /// record's commit count with the one this store last saw. The first call on SQLite only records where the store
    /// is; on PostgreSQL it lets live queries fetch again.
    ///
    /// - Returns: Whether there were such commits.
    @discardableResult
    public func checkForExternalChanges() async throws -> Bool {
        try await engine.checkForExternalChanges { [changes] in changes.publish(.all) }
    }

    /// Makes sure that what this server computes next from the store, and its `changeCount`, reflect every commit
    /// acknowledged before this call, by this server or any other: the app calls it before answering from a cache.
    ///
    /// A store shared by several app servers (PostgreSQL) asks the database for the record's commit count (one short
    /// query), since another server's commit may be acknowledged before its notification arrives here. An embedded
    /// store (SQLite) answers at once: it is one server's, and its watcher follows the command line's commits.
    public func catchUp() async throws {
        guard engine.isSharedByServers else { return }
        try await checkForExternalChanges()
    }

    /// Follows other processes' commits until the calling task is cancelled, so live queries see them: on SQLite by
    /// looking every `interval` (a look that fails, because the file went away, is tried again at the next one); on
    /// PostgreSQL as each commit's notification arrives.
    ///
    /// For example, as part of a server's services:
    /// ```swift
    /// let watcher = Task { await store.watchExternalChanges(every: .milliseconds(250)) }
    /// ```
    public func watchExternalChanges(every interval: Duration = .milliseconds(250)) async {
        await engine.followExternalChanges(every: interval) { [changes] in changes.publish(.all) }
    }
}

extension OCKStore {
    /// The directory stores live in when the caller does not choose one: `$OPENCAREKIT_DATA_DIR`, else
    /// `$XDG_DATA_HOME/opencarekit`, else `~/.local/share/opencarekit`.
    public static var defaultDirectory: URL { StoreFile.defaultDirectory() }
}
