import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// One log line and one metrics sample for every request: the method, the route's pattern (`/records/{record}/care`:
/// never the raw path, whose ids, invitation and feed secrets it would copy), the status, the duration up to the
/// response's head, the request id (`hb.request.id`, in the logger's metadata) and the record's pseudonym
/// (`record`, an HMAC of its id under the directory's log key). No query, header, cookie or body is logged.
///
/// It runs outside every other middleware, so it sees the answer as it leaves (errors already turned into pages).
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics
    /// The key of records' pseudonyms (nil: the directory cannot give it now).
    let key: @Sendable () async -> SymmetricKey?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        // Read before the routes run (once; kept after), so that the stores they open can log the pseudonym too.
        let key = await key()
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            // Only what no inner middleware answers reaches here (a client gone mid-request, say).
            note(request, context: context, status: (error as? any HTTPResponseError)?.status ?? .internalServerError, since: start, key: key)
            throw error
        }
        note(request, context: context, status: response.status, since: start, key: key)
        return response
    }

    private func note(_ request: Request, context: Context, status: HTTPResponse.Status, since start: ContinuousClock.Instant,
                      key: SymmetricKey?) {
        let duration = ContinuousClock.now - start
        // Hummingbird names a path no route matched "NotFound".
        let route = context.endpointPath ?? "NotFound"
        metrics.request(route: route, method: request.method, status: status, duration: duration)
        guard context.logger.logLevel <= .info else { return }
        var metadata: Logger.Metadata = [
            "method": "\(request.method.rawValue)", "route": "\(route)", "status": "\(status.code)",
            "duration_ms": "\((duration.milliseconds * 10).rounded() / 10)",
        ]
        if let key, let record = Self.recordSegment(path: request.uri.path, route: route) {
            metadata["record"] = "\(RecordLogID.pseudonym(of: record, key: key))"
        }
        context.logger.info("request", metadata: metadata)
    }

    /// The path segment where `route` has `{record}` (or FHIR's Patient `{id}`), if any.
    static func recordSegment(path: String, route: String) -> String? {
        let patterns = route.split(separator: "/", omittingEmptySubsequences: false)
        guard let index = patterns.firstIndex(where: { $0 == "{record}" || $0 == ":record" })
                ?? (route.hasPrefix("/fhir/R4/Patient/") ? patterns.firstIndex(where: { $0 == "{id}" || $0 == ":id" }) : nil) else {
            return nil
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return index < segments.count ? String(segments[index]) : nil
    }
}
