import Crypto
import Foundation
import OpenCareKitDirectory
#if canImport(Glibc)
import Glibc
#endif

/// Seals the secrets the directory keeps — two-step keys, the Web Push signing key, the log's pseudonym key — with a
/// key that is not in the database (AES-256-GCM), so that a copy of the database or a backup does not carry them.
/// `serve` reads the key from `$OPENCAREKIT_SECRETS_KEY` (base64) or its key file (`--secrets-key-file`, by default
/// `secrets.key` in the data directory, made on first run, readable by its owner only). Every app server of one
/// database needs the same key; a backup restores only with it.
///
/// A sealed value reads `ock-sealed:v1:` and the base64 of nonce, ciphertext and tag. A value without the prefix is
/// one stored before sealing: it opens as it is, and `serve` seals it at start (`CareDirectory.resealSecrets`).
public struct SecretBox: Sendable {
    private let key: SymmetricKey

    /// A box that seals and opens with `key`. `serve` uses a 256-bit key (`init(base64:)` and
    /// `loadOrCreate(file:)` accept no other); a key of a size AES does not take makes `seal(_:)` throw.
    ///
    /// For example:
    /// ```swift
    /// let box = SecretBox(key: SymmetricKey(size: .bits256))
    /// let sealed = try box.seal("a secret")  // "ock-sealed:v1:…"
    /// let secret = try box.open(sealed)      // "a secret"
    /// ```
    ///
    /// - Parameter key: The AES-GCM key. Keep it outside the database; every app server of one database needs the
    ///   same key, and a backup's secrets open only with it.
    public init(key: SymmetricKey) {
        self.key = key
    }

    /// The prefix of sealed values.
    public static let prefix = "ock-sealed:v1:"

    /// Why a value cannot be opened: sealed under another key, or damaged.
    public struct OpenError: Error, CustomStringConvertible {
        public var description: String { "A sealed secret cannot be opened: the secrets key is not the one it was sealed with, or it is damaged." }
    }

    /// Whether `stored` is sealed.
    public static func isSealed(_ stored: String) -> Bool { stored.hasPrefix(prefix) }

    /// `secret`, sealed.
    public func seal(_ secret: String) throws -> String {
        let box = try AES.GCM.seal(Data(secret.utf8), using: key)
        guard let combined = box.combined else { throw OpenError() }
        return Self.prefix + combined.base64EncodedString()
    }

    /// The secret `stored` holds: opened if sealed, as it is if stored before sealing.
    public func open(_ stored: String) throws -> String {
        guard Self.isSealed(stored) else { return stored }
        guard let data = Data(base64Encoded: String(stored.dropFirst(Self.prefix.count))),
              let box = try? AES.GCM.SealedBox(combined: data), let plain = try? AES.GCM.open(box, using: key),
              let text = String(data: plain, encoding: .utf8) else { throw OpenError() }
        return text
    }

    /// The secret `stored` holds, opened with `box`; a sealed value without a box to open it is refused (never used
    /// sealed, as if it were the secret).
    public static func open(_ stored: String, with box: SecretBox?) throws -> String {
        if let box { return try box.open(stored) }
        guard !isSealed(stored) else { throw OpenError() }
        return stored
    }

    /// The key of `base64` (32 bytes), or nil.
    public init?(base64 text: String) {
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == 32 else { return nil }
        key = SymmetricKey(data: data)
    }

    /// The key in `file` (its base64), made there — readable by its owner only — if the file does not exist. Servers
    /// starting together agree: the file is made whole under a temporary name and linked into place only if no other
    /// was (`link` fails on an existing name), and whoever loses reads the winner's.
    public static func loadOrCreate(file: URL) throws -> SecretBox {
        if let text = try? String(contentsOf: file, encoding: .utf8) {
            guard let box = SecretBox(base64: text) else { throw KeyFileError(path: file.path) }
            return box
        }
        let folder = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        let text = Data(key.base64EncodedString().utf8)
        let temporary = folder.appending(path: ".secrets-\(UUID().uuidString)")
        defer { unlink(temporary.path) }
        // Made private from its first byte (open with mode 0600), whole before anyone can see it under its name.
        guard write(text, to: temporary.path) else { throw KeyFileError(path: file.path, reason: String(cString: strerror(errno))) }
        if link(temporary.path, file.path) == 0 { return SecretBox(key: SymmetricKey(data: key)) }
        switch errno {
        case EEXIST:
            // Another server made it first: its key is everyone's.
            guard let existing = try? String(contentsOf: file, encoding: .utf8), let box = SecretBox(base64: existing) else {
                throw KeyFileError(path: file.path)
            }
            return box
        case EPERM, ENOTSUP, EOPNOTSUPP, EXDEV:
            // A file system without hard links: made in place, exclusively (a server starting at the same instant
            // may read it half written, and fails; started again, it reads the whole key).
            guard write(text, to: file.path) else { throw KeyFileError(path: file.path, reason: String(cString: strerror(errno))) }
            return SecretBox(key: SymmetricKey(data: key))
        default:
            throw KeyFileError(path: file.path, reason: String(cString: strerror(errno)))
        }
    }

    /// Writes `data` to a new file at `path`, readable by its owner only; false if the file exists or cannot be made.
    private static func write(_ data: Data, to path: String) -> Bool {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        return written == data.count && fsync(descriptor) == 0
    }

    /// The key file cannot be read or written, or does not hold a key.
    public struct KeyFileError: Error, CustomStringConvertible {
        /// The key file's path, as it was given (`--secrets-key-file`, or `secrets.key` in the data directory).
        public let path: String
        /// Why it cannot be made there, if that is the trouble.
        public var reason: String?

        /// An error about the key file at `path`.
        ///
        /// - Parameters:
        ///   - path: The key file's path.
        ///   - reason: Why the file cannot be made there (the system's error message); nil when the file is there
        ///     but cannot be read or does not hold 32 bytes in base64.
        public init(path: String, reason: String? = nil) {
            self.path = path
            self.reason = reason
        }

        public var description: String {
            reason.map { "a secrets key file cannot be made at \(path): \($0)" }
                ?? "\(path) is not a secrets key file (32 bytes in base64)"
        }
    }
}
