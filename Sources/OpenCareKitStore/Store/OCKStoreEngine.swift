import Foundation

/// Where an `OCKStore` keeps its data: SQLite (a file per store, or memory) here, PostgreSQL in OpenCareKitPostgres.
///
/// The store's semantics (versions, tombstones, the data-loss guards, events) are written once, as SQL run through
/// `SQLDatabase`; an engine supplies transactions, its schema, and how it learns of other processes' commits.
package protocol OCKStoreEngine: SQLTransactionRunner {
    /// The store's file, for engines that keep one.
    var fileURL: URL? { get }

    /// Opens the engine now (creating or migrating its schema), so problems surface here.
    func open() throws

    /// Runs `body` in one write transaction from synchronous code (CareKit's `reset()` is synchronous).
    func writeSynchronously(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Void) throws

    /// Removes the store's data and files; the store starts empty when used again.
    func delete() throws

    /// The engine's own integrity check: `["ok"]` when sound, else the problems found.
    func checkIntegrity() throws -> [String]

    /// Whether another process committed to the store since the last call, calling `announce` first when so, before
    /// the engine records what it has now seen: a check running at the same time that finds nothing new then finds
    /// the announcement made. On SQLite the first call only records where the file is; on PostgreSQL it announces
    /// (a request may have cached a page from before the count it reads).
    func checkForExternalChanges(announce: @Sendable () -> Void) async throws -> Bool

    /// Whether several app servers share the store's data (PostgreSQL), so that a page this server cached may be
    /// older than a commit another server acknowledged before the request came (`OCKStore.catchUp()`).
    var isSharedByServers: Bool { get }

    /// Calls `announce` after each commit by another process until the calling task is cancelled. `interval` is how
    /// often an engine that must look (SQLite) looks; an engine that is told does not poll.
    func followExternalChanges(every interval: Duration, announce: @escaping @Sendable () -> Void) async
}
