import Foundation

/// A task whose outcomes are HealthKit samples (steps walked, heart rate), as a CareKit app on iPhone keeps it.
///
/// Same fields and JSON as CareKitStore's `OCKHealthKitTask`: a task plus `healthKitLinkage`. HealthKit exists only on
/// Apple devices, so here the task is data: stored, versioned and synchronized with the devices of the record (a
/// CareKit device's revision records hold them as `"type": "healthKitTask"`), and read with `OCKStore`'s
/// `fetchHealthKitTasks(query:)`. Its outcomes stay in the device's HealthKit store and never reach a revision.
///
/// For example:
/// ```swift
/// let linkage = OCKHealthKitLinkage(quantityIdentifier: "HKQuantityTypeIdentifierStepCount",
///                                   quantityType: .cumulative, unitString: "count")
/// let schedule = OCKSchedule.dailyAtTime(hour: 0, minutes: 0, start: start, end: nil, text: nil, duration: .allDay)
/// let steps = OCKHealthKitTask(id: "steps", title: "Walk 5,000 steps", carePlanUUID: plan.uuid,
///                              schedule: schedule, healthKitLinkage: linkage)
/// try await store.addHealthKitTasks([steps])
/// let today = try await store.fetchHealthKitTasks(query: OCKTaskQuery(for: Date()))
/// ```
public struct OCKHealthKitTask: Codable, Hashable, Sendable, OCKAnyVersionableTask, OCKVersionedObjectCompatible, TaskFields {
    /// The `uuid` of the care plan version the task belongs to; nil for a task outside any plan.
    public var carePlanUUID: UUID?
    /// Which HealthKit quantity the task's outcomes are, and how they are read.
    public var healthKitLinkage: OCKHealthKitLinkage
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

    /// A task whose first version applies from the schedule's start, created in the current time zone, whose outcomes
    /// are read from HealthKit as `healthKitLinkage` says.
    public init(id: String, title: String?, carePlanUUID: UUID?, schedule: OCKSchedule, healthKitLinkage: OCKHealthKitLinkage) {
        self.id = id
        self.title = title
        self.carePlanUUID = carePlanUUID
        self.schedule = schedule
        self.healthKitLinkage = healthKitLinkage
        self.effectiveDate = schedule.startDate()
        self.timezone = .current
    }

    public func belongs(to plan: OCKAnyCarePlan) -> Bool {
        belongsToPlan(plan)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: EntityCodingKey.self)
        let basics = try Self.decodeTaskBasics(from: container)
        self.init(id: basics.id, title: basics.title, carePlanUUID: basics.carePlanUUID, schedule: basics.schedule,
                  healthKitLinkage: try container.decode(OCKHealthKitLinkage.self, forKey: "healthKitLinkage"))
        try decodeTaskFields(from: container)
        try checkDecoded(decoder)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: EntityCodingKey.self)
        try encodeTaskFields(to: &container)
        try container.encode(healthKitLinkage, forKey: "healthKitLinkage")
    }
}

extension OCKHealthKitTask: OCKValidatable {
    /// A task's rules, and a linkage whose identifier and unit are each non-empty, at most 1,024 bytes and free of
    /// control characters.
    public func validate() throws(OCKValidationError) {
        try validateTaskFields()
        try Self.validateIdentifier(healthKitLinkage.quantityIdentifier, field: "healthKitLinkage.quantityIdentifier")
        try Self.validateIdentifier(healthKitLinkage.unitString, field: "healthKitLinkage.unitString")
    }
}

/// How a HealthKit task's outcomes are read from HealthKit, as CareKitStore's `OCKHealthKitLinkage` and its JSON:
/// `{"quantityIdentifier": "HKQuantityTypeIdentifierStepCount", "quantityType": "cumulative", "unitString": "count"}`.
///
/// Linux has no HealthKit, so the quantity type identifier and the unit are their strings (an
/// `HKQuantityTypeIdentifier`'s raw value, an `HKUnit`'s `unitString`), kept as the device wrote them.
public struct OCKHealthKitLinkage: Codable, Hashable, Sendable {
    /// How samples of the quantity are combined.
    public enum QuantityType: String, Codable, Hashable, Sendable {
        /// Summed over a period (steps, energy burned).
        case cumulative
        /// Measured at a point in time (heart rate, body mass); one value per sample.
        case discrete
    }

    /// The raw value of the `HKQuantityTypeIdentifier` ("HKQuantityTypeIdentifierStepCount").
    public var quantityIdentifier: String
    /// Whether samples are summed or kept one by one.
    public var quantityType: QuantityType
    /// The unit of the outcomes, as `HKUnit.unitString` writes it ("count", "count/min", "kg").
    public var unitString: String

    /// A linkage to the HealthKit quantity `quantityIdentifier` (an `HKQuantityTypeIdentifier`'s raw value), combined
    /// as `quantityType` says, in the unit `unitString` (an `HKUnit`'s `unitString`).
    public init(quantityIdentifier: String, quantityType: QuantityType, unitString: String) {
        self.quantityIdentifier = quantityIdentifier
        self.quantityType = quantityType
        self.unitString = unitString
    }
}
