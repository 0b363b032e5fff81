import Foundation
import OpenCareKitStore
import PostgresNIO
import Synchronization

/// The pool's connections with a bound on the wait for one: while the database is down, PostgresNIO's pool queues
/// requests until its circuit breaker trips (a minute), which a person at a page must not wait for.
struct PostgresConnections: Sendable {
    let client: PostgresClient
    /// The longest wait for a connection; then the call fails as unavailable, having done nothing.
    let wait: Duration
    let health: PostgresHealth

    /// Runs `body` on a connection of the pool, or throws `SQLFailure(.unavailable)` when none comes within `wait`.
    /// Once `body` has begun it runs to its end: the bound never cuts a transaction in two, so a write reported as
    /// failed for want of a connection was not made.
    func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let race = LeaseRace()
        // Once a wait has run out, later calls wait only briefly until a connection comes again: a request that
        // needs the database several times is answered in about one wait, not several.
        let wait = health.isDown ? min(self.wait, PostgresHealth.waitWhileDown) : self.wait
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await client.withConnection { connection -> T? in
                    // Too late: the wait ran out first, and its error is the answer.
                    guard race.claim(.leased) else { return nil }
                    health.isDown = false
                    return try await body(connection)
                }
            }
            group.addTask {
                try? await Task.sleep(for: wait)
                // A caller that went away is not a database that did.
                if Task.isCancelled { return nil }
                if race.claim(.timedOut) {
                    health.isDown = true
                    throw SQLFailure(.unavailable, "PostgreSQL gave no connection in time (it is down, restarting or overloaded)")
                }
                return nil
            }
            while let result = try await group.next() {
                if let result {
                    group.cancelAll()
                    return result
                }
            }
            throw CancellationError()
        }
    }
}

/// Whether the last wait for a connection ran out, with none given since.
final class PostgresHealth: Sendable {
    /// How long a call waits for a connection while the database seems down.
    static let waitWhileDown = Duration.milliseconds(250)

    private let down = Mutex(false)

    var isDown: Bool {
        get { down.withLock { $0 } }
        set { down.withLock { $0 = newValue } }
    }
}

/// Which came first: the connection, or the end of the wait for it.
private final class LeaseRace: Sendable {
    enum Winner { case leased, timedOut }

    private let winner = Mutex<Winner?>(nil)

    /// Whether `side` won (the first to claim does; later claims lose).
    func claim(_ side: Winner) -> Bool {
        winner.withLock { winner in
            guard winner == nil else { return winner == side }
            winner = side
            return true
        }
    }
}
