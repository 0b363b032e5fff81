import Crypto
import Foundation
import OpenCareKitDirectory
import OpenCareKitStore
import Synchronization

/// A secret every app server of a directory shares, read once from the directory's shared values: the first server
/// to ask makes it and the others find it, so it outlives restarts and is the same behind a load balancer.
final class SharedValueCache<Value: Sendable>: Sendable {
    private let known = Mutex<Value?>(nil)
    /// Its name among the directory's shared values.
    let name: String
    private let make: @Sendable () -> String
    private let read: @Sendable (String) -> Value?
    /// Seals the text kept in the directory (nil: kept as it is).
    let secrets: SecretBox?

    /// A value kept as text: `make` gives a new one's text, `read` its value (nil: the stored text is damaged).
    init(name: String, secrets: SecretBox?, make: @escaping @Sendable () -> String, read: @escaping @Sendable (String) -> Value?) {
        self.name = name
        self.secrets = secrets
        self.make = make
        self.read = read
    }

    /// The value, if it has been read.
    var cached: Value? { known.withLock { $0 } }

    /// The value, from the directory on first use.
    func value(in directory: any CareDirectory, now: Date) async throws -> Value {
        if let value = known.withLock({ $0 }) { return value }
        let kept = try await directory.sharedValue(named: name, orKeep: try secrets?.seal(make()) ?? make(), now: now)
        guard let value = read(try SecretBox.open(kept, with: secrets)) else { throw SharedValueError(name: name) }
        known.withLock { $0 = value }
        return value
    }
}

/// The directory's shared value of this name cannot be read as what it should be.
struct SharedValueError: Error, CustomStringConvertible {
    let name: String
    var description: String { "The directory's shared value \(name) is damaged." }
}

extension SharedValueCache where Value == P256.Signing.PrivateKey {
    /// The Web Push signing key (VAPID). Browsers subscribe with its public half, so it must outlive restarts.
    static func webPushKey(secrets: SecretBox?) -> SharedValueCache {
        SharedValueCache(name: "web-push-key", secrets: secrets, make: { Base64URL.encode(P256.Signing.PrivateKey().rawRepresentation) },
                         read: { Base64URL.decode($0).flatMap { try? P256.Signing.PrivateKey(rawRepresentation: $0) } })
    }
}

extension SharedValueCache where Value == SymmetricKey {
    /// The key that turns record ids into the log's pseudonyms (`RecordLogID`).
    static func logKey(secrets: SecretBox?) -> SharedValueCache {
        SharedValueCache(name: "log-key", secrets: secrets, make: { Base64URL.encode(SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }) },
                         read: { Base64URL.decode($0).flatMap { $0.count == 32 ? SymmetricKey(data: $0) : nil } })
    }
}

/// Records' pseudonyms in logs.
enum RecordLogID {
    /// `record`'s pseudonym in logs: the first 64 bits of its HMAC-SHA-256 under the directory's log key, in hex.
    /// The same on every app server, so one record's lines can be followed, but not turned back into its id without
    /// the key.
    static func pseudonym(of record: String, key: SymmetricKey) -> String {
        HMAC<SHA256>.authenticationCode(for: Data(record.utf8), using: key).prefix(8).hexEncoded
    }
}
