import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import OpenCareKitStore
import OpenCareKitUI

/// The one place a request's error becomes its answer, and the one place a fault is logged.
///
/// An error that answers for itself (`HTTPResponseError`: `AnsweringError`, Hummingbird's own, the store's, the
/// directory's and the server's) gives its response. A status of 500 or more other than 503, or any other error, is
/// the server's fault: it is logged at error level with a short id — the error's type and, for a database's fault,
/// its reason, never the request's data — and the answer (a page, JSON or an OperationOutcome) names the same id, so a
/// person's report finds the line. A database that cannot be reached is logged as a warning and answered 503 with
/// `Retry-After`. A client that went away mid-request is no one's fault.
public struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Seconds a client is asked to wait before trying again while the database cannot be reached.
    static var retryAfterSeconds: Int { 5 }

    /// The middleware; add it right after (inside) ``SecurityHeadersMiddleware``, so that every answer it makes
    /// carries the security headers.
    public init() {}

    /// Answers with `next`'s response, or with the response of the error it throws (logging a fault).
    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch where Self.isClientGone(error) {
            // Nothing is wrong here and nobody is left to answer; the answer is written to a closed connection, or
            // not at all.
            context.logger.debug("client disconnected during the request", metadata: ["error": "\(type(of: error))"])
            return ClientError(status: .badRequest, message: "The request ended early.").jsonResponse
        } catch let error as StorageUnavailableError {
            context.logger.warning("storage unavailable", metadata: ["reason": "\(error.reason)"])
            return try error.response(from: request, context: context)
        } catch let error as HTTPResponseError where error.status.code < 500 || error.status == .serviceUnavailable {
            return try error.response(from: request, context: context)
        } catch {
            let id = Self.errorID()
            var metadata: Logger.Metadata = ["error-id": "\(id)", "error": "\(type(of: error))"]
            if let fault = error as? StorageFaultError { metadata["reason"] = "\(fault.reason)" }
            if let cause = (error as? LocalizedRefusal)?.cause { metadata["cause"] = "\(type(of: cause))" }
            context.logger.error(error is StorageFaultError ? "storage fault" : "request failed", metadata: metadata)
            // A refusal in the server's own words (what to do instead) keeps them; the id is in the header.
            let message = (error as? LocalizedRefusal)?.message(in: request.preferredLanguage)
                ?? HostText.serverFault.text(request.preferredLanguage, arguments: [id])
            var response = ErrorAnswer.response(status: .internalServerError, field: nil, message: message, for: request)
            response.headers[.errorID] = id
            return response
        }
    }

    /// A short id for a server fault, shown to the person and written to the log.
    static func errorID() -> String {
        String((0..<10).map { _ in "0123456789abcdefghjkmnpqrstvwxyz".randomElement()! })
    }

    /// Whether `error` means the client disconnected or its request ended before its body did.
    static func isClientGone(_ error: any Error) -> Bool {
        error is HTTPParserError || error is ChannelError || error is IOError
    }
}
