import HTTPTypes
import Hummingbird

/// The routes of a care record, each with its policy: paths relative to the record's base
/// (`/records/{record}`), and the handlers of one record's `CareServer`. Every record answers the same table;
/// `CareHost` registers it once, under the record prefix, behind its gate (authorization, then CSRF on every unsafe
/// method).
///
/// There is no way to add a route without a policy, and a handler gets only a `RecordContext`, which only the gate
/// makes.
struct RecordRouteTable: Sendable {
    typealias Handler = @Sendable (Request, RecordContext) async throws -> Response
    /// The largest form body a route takes from this request (a survey's signature step takes more than its others).
    typealias FormLimit = @Sendable (Request, RecordContext) async throws -> Int

    /// Whether `method` may change something: the gate checks CSRF on these.
    static func isUnsafe(_ method: HTTPRequest.Method) -> Bool { method != .get && method != .head && method != .options }

    struct Route: Sendable {
        let method: HTTPRequest.Method
        /// Relative to the record, with Hummingbird's parameters: `/contacts/:id`.
        let path: String
        let policy: RecordRoutePolicy
        /// The largest form body the gate reads to find the CSRF token (the request context's upload size when nil),
        /// and the answer to a larger one (the host's 413 when nil).
        let formLimit: FormLimit?
        let tooLarge: Handler?
        let handler: Handler

        var key: String { "\(method.rawValue) \(path)" }

        var isUnsafe: Bool { RecordRouteTable.isUnsafe(method) }
    }

    private(set) var routes: [Route] = []
    private(set) var byKey: [String: Route] = [:]

    mutating func on(_ method: HTTPRequest.Method, _ path: String, _ policy: RecordRoutePolicy, formLimit: FormLimit? = nil,
                     tooLarge: Handler? = nil, _ handler: @escaping Handler) {
        let route = Route(method: method, path: path, policy: policy, formLimit: formLimit, tooLarge: tooLarge, handler: handler)
        routes.append(route)
        byKey[route.key] = route
    }

    mutating func get(_ path: String, _ policy: RecordRoutePolicy, _ handler: @escaping Handler) { on(.get, path, policy, handler) }
    mutating func post(_ path: String, _ policy: RecordRoutePolicy, formLimit: FormLimit? = nil, tooLarge: Handler? = nil,
                       _ handler: @escaping Handler) {
        on(.post, path, policy, formLimit: formLimit, tooLarge: tooLarge, handler)
    }
    mutating func put(_ path: String, _ policy: RecordRoutePolicy, _ handler: @escaping Handler) { on(.put, path, policy, handler) }
    mutating func delete(_ path: String, _ policy: RecordRoutePolicy, _ handler: @escaping Handler) { on(.delete, path, policy, handler) }
}
