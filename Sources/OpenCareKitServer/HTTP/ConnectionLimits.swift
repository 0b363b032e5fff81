import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import Synchronization

/// How long a connection may wait and how many may be open, so that slow or idle clients cannot hold the server.
///
/// - `headerTimeout`: from connecting to a request's complete head (a client that sends half its headers, or
///   nothing, is closed; with a partial request it first gets 408 Request Timeout);
/// - `bodyTimeout`: from a request's head to the end of its body (408, then closed);
/// - `idleTimeout`: from the end of a response to the next request's head on a kept-alive connection (closed);
/// - `maximumConnections`: open connections; one more is answered 503 Service Unavailable with `Retry-After` and
///   closed at once, and past `maximumConnections + refusalReserve` the server stops accepting until one closes (the
///   kernel's backlog waits), so a flood cannot use up the process's file descriptors.
///
/// A response in progress (a page being rendered, a live stream) has no time limit here: live streams end when the
/// client goes, and `LiveStreamSlots` bounds them per client.
public struct ConnectionLimits: Sendable, Hashable {
    /// How long a new connection may take to send its first request's complete head (10 seconds by default). Past
    /// it the client is answered 408 Request Timeout and the connection closed. Later requests on a kept-alive
    /// connection have `idleTimeout` instead.
    public var headerTimeout: Duration
    /// How long a request's body may take, from the end of its head to its end (30 seconds by default). Past it the
    /// client is answered 408 Request Timeout, unless its response has already begun, and the connection closed.
    public var bodyTimeout: Duration
    /// How long a kept-alive connection may wait, from the end of the last response (with no request being read) to
    /// the next request's complete head (60 seconds by default); past it the connection is closed without an answer.
    public var idleTimeout: Duration
    /// The most connections served at once (1,000 by default). Up to `refusalReserve` more are accepted only to be
    /// answered 503 Service Unavailable with `Retry-After: 5` and closed; beyond those the server stops accepting
    /// (`acceptLimit`). `fitted(toFileDescriptors:)` lowers it to what the process's file limit allows.
    public var maximumConnections: Int

    /// Limits with these timeouts and connection count; the defaults are `serve`'s. Values are taken as given.
    ///
    /// For example:
    /// ```swift
    /// let limits = ConnectionLimits(bodyTimeout: .seconds(60), maximumConnections: 500)
    /// let app = Application(router: host.router(), server: limits.httpServer(),
    ///                       configuration: .init(address: .hostname("127.0.0.1", port: 8080),
    ///                                            availableConnectionsDelegate: limits.acceptLimit))
    /// ```
    ///
    /// - Parameters:
    ///   - headerTimeout: How long a new connection may take to send its first request's head.
    ///   - bodyTimeout: How long a request's body may take to arrive.
    ///   - idleTimeout: How long a kept-alive connection may wait for its next request.
    ///   - maximumConnections: The most connections served at once.
    public init(headerTimeout: Duration = .seconds(10), bodyTimeout: Duration = .seconds(30),
                idleTimeout: Duration = .seconds(60), maximumConnections: Int = 1_000) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.maximumConnections = maximumConnections
    }

    /// Connections over the limit that are still accepted, to be refused with a 503 rather than left waiting: a
    /// tenth of the limit, and at least ten.
    public var refusalReserve: Int { Self.reserve(for: maximumConnections) }

    private static func reserve(for connections: Int) -> Int { max(10, connections / 10) }

    /// File descriptors the server needs beside its connections: the listening socket, the stores' files, logs.
    public static let otherFileDescriptors = 128

    /// These limits, with fewer connections if the process may open only `fileDescriptors` files, so that a flood of
    /// connections is refused before the stores can no longer open their files; nil if that leaves no connection.
    public func fitted(toFileDescriptors fileDescriptors: Int) -> ConnectionLimits? {
        let available = fileDescriptors - Self.otherFileDescriptors
        var fitted = self
        // The most connections that, with their reserve, fit (a loop once at start-up, not a hot path).
        while fitted.maximumConnections > 0, fitted.maximumConnections + fitted.refusalReserve > available {
            fitted.maximumConnections = min(fitted.maximumConnections - 1, available)
        }
        return fitted.maximumConnections > 0 ? fitted : nil
    }

    /// The HTTP/1.1 server with these limits, for `Application(router:server:configuration:)`.
    public func httpServer() -> HTTPServerBuilder {
        let counter = ConnectionCounter(limit: maximumConnections)
        let limits = self
        return .http1(configuration: .init(additionalChannelHandlers: [ConnectionGuard(limits: limits, counter: counter)]))
    }

    /// What stops accepting connections past `maximumConnections + refusalReserve`.
    public var acceptLimit: some AvailableConnectionsDelegate {
        MaximumAvailableConnections(maximumConnections + refusalReserve)
    }
}

/// The open connections a server counts against its limit.
final class ConnectionCounter: Sendable {
    let limit: Int
    private let open = Mutex(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a new connection, or returns false when the limit is reached.
    func tryOpen() -> Bool {
        open.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func close() {
        open.withLock { $0 -= 1 }
    }
}

/// Enforces `ConnectionLimits` on one connection: its timers and its place under the limit.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limits: ConnectionLimits
    private let counter: ConnectionCounter
    private var started = false
    private var counted = false
    /// A request's head has arrived and its end has not.
    private var readingRequest = false
    /// Requests whose response has not ended (more than one when a client pipelines).
    private var unanswered = 0
    /// A response head has been written since the last request head: a timeout then closes without a 408.
    private var answeredLatest = false
    /// The connection is being closed by this guard: later writes are dropped.
    private var closing = false
    private var timer: Scheduled<Void>?

    init(limits: ConnectionLimits, counter: ConnectionCounter) {
        self.limits = limits
        self.counter = counter
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // The request line is checked before Hummingbird's conversion to HTTP types drops its authority.
        let pipeline = context.pipeline.syncOperations
        if let codec = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self) {
            try? pipeline.addHandler(RequestTargetHandler(), position: .before(codec))
        }
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        if counter.tryOpen() {
            counted = true
            arm(context, after: limits.headerTimeout, answer: .requestTimeout)
        } else {
            // After the channel's setup has finished: a channel closed while being set up is not closed at all.
            context.eventLoop.assumeIsolated().execute { [self] in
                refuse(context, status: .serviceUnavailable,
                       message: "The server has too many open connections. Try again in a few seconds.")
            }
        }
    }

    private func finish() {
        timer?.cancel()
        timer = nil
        if counted {
            counted = false
            counter.close()
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        switch unwrapInboundIn(data) {
        case .head:
            readingRequest = true
            unanswered += 1
            answeredLatest = false
            arm(context, after: limits.bodyTimeout, answer: .requestTimeout)
        case .body:
            break
        case .end:
            readingRequest = false
            disarm()
            // Answered before its body ended (a refusal, a redirect): the connection is idle from now.
            armIdleIfIdle(context)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !closing else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head:
            answeredLatest = true
        case .body:
            break
        case .end:
            unanswered = max(0, unanswered - 1)
            armIdleIfIdle(context)
        }
        context.write(data, promise: promise)
    }

    /// Kept alive with nothing to read or answer: the next request must begin within the idle time. (A request
    /// being read keeps its body timer; one being answered has no limit here.)
    private func armIdleIfIdle(_ context: ChannelHandlerContext) {
        if !readingRequest, unanswered == 0 { arm(context, after: limits.idleTimeout, answer: nil) }
    }

    /// Starts the one timer: when it fires, the connection gets `answer` (if no response has begun) and is closed.
    private func arm(_ context: ChannelHandlerContext, after delay: Duration, answer: HTTPResponse.Status?) {
        disarm()
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(nanoseconds)) { [self] in
            timer = nil
            if let answer, !answeredLatest {
                refuse(context, status: answer, message: "The request took too long to arrive.")
            } else {
                closing = true
                context.close(promise: nil)
            }
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }

    /// Answers `status` with a JSON error and closes the connection.
    private func refuse(_ context: ChannelHandlerContext, status: HTTPResponse.Status, message: String) {
        let body = ClientError(status: status, message: message).json
        var head = HTTPResponse(status: status)
        head.headerFields[.contentType] = "application/json"
        head.headerFields[.contentLength] = String(body.readableBytes)
        head.headerFields[.connection] = "close"
        head.headerFields[.cacheControl] = "no-store"
        if status == .serviceUnavailable { head.headerFields[.retryAfter] = "5" }
        closing = true
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        // Closing with the client's unread request still buffered would reset the connection, and the client could
        // lose the answer: end the output first, drop what arrives, and close for good a second later.
        let channel = context.channel
        context.eventLoop.assumeIsolated().execute {
            channel.close(mode: .output, promise: nil)
            channel.eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
        }
    }
}
