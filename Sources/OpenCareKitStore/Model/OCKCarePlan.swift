import Foundation

/// A care plan: a titled group of tasks and contacts for a patient.
public struct OCKCarePlan: Codable, Hashable, Sendable, Identifiable, OCKAnyCarePlan, OCKVersionedObjectCompatible {
    /// The patient the plan is for.
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

    /// A care plan effective now, in the current time zone.
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
