import Foundation
import Hummingbird
import OpenCareKit
import OpenCareKitStore

/// A sync pull: what the device knows, and where the page starts (`next` of the previous page).
struct SyncPull: Decodable, Sendable {
    let knowledgeVector: OCKRevisionRecord.KnowledgeVector
    let after: String?
    let limit: Int?
}

/// A sync push: the versions the server does not know, and what the device knows (absent on the parts of a push
/// before the last).
struct SyncPush: Decodable, Sendable {
    let revisions: [OCKRevisionRecord]
    let knowledgeVector: OCKRevisionRecord.KnowledgeVector?
}

/// The answer to a push: what the server knows now.
struct SyncPushAnswer: Encodable, Sendable {
    let knowledgeVector: OCKRevisionRecord.KnowledgeVector
}

/// An event in the API: the task version, its outcome and the schedule event, each in CareKit's JSON.
struct EventResource: Encodable, Sendable {
    let task: OCKTask
    let outcome: OCKOutcome?
    let scheduleEvent: OCKScheduleEvent
}

/// The JSON API under `/api/v1`: the store's entities in CareKit's JSON (Foundation's default date encoding, as
/// CareKit's files), and events. Bad input gets 400 or 422 naming the field, unknown ids 404, bodies over 64 KiB
/// 413 — never a 500. Writes notify every open page like any other change. Lists of tasks, outcomes and events come
/// in pages (`APIPaging`). Schedules are held to the store's limits (`OCKSchedule.maximumEventsPerDay`), which a
/// body breaking them learns as a 422 naming the field.
extension CareServer {
    static func addAPIRoutes(to routes: inout RecordRouteTable) {
        routes.get("/api/v1/patients", .api(.read, ["Patient"], "s"), handler: CareServer.getApiV1Patients)
        routes.get("/api/v1/careplans", .api(.read, ["CarePlan"], "s"), handler: CareServer.getApiV1Careplans)
        routes.get("/api/v1/contacts", .api(.read, ["CareTeam"], "s"), handler: CareServer.getApiV1Contacts)
        routes.get("/api/v1/contacts/:id", .api(.read, ["CareTeam"], "r"), handler: CareServer.getApiV1ContactsId)
        routes.get("/api/v1/tasks", .api(.read, ["CarePlan"], "s"), handler: CareServer.getApiV1Tasks)
        routes.get("/api/v1/tasks/:id", .api(.read, ["CarePlan"], "r"), handler: CareServer.getApiV1TasksId)
        routes.post("/api/v1/tasks", .api(.editPlan, ["CarePlan"], "c"), handler: CareServer.postApiV1Tasks)
        routes.put("/api/v1/tasks/:id", .api(.editPlan, ["CarePlan"], "u"), handler: CareServer.putApiV1TasksId)
        routes.delete("/api/v1/tasks/:id", .api(.editPlan, ["CarePlan"], "d"), handler: CareServer.deleteApiV1TasksId)
        routes.get("/api/v1/outcomes", .api(.read, ["Observation"], "s"), handler: CareServer.getApiV1Outcomes)
        routes.post("/api/v1/outcomes", .api(.completeTasks, ["Observation"], "c"), handler: CareServer.postApiV1Outcomes)
        routes.delete("/api/v1/outcomes/:uuid", .api(.completeTasks, ["Observation"], "d"), handler: CareServer.deleteApiV1OutcomesUuid)
        routes.get("/api/v1/events", .api(.read, ["CarePlan", "Observation"], "s"), handler: CareServer.getApiV1Events)
    }

    /// The entity types a sync pull or push covers, for a token's SMART scope.
    static let syncTypes = ["Patient", "CarePlan", "CareTeam", "Observation"]
    /// The largest sync push body (a device sends larger pushes in parts: `OCKHTTPRemote`).
    static let syncPushLimit = 8 * 1024 * 1024
    /// Versions per pull page: by default, and at most.
    static let syncPageLimits = (standard: 1_000, maximum: 5_000)

    /// CareKit's remote sync for devices (`OCKRemoteSynchronizable`): a pull pages through the versions the device's
    /// knowledge vector does not cover; a push merges the device's versions and knowledge. The request bodies are
    /// `SyncPull` and `SyncPush`, in CareKit's JSON.
    static func addSyncRoutes(to routes: inout RecordRouteTable) {
        routes.post("/api/v1/sync/pull", .api(.read, Self.syncTypes, "s"), handler: CareServer.postApiV1SyncPull)
        // A push needs a scope that changes something; what it changes decides the rest (`RecordWriteAccess`).
        routes.post("/api/v1/sync/push", .api(.read, Self.syncTypes, RecordRoutePolicy.TokenAccess.anyChange), handler: CareServer.postApiV1SyncPush)
    }

    static func clientError(_ error: DecodingError) -> ClientError {
        func path(_ context: DecodingError.Context) -> String? {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? nil : keys.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case let .keyNotFound(key, context):
            let field = [path(context), key.stringValue].compactMap { $0 }.joined(separator: ".")
            return ClientError(status: .badRequest, field: field, message: "The field \"\(field)\" is required.")
        case let .typeMismatch(_, context), let .valueNotFound(_, context):
            let field = path(context)
            return ClientError(status: .badRequest, field: field, message: "The field \"\(field ?? "body")\" has the wrong type.")
        case let .dataCorrupted(context):
            if let invalid = context.underlyingError as? OCKValidationError {
                // An entity inside the body broke a rule: name the whole path to the field.
                let field = [path(context), invalid.field].compactMap { $0 }.joined(separator: ".")
                return ClientError(status: .unprocessableContent, field: field, message: "The field \"\(field)\" \(invalid.reason).")
            }
            let field = path(context)
            return ClientError(status: .badRequest, field: field,
                            message: field.map { "The field \"\($0)\" is not valid." } ?? "The body is not valid JSON.")
        @unknown default:
            return ClientError(status: .badRequest, message: "The body could not be read.")
        }
    }

    func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONEncoder().encode(value)) ?? Data("null".utf8)
        return Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    func decode<T: Decodable>(_ type: T.Type, _ request: Request, _ context: RecordContext, limit: Int? = nil) async throws -> T {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            throw ClientError(status: .badRequest, message: "The body must be JSON (Content-Type: application/json).")
        }
        var request = request
        let limit = limit ?? context.maxUploadSize
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: limit)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw ClientError(status: .contentTooLarge, message: "The body is larger than \(limit / 1024) KiB.")
        }
        return try JSONDecoder().decode(T.self, from: Data(buffer: body))
    }

    /// Characters a path segment keeps as they are: ids such as "dr-okafor" stay readable; "/" and the rest are
    /// percent-encoded.
    static let pathSegmentAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/;"))

    func pathID(_ context: RecordContext, name: String = "id") throws -> String {
        guard let id = context.parameters.get(name)?.removingPercentEncoding, !id.isEmpty else {
            throw ClientError(status: .badRequest, field: name, message: "The address must end in an id.")
        }
        return id
    }

    func notFound(_ what: String) -> ClientError {
        ClientError(status: .notFound, message: "There is no such \(what).")
    }

    func newestTask(_ id: String) async throws -> OCKTask {
        var query = OCKTaskQuery()
        query.ids = [id]
        guard let task = try await store.fetchTasks(query: query).first else { throw notFound("task") }
        return task
    }

    func dayParameter(_ request: Request) throws -> Date? {
        guard let text = request.uri.queryParameters.get("date") else { return nil }
        guard let day = day(from: String(text)) else {
            throw ClientError(status: .badRequest, field: "date", message: "The field \"date\" must be a day written as YYYY-MM-DD.")
        }
        return day
    }

    func taskQuery(_ request: Request) throws -> OCKTaskQuery {
        guard let day = try dayParameter(request) else { return OCKTaskQuery() }
        return OCKTaskQuery(dateInterval: page.day(containing: day))
    }
}

/// The handlers of the routes above, each a method the route table names (`RecordRouteTable`).
extension CareServer {
    /// `GET /records/{record}/api/v1/patients`.
    func getApiV1Patients(_ request: Request, _ context: RecordContext) async throws -> Response {
        json(try await store.fetchPatients(query: OCKPatientQuery()))
    }

    /// `GET /records/{record}/api/v1/careplans`.
    func getApiV1Careplans(_ request: Request, _ context: RecordContext) async throws -> Response {
        json(try await store.fetchCarePlans(query: OCKCarePlanQuery()))
    }

    /// `GET /records/{record}/api/v1/contacts`.
    func getApiV1Contacts(_ request: Request, _ context: RecordContext) async throws -> Response {
        json(try await store.fetchContacts(query: OCKContactQuery()))
    }

    /// `GET /records/{record}/api/v1/contacts/{id}`.
    func getApiV1ContactsId(_ request: Request, _ context: RecordContext) async throws -> Response {
        var query = OCKContactQuery()
        query.ids = [try pathID(context)]
        guard let contact = try await store.fetchContacts(query: query).first else { throw notFound("contact") }
        return json(contact)
    }

    /// `GET /records/{record}/api/v1/tasks`.
    func getApiV1Tasks(_ request: Request, _ context: RecordContext) async throws -> Response {
        let paging = try APIPaging(request)
        var query = try taskQuery(request)
        (query.limit, query.offset) = (paging.limit + 1, paging.offset)
        return paging.response(try await store.fetchTasks(query: query), for: request, encode: json)
    }

    /// `GET /records/{record}/api/v1/tasks/{id}`.
    func getApiV1TasksId(_ request: Request, _ context: RecordContext) async throws -> Response {
        json(try await newestTask(try pathID(context)))
    }

    /// `POST /records/{record}/api/v1/tasks`.
    func postApiV1Tasks(_ request: Request, _ context: RecordContext) async throws -> Response {
        let task = try await decode(OCKTask.self, request, context)
        return json(try await store.addTask(task), status: .created)
    }

    /// `PUT /records/{record}/api/v1/tasks/{id}`.
    func putApiV1TasksId(_ request: Request, _ context: RecordContext) async throws -> Response {
        let task = try await decode(OCKTask.self, request, context)
        guard task.id == (try pathID(context)) else {
            throw ClientError(status: .unprocessableContent, field: "id", message: "The task's id must match the address.")
        }
        _ = try await newestTask(task.id)
        return json(try await store.updateTask(task))
    }

    /// `DELETE /records/{record}/api/v1/tasks/{id}`.
    func deleteApiV1TasksId(_ request: Request, _ context: RecordContext) async throws -> Response {
        _ = try await store.deleteTask(try await newestTask(try pathID(context)))
        return Response(status: .noContent)
    }

    /// `GET /records/{record}/api/v1/outcomes`.
    func getApiV1Outcomes(_ request: Request, _ context: RecordContext) async throws -> Response {
        let paging = try APIPaging(request)
        var query = OCKOutcomeQuery()
        if let day = try dayParameter(request) { query = OCKOutcomeQuery(dateInterval: page.day(containing: day)) }
        if let taskID = request.uri.queryParameters.get("taskID") { query.taskIDs = [taskID] }
        (query.limit, query.offset) = (paging.limit + 1, paging.offset)
        return paging.response(try await store.fetchOutcomes(query: query), for: request, encode: json)
    }

    /// `POST /records/{record}/api/v1/outcomes`.
    func postApiV1Outcomes(_ request: Request, _ context: RecordContext) async throws -> Response {
        let outcome = try await decode(OCKOutcome.self, request, context)
        return json(try await store.addOutcome(outcome), status: .created)
    }

    /// `DELETE /records/{record}/api/v1/outcomes/{uuid}`.
    func deleteApiV1OutcomesUuid(_ request: Request, _ context: RecordContext) async throws -> Response {
        guard let uuid = UUID(uuidString: try pathID(context, name: "uuid")) else {
            throw ClientError(status: .badRequest, field: "uuid", message: "The address must end in an outcome's UUID.")
        }
        var query = OCKOutcomeQuery()
        query.uuids = [uuid]
        guard let outcome = try await store.fetchOutcomes(query: query).first else { throw notFound("outcome") }
        _ = try await store.deleteOutcome(outcome)
        return Response(status: .noContent)
    }

    /// `GET /records/{record}/api/v1/events`.
    func getApiV1Events(_ request: Request, _ context: RecordContext) async throws -> Response {
        let paging = try APIPaging(request)
        var query = OCKEventQuery(dateInterval: page.day(containing: try dayParameter(request) ?? configuration.now()))
        if let taskID = request.uri.queryParameters.get("taskID") { query.taskIDs = [taskID] }
        let events = try await store.fetchEvents(query: query).dropFirst(paging.offset).prefix(paging.limit + 1)
        return paging.response(events.map {
            EventResource(task: $0.task, outcome: $0.outcome, scheduleEvent: $0.scheduleEvent)
        }, for: request, encode: json)
    }

    /// `POST /records/{record}/api/v1/sync/pull`.
    func postApiV1SyncPull(_ request: Request, _ context: RecordContext) async throws -> Response {
        let pull = try await decode(SyncPull.self, request, context)
        let limit = pull.limit ?? Self.syncPageLimits.standard
        guard (1...Self.syncPageLimits.maximum).contains(limit) else {
            throw ClientError(status: .badRequest, field: "limit",
                           message: "The field \"limit\" must be between 1 and \(Self.syncPageLimits.maximum).")
        }
        return json(try await store.revisions(since: pull.knowledgeVector, after: pull.after, limit: limit))
    }

    /// `POST /records/{record}/api/v1/sync/push`.
    func postApiV1SyncPush(_ request: Request, _ context: RecordContext) async throws -> Response {
        let push = try await decode(SyncPush.self, request, context, limit: Self.syncPushLimit)
        let entities = push.revisions.lazy.flatMap(\.entities)
        let access = try await context.writeAccess()
        do {
            try await store.mergeRevisions(push.revisions, deviceKnowledge: push.knowledgeVector) { changes in
                try access.authorize(changes)
            }
        } catch let refusal as RecordWriteAccess.Refusal {
            throw ClientError(status: .forbidden, field: "revisions", message: refusal.message)
        }
        try await context.auditTrail.write("sync", .update, "\(push.revisions.count) revision records, \(entities.count) versions")
        return json(SyncPushAnswer(knowledgeVector: try await store.knowledgeVector()))
    }
}
