/// What every pooled connection's session is held to, set when it connects, whatever the database's or role's
/// defaults: a transaction that waits, runs or idles too long is ended by PostgreSQL (and rolled back), and the
/// request is answered 503 with Retry-After, so no stuck holder (a paused app server in the middle of a
/// transaction, a runaway statement) keeps a lock or a connection from everyone else. Migrations lift the limits for
/// their own transaction.
public struct PostgresSessionLimits: Sendable {
    /// The longest a statement waits for a lock (a row, or the directory's advisory lock).
    public var lockWait: Duration = .seconds(10)
    /// The longest one statement runs.
    public var statement: Duration = .seconds(60)
    /// The longest a transaction stays open between statements; then PostgreSQL closes the connection.
    public var idleInTransaction: Duration = .seconds(60)

    /// Limits for the pool's sessions; each is sent to PostgreSQL in whole milliseconds (at least 1).
    ///
    /// For example:
    /// ```swift
    /// let limits = PostgresSessionLimits(lockWait: .seconds(3), statement: .seconds(30))
    /// let records = try PostgresCareRecords(url: databaseURL, limits: limits)
    /// ```
    ///
    /// - Parameters:
    ///   - lockWait: The longest a statement waits for a lock (PostgreSQL's `lock_timeout`): 10 seconds by default.
    ///   - statement: The longest one statement runs (`statement_timeout`): 60 seconds by default.
    ///   - idleInTransaction: The longest a transaction stays open between statements
    ///     (`idle_in_transaction_session_timeout`): 60 seconds by default.
    public init(lockWait: Duration = .seconds(10), statement: Duration = .seconds(60), idleInTransaction: Duration = .seconds(60)) {
        self.lockWait = lockWait
        self.statement = statement
        self.idleInTransaction = idleInTransaction
    }

    /// The settings sent when a connection starts. Unqualified names find the directory's tables (a transaction of
    /// a record sets its own), and transactions are read committed, as the store's writes expect.
    var startupParameters: [(String, String)] {
        func milliseconds(_ duration: Duration) -> String {
            String(max(1, duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000))
        }
        return [("search_path", PostgresSchema.schema), ("default_transaction_isolation", "read committed"),
                ("lock_timeout", milliseconds(lockWait)), ("statement_timeout", milliseconds(statement)),
                ("idle_in_transaction_session_timeout", milliseconds(idleInTransaction))]
    }
}
