import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import OpenCareKitDirectory
import OpenCareKitFHIR
@testable import OpenCareKitServer
import OpenCareKitStore
import Testing

/// Errors that render themselves: each of the store's, the directory's and the server's errors, thrown by a handler,
/// is answered by `ErrorMiddleware` alone — its status and headers, JSON for a script, an OperationOutcome on FHIR's
/// routes, a page for a browser, in the reader's language — and only a fault of the server's is logged, with the id
/// its answer carries.
@Suite struct ErrorResponseTests {
    /// An error a route throws, and what its answer must be.
    struct Case: Sendable {
        let name: String
        let error: @Sendable () -> any Error
        let status: HTTPResponse.Status
        var header: (HTTPField.Name, String)? = nil
        var field: String? = nil
        var fhirCode: String? = nil
        /// A word of the English and of the Korean message (nil: the same in both).
        var english: String? = nil
        var korean: String? = nil
        /// FHIR's own errors are OperationOutcomes whoever asks.
        var alwaysFHIR = false
    }

    static let cases: [Case] = [
        Case(name: "missing", error: { OCKStoreError.fetchFailed(reason: "No task has that id.") }, status: .notFound,
             fhirCode: "not-found", english: "No task"),
        Case(name: "invalid", error: { OCKStoreError.invalidValue(reason: "Too many events.") }, status: .unprocessableContent,
             english: "Too many events"),
        Case(name: "taken", error: { OCKStoreError.addFailed(reason: "An entity with that id exists.") }, status: .conflict,
             fhirCode: "conflict"),
        Case(name: "validation", error: { OCKValidationError(field: "title", reason: "is too long") }, status: .unprocessableContent,
             field: "title", english: "The field \"title\" is too long."),
        Case(name: "decoding", error: {
            DecodingError.keyNotFound(AnyKey("schedule"), .init(codingPath: [], debugDescription: "missing"))
        }, status: .badRequest, field: "schedule", fhirCode: "invalid"),
        Case(name: "directory-missing", error: { CareDirectoryError(.notFound, "No such invitation.") }, status: .notFound),
        Case(name: "directory-conflict", error: { CareDirectoryError.secondPatient }, status: .conflict),
        Case(name: "unavailable", error: { StorageUnavailableError(reason: "connection refused") }, status: .serviceUnavailable,
             header: (.retryAfter, "5"), fhirCode: "throttled", english: "cannot be reached", korean: "연결할 수 없어"),
        Case(name: "busy", error: { HeavyWork.Busy() }, status: .serviceUnavailable, header: (.retryAfter, String(HeavyWork.retryAfter)),
             english: "busy", korean: "바쁩니다"),
        Case(name: "role", error: { RecordWriteAccess.Refusal(byRole: false, permission: .editPlan, scope: "patient/CarePlan.u") },
             status: .forbidden, header: (.wwwAuthenticate, #"Bearer error="insufficient_scope", scope="patient/CarePlan.u""#),
             fhirCode: "forbidden"),
        Case(name: "localized", error: { LocalizedRefusal(.conflict, field: "occurrence", PageMessage(ErrorText.eventChanged)) },
             status: .conflict, field: "occurrence"),
        Case(name: "form", error: { FormError(field: "value", reason: .fieldNumber) }, status: .badRequest, field: "value"),
        Case(name: "bundle", error: { bundleProblem() }, status: .badRequest,
             fhirCode: (bundleProblem() as? FHIRImport.Problem)?.code ?? "?", alwaysFHIR: true),
    ]

    /// What reading a Bundle that is not JSON throws.
    static func bundleProblem() -> any Error {
        do {
            _ = try FHIRImport().read(Data("not a bundle".utf8))
            return CocoaError(.featureUnsupported)
        } catch {
            return error
        }
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A router whose routes throw each case's error (and one a plain Swift error, the server's fault), behind the
    /// host's middlewares for errors and headers.
    func application(_ log: LogLines) -> some ApplicationProtocol {
        let router = Router(context: CareRequestContext.self)
        router.middlewares.add(SecurityHeadersMiddleware())
        router.middlewares.add(ErrorMiddleware())
        for prefix in ["/page", "/fhir/R4"] {
            for item in Self.cases {
                router.get("\(prefix)/\(item.name)") { _, _ -> Response in throw item.error() }
            }
            router.get("\(prefix)/fault") { _, _ -> Response in throw CocoaError(.fileReadCorruptFile) }
        }
        return Application(router: router, logger: log.logger)
    }

    @Test func everyErrorAnswersItselfInTheReadersFormatAndLanguage() async throws {
        let log = LogLines()
        try await application(log).test(.router) { client in
            for item in Self.cases where item.alwaysFHIR {
                for accept in ["application/json", "text/html"] {
                    let answer = try await client.execute(uri: "/page/\(item.name)", method: .get, headers: [.accept: accept])
                    #expect(answer.status == item.status && answer.headers[.contentType] == "application/fhir+json", "\(item.name)")
                }
            }
            for item in Self.cases where !item.alwaysFHIR {
                // A script: JSON naming the status and the field.
                let json = try await client.execute(uri: "/page/\(item.name)", method: .get, headers: [.accept: "application/json"])
                #expect(json.status == item.status, "\(item.name)")
                #expect(json.headers[.contentType] == "application/json", "\(item.name)")
                #expect(json.headers[.contentSecurityPolicy] != nil, "\(item.name): the headers are on every answer")
                let body = try JSONSerialization.jsonObject(with: Data(buffer: json.body)) as? [String: [String: Any]]
                let error = try #require(body?["error"], "\(item.name)")
                #expect(error["status"] as? Int == Int(item.status.code), "\(item.name)")
                #expect(error["field"] as? String == item.field, "\(item.name)")
                if let english = item.english { #expect((error["message"] as? String)?.contains(english) == true, "\(item.name)") }
                if let (name, value) = item.header { #expect(json.headers[name] == value, "\(item.name)") }

                // A browser: a page, escaped, in Korean when Korean comes first.
                let page = try await client.execute(uri: "/page/\(item.name)", method: .get,
                                                    headers: [.accept: "text/html", .acceptLanguage: "ko-KR,ko;q=0.9,en;q=0.5"])
                #expect(page.status == item.status && page.headers[.contentType]?.hasPrefix("text/html") == true, "\(item.name)")
                let html = String(buffer: page.body)
                #expect(html.contains(#"lang="ko"#) && html.contains(#"role="alert""#), "\(item.name)")
                if let korean = item.korean { #expect(html.contains(korean), "\(item.name)") }

            }
            for item in Self.cases {
                // FHIR's routes: an OperationOutcome with the issue's type.
                let fhir = try await client.execute(uri: "/fhir/R4/\(item.name)", method: .get, headers: [:])
                #expect(fhir.status == item.status && fhir.headers[.contentType] == "application/fhir+json", "\(item.name)")
                let outcome = try JSONSerialization.jsonObject(with: Data(buffer: fhir.body)) as? [String: Any]
                let issue = (outcome?["issue"] as? [[String: Any]])?.first
                #expect(outcome?["resourceType"] as? String == "OperationOutcome", "\(item.name)")
                if let code = item.fhirCode { #expect(issue?["code"] as? String == code, "\(item.name)") }
            }
            // None of them is the server's fault: nothing at error level.
            #expect(log.lines("request failed").isEmpty && log.lines("storage fault").isEmpty)
            #expect(log.lines("storage unavailable").count == 3, "the unavailable database is logged as a warning each time")

            // Anything else is a fault: 500, an id in the answer and in the one log line, and no detail.
            for (path, accept) in [("/page/fault", "application/json"), ("/page/fault", "text/html"), ("/fhir/R4/fault", "")] {
                let fault = try await client.execute(uri: path, method: .get, headers: [.accept: accept])
                #expect(fault.status == .internalServerError, "\(path) \(accept)")
                let id = try #require(fault.headers[.errorID])
                #expect(String(buffer: fault.body).contains("error \(id)"), "\(path) \(accept)")
                #expect(log.lines("request failed").filter { $0["error-id"] == id }.count == 1)
                #expect(!String(buffer: fault.body).contains("Corrupt"), "\(path) \(accept)")
            }
        }
    }
}
