import OpenCareKitDirectory
import OpenCareKitStore

/// What a route of a care record lets a person do. Each role holds some of these (`isGranted(to:)`).
public enum RecordPermission: String, Sendable, CaseIterable {
    /// See the record: pages, live updates, the consent, API reads.
    case read
    /// Complete tasks, log, record values and answer surveys for the patient.
    case completeTasks
    /// Change the care plan: tasks, schedules, contacts, notes.
    case editPlan
    /// Invite people, change their roles, remove them.
    case manageSharing
    /// Read who viewed or changed the record.
    case readAuditLog
    /// Work the record's triage queue: acknowledge, assign and resolve the alerts its rules raise.
    case triage
    /// Write in the record's threads: every member, in the threads their role sees (`CareThread.Audience`, which the
    /// directory checks on every read and write).
    case message

    /// Whether `membership` holds this permission in `record`. A patient does everything; a caregiver sees and
    /// completes, and manages sharing only as the owner of a record without a patient account; a clinician sees and
    /// changes the plan, and never completes tasks for the patient. The patient, and an owner, change the plan too
    /// unless the record's owner turned that off (`CareRecord.patientEditsPlan`; without the record, as if on).
    public func isGranted(to membership: CareMembership, in record: CareRecord? = nil) -> Bool {
        switch self {
        case .read, .message: true
        case .completeTasks: membership.role != .clinician
        case .editPlan:
            membership.role == .clinician
                || ((membership.role == .patient || membership.isOwner) && record?.patientEditsPlan != false)
        case .manageSharing, .readAuditLog: membership.isOwner
        case .triage: membership.role == .clinician
        }
    }

    /// Whether the permission depends on the record's settings, not only on the membership.
    var dependsOnRecord: Bool { self == .editPlan }
}

/// Who may reach a route of a care record, and how the audit log names it.
public struct RecordRoutePolicy: Sendable, Equatable {
    /// What the route does with the record.
    public var permission: RecordPermission
    /// The audit log's resource name: `care-page`, `insights`, `api:Task` …
    public var resource: String
    /// What the audit log records the route as doing (create, read, update, delete or execute), whether the
    /// request was allowed or denied.
    public var action: AuditEntry.Action
    /// For JSON API routes, what an access token's scope must allow: the FHIR resource type and the SMART letter
    /// (c, r, u, d or s). Routes without one are for browsers only.
    public var tokenAccess: TokenAccess?

    /// What an access token's scopes must allow for the route to answer it: the SMART letter `operation` on every
    /// type in `resourceTypes` (for `anyChange`, a create, update or delete scope on any of them). A token whose
    /// scopes fall short is answered 403 Forbidden, naming the scope it needs.
    public struct TokenAccess: Sendable, Equatable {
        /// The FHIR resource types the route reads or changes, such as `["Observation"]`: a token needs a scope on
        /// each (`patient/Observation.r`, or `patient/*.r`).
        public var resourceTypes: [String]
        /// A SMART letter, or `anyChange`.
        public var operation: Character

        /// For a route whose input decides what it changes (a sync push): any of c, u or d on any of the types; the
        /// changes themselves are checked as the request makes them (`RecordWriteAccess`).
        public static let anyChange: Character = "*"
    }

    /// A policy: what a route's caller must be allowed, and how the audit log names what the route does.
    ///
    /// For example:
    /// ```swift
    /// let policy = RecordRoutePolicy(.read, resource: "insights", action: .read)
    /// ```
    ///
    /// - Parameters:
    ///   - permission: What the person's role must allow in the record; a member without it gets 403 (someone who
    ///     is not a member gets 404).
    ///   - resource: The audit log's name for what the route touches, such as `care-page` or `api:Task`.
    ///   - action: What the audit log records the route as doing.
    ///   - tokenAccess: For JSON API routes, what an access token's scope must allow; nil: the route is for
    ///     signed-in browsers only, and a request with a token gets 404.
    public init(_ permission: RecordPermission, resource: String, action: AuditEntry.Action, tokenAccess: TokenAccess? = nil) {
        self.permission = permission
        self.resource = resource
        self.action = action
        self.tokenAccess = tokenAccess
    }

    /// A page or form for browsers.
    static func page(_ resource: String, _ permission: RecordPermission = .read, action: AuditEntry.Action = .read) -> Self {
        Self(permission, resource: resource, action: action)
    }

    /// A JSON API route over FHIR `types` with SMART letter `operation`.
    static func api(_ permission: RecordPermission, _ types: [String], _ operation: Character) -> Self {
        let action: AuditEntry.Action = switch operation {
        case "c": .create
        case "u", TokenAccess.anyChange: .update
        case "d": .delete
        default: .read
        }
        return Self(permission, resource: "api:" + types.joined(separator: "+"), action: action,
                    tokenAccess: TokenAccess(resourceTypes: types, operation: operation))
    }
}
