import Crypto
import Foundation
import OpenCareKitStore

/// One access to a care record, or a sign-in: who, when, which record, what, from where, and whether it was allowed.
///
/// Entries hold identifiers and route patterns only, never outcome values, names or notes. They are append-only and
/// hash-chained: each entry's hash covers its fields and the previous entry's hash, so a changed or deleted entry
/// breaks the chain (`CareDirectory.verifyAuditLog()`).
///
/// On SQLite, triggers refuse to change or delete an entry, and the log records its head (the last entry's number and
/// hash), so an entry cut from the end is found too. Keep the newest `AuditVerification.headHash` elsewhere to find a
/// log rewritten from its start.
///
/// For example:
/// ```swift
/// try await directory.appendAudit([
///     AuditEntry.Draft(recorded: .now, account: account.id, record: record.id, resource: "care-page",
///                      action: .read, outcome: .allowed, address: "203.0.113.7",
///                      detail: "GET /records/{record}/care"),
/// ])
/// let newest = try await directory.auditEntries(record: record.id, limit: 50, offset: 0)
/// let intact = newest.allSatisfy { $0.hash == $0.expectedHash }
/// ```
public struct AuditEntry: Codable, Hashable, Sendable {
    /// What was done, as FHIR's AuditEvent action codes.
    public enum Action: String, Codable, Sendable, CaseIterable {
        /// Made something: a task, a contact, a note, an access token (`C`).
        case create = "C"
        /// Read something: a page or an API resource of a record (`R`).
        case read = "R"
        /// Changed something: a task, an outcome, a triage item, reminder settings (`U`).
        case update = "U"
        /// Deleted something (`D`).
        case delete = "D"
        /// Did something that is none of those: a sign-in, an export, a report, a download (`E`).
        case execute = "E"
    }

    /// How it ended.
    public enum Outcome: String, Codable, Sendable, CaseIterable {
        /// Allowed and done.
        case allowed
        /// Refused: no access, a wrong password, a locked account.
        case denied
    }

    /// An entry before the log numbers and chains it.
    public struct Draft: Codable, Hashable, Sendable {
        /// When it happened, in whole milliseconds: the initializer drops the rest, as the log keeps and hashes
        /// milliseconds.
        public var recorded: Date
        /// Who asked: an account, or nil before anyone signed in.
        public var account: CareAccountID?
        /// The access token used, if any.
        public var token: RandomIdentifier?
        /// The care record it concerns; nil for an access outside any record (a sign-in, an account page).
        public var record: CareRecordID?
        /// What was touched: `care-page`, `api:Task`, `session`, `membership` …
        public var resource: String
        /// What was done, as FHIR's AuditEvent action code.
        public var action: Action
        /// Whether it was allowed.
        public var outcome: Outcome
        /// Where from: the client's address.
        public var address: String
        /// The route pattern or event, such as `GET /records/{record}/care`: never a value from the record.
        public var detail: String

        /// An entry to append (`CareDirectory.appendAudit(_:)`). Write identifiers and route patterns only: no outcome
        /// value, name or note of a record.
        ///
        /// - Parameters:
        ///   - recorded: When it happened; cut to whole milliseconds.
        ///   - account: Who asked, or nil before anyone signed in.
        ///   - token: The personal access token used, if any.
        ///   - record: The care record concerned, if any.
        ///   - resource: What was touched, such as `care-page` or `api:Task`.
        ///   - action: What was done.
        ///   - outcome: Whether it was allowed.
        ///   - address: The client's address.
        ///   - detail: The route pattern or event, never a value from the record.
        public init(recorded: Date, account: CareAccountID?, token: RandomIdentifier? = nil, record: CareRecordID?,
                    resource: String, action: Action, outcome: Outcome, address: String, detail: String) {
            self.recorded = Date(timeIntervalSince1970: (recorded.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
            self.account = account
            self.token = token
            self.record = record
            self.resource = resource
            self.action = action
            self.outcome = outcome
            self.address = address
            self.detail = detail
        }
    }

    /// Its place in the log, from 1.
    public var sequence: Int64
    /// What happened: the fields appended, which the hash covers.
    public var draft: Draft
    /// The hash of the entry before (64 zeros for the first).
    public var previousHash: String
    /// SHA-256 over `previousHash` and the entry's fields, hex.
    public var hash: String

    /// An entry with its place and hashes as given, unchecked: what a backend reads back from its table. To make a new
    /// one, the log uses `chained(_:sequence:after:)`; `expectedHash` tells whether `hash` is right.
    public init(sequence: Int64, draft: Draft, previousHash: String, hash: String) {
        self.sequence = sequence
        self.draft = draft
        self.previousHash = previousHash
        self.hash = hash
    }

    /// The entry numbered `sequence` after `previousHash`, with its hash.
    public static func chained(_ draft: Draft, sequence: Int64, after previousHash: String) -> AuditEntry {
        AuditEntry(sequence: sequence, draft: draft, previousHash: previousHash,
                   hash: hash(of: draft, sequence: sequence, previousHash: previousHash))
    }

    /// The hash the entry should have.
    public var expectedHash: String { Self.hash(of: draft, sequence: sequence, previousHash: previousHash) }

    /// The `previousHash` of the first entry: 64 zeros, standing for "no entry before".
    public static let firstPreviousHash = String(repeating: "0", count: 64)

    static func hash(of draft: Draft, sequence: Int64, previousHash: String) -> String {
        // Fields joined by the unit separator, which none of them may contain.
        let fields: [String] = [
            previousHash, String(sequence), String(Int64((draft.recorded.timeIntervalSince1970 * 1000).rounded())),
            draft.account?.description ?? "", draft.token?.description ?? "", draft.record?.description ?? "",
            draft.resource, draft.action.rawValue, draft.outcome.rawValue, draft.address, draft.detail,
        ]
        let digest = SHA256.hash(data: Data(fields.joined(separator: "\u{1F}").utf8))
        return digest.hexEncoded
    }
}

/// What checking the audit log's chain found.
///
/// For example:
/// ```swift
/// let verification = try await directory.verifyAuditLog()
/// if verification.isIntact {
///     print("\(verification.entries) entries, head \(verification.headHash)")
/// } else {
///     print("The audit log was altered: \(verification.problem ?? "")")
/// }
/// ```
public struct AuditVerification: Sendable, Equatable {
    /// How many entries were checked.
    public var entries: Int64
    /// The newest entry's hash: note it somewhere else to detect a log rewritten from the start.
    public var headHash: String
    /// The first problem, or nil when the chain is whole.
    public var problem: String?

    /// Whether the chain is whole: every entry in its place, each following the one before with its hash unchanged, and
    /// the last one the head the log recorded at its last append.
    public var isIntact: Bool { problem == nil }

    /// What a check found; backends make these, `CareDirectory.verifyAuditLog()` returns them.
    public init(entries: Int64, headHash: String, problem: String?) {
        self.entries = entries
        self.headHash = headHash
        self.problem = problem
    }
}

extension AuditEntry {
    /// Checks `entries` (in order, from the first) continue each other, then that the log's recorded head is the last.
    /// `entries` is read in batches by the caller; `state` carries over between batches.
    struct ChainCheck {
        var expectedSequence: Int64 = 1
        var previousHash = AuditEntry.firstPreviousHash
        var problem: String?

        mutating func check(_ entry: AuditEntry) {
            guard problem == nil else { return }
            if entry.sequence != expectedSequence {
                problem = entry.sequence > expectedSequence
                    ? "entry \(expectedSequence) is missing (the next is \(entry.sequence))"
                    : "entry \(entry.sequence) is out of order"
            } else if entry.previousHash != previousHash {
                problem = "entry \(entry.sequence) does not follow the entry before it (deleted or changed)"
            } else if entry.hash != entry.expectedHash {
                problem = "entry \(entry.sequence) was changed after it was written"
            }
            expectedSequence = entry.sequence + 1
            previousHash = entry.hash
        }

        /// Compares the end of the chain with the head the log recorded at its last append.
        mutating func finish(headSequence: Int64, headHash: String) {
            guard problem == nil else { return }
            if headSequence != expectedSequence - 1 || headHash != previousHash {
                problem = headSequence > expectedSequence - 1
                    ? "entries \(expectedSequence) to \(headSequence) are missing from the end"
                    : "the log's head does not match its last entry"
            }
        }
    }
}
