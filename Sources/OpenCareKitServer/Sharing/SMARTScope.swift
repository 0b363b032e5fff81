/// An access token's scope in SMART App Launch v2's form, `patient/<Resource|*>.<cruds>`: which FHIR resource types
/// (or all, `*`) and which of create, read, update, delete and search. A token is bound to one record, so its
/// scopes are patient scopes. SMART v1's `.read` and `.write` are read as `.rs` and `.cud`.
///
/// For example: `patient/*.rs` reads everything; `patient/Observation.crs` also records outcomes.
public struct SMARTScope: Sendable, Hashable, CustomStringConvertible {
    /// A FHIR resource type, or `*`.
    public let resourceType: String
    /// A subset of `cruds`, in that order.
    public let operations: String

    /// The FHIR resource types a scope may name besides `*`; a scope naming another is refused with a `ParseError`
    /// that lists these.
    public static let resourceTypes = ["Patient", "CarePlan", "CareTeam", "Observation", "Communication", "Flag", "Task"]

    /// Why a scope, or a list of them, was refused: not `patient/…`, not `Type.letters`, an unknown resource type,
    /// letters outside `cruds` or out of order, no letters, or a list of no scopes or more than 16.
    public struct ParseError: Error, Equatable, Sendable {
        /// What is wrong, in English.
        public let message: String
        let problem: ErrorText
        let arguments: [String]

        init(_ problem: ErrorText, _ arguments: String...) {
            self.problem = problem
            self.arguments = arguments
            message = problem.text(.english, arguments: arguments)
        }

        /// What is wrong, in every language.
        var pageMessage: PageMessage { PageMessage(problem, arguments: arguments) }
    }

    /// Parses one scope.
    /// - Throws: `ParseError` naming what is wrong.
    public init(_ text: String) throws {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "patient" else {
            throw ParseError(.scopePrefix)
        }
        let rest = parts[1].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard rest.count == 2, !rest[0].isEmpty else { throw ParseError(.scopeForm) }
        let type = String(rest[0])
        guard type == "*" || Self.resourceTypes.contains(type) else {
            throw ParseError(.scopeResource, Self.resourceTypes.joined(separator: ", "))
        }
        var letters = String(rest[1])
        if letters == "read" { letters = "rs" } else if letters == "write" { letters = "cud" }
        let order = Array("cruds")
        var last = -1
        for letter in letters {
            guard let position = order.firstIndex(of: letter), position > last else {
                throw ParseError(.scopeOperations)
            }
            last = position
        }
        guard !letters.isEmpty else { throw ParseError(.scopeNoOperation) }
        resourceType = type
        operations = letters
    }

    public var description: String { "patient/\(resourceType).\(operations)" }

    /// Parses space-separated scopes.
    public static func parseList(_ text: String) throws -> [SMARTScope] {
        let scopes = try text.split(separator: " ").map { try SMARTScope(String($0)) }
        guard !scopes.isEmpty, scopes.count <= 16 else { throw ParseError(.scopeCount) }
        return scopes
    }

    /// Whether `scopes` together allow `operation` on every resource type of `access`.
    static func allows(_ scopes: [SMARTScope], _ access: RecordRoutePolicy.TokenAccess) -> Bool {
        if access.operation == RecordRoutePolicy.TokenAccess.anyChange {
            return scopes.contains { scope in
                (scope.resourceType == "*" || access.resourceTypes.contains(scope.resourceType)) && scope.operations.contains { "cud".contains($0) }
            }
        }
        return access.resourceTypes.allSatisfy { type in
            scopes.contains { ($0.resourceType == "*" || $0.resourceType == type) && $0.operations.contains(access.operation) }
        }
    }
}
