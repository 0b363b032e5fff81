import OpenCareKitStore

/// What the person asking may change in a record: the permissions their role holds, and — for an access token —
/// its scopes. Every write whose changes depend on its input (a sync push) is checked here against what it changes
/// (`OCKStoreChange`), inside the store's transaction, by the same table the JSON API's routes are declared with:
/// a push needs exactly what the API calls making the same changes need.
struct RecordWriteAccess: Sendable {
    /// The permissions the membership holds in the record.
    let granted: Set<RecordPermission>
    /// The token's scopes; nil for a signed-in person (a session is not limited by scope).
    let scopes: [SMARTScope]?

    /// What a change needs: the role's permission, and the SMART resource type and letter a token's scope must
    /// allow — the same as the JSON API route that makes that change (`POST /api/v1/outcomes`: complete tasks,
    /// `Observation.c`).
    static func requirement(for change: OCKStoreChange) -> (permission: RecordPermission, resourceType: String, operation: Character) {
        let operation: Character = switch change.action {
        case .add: "c"
        case .update: "u"
        case .delete: "d"
        }
        return switch change.kind {
        case .outcome: (.completeTasks, "Observation", operation)
        case .task, .healthKitTask, .carePlan: (.editPlan, "CarePlan", operation)
        case .contact: (.editPlan, "CareTeam", operation)
        case .patient: (.editPlan, "Patient", operation)
        }
    }

    /// The refusal of a change the person may not make.
    struct Refusal: Error, Equatable {
        /// Whether the role refuses (else the token's scope).
        let byRole: Bool
        let permission: RecordPermission
        /// The scope a token would need, such as `patient/Observation.c`.
        let scope: String

        var message: String {
            guard byRole else { return "The access token's scope does not allow this (it needs \(scope))." }
            return switch permission {
            case .editPlan: "Your role in this record does not allow changing the care plan."
            case .completeTasks: "Your role in this record does not allow recording outcomes."
            default: "Your role in this record does not allow this change."
            }
        }
    }

    /// Throws a `Refusal` unless every change is allowed.
    func authorize(_ changes: Set<OCKStoreChange>) throws(Refusal) {
        // In a fixed order, so the same push is refused for the same reason.
        for change in changes.sorted(by: { ($0.kind.rawValue, $0.action.rawValue) < ($1.kind.rawValue, $1.action.rawValue) }) {
            let needed = Self.requirement(for: change)
            let scope = "patient/\(needed.resourceType).\(needed.operation)"
            guard granted.contains(needed.permission) else { throw Refusal(byRole: true, permission: needed.permission, scope: scope) }
            if let scopes, !SMARTScope.allows(scopes, .init(resourceTypes: [needed.resourceType], operation: needed.operation)) {
                throw Refusal(byRole: false, permission: needed.permission, scope: scope)
            }
        }
    }
}
