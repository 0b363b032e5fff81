import Foundation
import OpenCareKitDirectory
import OpenCareKitPostgresTesting
@testable import OpenCareKitPostgres
import OpenCareKitStore
import PostgresNIO
import Synchronization
import Testing

/// What PostgreSQL's failures and several servers' races do to the records: no acknowledged write is lost, the app
/// recovers without a restart, and the store's rules hold across servers.
@Suite(.serialized, .timeLimit(.minutes(3))) struct PostgresFaultTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    static func task(_ id: String) -> OCKTask {
        OCKTask(id: id, title: id, carePlanUUID: nil, schedule: .dailyAtTime(hour: 8, minutes: 0, start: start, end: nil, text: nil))
    }

    /// What the writers saw, shared with the test.
    final class Acknowledgements: Sendable {
        struct State {
            var acknowledged: [Int] = []
            var failures = 0
            var successesAfterRestart = 0
            var restarted = false
            var stopped = false
        }

        let state = Mutex(State())
        /// Yields after each outcome a writer tried, so that the test waits for what it needs without sleeping.
        let (tries, tried) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))

        func note(_ occurrence: Int, succeeded: Bool) {
            state.withLock { state in
                if succeeded {
                    state.acknowledged.append(occurrence)
                    if state.restarted { state.successesAfterRestart += 1 }
                } else {
                    state.failures += 1
                }
            }
            tried.yield()
        }

        /// Waits until `condition` holds of what the writers saw.
        func wait(until condition: (State) -> Bool) async {
            for await _ in tries where state.withLock({ condition($0) }) { return }
        }
    }

    @Test func killingPostgreSQLWhileWritersAcknowledgeLosesNoAcknowledgedOutcomeAndTheAppRecovers() async throws {
        let cluster = try PostgresTestCluster.OwnCluster.start()
        defer { cluster.stop() }
        // The app: one pool, as a server has, which lives through the crash.
        let records = try PostgresCareRecords.forTests(url: cluster.url)
        let runner = Task { try await records.run() }
        defer { runner.cancel() }
        try await records.migrate()
        let store = records.store(forRecord: "crash")
        let task = try await store.addTask(Self.task("ibuprofen"))
        let seen = Acknowledgements()
        // Four writers, each through its own occurrences; an outcome is acknowledged when addOutcome returns.
        let writers = (0..<4).map { writer in
            Task {
                var occurrence = writer
                while !seen.state.withLock({ $0.stopped }) {
                    let outcome = OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: occurrence, values: [OCKOutcomeValue(occurrence)])
                    do {
                        _ = try await store.addOutcome(outcome)
                        seen.note(occurrence, succeeded: true)
                    } catch is StorageUnavailableError {
                        // Not acknowledged; it may or may not have committed. The next try takes another occurrence.
                        seen.note(occurrence, succeeded: false)
                    } catch {
                        Issue.record("a writer saw \(error)")
                        seen.note(occurrence, succeeded: false)
                    }
                    occurrence += 4
                }
            }
        }
        await seen.wait { $0.acknowledged.count >= 200 }
        try cluster.kill()
        await seen.wait { $0.failures >= 4 }
        try cluster.restart()
        seen.state.withLock { $0.restarted = true }
        // The same pool, never restarted, writes again.
        await seen.wait { $0.successesAfterRestart >= 40 }
        seen.state.withLock { $0.stopped = true }
        for writer in writers { await writer.value }

        let acknowledged = seen.state.withLock { $0.acknowledged }
        let stored = try await store.fetchOutcomes(query: OCKOutcomeQuery()).map(\.taskOccurrenceIndex)
        #expect(Set(acknowledged).isSubset(of: Set(stored)), "lost: \(Set(acknowledged).subtracting(stored).sorted())")
        #expect(stored.count == Set(stored).count, "one outcome per occurrence")
        print("PostgreSQL kill -9: \(acknowledged.count) acknowledged outcomes, all kept; \(seen.state.withLock { $0.failures }) tries refused while it was down")
    }

    @Test func aTransactionLeftHangingHoldsNoOneUpForLong() async throws {
        let database = try await PostgresTestDatabase()
        let limits = PostgresSessionLimits(lockWait: .milliseconds(300), statement: .milliseconds(500), idleInTransaction: .seconds(1))
        let server = try PostgresCareRecords.forTests(url: database.url, limits: limits)
        let runner = Task { try await server.run() }
        defer { runner.cancel() }
        let logger = server.logger
        // Every pooled connection is held to the limits, whatever the database's defaults.
        let settings = try await server.client.withConnection { connection in
            var settings: [String] = []
            for try await value in try await connection.query("""
                SELECT unnest(ARRAY[current_setting('lock_timeout'), current_setting('statement_timeout'),
                    current_setting('idle_in_transaction_session_timeout'), current_setting('default_transaction_isolation'),
                    current_setting('search_path')])
                """, logger: logger).decode(String.self) {
                settings.append(value)
            }
            return settings
        }
        #expect(settings == ["300ms", "500ms", "1s", "read committed", "opencarekit"])

        // An app server that stopped in the middle of a transaction holding the directory's lock (paused, or its
        // machine gone while the connection stays up).
        var configuration = try PostgresAddress(url: database.url).testConnectionConfiguration()
        configuration.options.additionalStartupParameters = limits.startupParameters
        let stuck = try await PostgresConnection.connect(configuration: configuration, id: 9, logger: logger)
        _ = try await stuck.query("BEGIN", logger: logger).collect()
        _ = try await stuck.query("SELECT pg_advisory_xact_lock(\(PostgresTransactions.directoryLock))", logger: logger).collect()
        // A directory write waiting for it is refused as unavailable (503, try again), not left hanging.
        let directory = server.directory()
        let ana = CareAccount(email: "ana@example.org", name: "Ana", passwordHash: "-", createdDate: Self.start)
        await #expect(throws: StorageUnavailableError.self) { try await directory.addAccount(ana) }
        // PostgreSQL ends the idle transaction, and writes go on: each try waits at most the lock wait.
        var refused = 1
        while true {
            do {
                try await directory.addAccount(ana)
                break
            } catch is StorageUnavailableError where refused < 40 {
                refused += 1
            }
        }
        #expect(try await directory.account(email: "ana@example.org") != nil)
        // PostgreSQL closed the stuck transaction's connection (a statement sent on it now would never be answered:
        // PostgresNIO does not fail it, which is why the store watches its connections close).
        try await stuck.closeFuture.get()

        // A statement running past its limit is ended, and reported as unavailable.
        let runaway = await Result {
            try await server.client.withConnection { connection in
                _ = try await connection.query("SELECT pg_sleep(5)", logger: logger).collect()
            }
        }
        guard case let .failure(error) = runaway else { Issue.record("the statement ran past its limit"); return }
        #expect((PostgresFailures.failure(error) as? SQLFailure)?.kind == .unavailable, "\(error)")
        print("A transaction left holding the directory lock: \(refused) writes refused as unavailable before PostgreSQL ended it")
    }

    @Test func twoServersWritingOneRecordAtOnceKeepTheStoresRules() async throws {
        let database = try await PostgresTestDatabase()
        let other = try PostgresCareRecords.forTests(url: database.url)
        let runner = Task { try await other.run() }
        defer { runner.cancel() }
        let stores = [database.records.store(forRecord: "race"), other.store(forRecord: "race")]
        let task = try await stores[0].addTask(Self.task("walk"))

        // One outcome per occurrence: 16 tries at once through two servers, one wins, the others are refused as
        // duplicates (never a serialization failure or a second outcome).
        let results = await withTaskGroup(of: Result<OCKOutcome, any Error>.self) { group in
            for attempt in 0..<16 {
                group.addTask {
                    await Result { try await stores[attempt % 2].addOutcome(OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: 3, values: [OCKOutcomeValue(attempt)])) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count { (try? $0.get()) != nil } == 1)
        for case let .failure(error) in results {
            #expect(error is OCKStoreError, "\(error)")
        }
        #expect(try await stores[1].fetchOutcomes(query: OCKOutcomeQuery()).count == 1)

        // The data-loss guard, across servers: an outcome on day 9 through one server and, at the same moment through
        // the other, a new version of the task from day 5 (which would hide it). Whichever commits first, the other is
        // refused: never both.
        for round in 0..<6 {
            let med = try await stores[round % 2].addTask(Self.task("med-\(round)"))
            var change = med
            change.effectiveDate = Self.start.addingTimeInterval(5 * 86_400)
            async let outcome = Result { try await stores[round % 2].addOutcome(OCKOutcome(taskUUID: med.uuid, taskOccurrenceIndex: 9, values: [OCKOutcomeValue(true)])) }
            async let update = Result { try await stores[(round + 1) % 2].updateTask(change) }
            let (added, updated) = await (outcome, update)
            let kept = [(try? added.get()) != nil, (try? updated.get()) != nil]
            #expect(kept.count { $0 } == 1, "round \(round): outcome \(added), update \(updated)")
        }
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
