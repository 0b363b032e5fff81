import Crypto
import Foundation

/// Web Push without a third-party library: a message encrypted for one browser's subscription (RFC 8291, the
/// `aes128gcm` content coding of RFC 8188) and the server's VAPID identification (RFC 8292), with swift-crypto.
package enum WebPush {
    /// A browser's push subscription, as `PushSubscription.toJSON()` gives it:
    /// `{"endpoint": "https://…", "keys": {"p256dh": "<base64url>", "auth": "<base64url>"}}`.
    package struct Subscription: Hashable, Sendable {
        /// Where messages are posted (the push service's URL for this browser).
        let endpoint: URL
        /// The browser's P-256 public key, uncompressed (65 bytes).
        let publicKey: Data
        /// The browser's authentication secret (16 bytes).
        let authSecret: Data

        /// The longest endpoint URL accepted.
        static let maximumEndpointLength = 2_048

        /// The subscription, or a message naming what is wrong: an https endpoint with a host (or, where allowed,
        /// plain http to a loopback address), a valid P-256 point and a 16-byte secret.
        package init(endpoint: String, p256dh: String, auth: String, allowingLoopbackHTTP: Bool = false) throws(WebPushError) {
            guard endpoint.utf8.count <= Self.maximumEndpointLength, let url = URL(string: endpoint), let host = url.host, !host.isEmpty,
                  url.scheme == "https" || (allowingLoopbackHTTP && url.scheme == "http" && ["127.0.0.1", "localhost", "::1"].contains(host)) else {
                throw WebPushError("The subscription's endpoint must be an https URL of at most 2,048 characters.")
            }
            guard let key = Base64URL.decode(p256dh), key.count == 65, (try? P256.KeyAgreement.PublicKey(x963Representation: key)) != nil else {
                throw WebPushError("The subscription's p256dh key is not a P-256 public key.")
            }
            guard let secret = Base64URL.decode(auth), secret.count == 16 else {
                throw WebPushError("The subscription's auth secret is not 16 bytes.")
            }
            (self.endpoint, publicKey, authSecret) = (url, key, secret)
        }
    }

    /// The most plaintext one message carries: push services accept 4,096 bytes of body, of which the header takes 86
    /// and the record's tag and delimiter 17.
    static let maximumPlaintext = 3_993

    /// `plaintext` encrypted for `subscription` as one `aes128gcm` record: the body of the push request (sent with
    /// `Content-Encoding: aes128gcm`). `salt` and `serverKey` are fresh for every message unless a test fixes them.
    /// A push `Topic` for `key` (at most 32 URL-safe characters, RFC 8030): a newer message of the same topic replaces
    /// one the push service still holds.
    static func topic(_ key: String) -> String {
        String(Base64URL.encode(Data(SHA256.hash(data: Data(key.utf8)))).prefix(32))
    }

    package static func encrypt(_ plaintext: Data, for subscription: Subscription, salt: Data? = nil,
                                serverKey: P256.KeyAgreement.PrivateKey? = nil) throws(WebPushError) -> Data {
        guard plaintext.count <= maximumPlaintext else { throw WebPushError("A push message holds at most \(maximumPlaintext) bytes.") }
        let salt = salt ?? SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }
        let serverKey = serverKey ?? ephemeralKey()
        guard salt.count == 16, let browserKey = try? P256.KeyAgreement.PublicKey(x963Representation: subscription.publicKey),
              let shared = try? serverKey.sharedSecretFromKeyAgreement(with: browserKey) else {
            throw WebPushError("The subscription's key cannot be used.")
        }
        let serverPublic = serverKey.publicKey.x963Representation
        // RFC 8291 §3.4: the input keying material from the shared secret and the browser's auth secret.
        let keyInfo = Data("WebPush: info".utf8) + [0] + subscription.publicKey + serverPublic
        let keyPRK = HKDF<SHA256>.extract(inputKeyMaterial: SymmetricKey(data: shared.withUnsafeBytes { Data($0) }),
                                          salt: subscription.authSecret)
        let ikm = HKDF<SHA256>.expand(pseudoRandomKey: keyPRK, info: keyInfo, outputByteCount: 32)
        // RFC 8188 §2.2-2.3: the content-encryption key and nonce from the salt.
        let prk = HKDF<SHA256>.extract(inputKeyMaterial: ikm, salt: salt)
        let key = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Data("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.expand(pseudoRandomKey: prk, info: Data("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        // One record, the last: the plaintext and the delimiter 0x02.
        guard let sealed = try? AES.GCM.seal(plaintext + [2], using: key,
                                             nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) })) else {
            throw WebPushError("The message could not be encrypted.")
        }
        var recordSize = UInt32(4_096).bigEndian
        let header = salt + Data(bytes: &recordSize, count: 4) + [UInt8(serverPublic.count)] + serverPublic
        return header + sealed.ciphertext + sealed.tag
    }

    /// A fresh key pair for one message: a uniformly random scalar from the cryptographic generator, drawn again in
    /// the rare case (about 2⁻³²) that it is not below the curve's order. A tenth of the cost of
    /// `P256.KeyAgreement.PrivateKey()` in swift-crypto on Linux (10 against 78 µs, `BENCH_CRYPTO=1 scripts/bench-reminder-burst`),
    /// which runs FIPS's pairwise check (an ECDSA signature and its verification) on each key it draws and draws until
    /// one is compact-representable; a minute of 100,000 reminders makes one key a message.
    static func ephemeralKey() -> P256.KeyAgreement.PrivateKey {
        while true {
            if let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }) {
                return key
            }
        }
    }

    /// The server's VAPID identity (RFC 8292): a P-256 signing key and a contact (`mailto:` or `https:`).
    struct VAPID: Sendable {
        let key: P256.Signing.PrivateKey
        let subject: String
        /// How long a signature is valid (RFC 8292 allows at most 24 hours).
        static let lifetime: TimeInterval = 12 * 3_600

        /// The public key, as browsers take it (`applicationServerKey`): base64url of the uncompressed point.
        var publicKey: String { Base64URL.encode(key.publicKey.x963Representation) }

        /// The `Authorization` header for a message to `endpoint`: `vapid t=<JWT>, k=<public key>`, the JWT's
        /// audience the endpoint's origin, expiring `lifetime` after `now`.
        func authorization(for endpoint: URL, now: Date) throws(WebPushError) -> String {
            guard let scheme = endpoint.scheme, let host = endpoint.host else { throw WebPushError("The endpoint has no origin.") }
            let audience = scheme + "://" + host + (endpoint.port.map { ":\($0)" } ?? "")
            let header = Base64URL.encode(Data(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
            let claims: [String: Any] = ["aud": audience, "exp": Int(now.addingTimeInterval(Self.lifetime).timeIntervalSince1970),
                                         "sub": subject]
            guard let body = try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes]) else {
                throw WebPushError("The VAPID claims could not be written.")
            }
            let input = header + "." + Base64URL.encode(body)
            guard let signature = try? key.signature(for: Data(input.utf8)) else { throw WebPushError("The VAPID token could not be signed.") }
            return "vapid t=\(input).\(Base64URL.encode(signature.rawRepresentation)), k=\(publicKey)"
        }
    }
}

/// A push subscription or message that cannot be used, with a message that names why (no personal data).
package struct WebPushError: Error, CustomStringConvertible, Sendable {
    package let description: String
    init(_ description: String) { self.description = description }
}

/// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5), as Web Push and JWTs write it.
package enum Base64URL {
    package static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes, or nil for text that is not base64url (padding accepted).
    package static func decode(_ text: String) -> Data? {
        guard text.utf8.count <= 4_096, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_=".contains($0)) }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            .replacingOccurrences(of: "=", with: "")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
