import Foundation

/// Something the patient should do on a schedule: take a medication, do knee exercises, log nausea.
///
/// Same API and JSON as CareKitStore's `OCKTask`. Tasks are versioned: an update appends a new version that applies
/// from its `effectiveDate`, which defaults to the schedule's start.
///
/// For example:
/// ```swift
/// let schedule = OCKSchedule.dailyAtTime(hour: 8, minutes: 0, start: start, end: nil, text: nil)
/// var task = OCKTask(id: "ibuprofen", title: "Ibuprofen", carePlanUUID: plan.uuid, schedule: schedule)
/// task.instructions = "Take with food."
/// ```
public struct OCKTask: Codable, Hashable, Sendable, OCKAnyVersionableTask, OCKVersionedObjectCompatible {
    /// The care plan the task belongs to.
    public var carePlanUUID: UUID?
    public var id: String
    public var title: String?
    public var instructions: String?
    public var impactsAdherence = true
    public var schedule: OCKSchedule
    public var groupIdentifier: String?
    public var tags: [String]?
    public var effectiveDate: Date
    public var deletedDate: Date?
    public var uuid = UUID()
    public var nextVersionUUIDs: [UUID] = []
    public var previousVersionUUIDs: [UUID] = []
    public var createdDate: Date?
    public var updatedDate: Date?
    public var schemaVersion: OCKSemanticVersion?
    public var remoteID: String?
    public var source: String?
    public var userInfo: [String: String]?
    public var asset: String?
    public var notes: [OCKNote]?
    public var timezone: TimeZone

    /// A task whose first version applies from the schedule's start, created in the current time zone.
    public init(id: String, title: String?, carePlanUUID: UUID?, schedule: OCKSchedule) {
        self.id = id
        self.title = title
        self.carePlanUUID = carePlanUUID
        self.schedule = schedule
        self.effectiveDate = schedule.startDate()
        self.timezone = .current
    }

    public func belongs(to plan: OCKAnyCarePlan) -> Bool {
        guard let plan = plan as? OCKCarePlan, let carePlanUUID else { return false }
        return plan.uuid == carePlanUUID
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: EntityCodingKey.self)
        self.init(id: try container.decode(String.self, forKey: "id"),
                  title: try container.decodeIfPresent(String.self, forKey: "title"),
                  carePlanUUID: try container.decodeIfPresent(UUID.self, forKey: "carePlanUUID"),
                  schedule: try container.decode(OCKSchedule.self, forKey: "schedule"))
        instructions = try container.decodeIfPresent(String.self, forKey: "instructions")
        impactsAdherence = try container.decodeIfPresent(Bool.self, forKey: "impactsAdherence") ?? true
        try decodeSharedFields(from: container, effectiveDateRequired: false)
        try checkDecoded(decoder)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: EntityCodingKey.self)
        try encodeSharedFields(to: &container)
        try container.encodeIfPresent(carePlanUUID, forKey: "carePlanUUID")
        try container.encodeIfPresent(title, forKey: "title")
        try container.encodeIfPresent(instructions, forKey: "instructions")
        try container.encode(impactsAdherence, forKey: "impactsAdherence")
        try container.encode(schedule, forKey: "schedule")
    }
}

extension OCKTask: OCKValidatable {
    /// Throws for an empty id, dates outside 1900…4001, or an invalid schedule (the field names the element).
    public func validate() throws(OCKValidationError) {
        try validateSharedFields()
        do { try schedule.validate() } catch { throw error.nested(in: "schedule") }
    }
}
