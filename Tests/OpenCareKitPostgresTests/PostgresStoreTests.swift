import Foundation
import OpenCareKitDirectory
import OpenCareKitPostgres
import OpenCareKitPostgresTesting
import OpenCareKitStore
import OpenCareKitStoreConformance
import PostgresNIO
import Testing

/// The store conformance suite, unchanged, on PostgreSQL: each check on a record of its own in one shared database.
@Suite struct PostgresStoreConformanceTests {
    @Test(arguments: StoreConformance.checks)
    func storeBehavesLikeCareKit(check: StoreCheck) async throws {
        let database = try await PostgresTestDatabase.shared()
        let store = database.records.store(forRecord: "conformance-\(UUID().uuidString)")
        try await check.run(on: store)
    }
}

/// The directory's conformance suite, unchanged, on PostgreSQL: each check on a database of its own.
@Suite struct PostgresDirectoryConformanceTests {
    @Test(arguments: DirectoryConformance.checks)
    func directoryBehavesTheSameOnEveryBackend(check: DirectoryCheck) async throws {
        try await check.run(on: try await Self.subject())
    }

    static func subject() async throws -> DirectoryUnderTest {
        let database = try await PostgresTestDatabase()
        let directory = database.records.directory()
        return DirectoryUnderTest(
            directory: directory, execute: { _ = database; try await directory.executeDirectly($0) },
            dropAuditGuards: ["ALTER TABLE audit_entry DISABLE TRIGGER USER"], fresh: subject)
    }
}

/// The audit chain on PostgreSQL: several app servers append in turn and at once, and the database numbers and chains
/// every entry in one statement under the directory's lock, so the log stays one intact chain.
@Suite struct PostgresAuditChainTests {
    static func drafts(_ count: Int, from server: String) -> [AuditEntry.Draft] {
        (0..<count).map { index in
            AuditEntry.Draft(recorded: Date(timeIntervalSince1970: 1_795_957_200 + Double(index)), account: .random(), record: .random(),
                             resource: "care-page", action: .read, outcome: .allowed, address: "127.0.0.\(index % 250)",
                             detail: "GET /records/:record/care from \(server)")
        }
    }

    @Test func twoServersAppendingInTurnKeepOneIntactChain() async throws {
        let database = try await PostgresTestDatabase()
        // Two app servers' directories on one database.
        let one = database.records.directory()
        let two = try PostgresCareRecords.forTests(url: database.url)
        let runner = Task { try await two.run() }
        defer { runner.cancel() }
        let other = two.directory()
        try await one.appendAudit(Self.drafts(3, from: "one"))
        try await one.appendAudit(Self.drafts(4, from: "one"))
        try await other.appendAudit(Self.drafts(2, from: "two"))
        try await one.appendAudit(Self.drafts(5, from: "one"))
        try await one.appendAudit(Self.drafts(1, from: "one"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for round in 0..<20 {
                group.addTask { try await (round % 2 == 0 ? one : other).appendAudit(Self.drafts(3, from: "\(round)")) }
            }
            try await group.waitForAll()
        }
        let verification = try await one.verifyAuditLog()
        #expect(verification.isIntact, "\(verification.problem ?? "")")
        #expect(verification.entries == 3 + 4 + 2 + 5 + 1 + 60)
        let entries = try await one.auditEntries(after: 0, limit: 200)
        #expect(entries.map(\.sequence) == Array(1...75))
    }
}
