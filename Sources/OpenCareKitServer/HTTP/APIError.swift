import Foundation
import OpenCareKitStore
import Hummingbird

/// An error as JSON: `{"error": {"status": 422, "field": "value", "message": "…"}}`. Messages name fields, never
/// their values.
struct APIError: Error, Sendable, Encodable {
    let status: HTTPResponse.Status
    let field: String?
    let message: String

    private enum CodingKeys: String, CodingKey { case status, field, message }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status.code, forKey: .status)
        try container.encodeIfPresent(field, forKey: .field)
        try container.encode(message, forKey: .message)
    }

    /// The error's JSON body.
    var json: ByteBuffer {
        ByteBuffer(bytes: (try? JSONEncoder().encode(["error": self])) ?? Data(#"{"error":{}}"#.utf8))
    }

    var response: Response {
        Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                 body: .init(byteBuffer: json))
    }
}

extension OCKStoreError {
    /// How a client hears of a store's refusal, the same on every route: an entity that does not exist 404, an invalid
    /// value 422, a write that conflicts with what is stored (an id that exists, a version changed meanwhile) 409. Nil
    /// for the store's own failures (reset, time-out, synchronization), which are the server's: the request is not
    /// at fault, so they reach the error middleware and its 500. (A database that fails or cannot be reached throws
    /// `StorageFaultError` or `StorageUnavailableError`, never this.)
    var clientStatus: HTTPResponse.Status? {
        switch self {
        case .fetchFailed: .notFound
        case .invalidValue: .unprocessableContent
        case .addFailed, .updateFailed, .deleteFailed: .conflict
        default: nil
        }
    }
}
