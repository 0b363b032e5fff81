import Foundation
import Synchronization

/// A write to a store, as a rule sees it: what changes, with the task version an outcome belongs to.
///
/// Every writer's changes reach the rules in these terms: a call such as `addOutcomes(_:)` gives one write per
/// entity; a sync merge gives the net change of each id it touches (a device's new outcome is an `addOutcome`, a
/// tombstone it brings a `deleteOutcome`, whatever versions lie between).
public enum OCKStoreWrite: Sendable {
    /// A task is added (or added again after it was deleted).
    case addTask(OCKTask)
    /// A new version of a task replaces `current`.
    case updateTask(current: OCKTask, proposed: OCKTask)
    /// A task is deleted.
    case deleteTask(OCKTask)
    /// An outcome is recorded for an event of `task`.
    case addOutcome(OCKOutcome, task: OCKTask)
    /// A new version of an outcome replaces `current` (appending or removing a value is an update).
    case updateOutcome(current: OCKOutcome, proposed: OCKOutcome, task: OCKTask)
    /// An outcome is deleted.
    case deleteOutcome(OCKOutcome, task: OCKTask)
}

extension OCKStoreWrite {
    /// The writes of an outcome's new version, with `task` finding a task version by uuid: an update, and where the
    /// version moves the outcome to another event, a new outcome there too.
    static func outcomeUpdate(current: OCKOutcome, proposed: OCKOutcome, task: (UUID) async throws -> OCKTask) async throws -> [OCKStoreWrite] {
        var writes: [OCKStoreWrite] = [.updateOutcome(current: current, proposed: proposed, task: try await task(current.taskUUID))]
        if proposed.taskUUID != current.taskUUID || proposed.taskOccurrenceIndex != current.taskOccurrenceIndex {
            writes.append(.addOutcome(proposed, task: try await task(proposed.taskUUID)))
        }
        return writes
    }
}

/// A rule that protects data, checked inside the transaction of every write to the store — whoever writes: a page,
/// the JSON API, the command line, an import, a sync merge. A rule that throws refuses the whole call, and nothing is
/// written. Rules are checked once the call's changes are in place, so `context` reads the store as the call leaves
/// it (an onboarding outcome and the first care outcome may come in one call).
///
/// CareKit's own rules (versions, outcome placement) and the store's limits are built in; these are an app's:
/// OpenCareKitSurveys' rule keeps a signed consent, lets a survey task's outcomes come only from its survey's results
/// and holds the care plan until onboarding is done; `OCKFutureEventsRule` keeps events still to come read-only.
///
/// For example:
/// ```swift
/// struct KeepWeights: OCKStoreRule {
///     func check(_ write: OCKStoreWrite, in context: OCKStoreRuleContext) throws {
///         if case let .deleteOutcome(_, task) = write, task.id == "weigh-in" {
///             throw OCKStoreRuleViolation(rule: "weights-kept", "Weights are kept: a recorded weight cannot be deleted.")
///         }
///     }
/// }
/// store.addRule(KeepWeights())
/// ```
public protocol OCKStoreRule: Sendable {
    /// Throws an `OCKStoreRuleViolation` to refuse `write`. Other errors (a failed read of `context`) fail the call
    /// as the store's own failures do. A rule reads the store only through `context`, inside the write's transaction:
    /// a call to the store itself from here is refused (it would wait for the transaction it is in), and a rule should
    /// not wait for other slow work, which holds the store's writes meanwhile.
    func check(_ write: OCKStoreWrite, in context: OCKStoreRuleContext) async throws
}

/// Why a rule refused a write: the rule's name and a sentence for the person who tried (never patient data). The
/// store throws it as `OCKStoreError.invalidValue(reason:)`, with `reason` as the reason.
public struct OCKStoreRuleViolation: Error, Hashable, Sendable, CustomStringConvertible {
    /// The rule, as a short name: `consent-kept`, `future-events`, `onboarding-first` …
    public var rule: String
    /// The sentence for the person whose write was refused, such as "Weights are kept: a recorded weight cannot be
    /// deleted."
    public var reason: String

    /// A violation of the rule named `rule`, explained by `reason`.
    public init(rule: String, _ reason: String) {
        self.rule = rule
        self.reason = reason
    }

    public var description: String { reason }

    /// Whether `error` is the store's refusal of a write for this violation.
    public func refused(_ error: any Error) -> Bool {
        (error as? OCKStoreError) == .invalidValue(reason: reason) || (error as? OCKStoreRuleViolation) == self
    }
}

/// What a rule may read of the store, inside the write's transaction and after the write's changes.
public struct OCKStoreRuleContext {
    /// When the write happens, by the store's clock.
    public let now: Date
    /// Whether the write is only proposed (`OCKStore.checkRules(_:)`): asked about before it is made, as a survey is
    /// before it starts, so its values are not known yet. Rules on values wait for the write itself.
    public let isProposal: Bool
    let db: any SQLDatabase
    let cache: DecodedEntityCache

    /// The newest version of task `id`, nil if there is none or it is deleted.
    public func currentTask(id: String) async throws -> OCKTask? {
        guard let (_, task) = try await VersionedWrites.tip(of: id, OCKTask.self, db, cache: cache), task.deletedDate == nil else { return nil }
        return task
    }

    /// Whether any version of task `id` has a current outcome (one that is neither replaced nor deleted).
    public func hasCurrentOutcome(ofTaskID id: String) async throws -> Bool {
        try await db.scalar("""
            SELECT 1 FROM outcomes WHERE task_uuid IN (SELECT uuid FROM tasks WHERE id = ?)
              AND deleted_date IS NULL AND next_effective_date IS NULL LIMIT 1
            """, [id]).isTrue
    }
}

/// The rules a store checks, by type: adding a rule of a type the store has replaces it.
final class StoreRules: Sendable {
    private let rules = Mutex<[ObjectIdentifier: any OCKStoreRule]>([:])

    func add(_ rule: some OCKStoreRule) {
        rules.withLock { $0[ObjectIdentifier(type(of: rule))] = rule }
    }

    /// Whether there are rules to check (a call without skips gathering its writes).
    var isEmpty: Bool { rules.withLock { $0.isEmpty } }

    /// Checks `writes` against every rule, inside the transaction that made them.
    func check(_ writes: [OCKStoreWrite], _ db: any SQLDatabase, now: Date, cache: DecodedEntityCache, proposal: Bool = false) async throws {
        let rules = self.rules.withLock { Array($0.values) }
        guard !rules.isEmpty, !writes.isEmpty else { return }
        let context = OCKStoreRuleContext(now: now, isProposal: proposal, db: db, cache: cache)
        for write in writes {
            for rule in rules {
                do {
                    try await rule.check(write, in: context)
                } catch let violation as OCKStoreRuleViolation {
                    throw OCKStoreError.invalidValue(reason: violation.reason)
                }
            }
        }
    }
}

extension OCKStore {
    /// Adds a rule every later write must pass (replacing a rule of the same type).
    public func addRule(_ rule: some OCKStoreRule) {
        rules.add(rule)
    }

    /// Asks the store's rules about `write` before making it (`OCKStoreRuleContext.isProposal`): an app offers only
    /// what the store would take — a survey is not started for an event still to come — without rules of its own.
    /// The write itself is checked again when it is made.
    ///
    /// - Throws: `OCKStoreError.invalidValue` with the refusing rule's reason.
    public func checkRules(_ write: OCKStoreWrite) async throws {
        let (rules, cache, now) = (self.rules, self.cache, clock())
        try await read { db in try await rules.check([write], db, now: now, cache: cache, proposal: true) }
    }
}

/// Events still to come are read-only: an outcome may be recorded, or changed, only for an event that starts before
/// the end of today in the record's time zone (a patient logs today's dose early, never tomorrow's). Deleting one is
/// allowed, so an outcome recorded before the rule existed can be taken back.
///
/// For example:
/// ```swift
/// store.addRule(OCKFutureEventsRule(calendar: calendar, now: { Date() }))
/// ```
public struct OCKFutureEventsRule: OCKStoreRule {
    /// Whose days: the record's calendar and time zone.
    public let calendar: Calendar
    /// The current moment, which may differ from the store's clock (a server's clock is an input of its own).
    public let now: @Sendable () -> Date

    /// The rule, with days in `calendar` (the record's time zone) and the time from `now`.
    public init(calendar: Calendar, now: @escaping @Sendable () -> Date) {
        self.calendar = calendar
        self.now = now
    }

    /// The refusal.
    public static let violation = OCKStoreRuleViolation(
        rule: "future-events", "Events still to come are read-only: an outcome can be recorded only for an event that starts by the end of today.")

    /// Refuses an outcome added or changed for an event that starts after today.
    ///
    /// - Throws: ``OCKFutureEventsRule/violation``.
    public func check(_ write: OCKStoreWrite, in context: OCKStoreRuleContext) throws {
        let recorded: (OCKOutcome, OCKTask)
        switch write {
        case let .addOutcome(outcome, task), let .updateOutcome(_, outcome, task): recorded = (outcome, task)
        case .addTask, .updateTask, .deleteTask, .deleteOutcome: return
        }
        let today = calendar.startOfDay(for: now())
        guard let tomorrow = calendar.date(byAdding: .day, value: 1, to: today) else { return }
        guard let event = recorded.1.schedule.event(forOccurrenceIndex: recorded.0.taskOccurrenceIndex) else { return }
        if event.start >= tomorrow { throw Self.violation }
    }
}
