import Foundation
import OpenCareKitDirectory
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

/// The directory's conformance suite on SQLite, in memory and in a file.
@Suite struct DirectoryConformanceTests {
    @Test(arguments: StoreBackend.allCases, DirectoryConformance.checks)
    func directoryBehavesTheSameOnEveryBackend(backend: StoreBackend, check: DirectoryCheck) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ock-directory-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await check.run(on: Self.subject(backend, in: folder))
    }

    static func subject(_ backend: StoreBackend, in folder: URL) throws -> DirectoryUnderTest {
        let directory: SQLCareDirectory
        switch backend {
        case .inMemory:
            directory = try SQLiteCareDirectory(path: nil)
        case .onDisk:
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            directory = try SQLiteCareDirectory(path: folder.appending(path: "directory-\(UUID().uuidString).sqlite").path)
        }
        return DirectoryUnderTest(
            directory: directory, execute: { try await directory.executeDirectly($0) },
            dropAuditGuards: ["DROP TRIGGER audit_entry_is_append_only_update", "DROP TRIGGER audit_entry_is_append_only_delete"],
            fresh: { try subject(backend, in: folder) })
    }
}
