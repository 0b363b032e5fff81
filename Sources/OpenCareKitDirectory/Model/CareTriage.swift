import Foundation
import OpenCareKitStore

/// An item of a care team's work on a record: an alert one of its rules raised, from new to acknowledged to resolved,
/// with an owner (a member, or the record's clinicians as a pool) and a link to the outcomes that raised it.
///
/// Items are kept per cause (a task's rule): while one is open, an alert for the same cause updates it instead of
/// adding another; once resolved, the cause raises a new item only with evidence the resolved one did not have.
///
/// Unlike threads, the directory does not check who reads or works an item: the caller checks the person's role in
/// the record. It checks only that an item is assigned to a clinician of its record.
///
/// For example:
/// ```swift
/// let raise = try await directory.raiseTriage(alerts, record: record.id, now: .now)
/// let open = try await directory.triageItems(records: [record.id], open: true, limit: 50)
/// if let item = open.first {
///     _ = try await directory.actOnTriageItem(item.id, .acknowledge, by: clinician.id, now: .now)
///     _ = try await directory.actOnTriageItem(item.id, .resolve(note: "Called back; no change needed."),
///                                             by: clinician.id, now: .now)
/// }
/// ```
public struct CareTriageItem: Sendable, Hashable, Identifiable {
    /// Where an item is in the care team's work: new, then acknowledged, then resolved. New and acknowledged items are
    /// open; the raw value is what the directory stores.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// Raised and not yet looked at; an acknowledged item becomes new again when an alert brings newer evidence.
        case new
        /// A member said "I've seen this" (`CareTriageAction.acknowledge`); the item is still open.
        case acknowledged
        /// A member ended it with a note. It never opens again: later evidence of its cause raises a new item.
        case resolved
    }

    /// How soon the care team should look (FHIR `Task.priority`'s first two values).
    public enum Priority: String, Sendable, Hashable, CaseIterable {
        /// To look at in the course of the care team's work.
        case routine
        /// To look at first: urgent items lead the list of open ones.
        case urgent
    }

    public var id: RandomIdentifier
    /// The record whose rule raised it.
    public var record: CareRecordID
    /// The alert as it stands: the newest evidence its cause brought while the item was open.
    public var alert: CareTriageAlert
    /// Where it is: new, acknowledged or resolved.
    public var status: Status
    /// When the cause first raised it, and when an alert last changed it.
    public var raisedDate: Date
    /// When an alert last changed it (new evidence); acting on the item leaves this as it is.
    public var updatedDate: Date
    /// How many alerts with new evidence it gathered (1 when raised).
    public var raisedCount: Int
    /// The member it is assigned to; nil: the record's clinicians, as a pool.
    public var owner: CareAccountID?
    /// Who acknowledged it; nil while it is new (again, once newer evidence makes it new), and for an imported item.
    public var acknowledgedBy: CareAccountID?
    /// When it was acknowledged; nil while it is new.
    public var acknowledgedDate: Date?
    /// Who resolved it; nil while it is open, and for an imported item.
    public var resolvedBy: CareAccountID?
    /// When it was resolved; nil while it is open.
    public var resolvedDate: Date?
    /// Why it was resolved, in the resolver's words (at most `CareTriageItem.maximumNoteLength` characters).
    public var resolutionNote: String?

    /// Whether it is still to be worked: new or acknowledged.
    public var isOpen: Bool { status != .resolved }

    /// An item as the directory keeps it. New items are raised by `CareDirectory.raiseTriage(_:record:now:)`; make one
    /// yourself only for an import (`CareTeamWork`), which gives it a new id and drops the accounts that worked it.
    public init(id: RandomIdentifier, record: CareRecordID, alert: CareTriageAlert, status: Status, raisedDate: Date, updatedDate: Date,
                raisedCount: Int, owner: CareAccountID? = nil, acknowledgedBy: CareAccountID? = nil, acknowledgedDate: Date? = nil,
                resolvedBy: CareAccountID? = nil, resolvedDate: Date? = nil, resolutionNote: String? = nil) {
        self.id = id
        self.record = record
        self.alert = alert
        self.status = status
        self.raisedDate = raisedDate
        self.updatedDate = updatedDate
        self.raisedCount = raisedCount
        self.owner = owner
        self.acknowledgedBy = acknowledgedBy
        self.acknowledgedDate = acknowledgedDate
        self.resolvedBy = resolvedBy
        self.resolvedDate = resolvedDate
        self.resolutionNote = resolutionNote
    }

    /// The longest resolution note, in characters.
    public static let maximumNoteLength = 2_000
    /// The most open items a record has: one per cause, and a record has at most 1,000 tasks of 8 rules.
    public static let maximumOpenPerRecord = 8_000
    /// The resolved items a record keeps (older ones are dropped as new ones come).
    public static let maximumResolvedPerRecord = 1_000
}

/// An alert as the directory keeps it: the rule that holds, its figure and its evidence (no patient's words: values,
/// outcome ids and days).
public struct CareTriageAlert: Sendable, Hashable {
    /// The task's id and the rule's, unique in a record.
    public var cause: String
    /// The id of the task whose rule holds.
    public var taskID: String
    /// The task's title when the alert was raised, to show in lists; nil when it has none.
    public var taskTitle: String?
    /// The rule's id, unique in its task.
    public var ruleID: String
    /// The rule, as its JSON (`OCKAlertRule`).
    public var rule: String
    /// How soon the care team should look, as the rule says.
    public var priority: CareTriageItem.Priority
    /// The figure behind it (the value, the change, the days missed or quiet).
    public var observed: Double
    /// What raised it, sorted (outcome ids, days); the item is raised again only by something new here.
    public var evidence: [String]
    /// The outcomes that raised it, newest first.
    public var outcomeIDs: [String]
    /// When its newest evidence happened.
    public var latest: Date

    /// An alert to raise. `CareDirectory.raiseTriage(_:record:now:)` drops it unless it `isWithinBounds`.
    public init(cause: String, taskID: String, taskTitle: String?, ruleID: String, rule: String, priority: CareTriageItem.Priority,
                observed: Double, evidence: [String], outcomeIDs: [String], latest: Date) {
        self.cause = cause
        self.taskID = taskID
        self.taskTitle = taskTitle
        self.ruleID = ruleID
        self.rule = rule
        self.priority = priority
        self.observed = observed
        self.evidence = evidence
        self.outcomeIDs = outcomeIDs
        self.latest = latest
    }

    /// The most entries `evidence` and `outcomeIDs` each hold (`maximumEvidenceLength` bounds each entry).
    public static let maximumEvidence = 31
    /// The longest entry of `evidence` or `outcomeIDs`, in UTF-8 bytes.
    public static let maximumEvidenceLength = 200
    /// The longest text of a cause, a title or a rule.
    public static let maximumTextLength = 4_096

    /// Whether it is within what the directory keeps.
    public var isWithinBounds: Bool {
        let texts = [cause, taskID, ruleID, rule, taskTitle ?? ""]
        return !cause.isEmpty && texts.allSatisfy({ $0.utf8.count <= Self.maximumTextLength && !$0.unicodeScalars.contains("\u{0}") })
            && evidence.count <= Self.maximumEvidence && outcomeIDs.count <= Self.maximumEvidence
            && (evidence + outcomeIDs).allSatisfy({ $0.utf8.count <= Self.maximumEvidenceLength && !$0.unicodeScalars.contains("\u{0}") })
            && observed.isFinite
    }
}

/// What a member does to an item.
public enum CareTriageAction: Sendable, Hashable {
    /// "I've seen this": a new item becomes acknowledged, by whom and when.
    case acknowledge
    /// Hands it to a member (nil: back to the record's clinicians).
    case assign(CareAccountID?)
    /// Ends it, with a note.
    case resolve(note: String)
}

/// What raising alerts did to a record's items.
public struct CareTriageRaise: Sendable, Hashable {
    /// Items new for their cause.
    public var raised: [CareTriageItem] = []
    /// Open items that gathered new evidence.
    public var updated: [CareTriageItem] = []

    /// What raising did; by default nothing.
    public init(raised: [CareTriageItem] = [], updated: [CareTriageItem] = []) {
        self.raised = raised
        self.updated = updated
    }

    /// Whether the alerts changed nothing: no item raised, none updated.
    public var isEmpty: Bool { raised.isEmpty && updated.isEmpty }
}

/// How many items of a record are open, and how many of those are urgent.
public struct CareTriageCounts: Sendable, Hashable {
    /// How many items are open (new or acknowledged).
    public var open: Int
    /// How many of the open items are urgent.
    public var urgent: Int

    /// Counts of open and urgent items.
    public init(open: Int, urgent: Int) {
        self.open = open
        self.urgent = urgent
    }
}
