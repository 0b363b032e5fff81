import Foundation

/// Something the patient should do on a schedule: take a medication, do knee exercises, log nausea.
///
/// Same API and JSON as CareKitStore's `OCKTask`. Tasks are versioned: `updateTasks(_:)` appends a new version that
/// applies from its `effectiveDate` (which defaults to the schedule's start), so the events before that date keep the
/// schedule of the version in effect then. Each event is one occurrence of the schedule; outcomes (``OCKOutcome``)
/// record what was done for an occurrence of one task version.
///
/// For example:
/// ```swift
/// let schedule = OCKSchedule.dailyAtTime(hour: 8, minutes: 0, start: start, end: nil, text: nil)
/// var task = OCKTask(id: "ibuprofen", title: "Ibuprofen", carePlanUUID: plan.uuid, schedule: schedule)
/// task.instructions = "Take with food."
/// task = try await store.addTask(task)
///
/// // From next Monday at 9:00; the events before Monday keep the 8:00 schedule.
/// task.schedule = OCKSchedule.dailyAtTime(hour: 9, minutes: 0, start: nextMonday, end: nil, text: nil)
/// task.effectiveDate = nextMonday
/// task = try await store.updateTask(task)
/// ```
public struct OCKTask: Codable, Hashable, Sendable, OCKAnyVersionableTask, OCKVersionedObjectCompatible, TaskFields {
    /// The `uuid` of the care plan version the task belongs to; nil for a task outside any plan.
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
    public var uuid = UUID.timeOrdered()
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
    ///
    /// The task counts toward adherence (`impactsAdherence` is true) and gets a new time-ordered `uuid`; the store sets
    /// the dates and version links when it is added.
    public init(id: String, title: String?, carePlanUUID: UUID?, schedule: OCKSchedule) {
        self.id = id
        self.title = title
        self.carePlanUUID = carePlanUUID
        self.schedule = schedule
        self.effectiveDate = schedule.startDate()
        self.timezone = .current
    }

    public func belongs(to plan: OCKAnyCarePlan) -> Bool {
        belongsToPlan(plan)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: EntityCodingKey.self)
        let basics = try Self.decodeTaskBasics(from: container)
        self.init(id: basics.id, title: basics.title, carePlanUUID: basics.carePlanUUID, schedule: basics.schedule)
        try decodeTaskFields(from: container)
        try checkDecoded(decoder)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: EntityCodingKey.self)
        try encodeTaskFields(to: &container)
    }
}

/// The fields every kind of task has beyond the version metadata (`OCKTask`, `OCKHealthKitTask`), coded, validated
/// and related to plans alike.
protocol TaskFields: OCKVersionedObjectCompatible, OCKAnyTask {
    var carePlanUUID: UUID? { get set }
    var title: String? { get set }
    var instructions: String? { get set }
    var impactsAdherence: Bool { get set }
    var schedule: OCKSchedule { get set }
}

extension TaskFields {
    /// Whether the task's plan is `plan`.
    func belongsToPlan(_ plan: OCKAnyCarePlan) -> Bool {
        guard let plan = plan as? OCKCarePlan, let carePlanUUID else { return false }
        return plan.uuid == carePlanUUID
    }

    /// What a task's initializer takes.
    static func decodeTaskBasics(from container: EntityDecodingContainer) throws
        -> (id: String, title: String?, carePlanUUID: UUID?, schedule: OCKSchedule) {
        (try container.decode(String.self, forKey: "id"), try container.decodeIfPresent(String.self, forKey: "title"),
         try container.decodeIfPresent(UUID.self, forKey: "carePlanUUID"), try container.decode(OCKSchedule.self, forKey: "schedule"))
    }

    /// The rest: instructions, `impactsAdherence` (true when absent) and the shared fields (the effective date
    /// defaults to the schedule's start).
    mutating func decodeTaskFields(from container: EntityDecodingContainer) throws {
        instructions = try container.decodeIfPresent(String.self, forKey: "instructions")
        impactsAdherence = try container.decodeIfPresent(Bool.self, forKey: "impactsAdherence") ?? true
        try decodeSharedFields(from: container, effectiveDateRequired: false)
    }

    func encodeTaskFields(to container: inout EntityEncodingContainer) throws {
        try encodeSharedFields(to: &container)
        try container.encodeIfPresent(carePlanUUID, forKey: "carePlanUUID")
        try container.encodeIfPresent(title, forKey: "title")
        try container.encodeIfPresent(instructions, forKey: "instructions")
        try container.encode(impactsAdherence, forKey: "impactsAdherence")
        try container.encode(schedule, forKey: "schedule")
    }

    /// Throws for an empty id, dates outside 1900…4001, or an invalid schedule (the field names the element).
    func validateTaskFields() throws(OCKValidationError) {
        try validateSharedFields()
        do { try schedule.validate() } catch { throw error.nested(in: "schedule") }
    }
}

extension OCKTask: OCKValidatable {
    /// Throws for an empty id, dates outside 1900…4001, or an invalid schedule (the field names the element).
    public func validate() throws(OCKValidationError) {
        try validateTaskFields()
    }
}
