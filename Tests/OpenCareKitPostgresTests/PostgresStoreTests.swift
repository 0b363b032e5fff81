import Foundation
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
