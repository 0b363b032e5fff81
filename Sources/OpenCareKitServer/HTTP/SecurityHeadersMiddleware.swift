import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import OpenCareKitStore
import OpenCareKitUI

/// Adds the security headers to every response: a Content-Security-Policy that allows scripts, styles and
/// connections only from this site and no inline script, no framing, no MIME sniffing, and no referrer sent to other
/// sites (same-origin, so that the browser still sends `Origin` with the app's own form posts).
public struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    public static var contentSecurityPolicy: String {
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
    }

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch let OCKStoreError.invalidValue(reason) {
            // A store limit a route did not handle itself (a query over too many events): the reason says which,
            // and never holds patient data.
            response = APIError(status: .unprocessableContent, field: nil, message: reason).response
        } catch let error as StorageUnavailableError {
            // The database is down or restarting: the same request may succeed shortly (a write cut off at its commit
            // may have been made; the page shows what was).
            context.logger.warning("storage unavailable", metadata: ["reason": "\(error.reason)"])
            response = Self.unavailable(request)
        } catch let error as StorageFaultError {
            // The database failed: the server's fault. The answer and the log share an id, so a report names the line.
            let id = Self.errorID()
            context.logger.error("storage fault", metadata: ["error-id": "\(id)", "reason": "\(error.reason)"])
            response = Self.serverFault(request, id: id)
        } catch where Self.isClientGone(error) {
            // The client went away mid-request (its body ended early): nothing is wrong here and nobody is left to
            // answer; the answer is written to a closed connection, or not at all.
            context.logger.debug("client disconnected during the request", metadata: ["error": "\(type(of: error))"])
            response = APIError(status: .badRequest, field: nil, message: "The request ended early.").response
        } catch {
            // Whatever went wrong inside, the answer still carries the headers, and says nothing about the data.
            let id = Self.errorID()
            context.logger.error("request failed", metadata: ["error-id": "\(id)", "error": "\(type(of: error))"])
            response = Self.serverFault(request, id: id)
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.referrerPolicy] = "same-origin"
        return response
    }
}

extension SecurityHeadersMiddleware {
    /// Seconds a client is asked to wait before trying again while the database cannot be reached.
    static var retryAfterSeconds: Int { 5 }

    /// 503 with Retry-After: a page for a browser, JSON for a script.
    static func unavailable(_ request: Request) -> Response {
        let language = request.preferredLanguage
        let message = PageMessage(HostText.storageUnavailable)
        var response = request.wantsJSON || !(request.headers[.accept]?.contains("text/html") ?? false)
            ? APIError(status: .serviceUnavailable, field: nil, message: message.text(language)).response
            : AppPage.error(message, status: .serviceUnavailable,
                            context: OCKRenderContext(localization: OCKLocalization(language: language, timeZone: .current)),
                            back: request.uri.path)
        response.headers[.retryAfter] = String(retryAfterSeconds)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// A short id for a server fault, shown to the person and written to the log.
    static func errorID() -> String {
        String((0..<10).map { _ in "0123456789abcdefghjkmnpqrstvwxyz".randomElement()! })
    }

    /// 500 naming the fault's id (also in the log, with the reason): a page for a browser, JSON for a script.
    static func serverFault(_ request: Request, id: String) -> Response {
        let language = request.preferredLanguage
        let message = PageMessage(HostText.serverFault, id)
        var response = request.wantsJSON || !(request.headers[.accept]?.contains("text/html") ?? false)
            ? APIError(status: .internalServerError, field: nil, message: message.text(language)).response
            : AppPage.error(message, status: .internalServerError,
                            context: OCKRenderContext(localization: OCKLocalization(language: language, timeZone: .current)),
                            back: request.uri.path)
        response.headers[.errorID] = id
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// Whether `error` means the client disconnected or its request ended before its body did.
    static func isClientGone(_ error: any Error) -> Bool {
        error is HTTPParserError || error is ChannelError || error is IOError
    }
}

extension HTTPField.Name {
    /// The id of a server fault, as its log line has it.
    static let errorID = Self("X-Error-Id")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
}

/// Refuses requests that did not come from the app's own pages:
/// - a `Host` that is not one of the app's names (DNS rebinding) — for an absolute-form request line
///   (`GET http://other.example/care`), its authority (`RequestTargetHandler`) — or two `Host` headers (RFC 9112: 400);
/// - writes whose `Origin` is not the app's own — scheme, host and port: the public origin when one is configured,
///   else `http://` and the `Host` — or whose `Sec-Fetch-Site` says another site (cross-site request forgery,
///   including from another port of the same machine, which cookies alone cannot tell apart).
public struct SameOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Host names (without port) the app answers to; nil accepts any.
    public let allowedHosts: Set<String>?
    /// The origin people reach the app at (`https://care.example.org`), when it is not the `Host` over plain HTTP.
    public let publicOrigin: String?

    public init(allowedHosts: Set<String>?, publicOrigin: String? = nil) {
        self.allowedHosts = allowedHosts.map { Set($0.map { $0.lowercased() }) }
        self.publicOrigin = publicOrigin.flatMap(Self.origin(of:))
    }

    /// The host name of a `Host` header: "localhost:8080" → "localhost", "[::1]:80" → "::1".
    static func hostName(_ header: String) -> String {
        let value = header.lowercased()
        if value.hasPrefix("["), let end = value.firstIndex(of: "]") { return String(value[value.index(after: value.startIndex)..<end]) }
        return String(value.split(separator: ":", maxSplits: 1).first ?? "")
    }

    /// An origin as `scheme://host[:port]`, lowercased, without the scheme's default port; nil unless `text` is an
    /// http or https address with a host (and nothing but a path after it).
    public static func origin(of text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host?.lowercased(), !host.isEmpty,
              components.query == nil, components.fragment == nil else { return nil }
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard let port = components.port, port != (scheme == "https" ? 443 : 80) else { return "\(scheme)://\(shownHost)" }
        return "\(scheme)://\(shownHost):\(port)"
    }

    static func refusal(_ status: HTTPResponse.Status, _ message: String) -> Response {
        APIError(status: status, field: nil, message: message).response
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // A Host header left among the fields means the request had more than one (the first became the authority).
        guard request.headers[.host] == nil else {
            return Self.refusal(.badRequest, "A request has one Host header.")
        }
        let host = request.head.authority ?? ""
        if let allowedHosts {
            guard !host.isEmpty, allowedHosts.contains(Self.hostName(host)) else {
                return Self.refusal(.misdirectedRequest, "This server does not answer to that host name.")
            }
        }
        if request.method != .get, request.method != .head {
            if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!], site != "same-origin", site != "none" {
                return Self.refusal(.forbidden, "Requests from other sites are refused.")
            }
            if let origin = request.headers[.origin] {
                let expected = publicOrigin ?? Self.origin(of: "http://\(host)")
                guard let given = Self.origin(of: origin), given == expected else {
                    return Self.refusal(.forbidden, "Requests from other sites are refused.")
                }
            }
        }
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let host = Self("Host")!
}

