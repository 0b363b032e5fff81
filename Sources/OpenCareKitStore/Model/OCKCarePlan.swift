import Foundation

/// A care plan: a titled group of tasks and contacts for a patient.
///
/// Same API and JSON as CareKitStore's `OCKCarePlan`. Tasks and contacts name the plan version they belong to by its
/// `uuid` (`carePlanUUID`); queries can also find them by the plan's `id` (`carePlanIDs`), which covers every version.
/// Plans are versioned like every entity.
///
/// For example:
/// ```swift
/// let patient = try await store.addPatient(OCKPatient(id: "jane", givenName: "Jane", familyName: "Appleseed"))
/// let plan = try await store.addCarePlan(OCKCarePlan(id: "knee-rehab", title: "Knee rehabilitation",
///                                                    patientUUID: patient.uuid))
/// var query = OCKTaskQuery(for: Date())
/// query.carePlanIDs = [plan.id]
/// let tasks = try await store.fetchTasks(query: query)
/// ```
public struct OCKCarePlan: Codable, Hashable, Sendable, Identifiable, OCKAnyCarePlan, OCKVersionedObjectCompatible {
    /// The `uuid` of the patient version the plan is for; nil for a plan without a patient.
    public var patientUUID: UUID?
    public var id: String
    public var title: String
    public var effectiveDate: Date
    public var deletedDate: Date?
    public var uuid = UUID.timeOrdered()
    public var nextVersionUUIDs: [UUID] = []
    public var previousVersionUUIDs: [UUID] = []
    public var createdDate: Date?
    public var updatedDate: Date?
    public var schemaVersion: OCKSemanticVersion?
    public var groupIdentifier: String?
    public var tags: [String]?
    public var remoteID: String?
    public var userInfo: [String: String]?
    public var source: String?
    public var asset: String?
    public var notes: [OCKNote]?
    public var timezone: TimeZone

    /// A care plan effective now, in the current time zone, with a new time-ordered `uuid`.
    public init(id: String, title: String, patientUUID: UUID?) {
        self.id = id
        self.title = title
        self.patientUUID = patientUUID
        self.effectiveDate = Date()
        self.timezone = .current
    }

    public func belongs(to patient: OCKAnyPatient) -> Bool {
        guard let patient = patient as? OCKPatient, let patientUUID else { return false }
        return patient.uuid == patientUUID
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: EntityCodingKey.self)
        self.init(id: try container.decode(String.self, forKey: "id"),
                  title: try container.decode(String.self, forKey: "title"),
                  patientUUID: try container.decodeIfPresent(UUID.self, forKey: "patientUUID"))
        try decodeSharedFields(from: container)
        try checkDecoded(decoder)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: EntityCodingKey.self)
        try encodeSharedFields(to: &container)
        try container.encode(title, forKey: "title")
        try container.encodeIfPresent(patientUUID, forKey: "patientUUID")
    }
}

extension OCKCarePlan: OCKValidatable {
    /// Throws for an empty id or dates outside 1900…4001.
    public func validate() throws(OCKValidationError) {
        try validateSharedFields()
    }
}
