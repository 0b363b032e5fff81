import Foundation

/// What the patient recorded for one occurrence of a task: the values, such as `true` for "done" or a dose.
///
/// Same API and JSON as CareKitStore's `OCKOutcome`. An outcome belongs to one task *version* (`taskUUID`) and one
/// occurrence of its schedule (`taskOccurrenceIndex`); the store keeps at most one current outcome per occurrence, and
/// refuses an outcome for an occurrence the schedule does not have or one that a newer task version has taken over.
/// Outcomes are versioned like tasks: `updateOutcomes(_:)` appends a version, and deleting appends a tombstone, which
/// marks the event not done again.
///
/// For example:
/// ```swift
/// let events = try await store.fetchEvents(query: OCKEventQuery(for: Date()))
/// if let event = events.first(where: { $0.task.id == "ibuprofen" && $0.outcome == nil }) {
///     let outcome = OCKOutcome(taskUUID: event.task.uuid, taskOccurrenceIndex: event.scheduleEvent.occurrence,
///                              values: [OCKOutcomeValue(200.0, units: "mg")])
///     try await store.addOutcome(outcome)
/// }
/// ```
public struct OCKOutcome: Codable, Hashable, Sendable, Identifiable, OCKAnyOutcome, OCKVersionedObjectCompatible {
    /// The `uuid` of the task version whose event the outcome records.
    public var taskUUID: UUID
    public var id: String = UUID.timeOrdered().uuidString
    /// Which occurrence of the task version's schedule the outcome records (0 is the first event).
    public var taskOccurrenceIndex: Int
    public var values: [OCKOutcomeValue]
    public var effectiveDate: Date
    public var deletedDate: Date?
    public var uuid = UUID.timeOrdered()
    public var nextVersionUUIDs: [UUID] = []
    public var previousVersionUUIDs: [UUID] = []
    public var createdDate: Date?
    public var updatedDate: Date?
    public var schemaVersion: OCKSemanticVersion?
    public var remoteID: String?
    public var groupIdentifier: String?
    public var tags: [String]?
    public var source: String?
    public var userInfo: [String: String]?
    public var asset: String?
    public var notes: [OCKNote]?
    public var timezone: TimeZone

    /// An outcome for occurrence `taskOccurrenceIndex` of the task version `taskUUID`, effective now, in the current
    /// time zone, with a new time-ordered uuid string as its `id`.
    public init(taskUUID: UUID, taskOccurrenceIndex: Int, values: [OCKOutcomeValue]) {
        self.taskUUID = taskUUID
        self.taskOccurrenceIndex = taskOccurrenceIndex
        self.values = values
        self.effectiveDate = Date()
        self.timezone = .current
    }

    public func belongs(to task: OCKAnyTask) -> Bool {
        task.uuid == taskUUID
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: EntityCodingKey.self)
        self.init(taskUUID: try container.decode(UUID.self, forKey: "taskUUID"),
                  taskOccurrenceIndex: try container.decode(Int.self, forKey: "taskOccurrenceIndex"),
                  values: try container.decodeIfPresent([OCKOutcomeValue].self, forKey: "values") ?? [])
        id = try container.decode(String.self, forKey: "id")
        try decodeSharedFields(from: container)
        try checkDecoded(decoder)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: EntityCodingKey.self)
        try encodeSharedFields(to: &container)
        try container.encode(taskUUID, forKey: "taskUUID")
        try container.encode(taskOccurrenceIndex, forKey: "taskOccurrenceIndex")
        try container.encode(values, forKey: "values")
    }
}

extension OCKOutcome: OCKValidatable {
    /// Throws for an empty id, a negative occurrence index, dates outside 1900…4001 or an invalid value.
    public func validate() throws(OCKValidationError) {
        try validateSharedFields()
        guard taskOccurrenceIndex >= 0 else {
            throw OCKValidationError(field: "taskOccurrenceIndex", reason: "must not be negative")
        }
        for (index, value) in values.enumerated() {
            do { try value.validate() } catch { throw error.nested(in: "values[\(index)]") }
        }
    }
}
