import Foundation
import HTTPTypes
import Hummingbird

/// Adds the security headers to every response: a Content-Security-Policy that allows scripts, styles and
/// connections only from this site and no inline script, no framing, no MIME sniffing, and no referrer sent to other
/// sites (same-origin, so that the browser still sends `Origin` with the app's own form posts).
public struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The `Content-Security-Policy` every response gets: scripts, styles, connections and form posts to this site
    /// only, images also from `data:` addresses, no inline script or style, no plugins, no `<base>`, no framing.
    public static var contentSecurityPolicy: String {
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
    }

    /// The middleware. It sets the headers on the response the rest of the chain returns, replacing any a route
    /// set; an error thrown past it gets none, so add it before (outside) ``ErrorMiddleware``, which turns errors into
    /// responses.
    ///
    /// For example:
    /// ```swift
    /// router.middlewares.add(SecurityHeadersMiddleware())
    /// router.middlewares.add(ErrorMiddleware())
    /// ```
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Whatever went wrong inside, the answer still carries the headers: ErrorMiddleware, inside this one, turns
        // every error into its response.
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.referrerPolicy] = "same-origin"
        return response
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

    /// A middleware answering only to `allowedHosts` and taking writes only from `publicOrigin`.
    ///
    /// For example:
    /// ```swift
    /// router.middlewares.add(SameOriginMiddleware(allowedHosts: ["care.example.org"],
    ///                                             publicOrigin: "https://care.example.org"))
    /// ```
    ///
    /// - Parameters:
    ///   - allowedHosts: Host names without port, compared without regard to case; a request for another is
    ///     refused with 421 Misdirected Request. Nil accepts any `Host`.
    ///   - publicOrigin: The address people reach the app at, kept as its origin (`origin(of:)`). One that is not
    ///     an http or https address is dropped without a word, as if nil: writes must then come from `http://` and
    ///     the request's `Host`.
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

    static func refusal(_ status: HTTPResponse.Status, _ message: String) -> ClientError {
        ClientError(status: status, message: message)
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // A Host header left among the fields means the request had more than one (the first became the authority).
        guard request.headers[.host] == nil else {
            throw Self.refusal(.badRequest, "A request has one Host header.")
        }
        let host = request.head.authority ?? ""
        if let allowedHosts {
            guard !host.isEmpty, allowedHosts.contains(Self.hostName(host)) else {
                throw Self.refusal(.misdirectedRequest, "This server does not answer to that host name.")
            }
        }
        if request.method != .get, request.method != .head {
            if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!], site != "same-origin", site != "none" {
                throw Self.refusal(.forbidden, "Requests from other sites are refused.")
            }
            if let origin = request.headers[.origin] {
                let expected = publicOrigin ?? Self.origin(of: "http://\(host)")
                guard let given = Self.origin(of: origin), given == expected else {
                    throw Self.refusal(.forbidden, "Requests from other sites are refused.")
                }
            }
        }
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let host = Self("Host")!
}

