import HummingbirdBcrypt
import NIOPosix

/// Passwords, hashed with bcrypt on NIO's thread pool (never on an event loop: a hash takes a quarter of a second
/// at cost 12).
public enum Passwords {
    /// The fewest characters a new password may have.
    public static let minimumLength = 10
    /// bcrypt reads at most 72 bytes; a longer password is refused rather than silently cut.
    public static let maximumBytes = 72

    /// Why `password` cannot be used, or nil if it can.
    public static func problem(with password: String) -> String? {
        problemMessage(with: password)?.text(.english)
    }

    /// `problem(with:)` in every language.
    static func problemMessage(with password: String) -> PageMessage? {
        if password.count < minimumLength { return PageMessage(ErrorText.passwordTooShort, String(minimumLength)) }
        if password.utf8.count > maximumBytes { return PageMessage(ErrorText.passwordTooLong, String(maximumBytes)) }
        return nil
    }

    /// The bcrypt hash of `password`.
    public static func hash(_ password: String, cost: UInt8) async throws -> String {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` matches `hash`.
    public static func verify(_ password: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}
