import Crypto
import Foundation
import OpenCareKitCommandTesting
@testable import OpenCareKitServer
import Testing

/// Web Push encryption (RFC 8291) and VAPID (RFC 8292): RFC 8291's own example, and messages that Python's
/// `http-ece` decrypts with the browser's key and whose VAPID token `py-vapid` verifies.
@Suite struct WebPushTests {
    /// RFC 8291, Appendix A: the keys, salt and secret of the example, and the body it gives.
    @Test func theRFCsExampleEncryptsToTheRFCsBody() throws {
        let serverKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: try #require(Base64URL.decode("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")))
        let subscription = try WebPush.Subscription(
            endpoint: "https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV",
            p256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4", auth: "BTBZMqHH6r4Tts7J_aSIgg")
        let body = try WebPush.encrypt(Data("When I grow up, I want to be a watermelon".utf8), for: subscription,
                                       salt: Base64URL.decode("DGv6ra1nlYgDCS1FRnbzlw"), serverKey: serverKey)
        #expect(Base64URL.encode(body) == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")
    }

    @Test func messagesDecryptWithTheBrowsersKeyAndTheVAPIDTokenVerifies() throws {
        let vapid = WebPush.VAPID(key: P256.Signing.PrivateKey(), subject: "mailto:care@example.org")
        let now = Date(timeIntervalSince1970: 1_795_035_200)
        var messages: [[String: Any]] = []
        let texts = ["", "Time for Ibuprofen (8:00)", "이부프로펜 드실 시간입니다 — 아침 8시", String(repeating: "x", count: WebPush.maximumPlaintext)]
        for (index, text) in texts.enumerated() {
            let browser = P256.KeyAgreement.PrivateKey()
            let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
            let endpoint = index % 2 == 0 ? "https://fcm.googleapis.com/fcm/send/abc\(index)" : "https://push.example.net:8443/p/\(index)"
            let subscription = try WebPush.Subscription(endpoint: endpoint, p256dh: Base64URL.encode(browser.publicKey.x963Representation),
                                                        auth: Base64URL.encode(auth))
            let body = try WebPush.encrypt(Data(text.utf8), for: subscription)
            #expect(body.count <= 4_096)
            messages.append(["body": body.base64EncodedString(), "browser_key": Base64URL.encode(browser.rawRepresentation),
                             "auth": Base64URL.encode(auth), "authorization": try vapid.authorization(for: subscription.endpoint, now: now),
                             "endpoint": endpoint, "now": now.timeIntervalSince1970])
        }
        let results = try #require(try PythonReference.run("webpush_check.py", ["messages": messages])["results"] as? [[String: Any]])
        #expect(results.count == texts.count)
        for (result, text) in zip(results, texts) {
            #expect((result["errors"] as? [String]) == [], "\(result["errors"] ?? "")")
            #expect(result["plaintext"] as? String == text)
        }
        // Every message has a salt and a server key of its own (the body's header: salt, record size, key length, key).
        let browser = P256.KeyAgreement.PrivateKey()
        let subscription = try WebPush.Subscription(endpoint: "https://fcm.googleapis.com/fcm/send/same",
                                                    p256dh: Base64URL.encode(browser.publicKey.x963Representation),
                                                    auth: Base64URL.encode(Data(repeating: 3, count: 16)))
        let bodies = try (0..<50).map { _ in try WebPush.encrypt(Data("same".utf8), for: subscription) }
        #expect(Set(bodies.map { $0.prefix(16) }).count == 50 && Set(bodies.map { $0.dropFirst(21).prefix(65) }).count == 50)
        #expect(bodies.allSatisfy { $0[20] == 65 && $0[21] == 4 })
        // Another key's message does not decrypt: the check can fail.
        var forged = messages[1]
        forged["browser_key"] = Base64URL.encode(P256.KeyAgreement.PrivateKey().rawRepresentation)
        let refused = try #require(try PythonReference.run("webpush_check.py", ["messages": [forged]])["results"] as? [[String: Any]])
        #expect((refused.first?["errors"] as? [String])?.contains { $0.hasPrefix("decrypt") } == true)
    }

    @Test func badSubscriptionsAndOversizedMessagesAreRefusedWithAReason() throws {
        let key = Base64URL.encode(P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
        let auth = Base64URL.encode(Data(repeating: 7, count: 16))
        func reason(_ endpoint: String, _ p256dh: String, _ secret: String) -> String? {
            do {
                _ = try WebPush.Subscription(endpoint: endpoint, p256dh: p256dh, auth: secret)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(reason("http://push.example.net/x", key, auth)?.contains("https") == true)
        #expect(reason("https://push.example.net/" + String(repeating: "a", count: 2_100), key, auth)?.contains("2,048") == true)
        #expect(reason("https://push.example.net/x", "not a key!", auth)?.contains("p256dh") == true)
        #expect(reason("https://push.example.net/x", Base64URL.encode(Data(repeating: 4, count: 65)), auth)?.contains("p256dh") == true)
        #expect(reason("https://push.example.net/x", key, Base64URL.encode(Data(count: 15)))?.contains("auth") == true)
        #expect(reason("https://push.example.net/x", key, auth) == nil)
        let subscription = try WebPush.Subscription(endpoint: "https://push.example.net/x", p256dh: key, auth: auth)
        #expect(throws: WebPushError.self) { try WebPush.encrypt(Data(count: WebPush.maximumPlaintext + 1), for: subscription) }
    }
}
