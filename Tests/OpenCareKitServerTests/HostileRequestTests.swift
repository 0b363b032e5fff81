import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import NIOCore
import NIOHTTP1
import OpenCareKit
@testable import OpenCareKitServer
import OpenCareKitStore
import Testing

/// Findings 6 and 7 of the hostile probe, in process (the socket-level ones are in Tests/Browser/test_hostile_http.py).
@Suite struct HostileRequestTests {
    func server(_ fixture: ServerFixture, hosts: Set<String>? = ["localhost"], publicOrigin: String? = nil) -> TestHost {
        fixture.hosted(.init(
            timeZone: fixture.calendar.timeZone, cardStyles: OCKDemoCarePlan.cardStyles, allowedHosts: hosts,
            publicOrigin: publicOrigin, now: { [now = fixture.now] in now }))
    }

    func toggle(_ client: any TestClientProtocol, _ fixture: ServerFixture, _ extra: HTTPFields) async throws -> HTTPResponse.Status {
        let event = try await fixture.event("enoxaparin")
        var headers = ServerFixture.formHeaders
        headers.append(contentsOf: extra)
        return try await client.execute(uri: "/care/events/toggle", method: .post, headers: headers,
                                        body: ServerFixture.form(ServerFixture.fields(event, ["complete": "true"]))) { $0.status }
    }

    @Test func aCookieIsFoundByItsWholeNameOnly() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .cookie, value: "ock_csrfx=1;ock_csrf=ab; other=2"))
        fields.append(HTTPField(name: .cookie, value: "ock_session=s=1"))
        let request = Request(head: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: "/", headerFields: fields),
                              body: RequestBody(buffer: ByteBuffer()))
        #expect(request.cookieValue("ock_csrf") == "ab")
        #expect(request.cookieValue("ock_session") == "s=1")
        #expect(request.cookieValue("ock") == nil)
        #expect(request.cookieValue("missing") == nil)
    }

    @Test func theOriginMustMatchInSchemeHostAndPort() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        try await server(fixture).test { client in
            // The in-process client's authority is "localhost": its origin is http://localhost.
            for foreign in ["https://localhost", "http://localhost:8443", "http://localhost.evil.example", "ftp://localhost",
                            "http://user@evil.example"] {
                let status = try await toggle(client, fixture, [.origin: foreign])
                #expect(status == .forbidden, "\(foreign)")
            }
            #expect(try await fixture.event("enoxaparin").outcome == nil)
            let status = try await toggle(client, fixture, [.origin: "http://LOCALHOST:80"])
            #expect(status == .seeOther)
        }
    }

    @Test func offLoopbackThePublicURLIsTheOnlyHostAndOrigin() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        // As serve sets it up with --public-url https://localhost (the test client's authority).
        try await server(fixture, hosts: ["localhost"], publicOrigin: "https://localhost").test { client in
            let plain = try await toggle(client, fixture, [.origin: "http://localhost"])
            let otherPort = try await toggle(client, fixture, [.origin: "https://localhost:8443"])
            #expect(plain == .forbidden && otherPort == .forbidden) // the scheme, then the port, differ
            let same = try await toggle(client, fixture, [.origin: "https://localhost:443"])
            #expect(same == .seeOther)
        }
        try await server(fixture, hosts: ["care.example.org"], publicOrigin: "https://care.example.org").test { client in
                // Host: localhost (or evil.example, by DNS rebinding) is not the public host.
                try await client.execute(uri: "/care", method: .get) { #expect($0.status == .misdirectedRequest) }
            }
        #expect(SameOriginMiddleware<CareRequestContext>.origin(of: "HTTPS://Care.Example.org:443/") == "https://care.example.org")
        #expect(SameOriginMiddleware<CareRequestContext>.origin(of: "http://[::1]:8080") == "http://[::1]:8080")
        #expect(SameOriginMiddleware<CareRequestContext>.origin(of: "javascript:alert(1)") == nil)
        #expect(SameOriginMiddleware<CareRequestContext>.origin(of: "null") == nil)
    }

    @Test func headAnswersLikeGetWithoutABodyAndTwoHostsAreRefused() async throws {
        let fixture = ServerFixture()
        try await fixture.seed()
        try await server(fixture).test { client in
            let get = try await client.execute(uri: "/care", method: .get) { ($0.status, $0.headers[.contentType], $0.body.readableBytes) }
            try await client.execute(uri: "/care", method: .head) { response in
                #expect(response.status == get.0 && response.status == .ok)
                #expect(response.headers[.contentType] == get.1)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/healthz", method: .head) { response in
                #expect(response.status == .ok && response.headers[.contentLength] == "2" && response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/api/v1/tasks", method: .head) { #expect($0.status == .ok) }
            // A Host field beside the authority: the request had two.
            try await client.execute(uri: "/care", method: .get, headers: [.host: "evil.example"]) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test func formNumbersAreDecimalOnly() async throws {
        for text in ["0x10", "1e3", "inf", "nan", "+", "-.", ".", "1.2.3", "١٢", "12 3", "0x1p4"] {
            #expect(!FormFields.isDecimal(text), "\(text)")
        }
        for text in ["16", "-1", "+2.5", "0.5", ".5", "5.", "72.3"] {
            #expect(FormFields.isDecimal(text), "\(text)")
        }
        let fixture = ServerFixture()
        try await fixture.test { client in
            let weigh = try await fixture.event("weigh-in")
            for bad in ["0x10", "1e2"] {
                try await client.execute(uri: "/care/events/record", method: .post, headers: ServerFixture.formHeaders,
                                         body: ServerFixture.form(ServerFixture.fields(weigh, ["value": bad]))) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                }
            }
            #expect(try await fixture.event("weigh-in").outcome == nil)
        }
    }

    @Test func onlyLogCardsAcceptLogPosts() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            // Ibuprofen is a checklist: a log post appended a value to a dose before this fix.
            let dose = try await fixture.event("ibuprofen")
            try await client.execute(uri: "/care/events/log", method: .post, headers: ServerFixture.formHeaders,
                                     body: ServerFixture.form(ServerFixture.fields(dose))) { response in
                #expect(response.status == .unprocessableContent)
            }
            #expect(try await fixture.event("ibuprofen").outcome == nil)
            let nausea = try await fixture.event("nausea")
            try await client.execute(uri: "/care/events/log", method: .post, headers: ServerFixture.formHeaders,
                                     body: ServerFixture.form(ServerFixture.fields(nausea))) { response in
                #expect(response.status == .seeOther)
            }
            #expect(try await fixture.event("nausea").outcome?.values.count == 1)
        }
    }

    @Test func aClientLeavingMidBodyIsNotAServerError() {
        #expect(ErrorMiddleware<CareRequestContext>.isClientGone(HTTPParserError.invalidEOFState))
        #expect(ErrorMiddleware<CareRequestContext>.isClientGone(ChannelError.ioOnClosedChannel))
        #expect(!ErrorMiddleware<CareRequestContext>.isClientGone(CancellationError()))
    }
}

@Suite struct ConnectionLimitsTests {
    @Test func theConnectionCapFitsTheFilesTheProcessMayOpen() throws {
        let limits = ConnectionLimits(maximumConnections: 1_000)
        #expect(limits.fitted(toFileDescriptors: 20_000) == limits)
        let fitted = try #require(limits.fitted(toFileDescriptors: 1_024))
        #expect(fitted.maximumConnections + fitted.refusalReserve + ConnectionLimits.otherFileDescriptors <= 1_024)
        #expect(fitted.maximumConnections > 700 && fitted.refusalReserve >= 1)
        #expect(limits.fitted(toFileDescriptors: 100) == nil)
    }

    @Test func perClientLimitsCountAnIPv6HostByItsNetwork() throws {
        let v6 = try SocketAddress(ipAddress: "2001:db8:1:2:3:4:5:6", port: 443)
        let neighbour = try SocketAddress(ipAddress: "2001:db8:1:2:ffff::1", port: 80)
        #expect(CareRequestContext.client(v6) == "2001:db8:1:2::/64")
        #expect(CareRequestContext.client(neighbour) == CareRequestContext.client(v6))
        #expect(CareRequestContext.client(try SocketAddress(ipAddress: "2001:db8:1:3::1", port: 80)) != CareRequestContext.client(v6))
        #expect(CareRequestContext.client(try SocketAddress(ipAddress: "::ffff:192.0.2.7", port: 80)) == "192.0.2.7")
        #expect(CareRequestContext.client(try SocketAddress(ipAddress: "192.0.2.7", port: 80)) == "192.0.2.7")
        #expect(CareRequestContext.client(nil) == "unknown")
    }
}
