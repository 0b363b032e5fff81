import Foundation
import OpenCareKitStore

/// An item of a care team's work on a record: an alert one of its rules raised, from new to acknowledged to resolved,
/// with an owner (a member, or the record's clinicians as a pool) and a link to the outcomes that raised it.
///
/// Items are kept per cause (a task's rule): while one is open, an alert for the same cause updates it instead of
/// adding another; once resolved, the cause raises a new item only with evidence the resolved one did not have.
public struct CareTriageItem: Sendable, Hashable, Identifiable {
    public enum Status: String, Sendable, Hashable, CaseIterable {
        case new, acknowledged, resolved
    }

    /// How soon the care team should look (FHIR `Task.priority`'s first two values).
    public enum Priority: String, Sendable, Hashable, CaseIterable {
        case routine, urgent
    }

    public var id: RandomIdentifier
    public var record: CareRecordID
    public var alert: CareTriageAlert
    public var status: Status
    /// When the cause first raised it, and when an alert last changed it.
    public var raisedDate: Date
    public var updatedDate: Date
    /// How many alerts with new evidence it gathered (1 when raised).
    public var raisedCount: Int
    /// The member it is assigned to; nil: the record's clinicians, as a pool.
    public var owner: CareAccountID?
    public var acknowledgedBy: CareAccountID?
    public var acknowledgedDate: Date?
    public var resolvedBy: CareAccountID?
    public var resolvedDate: Date?
    /// Why it was resolved, in the resolver's words (at most `CareTriageItem.maximumNoteLength` characters).
    public var resolutionNote: String?

    public var isOpen: Bool { status != .resolved }

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
    public var taskID: String
    public var taskTitle: String?
    public var ruleID: String
    /// The rule, as its JSON (`OCKAlertRule`).
    public var rule: String
    public var priority: CareTriageItem.Priority
    /// The figure behind it (the value, the change, the days missed or quiet).
    public var observed: Double
    /// What raised it, sorted (outcome ids, days); the item is raised again only by something new here.
    public var evidence: [String]
    /// The outcomes that raised it, newest first.
    public var outcomeIDs: [String]
    /// When its newest evidence happened.
    public var latest: Date

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

    /// The longest evidence and outcome lists kept, and the longest piece of either.
    public static let maximumEvidence = 31
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

    public init(raised: [CareTriageItem] = [], updated: [CareTriageItem] = []) {
        self.raised = raised
        self.updated = updated
    }

    public var isEmpty: Bool { raised.isEmpty && updated.isEmpty }
}

/// How many items of a record are open, and how many of those are urgent.
public struct CareTriageCounts: Sendable, Hashable {
    public var open: Int
    public var urgent: Int

    public init(open: Int, urgent: Int) {
        self.open = open
        self.urgent = urgent
    }
}
