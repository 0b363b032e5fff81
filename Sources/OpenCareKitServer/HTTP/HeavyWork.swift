import Foundation
import Synchronization

/// Work whose cost grows with a record — a FHIR import, a report, a FHIR export or search — bounded per person and
/// for the whole server: at most `perPerson` at once for one account and `overall` together; a request beyond them is
/// answered 503 with `Retry-After` at once, so that no one (and no few) can hold the server's cores, and `/healthz`
/// and everyone's pages keep answering.
public final class HeavyWork: Sendable {
    /// The most heavy requests one account may have running.
    public static let perPerson = 1
    /// The most heavy requests the server runs at once: one core's worth on a small machine, the rest left for pages.
    public static let overall = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
    /// What a refused request is told to wait, in seconds.
    public static let retryAfter = 5

    private struct State {
        var total = 0
        var byPerson: [String: Int] = [:]
        /// Tasks waiting for the running count to reach a number (tests).
        var waiting: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    let perPerson: Int
    let overall: Int

    /// Limits of `perPerson` heavy requests at once for one account and `overall` for the whole server; a value
    /// below 1 counts as 1. Safe to share between tasks: ``CareHost`` makes one for all its records, from
    /// `CareHost.Configuration.heavyWorkPerPerson` and `heavyWorkOverall`.
    ///
    /// - Parameters:
    ///   - perPerson: The most heavy requests one account may have running (1 by default).
    ///   - overall: The most heavy requests the server runs at once (by default the number of active processors
    ///     less one, at least 1).
    public init(perPerson: Int = HeavyWork.perPerson, overall: Int = HeavyWork.overall) {
        self.perPerson = max(1, perPerson)
        self.overall = max(1, overall)
    }

    /// Refused: the person or the server runs as much heavy work as it may.
    struct Busy: Error {}

    /// Runs `body` for `person` if a slot is free; throws `Busy` at once if not.
    func run<T>(for person: String, _ body: () async throws -> T) async throws -> T {
        let ready: [CheckedContinuation<Void, Never>]? = state.withLock { state in
            guard state.total < overall, state.byPerson[person, default: 0] < perPerson else { return nil }
            state.total += 1
            state.byPerson[person, default: 0] += 1
            let ready = state.waiting.filter { state.total >= $0.count }.map(\.continuation)
            state.waiting.removeAll { state.total >= $0.count }
            return ready
        }
        guard let ready else { throw Busy() }
        for continuation in ready { continuation.resume() }
        defer {
            state.withLock { state in
                state.total -= 1
                state.byPerson[person]! -= 1
                if state.byPerson[person] == 0 { state.byPerson[person] = nil }
            }
        }
        return try await body()
    }

    /// How much heavy work runs now.
    var running: Int { state.withLock { $0.total } }

    /// Returns once at least `count` heavy requests run (for tests: no sleeping while one starts).
    func waitUntilRunning(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.total >= count { return true }
                state.waiting.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}
