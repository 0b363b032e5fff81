import HTTPTypes
import Hummingbird

/// The routes of a care record, each with its policy: paths relative to the record's base
/// (`/records/{record}`), and the handlers of one record's `CareServer`. Every record answers the same table;
/// `CareHost` registers it once, under the record prefix, behind its authorization check.
///
/// There is no way to add a route without a policy.
struct RecordRouteTable: Sendable {
    typealias Handler = @Sendable (Request, CareRequestContext) async throws -> Response

    struct Route: Sendable {
        let method: HTTPRequest.Method
        /// Relative to the record, with Hummingbird's parameters: `/contacts/:id`.
        let path: String
        let policy: RecordRoutePolicy
        let handler: Handler

        var key: String { "\(method.rawValue) \(path)" }
    }

    private(set) var routes: [Route] = []
    private(set) var handlers: [String: Handler] = [:]

    mutating func on(_ method: HTTPRequest.Method, _ path: String, _ policy: RecordRoutePolicy, _ handler: @escaping Handler) {
        let route = Route(method: method, path: path, policy: policy, handler: handler)
        routes.append(route)
        handlers[route.key] = handler
    }

    mutating func get(_ path: String, _ policy: RecordRoutePolicy, _ handler: @escaping Handler) { on(.get, path, policy, handler) }
    mutating func post(_ path: String, _ policy: RecordRoutePolicy, _ handler: @escaping Handler) { on(.post, path, policy, handler) }
    mutating func put(_ path: String, _ policy: RecordRoutePolicy, _ handler: @escaping Handler) { on(.put, path, policy, handler) }
    mutating func delete(_ path: String, _ policy: RecordRoutePolicy, _ handler: @escaping Handler) { on(.delete, path, policy, handler) }
}
