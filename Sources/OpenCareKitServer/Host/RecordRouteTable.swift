import HTTPTypes
import Hummingbird

/// The routes of a care record, each with its policy and its handler: paths relative to the record's base
/// (`/records/{record}`), handlers named as `CareServer`'s methods (`CareServer.getCare`), which the gate calls on the
/// record's own server. Every record answers the same table, `RecordRouteTable.all`, made once from each feature's
/// declarations (`CareServer.addCareRoutes`, `addPlanRoutes`, …) without a server; `CareHost` registers it under
/// the record prefix, behind its gate (authorization, then CSRF on every unsafe method), and calls each route's own
/// handler — no lookup by name.
///
/// There is no way to add a route without a policy, and a handler gets only a `RecordContext`, which only the gate
/// makes.
///
/// For example:
/// ```swift
/// extension CareServer {
///     static func addNotesRoutes(to routes: inout RecordRouteTable) {
///         routes.get("/notes", .page("notes"), handler: CareServer.getNotes)   // a policy is required
///     }
///     func getNotes(_ request: Request, _ context: RecordContext) async throws -> Response { … }
/// }
/// ```
struct RecordRouteTable: Sendable {
    /// A route's handler: a method of the record's server.
    typealias Handler = @Sendable (CareServer) -> @Sendable (Request, RecordContext) async throws -> Response
    /// The largest form body a route takes from this request (a survey's signature step takes more than its others).
    typealias FormLimit = @Sendable (CareServer) -> @Sendable (Request, RecordContext) async throws -> Int

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

        /// `"GET /api/v1/tasks"`: how the OpenAPI document and the audit log name the route.
        var key: String { "\(method.rawValue) \(path)" }

        var isUnsafe: Bool { RecordRouteTable.isUnsafe(method) }
    }

    private(set) var routes: [Route] = []

    /// Every record's routes: each feature's, in one table.
    static let all: RecordRouteTable = {
        var routes = RecordRouteTable()
        CareServer.addCareRoutes(to: &routes)
        CareServer.addContactRoutes(to: &routes)
        CareServer.addInsightsRoutes(to: &routes)
        CareServer.addReportRoutes(to: &routes)
        CareServer.addSurveyRoutes(to: &routes)
        CareServer.addAPIRoutes(to: &routes)
        CareServer.addSyncRoutes(to: &routes)
        CareServer.addPlanRoutes(to: &routes)
        CareServer.addPlanContactRoutes(to: &routes)
        CareServer.addTemplateRoutes(to: &routes)
        return routes
    }()

    mutating func on(_ method: HTTPRequest.Method, _ path: String, _ policy: RecordRoutePolicy, formLimit: FormLimit? = nil,
                     tooLarge: Handler? = nil, handler: @escaping Handler) {
        precondition(!routes.contains { $0.method == method && $0.path == path }, "\(method) \(path) is declared twice")
        routes.append(Route(method: method, path: path, policy: policy, formLimit: formLimit, tooLarge: tooLarge, handler: handler))
    }

    mutating func get(_ path: String, _ policy: RecordRoutePolicy, handler: @escaping Handler) { on(.get, path, policy, handler: handler) }
    mutating func post(_ path: String, _ policy: RecordRoutePolicy, formLimit: FormLimit? = nil, tooLarge: Handler? = nil,
                       handler: @escaping Handler) {
        on(.post, path, policy, formLimit: formLimit, tooLarge: tooLarge, handler: handler)
    }
    mutating func put(_ path: String, _ policy: RecordRoutePolicy, handler: @escaping Handler) { on(.put, path, policy, handler: handler) }
    mutating func delete(_ path: String, _ policy: RecordRoutePolicy, handler: @escaping Handler) {
        on(.delete, path, policy, handler: handler)
    }
}
