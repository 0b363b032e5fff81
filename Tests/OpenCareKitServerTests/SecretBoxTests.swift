import Crypto
import Foundation
@testable import OpenCareKitServer
import Testing

/// The secrets key file: made once, readable by its owner only, the same for servers that start together.
@Suite struct SecretBoxTests {
    @Test func serversStartingTogetherMakeOneKeyFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ock-secrets-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("secrets.key")
        let sealed = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { try SecretBox.loadOrCreate(file: file).seal("the same key") } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Whoever made it, every box opens what every other sealed.
        let box = try SecretBox.loadOrCreate(file: file)
        #expect(try sealed.allSatisfy { try box.open($0) == "the same key" })
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["secrets.key"])
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) == 0o600)
        // A file that holds no key is refused, not replaced.
        try Data("not a key".utf8).write(to: file)
        #expect(throws: SecretBox.KeyFileError.self) { try SecretBox.loadOrCreate(file: file) }
    }
}
