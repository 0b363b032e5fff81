import Foundation

/// One occurrence of a task, with its outcome if one was recorded.
///
/// Same API as CareKitStore's `OCKEvent`, with one deliberate difference: `id` is stable across launches (`"<task
/// uuid>/<occurrence>"`); CareKit hashes it with a per-process seed, so it changes every launch.
///
/// A store computes events from the task versions in effect during a query's interval (each version owns the events
/// from its `effectiveDate` until the next version's) and joins the outcome recorded for each occurrence. `task` is the
/// version that owns the event, so its `uuid` is what an outcome for the event records.
///
/// For example:
/// ```swift
/// let events = try await store.fetchEvents(query: OCKEventQuery(for: Date()))
/// for event in events {
///     let done = event.computeProgress(by: .checkingOutcomeExists).isCompleted
///     print(event.task.title ?? event.task.id, event.scheduleEvent.start, done ? "done" : "to do")
/// }
/// ```
public struct OCKEvent<Task: OCKAnyTask & Equatable, Outcome: OCKAnyOutcome & Equatable>: Identifiable, Comparable, Sendable {
    /// `"<task uuid>/<occurrence>"`, stable across launches (CareKit's changes with every launch).
    public let id: String
    /// The task version the event belongs to.
    public let task: Task
    /// The recorded outcome, or nil if nothing was recorded.
    public var outcome: Outcome?
    /// When the event happens, and its occurrence index.
    public let scheduleEvent: OCKScheduleEvent

    /// An event of `task` at `scheduleEvent`, with `outcome` if one was recorded; its `id` is made from the task
    /// version's `uuid` and the occurrence.
    public init(task: Task, outcome: Outcome?, scheduleEvent: OCKScheduleEvent) {
        self.id = OCKAnyEvent.identifier(taskUUID: task.uuid, occurrence: scheduleEvent.occurrence)
        self.task = task
        self.outcome = outcome
        self.scheduleEvent = scheduleEvent
    }

    /// The type-erased event.
    public var anyEvent: OCKAnyEvent {
        OCKAnyEvent(task: task, outcome: outcome, scheduleEvent: scheduleEvent)
    }

    /// The event's progress under `strategy` (by default: complete once an outcome exists).
    public func computeProgress<Progress>(
        by strategy: CareTaskProgressStrategy<Progress> = .checkingOutcomeExists
    ) -> Progress {
        anyEvent.computeProgress(by: strategy)
    }

    /// The order `fetchEvents` returns, which is CareKit's: start, then the task version's uuid (as its uppercase
    /// string, which orders like its bytes), then occurrence. So `events.sorted()` agrees with a fetch. (CareKit
    /// declares no `<` for events; ordering by the task's effective date and id instead, as this did, disagreed with
    /// fetches, and left two versions of one task with the same effective date unordered.)
    public static func < (lhs: OCKEvent, rhs: OCKEvent) -> Bool {
        OCKAnyEvent.fetchOrder(lhs.scheduleEvent, of: lhs.task.uuid, rhs.scheduleEvent, of: rhs.task.uuid)
    }
}

extension OCKEvent: Hashable where Task: Hashable, Outcome: Hashable {}

extension OCKEvent: Codable where Task: Codable, Outcome: Codable {
    private enum CodingKeys: String, CodingKey {
        case task, outcome, scheduleEvent
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(task: try container.decode(Task.self, forKey: .task),
                  outcome: try container.decodeIfPresent(Outcome.self, forKey: .outcome),
                  scheduleEvent: try container.decode(OCKScheduleEvent.self, forKey: .scheduleEvent))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(task, forKey: .task)
        try container.encodeIfPresent(outcome, forKey: .outcome)
        try container.encode(scheduleEvent, forKey: .scheduleEvent)
    }
}

/// An event of any task and outcome type: what the type-erased store protocols and ``OCKStoreCoordinator`` return.
/// `OCKEvent`'s `anyEvent` gives one.
public struct OCKAnyEvent: Identifiable, Sendable {
    /// `"<task uuid>/<occurrence>"`, stable across launches.
    public let id: String
    /// The task version the event belongs to.
    public let task: any OCKAnyTask
    /// The recorded outcome, or nil if nothing was recorded.
    public let outcome: (any OCKAnyOutcome)?
    /// When the event happens, and its occurrence index.
    public let scheduleEvent: OCKScheduleEvent

    /// An event of `task` at `scheduleEvent`, with `outcome` if one was recorded.
    public init(task: any OCKAnyTask, outcome: (any OCKAnyOutcome)?, scheduleEvent: OCKScheduleEvent) {
        self.id = Self.identifier(taskUUID: task.uuid, occurrence: scheduleEvent.occurrence)
        self.task = task
        self.outcome = outcome
        self.scheduleEvent = scheduleEvent
    }

    /// The event's progress under `strategy` (by default: complete once an outcome exists).
    public func computeProgress<Progress>(
        by strategy: CareTaskProgressStrategy<Progress> = .checkingOutcomeExists
    ) -> Progress {
        strategy.computeProgress(self)
    }

    /// The order stores return events in, and `OCKEvent`'s `<`: start, then the task version's uuid (as its
    /// uppercase string, which orders like its bytes), then occurrence.
    static func fetchOrder(_ lhs: OCKAnyEvent, _ rhs: OCKAnyEvent) -> Bool {
        fetchOrder(lhs.scheduleEvent, of: lhs.task.uuid, rhs.scheduleEvent, of: rhs.task.uuid)
    }

    static func fetchOrder(_ lhs: OCKScheduleEvent, of lhsTask: UUID, _ rhs: OCKScheduleEvent, of rhsTask: UUID) -> Bool {
        if lhs.start != rhs.start { return lhs.start < rhs.start }
        if lhsTask != rhsTask { return lhsTask.precedes(rhsTask) }
        return lhs.occurrence < rhs.occurrence
    }

    static func identifier(taskUUID: UUID, occurrence: Int) -> String {
        "\(taskUUID.uppercaseString)/\(occurrence)"
    }
}

extension UUID {
    /// `uuidString`, without going through `printf` (event ids are made for every event fetched).
    var uppercaseString: String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text = [UInt8]()
        text.reserveCapacity(36)
        withUnsafeBytes(of: uuid) { bytes in
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether this uuid sorts before `other` as strings do (byte by byte).
    func precedes(_ other: UUID) -> Bool {
        withUnsafeBytes(of: uuid) { left in
            withUnsafeBytes(of: other.uuid) { right in left.lexicographicallyPrecedes(right) }
        }
    }
}
