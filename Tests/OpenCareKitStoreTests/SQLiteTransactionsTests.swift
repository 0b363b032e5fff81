import Foundation
@testable import OpenCareKitStore
import Testing

/// SQLite's transactions run their asynchronous body on the connection's own thread (GRDB's rule), and the body may
/// await other work in the middle — an actor, another task — without losing its transaction.
@Suite struct SQLiteTransactionsTests {
    struct Refused: Error {}

    actor Counter {
        var value = 0
        func next() -> Int {
            value += 1
            return value
        }
    }

    @Test(arguments: [false, true]) func aBodyThatAwaitsOtherWorkKeepsItsTransaction(onDisk: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-transactions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let engine = SQLiteEngine(fileURL: onDisk ? directory.appendingPathComponent("store.sqlite") : nil)
        try engine.open()
        let counter = Counter()
        let written = try await engine.write { db in
            try await db.execute("INSERT INTO sync_knowledge (id, vector) VALUES (?, ?)", [1, Data([1])])
            // Off to an actor and another task, and back to the connection's thread.
            let step = await counter.next()
            let detached = await Task.detached { await counter.next() }.value
            try await db.execute("INSERT INTO sync_knowledge (id, vector) VALUES (?, ?)", [step + detached, Data([2])])
            return try await db.scalar("SELECT count(*) FROM sync_knowledge").int
        }
        #expect(written == 2)
        #expect(try await engine.read { db in try await db.scalar("SELECT sum(id) FROM sync_knowledge").int } == 4)
        // A body that fails after awaiting rolls back what it wrote before.
        await #expect(throws: Refused.self) {
            try await engine.write { db in
                try await db.execute("DELETE FROM sync_knowledge")
                _ = await counter.next()
                throw Refused()
            }
        }
        #expect(try await engine.read { db in try await db.scalar("SELECT count(*) FROM sync_knowledge").int } == 2)
    }

    @Test func manyTransactionsAtOnceEachGetTheirOwnAnswer() async throws {
        let engine = SQLiteEngine(fileURL: nil)
        try engine.open()
        let counter = Counter()
        let sums = try await withThrowingTaskGroup(of: Int?.self) { group in
            for number in 1...200 {
                group.addTask {
                    try await engine.read { db in
                        let first = try await db.scalar("SELECT ?", [number]).int ?? 0
                        // Suspended between two statements, while other transactions wait for the connection.
                        _ = await counter.next()
                        return try await db.scalar("SELECT ? + 1", [first]).int
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ?? 0) }
        }
        #expect(sums == (1...200).reduce(0, +) + 200)
        #expect(await counter.value == 200)
    }

    /// A rule that calls the store it guards, instead of reading through its context, would wait for ever for the
    /// transaction it runs in: the call is refused, the write with it, and the store goes on.
    struct ReadsItsOwnStore: OCKStoreRule {
        let store: OCKStore
        func check(_ write: OCKStoreWrite, in context: OCKStoreRuleContext) async throws {
            _ = try await store.fetchTasks(query: OCKTaskQuery())
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: [false, true]) func aRuleThatCallsItsOwnStoreIsRefusedNotLeftWaiting(onDisk: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-reentry-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = onDisk ? OCKStore(name: "reentry", type: .onDisk(), directory: directory) : OCKStore(name: "reentry-\(UUID())", type: .inMemory)
        store.addRule(ReadsItsOwnStore(store: store))
        let task = OCKTask(id: "walk", title: "Walk", carePlanUUID: nil,
                           schedule: .dailyAtTime(hour: 8, minutes: 0, start: Date(timeIntervalSince1970: 1_790_000_000), end: nil, text: nil))
        await #expect(throws: OCKStoreError.self) { try await store.addTask(task) }
        #expect(try await store.fetchTasks(query: OCKTaskQuery()).isEmpty)
        // Reading the same store from another task, outside the transaction, is of course allowed.
        #expect(try await Task.detached { try await store.fetchTasks(query: OCKTaskQuery()).count }.value == 0)
    }
}
