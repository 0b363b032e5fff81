import Foundation
@testable import OpenCareKitPostgres
import OpenCareKitPostgresTesting
import OpenCareKitStore
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

    /// CareKit's synchronous calls wait for a transaction on the calling thread, whatever thread that is (here the
    /// test's task's, one of the few cooperative ones).
    @Test func aSynchronousDeleteRunsItsTransactionOnTheCallingThread() async throws {
        let database = try await PostgresTestDatabase.shared()
        let store = database.records.store(forRecord: "sync-\(UUID().uuidString)")
        try await store.addTask(OCKTask(id: "walk", title: "Walk", carePlanUUID: nil,
                                        schedule: .dailyAtTime(hour: 8, minutes: 0, start: Date(timeIntervalSince1970: 1_790_000_000), end: nil, text: nil)))
        #expect(try await store.fetchTasks(query: OCKTaskQuery()).count == 1)
        try store.delete()
        #expect(try await store.fetchTasks(query: OCKTaskQuery()).isEmpty)
    }
}
