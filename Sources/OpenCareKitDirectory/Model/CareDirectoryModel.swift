import Foundation
import OpenCareKitStore

/// A random identifier of 128 bits, written as 26 lowercase letters and digits (Crockford's base 32 without the
/// letters that read like others): unguessable, safe in a URL path and a file name.
public struct RandomIdentifier: Hashable, Sendable, Codable, Comparable, CustomStringConvertible, LosslessStringConvertible {
    public let description: String

    static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz")
    static let length = 26

    /// A new identifier from the system's secure random number generator.
    public static func random() -> RandomIdentifier {
        // 26 × 5 = 130 bits; the first character carries 3 (so 128 bits in all). 8 and 32 divide 256, so masking a
        // byte keeps every character equally likely.
        let characters = SecureRandom.bytes(length).enumerated().map { index, byte in
            alphabet[Int(byte & (index == 0 ? 0b111 : 0b1_1111))]
        }
        return RandomIdentifier(uncheckedText: String(characters))
    }

    /// Each byte's value in `alphabet`, or -1.
    private static let values: [Int8] = {
        var values = [Int8](repeating: -1, count: 256)
        for (index, character) in alphabet.enumerated() {
            if let byte = character.asciiValue { values[Int(byte)] = Int8(index) }
        }
        return values
    }()

    /// The identifier written as `text`, or nil unless it has exactly the form `random()` makes.
    public init?(_ text: String) {
        // By bytes: every request's record id and every row read from the directory passes here.
        guard text.utf8.count == Self.length else { return nil }
        var isFirst = true
        for byte in text.utf8 {
            let value = Self.values[Int(byte)]
            guard value >= 0, !isFirst || value < 8 else { return nil }
            isFirst = false
        }
        description = text
    }

    init(uncheckedText: String) {
        description = uncheckedText
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let identifier = RandomIdentifier(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "Not an identifier"))
        }
        self = identifier
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.description < rhs.description }
}

/// Identifies a care record: one patient's CareKit store.
public typealias CareRecordID = RandomIdentifier
/// Identifies an account: a person who signs in.
public typealias CareAccountID = RandomIdentifier

/// What a person may do in one care record.
public enum CareRole: String, Codable, Sendable, CaseIterable, Comparable {
    /// The person the record is about: sees everything, completes tasks, manages who has access.
    case patient
    /// Someone who cares for the patient: sees everything, completes tasks, logs and answers check-ins; does not
    /// change the plan or who has access (unless they own a record that has no patient account).
    case caregiver
    /// A member of the clinical team: sees everything, edits tasks, schedules, contacts and notes; does not
    /// complete tasks for the patient.
    case clinician

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A person who signs in with an email address and a password.
public struct CareAccount: Codable, Hashable, Sendable {
    /// The account's random id. It never changes: memberships, tokens, messages and audit entries name the account by
    /// it.
    public var id: CareAccountID
    /// Lowercased; unique among accounts.
    public var email: String
    /// The name shown to the care team.
    public var name: String
    /// The bcrypt hash of the password.
    public var passwordHash: String
    /// The base-32 secret of two-step sign-in, once it is turned on.
    public var totpSecret: String?
    /// Hashes of the unused recovery codes of two-step sign-in.
    public var recoveryCodeHashes: [String]
    /// Failed sign-ins since the last successful one.
    public var failedSignIns: Int
    /// Sign-in is refused until then after too many failures.
    public var lockedUntil: Date?
    /// When the account was made.
    public var createdDate: Date

    /// An account as the directory keeps it; by default a new random id, two-step sign-in off, no failed sign-ins and
    /// no lock. The directory compares `email` as it is given: pass it through `normalizedEmail(_:)` first.
    /// `passwordHash` is a bcrypt hash, never the password.
    public init(id: CareAccountID = .random(), email: String, name: String, passwordHash: String, totpSecret: String? = nil,
                recoveryCodeHashes: [String] = [], failedSignIns: Int = 0, lockedUntil: Date? = nil, createdDate: Date) {
        self.id = id
        self.email = email
        self.name = name
        self.passwordHash = passwordHash
        self.totpSecret = totpSecret
        self.recoveryCodeHashes = recoveryCodeHashes
        self.failedSignIns = failedSignIns
        self.lockedUntil = lockedUntil
        self.createdDate = createdDate
    }

    /// `text` trimmed and lowercased if it reads as an email address (one `@`, no spaces, at most 254 characters).
    public static func normalizedEmail(_ text: String) -> String? {
        let email = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
              !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
              email.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7f && !"<>\"'\\,;".unicodeScalars.contains($0) })
        else { return nil }
        return email
    }
}

/// One patient's care record: which store holds it, and how it is shown.
public struct CareRecord: Codable, Hashable, Sendable {
    /// The record's random id: in its addresses (`/records/{id}/…`), its memberships and its audit entries.
    public var id: CareRecordID
    /// The store's file name (without `.sqlite`) under the records folder, or a path relative to the data
    /// directory for a store adopted from before records existed.
    public var storeName: String
    /// The patient's name as the care team sees it in lists.
    public var patientName: String
    /// The patient's IANA time zone: where the record's days begin and end.
    public var timeZoneIdentifier: String
    /// The built-in care plan the record follows (its surveys, card styles and charts), such as `demo`; nil for a
    /// plan of its own.
    public var carePlan: String?
    /// Whether the patient (and the owner, for a record without a patient account) may change the care plan, as
    /// clinicians do. The owner turns it off for a plan only the care team changes.
    public var patientEditsPlan = true
    /// When the record was made.
    public var createdDate: Date

    /// A record; by default a new random id, and the store `records/{id}` under the data directory (`storeName` nil).
    /// `patientEditsPlan` starts true: set it afterwards for a plan only the care team changes.
    public init(id: CareRecordID = .random(), storeName: String? = nil, patientName: String, timeZoneIdentifier: String,
                carePlan: String? = nil, createdDate: Date) {
        self.id = id
        self.storeName = storeName ?? "records/\(id)"
        self.patientName = patientName
        self.timeZoneIdentifier = timeZoneIdentifier
        self.carePlan = carePlan
        self.createdDate = createdDate
    }
}

/// A person's access to a record.
public struct CareMembership: Codable, Hashable, Sendable {
    /// The record it gives access to.
    public var record: CareRecordID
    /// The person who has the access.
    public var account: CareAccountID
    /// What the person may do in the record. A record has at most one patient.
    public var role: CareRole
    /// The owner manages who has access: the patient, or a caregiver of a record without a patient account.
    public var isOwner: Bool
    /// When the person was given access; replacing the membership (a new role, say) keeps the first date.
    public var createdDate: Date

    /// A person's access to a record, as `CareDirectory.setMembership(_:)` stores it.
    public init(record: CareRecordID, account: CareAccountID, role: CareRole, isOwner: Bool, createdDate: Date) {
        self.record = record
        self.account = account
        self.role = role
        self.isOwner = isOwner
        self.createdDate = createdDate
    }
}

/// A single-use link that gives its holder a role in a record.
public struct CareInvitation: Codable, Hashable, Sendable {
    /// The SHA-256 of the link's secret, hex; the secret itself is only in the link.
    public var secretHash: String
    /// The record the invitation gives access to.
    public var record: CareRecordID
    /// The role its holder gets; a person who is a member of the record already keeps theirs.
    public var role: CareRole
    /// The member who made the invitation.
    public var invitedBy: CareAccountID
    /// When the invitation was made.
    public var createdDate: Date
    /// When the link stops working: it is accepted only before this moment.
    public var expiryDate: Date
    /// When the link was used; nil while it is unused. An invitation is used once.
    public var acceptedDate: Date?
    /// The account that used the link; nil while it is unused.
    public var acceptedBy: CareAccountID?

    /// An invitation; a new one is unused (`acceptedDate` and `acceptedBy` nil), and `CareDirectory.addInvitation(_:)`
    /// stores no other. `secretHash` is the SHA-256 of the link's secret, hex: the secret is never stored.
    public init(secretHash: String, record: CareRecordID, role: CareRole, invitedBy: CareAccountID, createdDate: Date,
                expiryDate: Date, acceptedDate: Date? = nil, acceptedBy: CareAccountID? = nil) {
        self.secretHash = secretHash
        self.record = record
        self.role = role
        self.invitedBy = invitedBy
        self.createdDate = createdDate
        self.expiryDate = expiryDate
        self.acceptedDate = acceptedDate
        self.acceptedBy = acceptedBy
    }
}

/// A personal access token for the JSON API: bound to one record and a SMART-style scope.
public struct CareAccessToken: Codable, Hashable, Sendable {
    /// The token's random id, by which its owner lists and revokes it; never the secret.
    public var id: RandomIdentifier
    /// The SHA-256 of the token, hex; the token is shown once, when it is made.
    public var secretHash: String
    /// The account that made it: a request with the token acts as this account, in `record` and within `scope`.
    public var account: CareAccountID
    /// The one record the token reaches.
    public var record: CareRecordID
    /// Such as `patient/*.rs`.
    public var scope: String
    /// What its owner calls it.
    public var label: String
    /// When the token was made.
    public var createdDate: Date
    /// When the token was last used, as `CareDirectory.noteAccessTokenUse(_:now:)` noted it; nil while it never was.
    public var lastUsedDate: Date?
    /// When its owner revoked it; nil while it is valid. A revoked token stays listed, and is refused.
    public var revokedDate: Date?

    /// A token; by default a new random id, never used and not revoked. `secretHash` is the SHA-256 of the token, hex:
    /// show the token to its owner once, and keep only the hash.
    public init(id: RandomIdentifier = .random(), secretHash: String, account: CareAccountID, record: CareRecordID, scope: String,
                label: String, createdDate: Date, lastUsedDate: Date? = nil, revokedDate: Date? = nil) {
        self.id = id
        self.secretHash = secretHash
        self.account = account
        self.record = record
        self.scope = scope
        self.label = label
        self.createdDate = createdDate
        self.lastUsedDate = lastUsedDate
        self.revokedDate = revokedDate
    }
}

/// A survey in progress in a record, kept in the directory so that whichever app server takes the next step carries
/// it on, and so that it outlives a restart. What the app keeps of it is opaque here.
public struct CareSurveySession: Hashable, Sendable {
    /// Where a survey session is: open, then saving, then finished — or cancelled, or discarded. An open or saving
    /// session keeps its `value`; a closed one (finished, cancelled, discarded) keeps none, and only says what became
    /// of it until it expires.
    public enum Status: String, Sendable, CaseIterable {
        /// Being answered: the participant is at one of its steps.
        case open
        /// Its answers are being saved (they stay in `value` until they are).
        case saving
        /// Its answers were saved.
        case finished
        /// The participant cancelled it: nothing of it was saved.
        case cancelled
        /// Its answers could not be saved (the event was answered elsewhere meanwhile).
        case discarded

        /// Whether a session in this state keeps its value; once closed it keeps none.
        public var keepsValue: Bool { self == .open || self == .saving }
    }

    /// Its random id, in the survey's address.
    public var id: String
    /// The record whose task it answers; the session is found only in this record.
    public var record: CareRecordID
    /// The SHA-256 of the secret of the browser that started it, hex.
    public var ownerHash: String
    /// The event it answers: a browser has at most one open session per event.
    public var event: String
    /// Where it is: open, saving, or closed.
    public var status: Status
    /// What the app keeps of it while it is open or saving; empty once it is closed.
    public var value: Data
    /// When it is forgotten unless used again (a closed one: when its id stops being recognized).
    public var expiryDate: Date

    /// A session; a new one is open. `value` is the app's own (an encoded survey session, say), and `expiryDate` moves
    /// on each time the session is used.
    public init(id: String, record: CareRecordID, ownerHash: String, event: String, status: Status = .open, value: Data,
                expiryDate: Date) {
        self.id = id
        self.record = record
        self.ownerHash = ownerHash
        self.event = event
        self.status = status
        self.value = value
        self.expiryDate = expiryDate
    }
}

/// A browser's Web Push subscription: where to send a person's reminders on one device.
public struct CarePushSubscription: Codable, Hashable, Sendable {
    /// The subscription's random id.
    public var id: RandomIdentifier
    /// The person whose reminders it receives.
    public var account: CareAccountID
    /// The push service's URL for the browser; one subscription per endpoint.
    public var endpoint: String
    /// The browser's P-256 public key and authentication secret, base64url, as the browser gives them.
    public var publicKey: String
    /// The browser's authentication secret (Web Push's `auth`), base64url as the browser gives it; with `publicKey`,
    /// what each push is encrypted to.
    public var authSecret: String
    /// When the browser subscribed.
    public var createdDate: Date

    /// A subscription, with the endpoint and keys the browser's `PushSubscription` gives; by default a new random id.
    public init(id: RandomIdentifier = .random(), account: CareAccountID, endpoint: String, publicKey: String, authSecret: String,
                createdDate: Date) {
        (self.id, self.account, self.endpoint, self.publicKey, self.authSecret, self.createdDate) =
            (id, account, endpoint, publicKey, authSecret, createdDate)
    }
}

/// A person's reminders for one care record: which tasks, quiet hours, and a follow-up.
public struct CareReminderSettings: Codable, Hashable, Sendable {
    /// The person reminded.
    public var account: CareAccountID
    /// The record whose tasks they are reminded of.
    public var record: CareRecordID
    /// The tasks reminded, by id (none: reminders are off for the record).
    public var taskIDs: [String]
    /// Quiet hours in the record's time zone, minutes after midnight: from `start` up to `end`, across midnight when
    /// `end` is earlier; nil: none. A reminder due then waits for the end.
    public var quietStart: Int?
    /// Where the quiet hours end, in minutes after midnight in the record's time zone (see `quietStart`); nil: none.
    public var quietEnd: Int?
    /// Minutes after an event's reminder a second one is sent if the event is still not done; nil: none.
    public var followUpMinutes: Int?
    /// When the person saved the settings: what `CareDirectory.recordsWithReminderSettingsChanged(after:)` compares.
    public var updatedDate: Date

    /// The most tasks one setting names (a record holds at most `OCKStoreLimits.maximumEntitiesOfAKind`).
    public static let maximumTasks = 1_000

    /// A person's reminder settings for a record; by default no quiet hours and no follow-up. Empty `taskIDs` turn
    /// reminders off for the record. `CareDirectory.setReminderSettings(_:)` refuses more than `maximumTasks` tasks.
    public init(account: CareAccountID, record: CareRecordID, taskIDs: [String], quietStart: Int? = nil, quietEnd: Int? = nil,
                followUpMinutes: Int? = nil, updatedDate: Date) {
        (self.account, self.record, self.taskIDs, self.quietStart, self.quietEnd, self.followUpMinutes, self.updatedDate) =
            (account, record, taskIDs, quietStart, quietEnd, followUpMinutes, updatedDate)
    }

    /// Whether `minute` (after midnight) is in the quiet hours.
    public func isQuiet(atMinute minute: Int) -> Bool {
        guard let start = quietStart, let end = quietEnd, start != end else { return false }
        return start < end ? (start..<end).contains(minute) : minute >= start || minute < end
    }
}
