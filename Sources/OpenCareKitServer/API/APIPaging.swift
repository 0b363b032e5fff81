import Foundation
import HTTPTypes
import Hummingbird

/// One page of a JSON list: `?limit=` (1 to 500, 100 by default) items from `?offset=` (0 by default). When more
/// follow, the response has a `Link: <…>; rel="next"` header with the next page's address, so no response grows with
/// what the record holds.
struct APIPaging: Sendable {
    /// The most items one response lists.
    static let maximumLimit = 500
    static let defaultLimit = 100
    /// Offsets beyond this are refused (no record lists that many of anything on one day).
    static let maximumOffset = 1_000_000

    let limit: Int
    let offset: Int

    init(_ request: Request) throws {
        func number(_ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
            guard let text = request.uri.queryParameters.get(name) else { return value }
            guard text.allSatisfy(\.isASCII), let number = Int(text), range.contains(number) else {
                throw ClientError(status: .badRequest, field: name,
                               message: "The field \"\(name)\" must be a whole number from \(range.lowerBound) to \(range.upperBound).")
            }
            return number
        }
        limit = try number("limit", default: Self.defaultLimit, in: 1...Self.maximumLimit)
        offset = try number("offset", default: 0, in: 0...Self.maximumOffset)
    }

    /// The response for `items`, fetched with `limit + 1` so that the extra one tells whether another page follows.
    func response<Item: Encodable>(_ items: some Collection<Item>, for request: Request,
                                   encode: ([Item], HTTPResponse.Status) -> Response) -> Response {
        var response = encode(Array(items.prefix(limit)), .ok)
        if items.count > limit, offset + limit <= Self.maximumOffset {
            var components = URLComponents()
            components.path = request.uri.path
            let others = request.uri.queryParameters.filter { $0.key != "limit" && $0.key != "offset" }
                .map { URLQueryItem(name: String($0.key), value: String($0.value)) }
                .sorted { $0.name < $1.name }
            components.queryItems = others + [URLQueryItem(name: "limit", value: String(limit)),
                                              URLQueryItem(name: "offset", value: String(offset + limit))]
            if let next = components.string { response.headers[.link] = "<\(next)>; rel=\"next\"" }
        }
        return response
    }
}

extension HTTPField.Name {
    static let link = Self("Link")!
}
