import Foundation
import OpenCareKitStore
import OpenCareKitStoreConformance
import Testing

/// The store backends the conformance suite runs against.
enum StoreBackend: String, CaseIterable, Sendable {
    case inMemory, onDisk

    func makeStore() -> OCKStore {
        switch self {
        case .inMemory:
            return OCKStore(name: "conformance", type: .inMemory)
        case .onDisk:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ock-\(UUID().uuidString)")
            return OCKStore(name: "conformance", type: .onDisk(), directory: directory)
        }
    }
}

@Suite struct StoreConformanceTests {
    @Test(arguments: StoreBackend.allCases, StoreConformance.checks)
    func storeBehavesLikeCareKit(backend: StoreBackend, check: StoreCheck) async throws {
        let store = backend.makeStore()
        defer { try? store.delete() }
        try await check.run(on: store)
    }
}
