import Foundation

/// A batch of entity versions exchanged during sync, with the knowledge vector they were written under.
///
/// JSON: `{"entities": [{"type": "task", "object": {…}}, …], "knowledgeVector": {"processes": […]}}`.
/// A store pages out the records a remote lacks with `OCKStore`'s `revisions(since:after:limit:)` and merges records
/// with `mergeRevisions(_:deviceKnowledge:)`; merging is idempotent (versions the store has, by uuid, are skipped). A
/// record with no entities only tells the receiver what the sender knows.
///
/// For example, a server answering a device's pull page by page:
/// ```swift
/// var page = try await store.revisions(since: deviceKnowledge)
/// var records = page.revisions
/// while let next = page.next {
///     page = try await store.revisions(since: deviceKnowledge, after: next)
///     records += page.revisions
/// }
/// if let knowledge = page.knowledge {
///     records.append(OCKRevisionRecord(entities: [], knowledgeVector: knowledge))
/// }
/// let data = try JSONEncoder().encode(records)
/// ```
public struct OCKRevisionRecord: Codable, Hashable, Sendable {
    /// The entities, oldest first.
    public let entities: [OCKEntity]
    /// What the writer knew when it wrote them.
    public let knowledgeVector: KnowledgeVector

    /// A record of `entities` (oldest first) written under `knowledgeVector`; no entities to send knowledge alone.
    public init(entities: [OCKEntity], knowledgeVector: KnowledgeVector) {
        self.entities = entities
        self.knowledgeVector = knowledgeVector
    }

    /// A vector of logical clocks, one per device (process) that wrote to the store, as in CareKit.
    ///
    /// JSON: `{"processes": [{"id": "<uuid>", "clock": 3}, …]}` (sorted by id here; CareKit's order is arbitrary).
    public struct KnowledgeVector: Codable, Hashable, Comparable, Sendable {
        /// Each device's clock.
        public var processes: [UUID: Int]

        /// A vector with the given clock of each process; empty by default (knows nothing).
        public init(_ processes: [UUID: Int] = [:]) {
            self.processes = processes
        }

        /// The devices the vector knows.
        public var uuids: [UUID] { Array(processes.keys) }

        /// The clock of `uuid` (0 if unknown).
        public func clock(for uuid: UUID) -> Int { processes[uuid] ?? 0 }

        /// Advances the clock of `uuid` by one.
        public mutating func increment(clockFor uuid: UUID) {
            processes[uuid] = clock(for: uuid) + 1
        }

        /// Takes, for every device, the larger of the two clocks.
        public mutating func merge(with other: KnowledgeVector) {
            for (uuid, clock) in other.processes {
                processes[uuid] = max(self.clock(for: uuid), clock)
            }
        }

        /// True when every clock of `lhs` is at most the one in `rhs` and at least one is smaller. Concurrent vectors
        /// are not ordered either way.
        public static func < (lhs: KnowledgeVector, rhs: KnowledgeVector) -> Bool {
            var smaller = false
            for uuid in Set(lhs.processes.keys).union(rhs.processes.keys) {
                let left = lhs.clock(for: uuid), right = rhs.clock(for: uuid)
                if left > right { return false }
                if left < right { smaller = true }
            }
            return smaller
        }

        private enum CodingKeys: String, CodingKey { case processes }

        private struct ClockInfo: Codable {
            let id: UUID
            let clock: Int
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let clocks = try container.decode([ClockInfo].self, forKey: .processes)
            var processes: [UUID: Int] = [:]
            for info in clocks {
                guard processes[info.id] == nil else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .processes, in: container, debugDescription: "processes: a device appears twice")
                }
                guard info.clock >= 0 else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .processes, in: container, debugDescription: "processes: a clock is negative")
                }
                processes[info.id] = info.clock
            }
            self.processes = processes
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            let clocks = processes.sorted { $0.key.uuidString < $1.key.uuidString }.map { ClockInfo(id: $0.key, clock: $0.value) }
            try container.encode(clocks, forKey: .processes)
        }
    }
}

/// CareKit has no top-level name for the knowledge vector; this is a shorthand for `OCKRevisionRecord.KnowledgeVector`.
public typealias OCKKnowledgeVector = OCKRevisionRecord.KnowledgeVector

/// Any storable entity, as exchanged during sync. JSON: `{"type": "task", "object": {…}}`, the object in the entity's
/// own JSON.
///
/// For example:
/// ```swift
/// for entity in record.entities {
///     if case let .outcome(outcome) = entity {
///         print(outcome.taskOccurrenceIndex, outcome.values.count)
///     }
/// }
/// ```
public enum OCKEntity: Codable, Hashable, Sendable {
    /// A version of a patient (JSON type `"patient"`).
    case patient(OCKPatient)
    /// A version of a care plan (JSON type `"carePlan"`).
    case carePlan(OCKCarePlan)
    /// A version of a contact (JSON type `"contact"`).
    case contact(OCKContact)
    /// A version of a task (JSON type `"task"`).
    case task(OCKTask)
    /// A version of a task of a CareKit device whose outcomes are HealthKit samples, which stay on the device (JSON
    /// type `"healthKitTask"`).
    case healthKitTask(OCKHealthKitTask)
    /// A version of an outcome (JSON type `"outcome"`).
    case outcome(OCKOutcome)

    /// The kinds of entity.
    public enum EntityType: String, Codable, Hashable, Sendable, CodingKey, CaseIterable {
        /// One case per case of ``OCKEntity``; the raw value is the JSON `type`.
        case patient, carePlan, contact, task, healthKitTask, outcome
    }

    /// Which kind of entity this is.
    public var entityType: EntityType {
        switch self {
        case .patient: .patient
        case .carePlan: .carePlan
        case .contact: .contact
        case .task: .task
        case .healthKitTask: .healthKitTask
        case .outcome: .outcome
        }
    }

    /// The entity's version metadata.
    public var value: any OCKVersionedObjectCompatible {
        switch self {
        case let .patient(value): value
        case let .carePlan(value): value
        case let .contact(value): value
        case let .task(value): value
        case let .healthKitTask(value): value
        case let .outcome(value): value
        }
    }

    /// The uuid of the version.
    public var uuid: UUID { value.uuid }

    private enum CodingKeys: String, CodingKey { case type, object }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(EntityType.self, forKey: .type) {
        case .patient: self = .patient(try container.decode(OCKPatient.self, forKey: .object))
        case .carePlan: self = .carePlan(try container.decode(OCKCarePlan.self, forKey: .object))
        case .contact: self = .contact(try container.decode(OCKContact.self, forKey: .object))
        case .task: self = .task(try container.decode(OCKTask.self, forKey: .object))
        case .healthKitTask: self = .healthKitTask(try container.decode(OCKHealthKitTask.self, forKey: .object))
        case .outcome: self = .outcome(try container.decode(OCKOutcome.self, forKey: .object))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entityType, forKey: .type)
        switch self {
        case let .patient(value): try container.encode(value, forKey: .object)
        case let .carePlan(value): try container.encode(value, forKey: .object)
        case let .contact(value): try container.encode(value, forKey: .object)
        case let .task(value): try container.encode(value, forKey: .object)
        case let .healthKitTask(value): try container.encode(value, forKey: .object)
        case let .outcome(value): try container.encode(value, forKey: .object)
        }
    }
}
