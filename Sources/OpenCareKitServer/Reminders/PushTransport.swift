import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// Where Web Push requests go: the push services over HTTPS, or a test's stand-in.
public protocol PushTransport: Sendable {
    /// Posts one message to a push service; its answer's status code.
    func post(_ body: Data, to endpoint: URL, headers: [(String, String)]) async throws -> Int
    /// Closes its connections (the service stops).
    func shutdown() async throws
}

extension PushTransport {
    public func shutdown() async throws {}
}

/// Push requests over HTTP (AsyncHTTPClient): no redirects followed, each request given `timeout`, and at most 4 KiB
/// of an answer read. Its client is made on the first request and shut down with the service (or, unused since,
/// when the transport goes).
public final class HTTPPushTransport: PushTransport {
    private let state = Mutex<(client: HTTPClient?, isShutDown: Bool)>((nil, false))
    private let timeout: TimeAmount

    /// A transport giving each push request `timeout` (10 seconds by default). Its HTTP client is made on the first
    /// request; after `shutdown()`, every request fails.
    ///
    /// - Parameter timeout: How long a push service may take to answer a request, and to send each part of its
    ///   answer; connecting is limited to 5 seconds besides.
    public init(timeout: TimeAmount = .seconds(10)) {
        self.timeout = timeout
    }

    private var client: HTTPClient {
        get throws(WebPushError) {
            try state.withLock { (state) throws(WebPushError) -> HTTPClient in
                guard !state.isShutDown else { throw WebPushError("The reminder service has stopped.") }
                if let client = state.client { return client }
                var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
                configuration.timeout = .init(connect: .seconds(5), read: timeout)
                let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
                state.client = client
                return client
            }
        }
    }

    public func post(_ body: Data, to endpoint: URL, headers: [(String, String)]) async throws -> Int {
        var request = HTTPClientRequest(url: endpoint.absoluteString)
        request.method = .POST
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await client.execute(request, timeout: timeout)
        _ = try? await response.body.collect(upTo: 4_096)
        return Int(response.status.code)
    }

    public func shutdown() async throws {
        let client = state.withLock { state in
            defer { (state.client, state.isShutDown) = (nil, true) }
            return state.client
        }
        try await client?.shutdown()
    }

    deinit {
        // Not shut down by its service (a test's transport): closed without blocking the thread that lets it go.
        state.withLock { $0.client }?.shutdown { _ in }
    }
}
