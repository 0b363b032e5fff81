import Foundation
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
