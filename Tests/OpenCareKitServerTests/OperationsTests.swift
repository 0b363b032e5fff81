import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import Logging
import OpenCareKit
@testable import OpenCareKitServer
@testable import OpenCareKitStore
import Synchronization
import Testing

/// What an operator sees: a log line per request that names the route's pattern and a record's pseudonym, never a
/// path, id or secret; metrics on `/metrics` for the operator only; slow store calls in the log; JSON-lines logs.
@Suite struct OperationsTests {
    static let operatorToken = "operator-token-0123456789"

    /// A host of the fixture's record logging to `log`, with the operator's token.
    func host(_ hosted: TestHost, log: LogLines) async throws -> CareHost {
        let directory = try await hosted.preparedDirectory()
        var settings = CareHost.Configuration(passwordCost: 4, now: { hosted.fixture.now })
        settings.logger = log.logger
        settings.operatorToken = Self.operatorToken
        settings.slowStoreCall = .zero
        let store = hosted.fixture.store, configuration = hosted.configuration
        return CareHost(directory: directory, configuration: settings, openStore: { _ in store }, recordConfiguration: { _ in configuration })
    }

    /// The value of the sample `name{labels…}` in a Prometheus exposition, if there is one.
    static func sample(_ exposition: String, _ name: String, _ labels: [String: String] = [:]) -> Double? {
        for line in exposition.split(separator: "\n") where line.hasPrefix(name + "{") || line.hasPrefix(name + " ") {
            let head = line.prefix { $0 != " " }
            let found = labels.allSatisfy { head.contains("\($0.key)=\"\($0.value)\"") }
            if found, let value = line.split(separator: " ").last.flatMap({ Double($0) }) { return value }
        }
        return nil
    }

    @Test func everyRequestIsLoggedByRoutePatternWithTheRecordsPseudonymAndNeverItsPathOrSecrets() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let hosted = fixture.hosted()
        let log = LogLines()
        let host = try await host(hosted, log: log)
        let (base, session) = (hosted.base, hosted.session)
        try await Application(router: host.router(), logger: log.logger).test(.router) { raw in
            let client = RecordClient(client: raw, base: base, session: session)
            let page: HTTPFields = [.accept: "text/html"]
            #expect(try await client.executeRequest(uri: "/care?date=2026-11-16", method: .get, headers: page, body: nil).status == .ok)
            _ = try await raw.executeRequest(uri: "/invitations/secret-invitation-code", method: .get, headers: page, body: nil)
            #expect(try await raw.executeRequest(uri: "/no/such/page?q=private", method: .get, headers: page, body: nil).status == .notFound)
        }
        let requests = log.lines("request")
        #expect(requests.count == 3)
        let key = try #require(host.logKey.cached)
        let care = try #require(requests.first { $0["route"] == "/records/{record}/care" })
        #expect(care["method"] == "GET" && care["status"] == "200" && care["hb.request.id"] != nil && care["duration_ms"] != nil)
        #expect(care["record"] == RecordLogID.pseudonym(of: hosted.record.description, key: key))
        #expect(requests.contains { $0["route"] == "/invitations/{secret}" })
        #expect(requests.contains { $0["route"] == "NotFound" && $0["status"] == "404" }, "\(requests)")
        // Nothing of the path, the query, the invitation's secret or the record's id, in any line.
        let everything = log.lines.withLock { $0 }.flatMap { [$0.message] + $0.metadata.values }
        for secret in [hosted.record.description, "secret-invitation-code", "2026-11-16", "private", "Ibuprofen", "Patient"] {
            #expect(!everything.contains { $0.contains(secret) }, "\(secret)")
        }
        // The record's store reported its calls (the threshold here is zero: every call is "slow"), by name only, with
        // the record's pseudonym.
        let slow = log.lines("slow store call")
        #expect(slow.contains { $0["call"] == "fetchOutcomes(query:)" && $0["kind"] == "read" && $0["record"] == care["record"] },
                "\(slow.prefix(5))")
    }

    @Test func metricsAnswerTheOperatorOnlyAndCountRequestsStoreCallsAndSignInFailures() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        let hosted = fixture.hosted()
        let host = try await host(hosted, log: LogLines())
        let (base, session) = (hosted.base, hosted.session)
        try await Application(router: host.router()).test(.router) { raw in
            let client = RecordClient(client: raw, base: base, session: session)
            #expect(try await client.executeRequest(uri: "/care", method: .get, headers: [.accept: "text/html"], body: nil).status == .ok)
            // Not the operator: the in-process client has no address (like a remote one), a person's session, a wrong token.
            for headers: HTTPFields in [[:], [.cookie: "\(CareHost.sessionCookie)=\(session)"], [.authorization: "Bearer wrong-token-0123456789"]] {
                let refused = try await raw.executeRequest(uri: "/metrics", method: .get, headers: headers, body: nil)
                #expect(refused.status == .notFound && !String(buffer: refused.body).contains("opencarekit_"))
            }
            let response = try await raw.executeRequest(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(Self.operatorToken)"], body: nil)
            #expect(response.status == .ok && response.headers[.contentType] == ServerMetrics.contentType)
            let text = String(buffer: response.body)
            #expect(Self.sample(text, "opencarekit_http_requests_total", ["route": "/records/{record}/care", "method": "GET", "status": "200"]) == 1)
            #expect(Self.sample(text, "opencarekit_http_requests_total", ["route": "/metrics", "status": "404"]) == 3)
            #expect(Self.sample(text, "opencarekit_http_request_duration_seconds_count", ["route": "/records/{record}/care"]) == 1)
            #expect((Self.sample(text, "opencarekit_store_call_duration_seconds_count", ["kind": "read"]) ?? 0) >= 1)
            #expect(Self.sample(text, "opencarekit_live_streams") == 0)
            #expect(!text.contains(hosted.record.description))
        }

        // Sign-in failures are counted (a wrong password, and an unknown email).
        let accounts = try await AccountRoutesTests().setup()
        try await Application(router: accounts.host.router()).test(.router) { client in
            let browser = TestBrowser(client)
            try await browser.signIn("ana@example.org", "wrong password!")
            try await browser.signIn("nobody@example.org", "wrong password!")
        }
        #expect(Self.sample(String(decoding: accounts.host.metrics.exposition(), as: UTF8.self), "opencarekit_sign_in_failures_total") == 2)
    }

    @Test func metricsAnswerALoopbackClientButNotOneBehindAProxy() async throws {
        let fixture = ServerFixture()
        let host = try await host(fixture.hosted(), log: LogLines())
        try await Application(router: host.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0))).test(.live) { client in
            let direct = try await client.executeRequest(uri: "/metrics", method: .get, headers: [:], body: nil)
            #expect(direct.status == .ok && String(buffer: direct.body).contains("opencarekit_live_streams"))
            for proxy in ["X-Forwarded-For", "Forwarded", "X-Real-IP"] {
                let forwarded = try await client.executeRequest(uri: "/metrics", method: .get, headers: [HTTPField.Name(proxy)!: "203.0.113.9"], body: nil)
                #expect(forwarded.status == .notFound, "\(proxy)")
            }
        }
    }

    @Test func liveStreamsAreCountedWhileOpenAndCappedPerAddressAndPerPerson() {
        let metrics = ServerMetrics()
        let slots = LiveStreamSlots(limit: 2, personLimit: 3, gauge: metrics.liveStreams)
        func open() -> Double? { Self.sample(String(decoding: metrics.exposition(), as: UTF8.self), "opencarekit_live_streams") }
        func ana(_ address: String) -> LiveStreamSlots.Owner { .init(address: address, person: "ana") }
        var first = slots.take(for: ana("10.0.0.1"))
        let second = slots.take(for: ana("10.0.0.1"))
        // Her address is full; her laptop elsewhere is not, until she has three in all.
        #expect(open() == 2 && slots.take(for: ana("10.0.0.1")) == nil)
        let laptop = slots.take(for: ana("10.0.0.2"))
        #expect(laptop != nil && slots.take(for: ana("10.0.0.3")) == nil && open() == 3)
        // Another person, and a page nobody signed in to, at another address: theirs are counted apart.
        let ben = slots.take(for: .init(address: "10.0.0.3", person: "ben"))
        let anonymous = slots.take(for: .init(address: "10.0.0.3", person: nil))
        #expect(ben != nil && anonymous != nil && open() == 5)
        // A closed stream frees its place for its address and its person.
        first = nil
        #expect(open() == 4 && first == nil && second != nil)
        let again = slots.take(for: ana("10.0.0.1"))
        #expect(again != nil && open() == 5)
    }

    @Test func jsonLinesAreOneObjectALineWithEveryField() throws {
        let lines = LockedLines()
        var logger = Logger(label: "opencarekit") { JSONLinesLogHandler(label: $0, sink: lines.append) }
        logger.logLevel = .debug
        logger[metadataKey: "hb.request.id"] = "abc"
        logger.info("two\nlines \"quoted\" \u{1}", metadata: ["route": "/records/{record}/care", "list": ["a", "b"]])
        logger.debug("second")
        let written = lines.all
        #expect(written.count == 2 && written.allSatisfy { $0.hasSuffix("\n") && $0.dropLast().contains("\n") == false })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(written[0].utf8)) as? [String: Any])
        #expect(object["message"] as? String == "two\nlines \"quoted\" \u{1}")
        #expect(object["level"] as? String == "info" && object["label"] as? String == "opencarekit")
        #expect(object["hb.request.id"] as? String == "abc" && object["route"] as? String == "/records/{record}/care")
        #expect(object["list"] as? [String] == ["a", "b"])
        #expect((object["time"] as? String).flatMap { try? Date($0, strategy: .iso8601) } != nil)
    }
}

/// Lines a log handler wrote.
final class LockedLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    @Sendable func append(_ line: String) { lines.withLock { $0.append(line) } }
}
