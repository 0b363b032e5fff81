import Foundation
import HTTPTypes
import Hummingbird
import OpenCareKitDirectory
import OpenCareKitFHIR
import OpenCareKitStore
import OpenCareKitUI

/// An error that answers the request it ends, by itself: its status, its headers and a body in the reader's format
/// (JSON for a script, the API and sync; an OperationOutcome for FHIR; a page for a browser) and language.
///
/// Handlers throw; `ErrorMiddleware` answers with the error's response, and a status of 500 or more other than 503
/// is a fault of the server's, which it logs with an id the answer also carries. The store's, the directory's and the
/// server's errors conform here, so a route never turns an error into a response by hand.
///
/// For example:
/// ```swift
/// guard let task = try await store.fetchTasks(query: query).first else {
///     throw ClientError(status: .notFound, message: "No task has that id.")   // 404, as JSON or a page
/// }
/// ```
protocol AnsweringError: HTTPResponseError {
    /// The request's field at fault, if one is (`"value"`, `"schedule.elements[0].start"`).
    var errorField: String? { get }
    /// What went wrong, in `language` naming fields, never their values.
    func message(in language: OCKLanguage) -> String
    /// Headers the answer carries besides the content type (`Retry-After`, `WWW-Authenticate`).
    var headers: HTTPFields { get }
    /// The OperationOutcome's issue type and expression for a FHIR client, when the status's own type
    /// (`ErrorAnswer.fhirCode`) says less.
    var fhirIssue: (code: String, expression: String?)? { get }
    /// The format the error is always written in, whatever the request (FHIR's own errors: an OperationOutcome); nil
    /// to follow the request (`ErrorAnswer.format(of:)`).
    var format: ErrorAnswer.Format? { get }
}

extension AnsweringError {
    var errorField: String? { nil }
    var headers: HTTPFields { [:] }
    var fhirIssue: (code: String, expression: String?)? { nil }
    var format: ErrorAnswer.Format? { nil }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        answer(request)
    }

    /// The error's answer to `request`, in its format and language.
    func answer(_ request: Request) -> Response {
        var response = ErrorAnswer.response(status: status, field: errorField, message: message(in: request.preferredLanguage),
                                            fhirIssue: fhirIssue, format: format, for: request)
        for header in headers { response.headers[header.name] = header.value }
        return response
    }
}

/// How an error is written for a request: the one place that chooses the format.
enum ErrorAnswer {
    enum Format { case json, fhir, page }

    /// FHIR's routes (and requests that send or accept FHIR's JSON) answer with an OperationOutcome; the API, sync
    /// and scripts (which accept JSON, or read a live stream) with JSON; everything else with a page.
    static func format(of request: Request) -> Format {
        let path = request.uri.path
        let fhirJSON = "application/fhir+json"
        if path.contains("/fhir/") || path == "/records/import" || request.headers[.accept]?.contains(fhirJSON) == true
            || request.headers[.contentType]?.hasPrefix(fhirJSON) == true { return .fhir }
        // A script asks for JSON (the app's own fetches do), calls the API or sync, or sends a token; a live page's
        // stream is read by a script too. Anything else — a browser's navigation, a form's post, a link followed — gets a page.
        let accept = request.headers[.accept] ?? ""
        if request.wantsJSON || path.contains("/api/") || path.contains("/sync/") || accept.contains("text/event-stream")
            || request.headers[.authorization] != nil { return .json }
        return .page
    }

    static func response(status: HTTPResponse.Status, field: String?, message: String,
                         fhirIssue: (code: String, expression: String?)? = nil, format: Format? = nil,
                         for request: Request) -> Response {
        var response: Response
        switch format ?? self.format(of: request) {
        case .json:
            response = ClientError(status: status, field: field, message: message).jsonResponse
        case .fhir:
            response = CareHost.fhirResponse(status, FHIRSearch.outcome(fhirIssue?.code ?? fhirCode(status), message,
                                                                        expression: fhirIssue?.expression))
        case .page:
            let language = request.preferredLanguage
            response = AppPage.error(PageMessage(verbatim: message), status: status,
                                     context: OCKRenderContext(localization: OCKLocalization(language: language, timeZone: .current)),
                                     back: status == .notFound ? "/" : back(from: request.uri.path))
        }
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

extension ErrorAnswer {
    /// FHIR's issue type for an answer's status.
    static func fhirCode(_ status: HTTPResponse.Status) -> String {
        switch status.code {
        case 401: "login"
        case 403: "forbidden"
        case 404: "not-found"
        case 409: "conflict"
        case 413: "too-long"
        case 422: "processing"
        case 429, 503: "throttled"
        case 400..<500: "invalid"
        default: "exception"
        }
    }

    /// Where an error page leads back to: the record's care page inside a record, else the start (a record that is
    /// not found leads to the start, not to itself).
    static func back(from path: String) -> String {
        let parts = path.split(separator: "/")
        return parts.count >= 2 && parts[0] == "records" ? "/records/\(parts[1])/care" : "/"
    }
}

/// A request the server refuses, or cannot answer as asked, with its status, the field at fault and a message:
/// as JSON `{"error": {"status": 422, "field": "value", "message": "…"}}`, or a page. Messages name fields, never
/// their values.
struct ClientError: AnsweringError, Sendable, Encodable {
    let status: HTTPResponse.Status
    let field: String?
    let text: String
    let headers: HTTPFields

    init(status: HTTPResponse.Status, field: String? = nil, message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.field = field
        text = message
        self.headers = headers
    }

    var errorField: String? { field }
    func message(in language: OCKLanguage) -> String { text }

    private enum CodingKeys: String, CodingKey { case status, field, message }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status.code, forKey: .status)
        try container.encodeIfPresent(field, forKey: .field)
        try container.encode(text, forKey: .message)
    }

    /// The error's JSON body.
    var json: ByteBuffer {
        ByteBuffer(bytes: (try? JSONEncoder().encode(["error": self])) ?? Data(#"{"error":{}}"#.utf8))
    }

    /// The error as JSON, whatever the request accepts (the API's paging and the hostile-request tests read it so).
    var jsonResponse: Response {
        var response = Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                                body: .init(byteBuffer: json))
        for header in headers { response.headers[header.name] = header.value }
        return response
    }
}

/// A refusal whose message is one of the server's texts, in the reader's language.
struct LocalizedRefusal: AnsweringError {
    let status: HTTPResponse.Status
    let field: String?
    let text: PageMessage
    let headers: HTTPFields
    /// For a fault (500): what failed underneath, whose type `ErrorMiddleware` logs with the fault's id.
    let cause: (any Error)?

    init(_ status: HTTPResponse.Status, field: String? = nil, _ text: PageMessage, headers: HTTPFields = [:], cause: (any Error)? = nil) {
        self.status = status
        self.field = field
        self.text = text
        self.headers = headers
        self.cause = cause
    }

    var errorField: String? { field }
    func message(in language: OCKLanguage) -> String { text.text(language) }
}

extension OCKStoreError: HTTPResponseError, AnsweringError {
    public func response(from request: Request, context: some RequestContext) throws -> Response { answer(request) }

    /// How a client hears of a store's refusal, the same on every route: an entity that does not exist 404, an invalid
    /// value 422, a write that conflicts with what is stored (an id that exists, a version changed meanwhile) 409. The
    /// store's own failures (reset, time-out, synchronization) are the server's: 500, a fault. (A database that fails
    /// or cannot be reached throws `StorageFaultError` or `StorageUnavailableError`, never this.)
    public var status: HTTPResponse.Status {
        switch self {
        case .fetchFailed: .notFound
        case .invalidValue: .unprocessableContent
        case .addFailed, .updateFailed, .deleteFailed: .conflict
        default: .internalServerError
        }
    }

    func message(in language: OCKLanguage) -> String { reason }
}

extension OCKValidationError: HTTPResponseError, AnsweringError {
    public func response(from request: Request, context: some RequestContext) throws -> Response { answer(request) }

    public var status: HTTPResponse.Status { .unprocessableContent }
    var errorField: String? { field }
    func message(in language: OCKLanguage) -> String { "The field \"\(field)\" \(reason)." }
}

extension DecodingError: @retroactive HTTPResponseError, @retroactive ResponseGenerator, AnsweringError {
    /// Answered as the `ClientError` it reads as, made once.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        CareServer.clientError(self).answer(request)
    }

    /// A body that is not what the route reads: 400 naming the field (422 when an entity inside it broke a rule).
    public var status: HTTPResponse.Status { CareServer.clientError(self).status }
    var errorField: String? { CareServer.clientError(self).field }
    func message(in language: OCKLanguage) -> String { CareServer.clientError(self).text }
}

extension CareDirectoryError: HTTPResponseError, AnsweringError {
    public func response(from request: Request, context: some RequestContext) throws -> Response { answer(request) }

    /// Something a directory refused: missing 404, a conflict with what it holds 409; a directory that cannot be
    /// read or written is the server's fault.
    public var status: HTTPResponse.Status {
        switch kind {
        case .notFound: .notFound
        case .emailTaken, .conflict: .conflict
        case .storage: .internalServerError
        }
    }

    func message(in language: OCKLanguage) -> String { reason }
}

extension StorageUnavailableError: HTTPResponseError, AnsweringError {
    public func response(from request: Request, context: some RequestContext) throws -> Response { answer(request) }

    /// The database is down or restarting: the same request may succeed shortly (a write cut off at its commit may
    /// have been made; the page shows what was).
    public var status: HTTPResponse.Status { .serviceUnavailable }
    var headers: HTTPFields { [.retryAfter: String(ErrorMiddleware<CareRequestContext>.retryAfterSeconds)] }
    func message(in language: OCKLanguage) -> String { HostText.storageUnavailable.text(language) }
}

extension HeavyWork.Busy: HTTPResponseError, AnsweringError {
    /// The person, or the server, runs as much heavy work as it may: try again when it is done.
    var status: HTTPResponse.Status { .serviceUnavailable }
    var headers: HTTPFields { [.retryAfter: String(HeavyWork.retryAfter)] }
    func message(in language: OCKLanguage) -> String { PageMessage(ErrorText.serverBusy).text(language) }
}

extension RecordWriteAccess.Refusal: HTTPResponseError, AnsweringError {
    /// A change the person's role, or the token's scope, does not allow.
    var status: HTTPResponse.Status { .forbidden }
    var headers: HTTPFields {
        byRole ? [:] : [.wwwAuthenticate: #"Bearer error="insufficient_scope", scope="\#(scope)""#]
    }
    func message(in language: OCKLanguage) -> String { message }
}

extension FHIRImport.Problem: HTTPResponseError, AnsweringError {
    public func response(from request: Request, context: some RequestContext) throws -> Response { answer(request) }

    /// A Bundle that cannot be read as a record: 400, with FHIR's issue type and the expression at fault.
    public var status: HTTPResponse.Status { .badRequest }
    var fhirIssue: (code: String, expression: String?)? { (code, expression) }
    var format: ErrorAnswer.Format? { .fhir }
    func message(in language: OCKLanguage) -> String { message }
}

/// A FHIR request refused with an issue type of its own: a Bundle the record's rules refuse (422, `business-rule`),
/// one too large (413, `too-costly`).
struct FHIRRefusal: AnsweringError {
    let status: HTTPResponse.Status
    let code: String
    let reason: String
    var expression: String? = nil

    var fhirIssue: (code: String, expression: String?)? { (code, expression) }
    var format: ErrorAnswer.Format? { .fhir }
    func message(in language: OCKLanguage) -> String { reason }
}
