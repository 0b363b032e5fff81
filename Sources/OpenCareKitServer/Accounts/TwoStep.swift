import Crypto
import Foundation
import HummingbirdOTP
import OpenCareKitDirectory
import OpenCareKitStore

/// Two-step sign-in with an authenticator app (TOTP, RFC 6238: 6 digits, 30 s, SHA-1, as the apps expect), and
/// single-use recovery codes for a lost phone.
enum TwoStep {
    /// A new secret: 32 random letters and digits (the key is their UTF-8 bytes, as HummingbirdOTP uses it).
    static func newSecret() -> String {
        SecureRandom.characters(from: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"), count: 32)
    }

    /// The address an authenticator app reads from the QR code.
    static func authenticatorURL(secret: String, email: String) -> String {
        TOTP(secret: secret).createAuthenticatorURL(label: "OpenCareKit:\(email)", issuer: "OpenCareKit")
    }

    /// The secret as the apps take it typed: base 32, in groups of four.
    static func typedSecret(_ url: String) -> String {
        let secret = URLComponents(string: url)?.queryItems?.first { $0.name == "secret" }?.value ?? ""
        return stride(from: 0, to: secret.count, by: 4).map { start in
            let from = secret.index(secret.startIndex, offsetBy: start)
            return String(secret[from..<(secret.index(from, offsetBy: 4, limitedBy: secret.endIndex) ?? secret.endIndex)])
        }.joined(separator: " ")
    }

    /// The app's code at `date`, as it shows it.
    static func code(secret: String, at date: Date) -> String {
        String(format: "%06d", TOTP(secret: secret).compute(date: date))
    }

    /// The time step (30-second period since 1970) whose code `code` is — now, or one step before or after, as
    /// clocks drift — or nil.
    /// A code signs in once: the directory takes each step once per account (`takeTwoStepCode`).
    static func step(of code: String, secret: String, now: Date) -> Int64? {
        let digits = code.filter { !$0.isWhitespace }
        guard digits.count == 6, let value = Int(digits) else { return nil }
        return [-30.0, 0, 30].lazy.map { now.addingTimeInterval($0) }
            .first { Int(Self.code(secret: secret, at: $0)) == value }
            .map { Int64(($0.timeIntervalSince1970 / 30).rounded(.down)) }
    }

    /// Ten new recovery codes (`xxxxx-xxxxx`), to show once.
    static func newRecoveryCodes() -> [String] {
        (0..<10).map { _ in
            let text = RandomIdentifier.random().description.dropFirst(2).prefix(10)
            return "\(text.prefix(5))-\(text.suffix(5))"
        }
    }

    static func hash(recoveryCode code: String) -> String {
        let normalized = code.lowercased().filter { $0.isLetter || $0.isNumber }
        return SHA256.hash(data: Data(normalized.utf8)).hexEncoded
    }
}
