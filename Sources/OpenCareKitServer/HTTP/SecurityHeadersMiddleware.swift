import HTTPTypes
import Hummingbird

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
        } catch {
            // Whatever went wrong inside, the answer still carries the headers, and says nothing about the data.
            context.logger.error("request failed", metadata: ["error": "\(type(of: error))"])
            response = APIError(status: .internalServerError, field: nil, message: "Something went wrong on the server.").response
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.referrerPolicy] = "same-origin"
        return response
    }
}

extension HTTPField.Name {
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
}

/// Refuses requests that did not come from the app's own pages: a `Host` that is not one of the app's names (DNS
/// rebinding), and writes whose `Origin` or `Sec-Fetch-Site` says another site (cross-site request forgery,
/// including from another port of the same machine, which cookies alone cannot tell apart).
public struct SameOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Host names (without port) the app answers to; nil accepts any.
    public let allowedHosts: Set<String>?

    public init(allowedHosts: Set<String>?) {
        self.allowedHosts = allowedHosts.map { Set($0.map { $0.lowercased() }) }
    }

    /// The host name of a `Host` header: "localhost:8080" → "localhost", "[::1]:80" → "::1".
    static func hostName(_ header: String) -> String {
        let value = header.lowercased()
        if value.hasPrefix("["), let end = value.firstIndex(of: "]") { return String(value[value.index(after: value.startIndex)..<end]) }
        return String(value.split(separator: ":", maxSplits: 1).first ?? "")
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let allowedHosts {
            guard let host = request.head.authority, allowedHosts.contains(Self.hostName(host)) else {
                return APIError(status: .misdirectedRequest, field: nil, message: "This server does not answer to that host name.").response
            }
        }
        if request.method != .get, request.method != .head {
            if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!], site != "same-origin", site != "none" {
                return APIError(status: .forbidden, field: nil, message: "Requests from other sites are refused.").response
            }
            if let origin = request.headers[.origin] {
                let host = request.head.authority ?? ""
                let originHost = origin.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? ""
                guard originHost.lowercased() == host.lowercased() else {
                    return APIError(status: .forbidden, field: nil, message: "Requests from other sites are refused.").response
                }
            }
        }
        return try await next(request, context)
    }
}
