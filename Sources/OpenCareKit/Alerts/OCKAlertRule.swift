import Foundation
import OpenCareKitStore

/// A condition on a task's outcomes that raises an alert for the care team: a dose missed on too many days, an answer
/// or a measurement past a threshold, a measurement that moves too fast, or a task left undone for days.
///
/// A task's rules are part of the task (`OCKTask.alertRules`, kept in its `userInfo` under `ock.alerts`), so they are
/// versioned with it, synchronized, exported and restored with the record, and every writer of tasks passes
/// `OCKAlertRulesStoreRule`, which refuses rules that are malformed or out of bounds.
///
/// For example, the heart-failure rule and a pain threshold:
/// ```swift
/// task.setAlertRules([
///     OCKAlertRule(id: "weight-gain", condition: .change(kind: "weight", by: 2, withinDays: 3), priority: .urgent),
///     OCKAlertRule(id: "pain", condition: .value(kind: "pain", atLeast: 7, atMost: nil)),
/// ])
/// ```
public struct OCKAlertRule: Codable, Hashable, Sendable, Identifiable {
    /// What raises the alert. Days are the record's calendar days.
    public enum Condition: Hashable, Sendable {
        /// An event of the task ended without an outcome on at least `days` of the last `ofDays` days before today.
        case missedDoses(days: Int, ofDays: Int)
        /// A value of `kind` (any number when nil) recorded in the last `OCKAlertRule.lookbackDays` days is at or above
        /// `atLeast`, or at or below `atMost` (both: outside the range between them).
        case value(kind: String?, atLeast: Double?, atMost: Double?)
        /// A value of `kind` (any number when nil) is higher by at least `by` (lower by at least `-by` when negative)
        /// than one recorded for an event at most `withinDays` days before its own, the later one in the last
        /// `OCKAlertRule.lookbackDays` days.
        case change(kind: String?, by: Double, withinDays: Int)
        /// Nothing recorded for the task for `days` days: the day of its newest outcome (or, with none, of the
        /// current version's effective date) is `days` or more days before today.
        case noActivity(days: Int)
    }

    /// How soon the care team should look (FHIR `Task.priority`'s first two values).
    public enum Priority: String, Codable, Hashable, Sendable, CaseIterable {
        /// `routine`: normal priority; `urgent`: to be looked at promptly, before routine alerts.
        case routine, urgent
    }

    /// Names the rule within its task (letters, digits and `-`, at most `maximumIDLength`).
    public var id: String
    /// What raises the alert.
    public var condition: Condition
    /// How soon the care team should look; `.routine` unless set.
    public var priority: Priority

    /// A rule, not checked here: ``problem`` says what is wrong with it, and ``OCKAlertRulesStoreRule`` refuses a
    /// task that holds a rule with a problem.
    ///
    /// - Parameters:
    ///   - id: Names the rule within its task: 1 to 40 ASCII letters, digits or hyphens.
    ///   - condition: What raises the alert.
    ///   - priority: How soon the care team should look; `.routine` by default.
    public init(id: String, condition: Condition, priority: Priority = .routine) {
        self.id = id
        self.condition = condition
        self.priority = priority
    }

    /// How far back value and change rules look for the later value: a week.
    public static let lookbackDays = 7
    /// The most rules a task has.
    public static let maximumRulesPerTask = 8
    /// The longest rule id, in characters.
    public static let maximumIDLength = 40
    /// The longest value kind a value or change rule names, in characters.
    public static let maximumKindLength = 40
    /// The longest window of a missed-doses or change rule, in days.
    public static let maximumWindowDays = 31
    /// The longest quiet a no-activity rule waits for, in days.
    public static let maximumQuietDays = 90

    /// Why the rule cannot be kept (naming the field, never a value), or nil: an id out of bounds, a window or quiet
    /// out of range, a value rule without a finite threshold (or with `atMost` not below `atLeast`), a change that is
    /// 0 or not finite, a kind that is empty or too long.
    public var problem: String? {
        if id.isEmpty || id.count > Self.maximumIDLength || !id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) {
            return "id: must be 1 to \(Self.maximumIDLength) letters, digits or hyphens"
        }
        func kindProblem(_ kind: String?) -> String? {
            guard let kind else { return nil }
            return kind.isEmpty || kind.count > Self.maximumKindLength ? "kind: must be 1 to \(Self.maximumKindLength) characters" : nil
        }
        switch condition {
        case let .missedDoses(days, ofDays):
            guard (1...Self.maximumWindowDays).contains(ofDays) else { return "ofDays: must be 1 to \(Self.maximumWindowDays)" }
            guard (1...ofDays).contains(days) else { return "days: must be 1 to ofDays" }
        case let .value(kind, atLeast, atMost):
            if let problem = kindProblem(kind) { return problem }
            guard atLeast != nil || atMost != nil else { return "atLeast, atMost: one is needed" }
            guard atLeast?.isFinite ?? true, atMost?.isFinite ?? true else { return "atLeast, atMost: must be finite numbers" }
            if let atLeast, let atMost, atMost >= atLeast { return "atMost: must be below atLeast" }
        case let .change(kind, by, withinDays):
            if let problem = kindProblem(kind) { return problem }
            guard by.isFinite, by != 0 else { return "by: must be a finite number other than 0" }
            guard (1...Self.maximumWindowDays).contains(withinDays) else { return "withinDays: must be 1 to \(Self.maximumWindowDays)" }
        case let .noActivity(days):
            guard (1...Self.maximumQuietDays).contains(days) else { return "days: must be 1 to \(Self.maximumQuietDays)" }
        }
        return nil
    }

    /// The days before today the rule reads events of (beyond today).
    var daysRead: Int {
        switch condition {
        case let .missedDoses(_, ofDays): ofDays
        case .value: Self.lookbackDays - 1
        case let .change(_, _, withinDays): Self.lookbackDays - 1 + withinDays
        case .noActivity: 0
        }
    }
}

extension OCKAlertRule {
    private enum CodingKeys: String, CodingKey {
        case id, when, priority, days, ofDays, kind, atLeast, atMost, by, withinDays
    }

    /// `{"id": "pain", "when": "value", "kind": "pain", "atLeast": 7, "priority": "urgent"}`; `when` is
    /// `missedDoses` (`days`, `ofDays`), `value` (`kind`, `atLeast`, `atMost`), `change` (`kind`, `by`,
    /// `withinDays`) or `noActivity` (`days`); `priority` is `routine` when left out.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        priority = try container.decodeIfPresent(Priority.self, forKey: .priority) ?? .routine
        switch try container.decode(String.self, forKey: .when) {
        case "missedDoses":
            condition = .missedDoses(days: try container.decode(Int.self, forKey: .days), ofDays: try container.decode(Int.self, forKey: .ofDays))
        case "value":
            condition = .value(kind: try container.decodeIfPresent(String.self, forKey: .kind),
                               atLeast: try container.decodeIfPresent(Double.self, forKey: .atLeast),
                               atMost: try container.decodeIfPresent(Double.self, forKey: .atMost))
        case "change":
            condition = .change(kind: try container.decodeIfPresent(String.self, forKey: .kind), by: try container.decode(Double.self, forKey: .by),
                                withinDays: try container.decode(Int.self, forKey: .withinDays))
        case "noActivity":
            condition = .noActivity(days: try container.decode(Int.self, forKey: .days))
        default:
            throw DecodingError.dataCorruptedError(forKey: .when, in: container,
                                                   debugDescription: "when: must be missedDoses, value, change or noActivity")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(priority, forKey: .priority)
        switch condition {
        case let .missedDoses(days, ofDays):
            try container.encode("missedDoses", forKey: .when)
            try container.encode(days, forKey: .days)
            try container.encode(ofDays, forKey: .ofDays)
        case let .value(kind, atLeast, atMost):
            try container.encode("value", forKey: .when)
            try container.encodeIfPresent(kind, forKey: .kind)
            try container.encodeIfPresent(atLeast, forKey: .atLeast)
            try container.encodeIfPresent(atMost, forKey: .atMost)
        case let .change(kind, by, withinDays):
            try container.encode("change", forKey: .when)
            try container.encodeIfPresent(kind, forKey: .kind)
            try container.encode(by, forKey: .by)
            try container.encode(withinDays, forKey: .withinDays)
        case let .noActivity(days):
            try container.encode("noActivity", forKey: .when)
            try container.encode(days, forKey: .days)
        }
    }
}

/// A task's alert rules could not be read or are out of bounds.
public struct OCKAlertRulesError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which rule and field, never a value: "rule 2: days: must be 1 to ofDays".
    public var reason: String
    public var description: String { "Alert rules: \(reason)" }
}

extension OCKTask {
    /// Where a task keeps its alert rules: a JSON array in `userInfo`.
    public static let alertRulesKey = "ock.alerts"

    /// The task's alert rules, read from its `userInfo` (`alertRulesKey`); an empty list when it has none.
    ///
    /// - Throws: `OCKAlertRulesError` when the stored rules cannot be read or break a bound.
    public func alertRules() throws(OCKAlertRulesError) -> [OCKAlertRule] {
        guard let text = userInfo?[Self.alertRulesKey] else { return [] }
        guard text.utf8.count <= 4_096 else { throw OCKAlertRulesError(reason: "at most 4,096 bytes") }
        let rules: [OCKAlertRule]
        do {
            rules = try JSONDecoder().decode([OCKAlertRule].self, from: Data(text.utf8))
        } catch let error as DecodingError {
            throw OCKAlertRulesError(reason: Self.field(of: error))
        } catch {
            throw OCKAlertRulesError(reason: "not a JSON array of rules")
        }
        guard rules.count <= OCKAlertRule.maximumRulesPerTask else {
            throw OCKAlertRulesError(reason: "at most \(OCKAlertRule.maximumRulesPerTask) rules a task")
        }
        for (index, rule) in rules.enumerated() {
            if let problem = rule.problem { throw OCKAlertRulesError(reason: "rule \(index + 1): \(problem)") }
        }
        guard Set(rules.map(\.id)).count == rules.count else { throw OCKAlertRulesError(reason: "two rules share an id") }
        return rules
    }

    /// Sets the task's alert rules (an empty list removes them).
    public mutating func setAlertRules(_ rules: [OCKAlertRule]) {
        if rules.isEmpty {
            userInfo?[Self.alertRulesKey] = nil
            if userInfo?.isEmpty == true { userInfo = nil }
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding these plain values cannot fail.
        let text = (try? encoder.encode(rules)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        userInfo = (userInfo ?? [:]).merging([Self.alertRulesKey: text]) { $1 }
    }

    /// The coding path of a decoding error, without the value that failed.
    private static func field(of error: DecodingError) -> String {
        let context: DecodingError.Context? = switch error {
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .keyNotFound(_, context), let .dataCorrupted(context): context
        @unknown default: nil
        }
        let path = context?.codingPath ?? []
        let rule = path.first?.intValue.map { "rule \($0 + 1)" }
        let field: String? = if case let .keyNotFound(key, _) = error { key.stringValue } else { path.dropFirst().last?.stringValue }
        let place = [rule, field].compactMap { $0 }.joined(separator: ": ")
        return place.isEmpty ? "not a JSON array of rules" : "\(place): missing or of the wrong type"
    }
}

/// Every writer of tasks keeps alert rules readable and in bounds: a task version whose `ock.alerts` cannot be read,
/// or holds more than 8 rules, windows longer than a month, thresholds that are not numbers, is refused (rule
/// `alert-rules`). Installed on every care record's store with its other rules.
///
/// For example:
/// ```swift
/// store.addRule(OCKAlertRulesStoreRule())
/// ```
public struct OCKAlertRulesStoreRule: OCKStoreRule {
    /// The rule.
    public init() {}

    /// Refuses a task added or updated whose alert rules cannot be read or break a bound, with an
    /// `OCKStoreRuleViolation` named `alert-rules` whose reason says which rule and field (the store's caller gets
    /// `OCKStoreError.invalidValue`). Other writes pass.
    public func check(_ write: OCKStoreWrite, in context: OCKStoreRuleContext) throws {
        let task: OCKTask
        switch write {
        case let .addTask(added): task = added
        case let .updateTask(_, proposed): task = proposed
        case .deleteTask, .addOutcome, .updateOutcome, .deleteOutcome: return
        }
        do {
            _ = try task.alertRules()
        } catch {
            throw OCKStoreRuleViolation(rule: "alert-rules", "\(error)")
        }
    }
}
