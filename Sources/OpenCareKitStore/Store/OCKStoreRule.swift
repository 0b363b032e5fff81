import Foundation
import Synchronization

/// A write to a store, as a rule sees it: what changes, with the task version an outcome belongs to.
public enum OCKStoreWrite: Sendable {
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

/// A rule that protects data, checked inside the transaction of every write to the store — whoever writes: a page,
/// the JSON API, the command line, sync. A rule that throws refuses the whole call, and nothing is written.
///
/// CareKit's own rules (versions, outcome placement) are built in; these are an app's: OpenCareKitSurveys' rule keeps
/// a signed consent and lets a survey task's outcomes come only from its survey's results.
///
/// For example:
/// ```swift
/// struct KeepWeights: OCKStoreRule {
///     func check(_ write: OCKStoreWrite) throws(OCKStoreRuleViolation) {
///         if case let .deleteOutcome(_, task) = write, task.id == "weigh-in" {
///             throw OCKStoreRuleViolation("Weights are kept: a recorded weight cannot be deleted.")
///         }
///     }
/// }
/// store.addRule(KeepWeights())
/// ```
public protocol OCKStoreRule: Sendable {
    /// Throws to refuse `write`.
    func check(_ write: OCKStoreWrite) throws(OCKStoreRuleViolation)
}

/// Why a rule refused a write: a sentence for the person who tried (never patient data). The store throws it as
/// `OCKStoreError.invalidValue(reason:)`.
public struct OCKStoreRuleViolation: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

/// The rules a store checks, by type: adding a rule of a type the store has replaces it.
final class StoreRules: Sendable {
    private let rules = Mutex<[ObjectIdentifier: any OCKStoreRule]>([:])

    func add(_ rule: some OCKStoreRule) {
        rules.withLock { $0[ObjectIdentifier(type(of: rule))] = rule }
    }

    func check(_ write: OCKStoreWrite) throws {
        for rule in rules.withLock({ Array($0.values) }) {
            do {
                try rule.check(write)
            } catch {
                throw OCKStoreError.invalidValue(reason: error.reason)
            }
        }
    }
}

extension OCKStore {
    /// Adds a rule every later write must pass (replacing a rule of the same type).
    public func addRule(_ rule: some OCKStoreRule) {
        rules.add(rule)
    }
}
