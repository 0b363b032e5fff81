import Foundation
import OpenCareKitPostgres
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
