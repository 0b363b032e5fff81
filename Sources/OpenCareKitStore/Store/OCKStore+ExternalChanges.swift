import Foundation

extension OCKStore {
    /// Checks whether another process (the command line tool, another server) has committed to the store since the
    /// last check, and if so lets every live query fetch again.
    ///
    /// On SQLite this reads the file's `data_version`, which changes only for commits made through other connections,
    /// so the store's own writes, which notify live queries already, do not count. The first call only records the
    /// version. Engines that are told of other processes' commits (PostgreSQL) answer false: `watchExternalChanges`
    /// follows them.
    ///
    /// - Returns: Whether there were such commits.
    @discardableResult
    public func checkForExternalChanges() async throws -> Bool {
        guard try await engine.checkForExternalChanges() else { return false }
        changes.publish(.all)
        return true
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
