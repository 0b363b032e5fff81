import Foundation
@testable import OpenCareKitPostgres
import OpenCareKitPostgresTesting
import OpenCareKitStore
import Synchronization
import Testing

/// PostgreSQL transactions hold a connection, not a thread, while they wait: as many are under way at once as the
/// pool has connections, however few threads the process has (two cooperative threads on a 2-core machine; the
/// blocking pool there was once of 32 threads).
@Suite struct PostgresTransactionsTests {
    /// Counts the transaction bodies under way and holds each until `expected` have come (or `release` is called).
    actor ArrivalGate {
        let expected: Int
        private(set) var mostAtOnce = 0
        private(set) var releasedEarly = false
        private var underWay = 0
        private var isOpen = false
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        init(expected: Int) { self.expected = expected }

        func arrive() async {
            underWay += 1
            mostAtOnce = max(mostAtOnce, underWay)
            watchers.removeAll { watcher in
                guard underWay >= watcher.count else { return false }
                watcher.continuation.resume()
                return true
            }
            if !isOpen, underWay >= expected { open() }
            if !isOpen { await withCheckedContinuation { waiting.append($0) } }
            underWay -= 1
        }

        /// Returns once `count` bodies are under way at once, or the gate is open.
        func waitUntilUnderWay(_ count: Int) async {
            guard underWay < count, !isOpen else { return }
            await withCheckedContinuation { watchers.append((count, $0)) }
        }

        /// Lets every body go on, noting that `expected` never came.
        func release() {
            guard !isOpen else { return }
            releasedEarly = true
            open()
        }

        private func open() {
            isOpen = true
            for continuation in waiting { continuation.resume() }
            for watcher in watchers { watcher.continuation.resume() }
            waiting = []
            watchers = []
        }
    }

    @Test func asManyTransactionsAreUnderWayAsThePoolHasConnections() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        // More than the 32 threads of the blocking pool there once was, twenty times this machine's cores.
        let connections = 40
        let records = try PostgresCareRecords(url: url, maximumConnections: connections, connectionWait: PostgresCareRecords.testConnectionWait)
        let runner = Task { try await records.run() }
        defer { runner.cancel() }
        try await records.migrate()
        // One connection is the listener's (while it holds it, `connections - 1` are left for transactions).
        let gate = ArrivalGate(expected: connections - 1)
        // Only if fewer ever come at once: a bound of its own (threads) would otherwise hold every body for ever.
        let deadline = Task {
            try await Task.sleep(for: .seconds(20))
            await gate.release()
        }
        defer { deadline.cancel() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for started in 0..<(connections + 10) {
                // One at a time until the pool is full: PostgresNIO's pool opens at most 20 connections at once, and
                // a burst of more requests than that may be served by fewer connections than it could open.
                if started < connections - 1 { await gate.waitUntilUnderWay(started) }
                group.addTask {
                    let answers = try await records.transactions.run(.directoryRead) { db in
                        let first = try await db.scalar("SELECT 1").int
                        await gate.arrive()
                        return [first, try await db.scalar("SELECT 2").int]
                    }
                    #expect(answers == [1, 2])
                }
            }
            try await group.waitForAll()
        }
        #expect(await !gate.releasedEarly)
        let most = await gate.mostAtOnce
        #expect(most >= connections - 1 && most <= connections, "\(most) transactions under way at once")
    }

    /// CareKit's synchronous calls (`reset()`, `delete()`) run their transaction on the calling thread, which waits
    /// for PostgreSQL's answers: no other thread is needed (a caller may hold the last thread of the cooperative pool).
    @Test func aSynchronousWriteRunsItsTransactionOnTheCallingThread() async throws {
        let database = try await PostgresTestDatabase.shared()
        let record = "sync-\(UUID().uuidString)"
        let store = database.records.store(forRecord: record)
        try await store.addTask(OCKTask(id: "walk", title: "Walk", carePlanUUID: nil,
                                        schedule: .dailyAtTime(hour: 8, minutes: 0, start: Date(timeIntervalSince1970: 1_790_000_000), end: nil, text: nil)))
        #expect(try await store.fetchTasks(query: OCKTaskQuery()).count == 1)
        let engine = PostgresStoreEngine(record: record, records: database.records)
        // On a thread of the test's own, outside the cooperative pool, as a synchronous caller would be.
        let (caller, ranOn): (pthread_t, pthread_t?) = try await withCheckedThrowingContinuation { continuation in
            Thread {
                let caller = pthread_self()
                let ranOn = Mutex<pthread_t?>(nil)
                do {
                    try engine.writeSynchronously { db in
                        ranOn.withLock { $0 = pthread_self() }
                        try await db.execute("DELETE FROM tasks")
                        ranOn.withLock { if $0 != pthread_self() { $0 = nil } }
                    }
                    continuation.resume(returning: (caller, ranOn.withLock { $0 }))
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
        #expect(ranOn.map { pthread_equal($0, caller) != 0 } == true)
        #expect(try await store.fetchTasks(query: OCKTaskQuery()).isEmpty)
    }

    /// A rule that calls the store it guards, instead of reading through its context, would wait for the record's
    /// lock its own transaction holds: the call is refused, and the write with it.
    struct ReadsItsOwnStore: OCKStoreRule {
        let store: OCKStore
        func check(_ write: OCKStoreWrite, in context: OCKStoreRuleContext) async throws {
            _ = try await store.fetchTasks(query: OCKTaskQuery())
        }
    }

    @Test(.timeLimit(.minutes(1))) func aRuleThatCallsItsOwnStoreIsRefusedNotLeftWaiting() async throws {
        let database = try await PostgresTestDatabase.shared()
        let store = database.records.store(forRecord: "reentry-\(UUID().uuidString)")
        store.addRule(ReadsItsOwnStore(store: store))
        let task = OCKTask(id: "walk", title: "Walk", carePlanUUID: nil,
                           schedule: .dailyAtTime(hour: 8, minutes: 0, start: Date(timeIntervalSince1970: 1_790_000_000), end: nil, text: nil))
        await #expect(throws: OCKStoreError.self) { try await store.addTask(task) }
        #expect(try await store.fetchTasks(query: OCKTaskQuery()).isEmpty)
    }
}
