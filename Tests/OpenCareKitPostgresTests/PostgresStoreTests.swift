import Foundation
import Logging
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

/// The audit chain on PostgreSQL: each app server chains its entries after the head it last appended, and the database
/// checks them before appending (or chains them itself when another server appended meanwhile).
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
        // Two app servers' directories on one database, each with its own idea of the head.
        let one = database.records.directory()
        let two = try PostgresCareRecords.forTests(url: database.url)
        let runner = Task { try await two.run() }
        defer { runner.cancel() }
        let other = two.directory()
        try await one.appendAudit(Self.drafts(3, from: "one"))       // no head known yet: chained by the database
        try await one.appendAudit(Self.drafts(4, from: "one"))       // chained by the server, checked by the database
        try await other.appendAudit(Self.drafts(2, from: "two"))     // the head moved for `other`: chained by the database
        try await one.appendAudit(Self.drafts(5, from: "one"))       // and for `one`
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

    @Test func entriesThatDoNotContinueTheChainAreRefusedAndNothingIsWritten() async throws {
        let database = try await PostgresTestDatabase()
        let directory = database.records.directory()
        try await directory.appendAudit(Self.drafts(2, from: "one"))
        let head = try #require(try await directory.auditEntries(after: 0, limit: 10).last)
        let connection = try await PostgresConnection.connect(
            configuration: try PostgresAddress(url: database.url).testConnectionConfiguration(), id: 9, logger: Logger(label: "test"))
        defer { Task { try? await connection.close() } }
        let draft = Self.drafts(1, from: "forger")[0]
        let good = AuditEntry.chained(draft, sequence: head.sequence + 1, after: head.hash)
        func append(_ sequence: Int64, previous: String, hash: String) async throws {
            let json = """
                [{"sequence": \(sequence), "previous_hash": "\(previous)", "hash": "\(hash)", "recorded": \
                \(Int64((draft.recorded.timeIntervalSince1970 * 1000).rounded())), "account": "\(draft.account!)", \
                "record": "\(draft.record!)", "resource": "\(draft.resource)", "action": "\(draft.action.rawValue)", \
                "outcome": "\(draft.outcome.rawValue)", "address": "\(draft.address)", "detail": "\(draft.detail)"}]
                """
            _ = try await connection.query("SELECT opencarekit.append_audit_chained(\(json)::jsonb, \(head.sequence), \(head.hash))",
                                           logger: Logger(label: "test")).collect()
        }
        // A wrong hash, a wrong link, a skipped number: each refused (check_violation), nothing appended.
        for (sequence, previous, hash) in [(good.sequence, good.previousHash, String(repeating: "a", count: 64)),
                                           (good.sequence, String(repeating: "0", count: 64), good.hash),
                                           (good.sequence + 1, good.previousHash, good.hash)] {
            await #expect {
                try await append(sequence, previous: previous, hash: hash)
            } throws: { error in
                (error as? PSQLError)?.serverInfo?[.sqlState] == "23514"
            }
        }
        #expect(try await directory.auditEntries(after: 0, limit: 10).count == 2)
        // The entry as the server would chain it goes in.
        try await append(good.sequence, previous: good.previousHash, hash: good.hash)
        #expect(try await directory.verifyAuditLog().isIntact)
        #expect(try await directory.auditEntries(after: 0, limit: 10).count == 3)
    }
}
