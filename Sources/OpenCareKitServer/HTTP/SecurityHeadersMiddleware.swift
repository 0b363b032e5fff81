import HTTPTypes
import Hummingbird

/// Adds the security headers to every response: a Content-Security-Policy that allows scripts, styles and
/// connections only from this site and no inline script, no framing, no MIME sniffing, no referrer.
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
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.referrerPolicy] = "no-referrer"
        return response
    }
}

extension HTTPField.Name {
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
}
