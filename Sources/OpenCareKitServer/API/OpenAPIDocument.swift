import Foundation
import OpenCareKitStore

/// The OpenAPI 3.1 description of the JSON API, served at `/api/openapi.json`.
enum OpenAPIDocument {
    /// Every API route as (method, OpenAPI path); a test checks the router serves exactly these.
    static let operations: [(method: String, path: String, summary: String)] = [
        ("get", "/api/v1/patients", "The patient's versions"),
        ("get", "/api/v1/careplans", "Care plans"),
        ("get", "/api/v1/contacts", "Contacts"),
        ("get", "/api/v1/contacts/{id}", "The newest version of a contact"),
        ("get", "/api/v1/tasks", "Tasks, or those in effect on a day"),
        ("post", "/api/v1/tasks", "Add a task"),
        ("get", "/api/v1/tasks/{id}", "The newest version of a task"),
        ("put", "/api/v1/tasks/{id}", "Update a task (adds a version)"),
        ("delete", "/api/v1/tasks/{id}", "Delete a task"),
        ("get", "/api/v1/outcomes", "Outcomes, optionally of a day and a task"),
        ("post", "/api/v1/outcomes", "Add an outcome"),
        ("delete", "/api/v1/outcomes/{uuid}", "Delete an outcome"),
        ("get", "/api/v1/events", "A day's events: task, outcome and schedule event"),
        ("post", "/api/v1/sync/pull", "CareKit sync: a page of the versions the device does not know"),
        ("post", "/api/v1/sync/push", "CareKit sync: merge the device's versions and knowledge"),
    ]

    /// The sync operations' request and answer schemas.
    static let syncSchemas: [String: (request: String, answer: String)] = [
        "/api/v1/sync/pull": ("SyncPull", "RevisionPage"), "/api/v1/sync/push": ("SyncPush", "SyncPushAnswer"),
    ]

    static let schemaOf: [String: String] = [
        "/api/v1/patients": "Patient", "/api/v1/careplans": "CarePlan", "/api/v1/contacts": "Contact",
        "/api/v1/contacts/{id}": "Contact", "/api/v1/tasks": "Task", "/api/v1/tasks/{id}": "Task",
        "/api/v1/outcomes": "Outcome", "/api/v1/outcomes/{uuid}": "Outcome", "/api/v1/events": "Event",
    ]

    static var document: [String: Any] {
        func ref(_ name: String) -> [String: Any] { ["$ref": "#/components/schemas/\(name)"] }
        let error: [String: Any] = ["description": "The input is wrong; the body names the field.",
                                    "content": ["application/json": ["schema": ref("Error")]]]
        var paths: [String: [String: Any]] = [:]
        for operation in operations {
            let schema = schemaOf[operation.path] ?? "Task"
            let isList = !operation.path.hasSuffix("}") && operation.method == "get"
            var entry: [String: Any] = ["summary": operation.summary, "operationId": operationID(operation)]
            var parameters: [[String: Any]] = [[
                "name": "record", "in": "path", "required": true, "description": "The care record's id",
                "schema": ["type": "string", "pattern": "^[0-7][0-9a-hjkmnp-tv-z]{25}$"],
            ]]
            if operation.path.contains("{id}") {
                parameters.append(["name": "id", "in": "path", "required": true, "schema": ["type": "string"]])
            }
            if operation.path.contains("{uuid}") {
                parameters.append(["name": "uuid", "in": "path", "required": true, "schema": ["type": "string", "format": "uuid"]])
            }
            if operation.method == "get", ["/api/v1/tasks", "/api/v1/outcomes", "/api/v1/events"].contains(operation.path) {
                parameters.append(["name": "date", "in": "query", "required": false, "description": "A day, YYYY-MM-DD",
                                   "schema": ["type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"]])
            }
            if operation.method == "get", ["/api/v1/outcomes", "/api/v1/events"].contains(operation.path) {
                parameters.append(["name": "taskID", "in": "query", "required": false, "schema": ["type": "string"]])
            }
            if operation.method == "get", ["/api/v1/tasks", "/api/v1/outcomes", "/api/v1/events"].contains(operation.path) {
                parameters.append(["name": "limit", "in": "query", "required": false,
                                   "description": "Items per page (a Link header with rel=\"next\" gives the next page)",
                                   "schema": ["type": "integer", "minimum": 1, "maximum": APIPaging.maximumLimit,
                                              "default": APIPaging.defaultLimit]])
                parameters.append(["name": "offset", "in": "query", "required": false,
                                   "schema": ["type": "integer", "minimum": 0, "maximum": APIPaging.maximumOffset, "default": 0]])
            }
            entry["parameters"] = parameters
            var responses: [String: Any] = [
                "400": error,
                "401": ["description": "No valid access token (or session).", "content": ["application/json": ["schema": ref("Error")]]],
                "403": ["description": "The token's scope or the person's role does not allow this.",
                        "content": ["application/json": ["schema": ref("Error")]]],
                "404": ["description": "No such record or entity, or no access to the record.",
                        "content": ["application/json": ["schema": ref("Error")]]],
            ]
            switch operation.method {
            case "post" where syncSchemas[operation.path] != nil:
                let (request, answer) = syncSchemas[operation.path]!
                entry["requestBody"] = ["required": true, "content": ["application/json": ["schema": ref(request)]]]
                responses["200"] = ["description": "OK", "content": ["application/json": ["schema": ref(answer)]]]
                responses["409"] = error
                responses["413"] = error
                responses["422"] = error
            case "get":
                let body: [String: Any] = isList ? ["type": "array", "items": ref(schema)] : ref(schema)
                responses["200"] = ["description": "OK", "content": ["application/json": ["schema": body]]]
            case "post":
                entry["requestBody"] = ["required": true, "content": ["application/json": ["schema": ref(schema)]]]
                responses["201"] = ["description": "Added", "content": ["application/json": ["schema": ref(schema)]]]
                responses["409"] = error
                responses["413"] = error
                responses["422"] = error
            case "put":
                entry["requestBody"] = ["required": true, "content": ["application/json": ["schema": ref(schema)]]]
                responses["200"] = ["description": "Updated", "content": ["application/json": ["schema": ref(schema)]]]
                responses["409"] = error
                responses["413"] = error
                responses["422"] = error
            default:
                responses["204"] = ["description": "Deleted"]
            }
            entry["responses"] = responses
            entry["security"] = scope(operation).split(separator: " ").map { ["bearer": [String($0)]] } + [["session": []]]
            paths[Self.recordPrefix + operation.path, default: [:]][operation.method] = entry
        }
        let entity: [String: Any] = ["type": "object", "description": "CareKit's JSON for the entity.", "additionalProperties": true]
        return [
            "openapi": "3.1.0",
            "info": ["title": "OpenCareKit", "version": "1.0.0",
                     "description": "A patient's care record in CareKit's JSON: tasks, outcomes, events, contacts."],
            "paths": paths,
            "components": ["securitySchemes": [
                "bearer": ["type": "http", "scheme": "bearer",
                           "description": "A personal access token (made in the account page), bound to one record and a SMART scope such as patient/*.rs; the scope each operation needs is named in its security requirement."],
                "session": ["type": "apiKey", "in": "cookie", "name": "ock_session", "description": "A signed-in browser's session."],
            ], "schemas": [
                "Patient": entity.merging(["required": ["id", "name"]]) { $1 },
                "CarePlan": entity.merging(["required": ["id", "title"]]) { $1 },
                "Contact": entity.merging(["required": ["id", "name"]]) { $1 },
                "Task": entity.merging(["required": ["id", "schedule"]]) { $1 },
                "Outcome": entity.merging(["required": ["taskUUID", "taskOccurrenceIndex", "values"]]) { $1 },
                "Event": ["type": "object", "required": ["task", "scheduleEvent"], "properties": [
                    "task": ref("Task"), "outcome": ["oneOf": [ref("Outcome"), ["type": "null"]]],
                    "scheduleEvent": ["type": "object", "additionalProperties": true],
                ]],
                "KnowledgeVector": ["type": "object", "required": ["processes"], "properties": ["processes": [
                    "type": "array", "description": "Each process (device or server store) that wrote, and how far its clock is known.",
                    "items": ["type": "object", "required": ["id", "clock"], "properties": [
                        "id": ["type": "string", "format": "uuid"], "clock": ["type": "integer", "minimum": 0],
                    ]],
                ]]],
                "RevisionRecord": ["type": "object", "required": ["entities", "knowledgeVector"], "properties": [
                    "entities": ["type": "array", "items": ["type": "object", "required": ["type", "object"], "properties": [
                        "type": ["type": "string", "enum": OCKEntity.EntityType.allCases.map(\.rawValue)],
                        "object": entity,
                    ]]],
                    "knowledgeVector": ref("KnowledgeVector"),
                ]],
                "SyncPull": ["type": "object", "required": ["knowledgeVector"], "properties": [
                    "knowledgeVector": ref("KnowledgeVector"),
                    "after": ["type": "string", "description": "The previous page's next"],
                    "limit": ["type": "integer", "minimum": 1, "maximum": CareServer.syncPageLimits.maximum,
                              "default": CareServer.syncPageLimits.standard],
                ]],
                "RevisionPage": ["type": "object", "required": ["revisions"], "properties": [
                    "revisions": ["type": "array", "items": ref("RevisionRecord")],
                    "next": ["type": "string", "description": "Where the next page starts; absent on the last page"],
                    "knowledge": ref("KnowledgeVector"),
                ]],
                "SyncPush": ["type": "object", "required": ["revisions"], "properties": [
                    "revisions": ["type": "array", "items": ref("RevisionRecord")],
                    "knowledgeVector": ref("KnowledgeVector").merging(["description": "What the device knows; on the last part of a push only"]) { $1 },
                ]],
                "SyncPushAnswer": ["type": "object", "required": ["knowledgeVector"], "properties": ["knowledgeVector": ref("KnowledgeVector")]],
                "Error": ["type": "object", "required": ["error"], "properties": ["error": [
                    "type": "object", "required": ["status", "message"], "properties": [
                        "status": ["type": "integer"], "field": ["type": "string"], "message": ["type": "string"],
                    ],
                ]]],
            ]],
        ]
    }

    /// Where each record's API lives.
    static let recordPrefix = "/records/{record}"

    /// The SMART scopes an operation needs, as its route's policy says, space-separated: all of them, or for a
    /// route whose input decides (a sync push), any one of them.
    static func scope(_ operation: (method: String, path: String, summary: String)) -> String {
        let path = operation.path.replacingOccurrences(of: "{id}", with: ":id").replacingOccurrences(of: "{uuid}", with: ":uuid")
        let route = CareHost.apiPolicies["\(operation.method.uppercased()) \(path)"]
        return route.map { access in
            access.operation == RecordRoutePolicy.TokenAccess.anyChange ? "patient/*.c patient/*.u patient/*.d"
                : access.resourceTypes.map { "patient/\($0).\(access.operation)" }.joined(separator: " ")
        } ?? ""
    }

    static func operationID(_ operation: (method: String, path: String, summary: String)) -> String {
        let parts = operation.path.split(separator: "/").dropFirst(2).map { part in
            part.hasPrefix("{") ? "By" + part.dropFirst().dropLast().capitalized : part.capitalized
        }
        return operation.method + parts.joined()
    }

    static let json: Data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data("{}".utf8)
}
