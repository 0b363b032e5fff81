import Foundation
import OpenCareKitPostgresTesting
@testable import OpenCareKitPostgres
import OpenCareKitStore
import Synchronization
import Testing

/// Commits made through one server reach the live queries of another server's store of the same record, through
/// LISTEN/NOTIFY; other records' followers are not woken.
@Suite(.timeLimit(.minutes(1))) struct PostgresLiveTests {
    func task(_ id: String) -> OCKTask {
        OCKTask(id: id, title: id, carePlanUUID: nil,
                schedule: .dailyAtTime(hour: 8, minutes: 0, start: Date(timeIntervalSince1970: 1_790_000_000), end: nil, text: nil))
    }

    @Test func aCommitThroughOneServerReachesAnotherServersLiveQuery() async throws {
        let database = try await PostgresTestDatabase()
        // A second server on the same database.
        let other = try PostgresCareRecords.forTests(url: database.url)
        let runner = Task { try await other.run() }
        defer { runner.cancel() }
        let writer = database.records.store(forRecord: "ana")
        let reader = other.store(forRecord: "ana")
        let follower = Task { await reader.watchExternalChanges() }
        defer { follower.cancel() }
        var results = reader.tasks(matching: OCKTaskQuery()).makeAsyncIterator()
        #expect(try await results.next()?.isEmpty == true)
        try await writer.addTask(task("ibuprofen"))
        // The reader's live query yields again with the task: no polling, the notification (or, had the listening
        // connection not been up yet, its coming up) makes it fetch.
        var seen: [String] = []
        while !seen.contains("ibuprofen"), let next = try await results.next() { seen = next.map(\.id) }
        #expect(seen == ["ibuprofen"])
        let written = ContinuousClock.now
        try await writer.addTask(task("walk"))
        while !seen.contains("walk"), let next = try await results.next() { seen = next.map(\.id) }
        print("PostgreSQL live delivery to another server: \(ContinuousClock.now - written)")
        #expect(Set(seen) == ["ibuprofen", "walk"])
    }

    /// `catchUp()` (every record request calls it before answering from a cache) announces every commit another
    /// server made since the store last looked, from the first look on, and nothing when there is none.
    @Test func catchingUpAnnouncesAnotherServersCommitsFromTheFirstLook() async throws {
        let database = try await PostgresTestDatabase()
        let writer = database.records.store(forRecord: "catch-up")
        let reader = database.records.store(forRecord: "catch-up")
        try await writer.addTask(task("ibuprofen"))
        // Requests that began before the first look may have cached what they read: the first look announces.
        var count = reader.changeCount
        try await reader.catchUp()
        #expect(reader.changeCount > count)
        count = reader.changeCount
        try await reader.catchUp()
        #expect(reader.changeCount == count)
        // Many requests at once after another server's commit: every one of them returns after an announcement.
        try await writer.addTask(task("walk"))
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await reader.catchUp()
                    return reader.changeCount
                }
            }
            for try await seen in group { #expect(seen > count) }
        }
        count = reader.changeCount
        try await reader.catchUp()
        #expect(reader.changeCount == count)
    }

    @Test func aNotificationWakesOnlyItsRecordsFollowersAndNotItsWriter() {
        let followers = RecordFollowers()
        let calls = Mutex<[String: Int]>([:])
        let writer = UUID(), reader = UUID(), elsewhere = UUID()
        func follow(_ record: String, _ engine: UUID, as name: String) -> UUID {
            followers.add(record: record, engine: engine) { calls.withLock { $0[name, default: 0] += 1 } }
        }
        _ = follow("ana", writer, as: "writer")
        let readerKey = follow("ana", reader, as: "reader")
        _ = follow("ben", elsewhere, as: "ben")
        followers.announce(payload: "\(writer.uuidString) ana")
        #expect(calls.withLock { $0 } == ["reader": 1])
        followers.announce(payload: "\(UUID().uuidString) ana")
        #expect(calls.withLock { $0 } == ["reader": 2, "writer": 1])
        followers.announce(payload: "not a notification")
        followers.remove(record: "ana", key: readerKey)
        followers.announce(payload: "\(elsewhere.uuidString) ana")
        #expect(calls.withLock { $0 } == ["reader": 2, "writer": 2])
        // A lost and regained listening connection wakes everyone.
        followers.announceToAll()
        #expect(calls.withLock { $0 } == ["reader": 2, "writer": 3, "ben": 1])
    }
}
