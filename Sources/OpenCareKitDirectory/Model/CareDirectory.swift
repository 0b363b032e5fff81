import Foundation
import OpenCareKitStore

/// What went wrong in the directory. Messages name no person and no record data.
///
/// A caller branches on `kind`, and shows or logs `reason`. A failure of the database behind the directory becomes a
/// `storage` error, but a duplicate key becomes `conflict`, a reference to a missing account or record `notFound`,
/// a database that cannot be reached or is contended OpenCareKitStore's `StorageUnavailableError` (try again
/// shortly), and one that fails (an I/O error, a full disk) its `StorageFaultError`.
///
/// For example:
/// ```swift
/// do {
///     try await directory.addAccount(account)
/// } catch let error as CareDirectoryError where error.kind == .emailTaken {
///     showForm(message: error.reason)
/// }
/// ```
public struct CareDirectoryError: Error, Equatable, Sendable, LocalizedError {
    /// The broad kind of a failure, for a caller to branch on (a server maps it to an HTTP status, say); `reason` says
    /// the rest.
    public enum Kind: Sendable, Equatable {
        /// An account with that email address exists already.
        case emailTaken
        /// The account, record, membership, invitation or token does not exist.
        case notFound
        /// The change would break a rule of the directory (a record without an owner, say).
        case conflict
        /// The directory's file cannot be read or written.
        case storage
    }

    /// What kind of failure it is.
    public let kind: Kind
    /// The failure in a sentence for the person or the operator (also `errorDescription`). It names no person, and no
    /// value of a record: it may be shown, and written to a log.
    public let reason: String

    /// An error of `kind`, explained by `reason`.
    ///
    /// - Parameters:
    ///   - kind: What kind of failure it is.
    ///   - reason: A whole sentence that names no person and no value of a record.
    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var errorDescription: String? { reason }

    /// The refusal of a second patient in a record (a record is one patient's).
    public static let secondPatient = CareDirectoryError(.conflict, "A record has one patient: it has one already.")
    /// The refusal of an invitation beyond `CareDirectoryLimits.openInvitationsPerRecord`.
    public static let tooManyInvitations = CareDirectoryError(.conflict, """
        A record has at most \(CareDirectoryLimits.openInvitationsPerRecord) open invitations: revoke one, or wait until one is accepted \
        or expires
        """)
}

/// What the directory bounds, whoever writes to it.
public enum CareDirectoryLimits {
    /// Invitations of one record that are neither accepted nor expired; another is refused.
    public static let openInvitationsPerRecord = 50
    /// Sessions one account keeps; a new one ends the least recently used beyond them.
    public static let sessionsPerAccount = 20
    /// Records one account owns (made, imported, or adopted); another is refused.
    public static let recordsPerAccount = 20
}

/// The small database beside the care records: accounts, records, memberships, invitations, sessions, access
/// tokens and the audit log. `SQLiteCareDirectory` keeps it in one SQLite file; another backend implements the same
/// protocol and nothing above it changes.
///
/// A call's writes are one transaction, all or nothing (a survey in progress excepted: its statements commit one by
/// one). Dates are kept as seconds since 1970; the audit log keeps whole milliseconds. Identifiers are
/// ``RandomIdentifier``s; secrets that sign someone in (session ids, invitation links, access tokens) are kept only
/// as their hashes. `CachingCareDirectory` puts a short-lived cache in front of any directory.
///
/// For example:
/// ```swift
/// let directory = try SQLiteCareDirectory(path: dataDirectory.appending(path: "directory.sqlite").path)
/// let account = CareAccount(email: "ana@example.org", name: "Ana", passwordHash: hash, createdDate: .now)
/// try await directory.addAccount(account)
///
/// let record = CareRecord(patientName: "Test Patient", timeZoneIdentifier: "Europe/Paris", createdDate: .now)
/// let owner = CareMembership(record: record.id, account: account.id, role: .patient, isOwner: true, createdDate: .now)
/// try await directory.addRecord(record, member: owner)
/// let records = try await directory.memberships(of: account.id)  // [(membership, record)]
/// ```
public protocol CareDirectory: Sendable {
    // MARK: Accounts
    /// Adds an account. Its email address is compared as it is given: normalize it first
    /// (`CareAccount.normalizedEmail(_:)`).
    /// - Throws: `emailTaken` if another account has the email; `conflict` if one has the id.
    func addAccount(_ account: CareAccount) async throws
    /// The account with the id `id`; nil when there is none.
    func account(_ id: CareAccountID) async throws -> CareAccount?
    /// The account with the email address `email`, which is normalized first (`CareAccount.normalizedEmail(_:)`:
    /// trimmed and lowercased); nil when there is none, or when `email` does not read as an address.
    func account(email: String) async throws -> CareAccount?
    /// Replaces the stored account with the same id.
    func updateAccount(_ account: CareAccount) async throws
    /// Counts a failed sign-in; after `threshold` in a row the account is locked until `now + lockout`.
    /// - Returns: The account as it is now.
    func noteFailedSignIn(_ id: CareAccountID, now: Date, threshold: Int, lockout: TimeInterval) async throws -> CareAccount?
    /// Clears the failure count after a successful sign-in.
    func noteSuccessfulSignIn(_ id: CareAccountID) async throws

    // MARK: Records and memberships
    /// Adds a record, with its first member (usually its owner) and the messages and triage items of an import
    /// (`importTeamWork`'s bounds), in one transaction: all or nothing.
    func addRecord(_ record: CareRecord, member: CareMembership?, teamWork: CareTeamWork) async throws
    /// The record with the id `id`; nil when there is none.
    func record(_ id: CareRecordID) async throws -> CareRecord?
    /// Changes a record's name, time zone, care plan and settings (its id and store stay).
    func updateRecord(_ record: CareRecord) async throws
    /// Every record, oldest first, `limit` at a time.
    func records(limit: Int, after: CareRecordID?) async throws -> [CareRecord]
    /// How many records the directory holds.
    func recordCount() async throws -> Int
    /// The access `account` has to `record` (its role, and whether it owns the record); nil when it has none. Every
    /// request to a record asks this: `CachingCareDirectory` remembers the answer for a moment.
    func membership(record: CareRecordID, account: CareAccountID) async throws -> CareMembership?
    /// The records an account has access to, with its membership in each, ordered by patient name.
    func memberships(of account: CareAccountID) async throws -> [(membership: CareMembership, record: CareRecord)]
    /// Everyone with access to a record, with their accounts.
    func members(of record: CareRecordID) async throws -> [(membership: CareMembership, account: CareAccount)]
    /// Adds or replaces a membership (a replaced one keeps its `createdDate`). A member whose role is no longer
    /// clinician hands the triage items assigned to them back to the record's clinicians.
    /// - Throws: `CareDirectoryError.secondPatient` for a second patient; `conflict` if the record would be left
    ///   without an owner; `notFound` if the record or the account does not exist.
    func setMembership(_ membership: CareMembership) async throws
    /// Takes a person's access to a record away; the triage items assigned to them go back to the record's
    /// clinicians.
    /// - Throws: `conflict` if it is the owner's membership; `notFound` if the person has no access to the record.
    func removeMembership(record: CareRecordID, account: CareAccountID) async throws

    // MARK: Invitations
    /// Keeps a new, unused invitation (its `acceptedDate` and `acceptedBy` are not stored). The directory holds only
    /// the hash of the link's secret.
    /// - Throws: `CareDirectoryError.secondPatient` for a patient's invitation to a record that has a patient;
    ///   `CareDirectoryError.tooManyInvitations` when the record has `CareDirectoryLimits.openInvitationsPerRecord`
    ///   invitations that are neither accepted nor expired at the invitation's `createdDate`; `conflict` when an
    ///   invitation has the same secret hash; `notFound` when the record does not exist.
    func addInvitation(_ invitation: CareInvitation) async throws
    /// The invitation whose link's secret has the SHA-256 hash `secretHash` (hex), whether it is open, accepted or
    /// expired; nil when there is none (never made, or revoked).
    func invitation(secretHash: String) async throws -> CareInvitation?
    /// Every invitation of `record` the directory keeps — open, accepted and expired — newest first.
    func invitations(of record: CareRecordID) async throws -> [CareInvitation]
    /// Uses the invitation once: if it is unused and unexpired at `now`, marks it accepted and gives `account` its role
    /// (a person who has a role in the record already keeps theirs).
    /// - Returns: The membership, or nil if the invitation was used, expired or never existed.
    func acceptInvitation(secretHash: String, account: CareAccountID, now: Date) async throws -> CareMembership?
    /// Revokes an invitation by forgetting it: its link stops working. Nothing happens when there is none.
    func removeInvitation(secretHash: String) async throws

    // MARK: Sessions (keyed by a hash of the session id)
    /// The web session whose id hashes to `keyHash` (the server keeps the SHA-256 of the cookie's id, hex, so the
    /// database holds no id that signs anyone in): the value the server stored, and when it expires (nil: never); nil
    /// when there is none, or it expired at or before `now`.
    func session(keyHash: String, now: Date) async throws -> (value: Data, expiryDate: Date?)?
    /// Stores a session; `expiryDate` nil keeps the stored one.
    func setSession(keyHash: String, account: CareAccountID?, value: Data, expiryDate: Date?, now: Date) async throws
    /// Ends one session (signing out): it is forgotten. Nothing happens when there is none.
    func removeSession(keyHash: String) async throws
    /// Ends every session of an account ("sign out everywhere", a changed password, a removed account).
    func removeSessions(of account: CareAccountID) async throws
    /// Forgets sessions, and surveys in progress, that expired before `now`.
    func removeExpiredSessions(now: Date) async throws

    /// Takes the two-step code of TOTP time step `step` for `account`, if no code of that step or a later one was
    /// taken before: a code signs in once (RFC 6238, section 5.2). False when one was.
    func takeTwoStepCode(step: Int64, of account: CareAccountID) async throws -> Bool

    // MARK: Surveys in progress
    /// Keeps `session` (open) unless its browser has an open or saving one for the same event, which is returned
    /// instead (so a survey whose saving was cut short is found again, and settled, rather than started anew; of
    /// two starts racing, both get the one that was kept). It first forgets the record's expired sessions, then the
    /// browser's least recently used open sessions beyond `perOwner - 1`, then the record's least recently used
    /// sessions beyond `perRecord - 1` (starts running at the same moment may overshoot the limits; the next restores
    /// them).
    /// - Returns: The session that is open for the browser and event.
    func openSurveySession(_ session: CareSurveySession, now: Date, perOwner: Int, perRecord: Int) async throws -> CareSurveySession
    /// The record's session `id`, open or closed, unless it expired before `now`.
    func surveySession(id: String, record: CareRecordID, now: Date) async throws -> CareSurveySession?
    /// Moves the record's session `id` from `from` to `to`, with a new value and expiry; false if it was not in `from`
    /// (of two racing to close a session, one does). A session left open or saving keeps `value`; a closed one keeps none.
    func setSurveySession(id: String, record: CareRecordID, from: CareSurveySession.Status, to: CareSurveySession.Status,
                          value: Data, expiryDate: Date) async throws -> Bool

    // MARK: Access tokens
    /// Keeps a new personal access token: only the hash of its secret, and neither `lastUsedDate` nor `revokedDate` (a
    /// new token is unused and valid).
    /// - Throws: `conflict` when a token has the same id or secret hash; `notFound` when its account or record does not
    ///   exist.
    func addAccessToken(_ token: CareAccessToken) async throws
    /// The token whose secret has the SHA-256 hash `secretHash` (hex), revoked or not: the caller refuses a revoked one
    /// (`CareAccessToken.revokedDate`). Nil when there is none.
    func accessToken(secretHash: String) async throws -> CareAccessToken?
    /// Every token of `account`, revoked ones too, newest first: what its owner lists and revokes.
    func accessTokens(of account: CareAccountID) async throws -> [CareAccessToken]
    /// Revokes one of the account's tokens; false if it has no such token.
    func revokeAccessToken(_ id: RandomIdentifier, of account: CareAccountID, now: Date) async throws -> Bool
    /// Sets the token's `lastUsedDate` to `now`. Nothing happens for a token that does not exist.
    func noteAccessTokenUse(_ id: RandomIdentifier, now: Date) async throws

    // MARK: Reminders
    /// Keeps a browser's push subscription; one with the same endpoint is replaced (a browser subscribing again).
    func setPushSubscription(_ subscription: CarePushSubscription) async throws
    /// The push subscriptions of `account` (one per browser or device it turned reminders on in), oldest first.
    func pushSubscriptions(of account: CareAccountID) async throws -> [CarePushSubscription]
    /// Forgets a subscription: the person turned reminders off on that device, or the push service said it is gone.
    func removePushSubscription(endpoint: String) async throws
    /// Adds or replaces a person's reminder settings for a record.
    func setReminderSettings(_ settings: CareReminderSettings) async throws
    /// The reminder settings `account` saved for `record`, including settings that turned reminders off (no tasks); nil
    /// when it never saved any.
    func reminderSettings(record: CareRecordID, account: CareAccountID) async throws -> CareReminderSettings?
    /// Everyone's reminder settings for a record that remind of at least one task.
    func reminderSettings(of record: CareRecordID) async throws -> [CareReminderSettings]
    /// The records at least one person wants reminders of, in id order (what the reminder service follows).
    func recordsWithReminders() async throws -> [CareRecordID]
    /// The records whose reminder settings someone saved after `date` (turning reminders off too), in id order: how the
    /// app server that sends reminders hears of settings saved on the others.
    func recordsWithReminderSettingsChanged(after date: Date) async throws -> [CareRecordID]
    /// A value every app server of the directory shares, such as the signing key of Web Push: the one kept under
    /// `name`, or else `value`, kept now — so servers that start together agree on the first one written.
    func sharedValue(named name: String, orKeep value: String, now: Date) async throws -> String

    /// Rewrites the secrets the directory keeps — accounts' two-step keys and the shared values — as `transform`
    /// gives them (nil: unchanged), in one transaction; returns how many changed. (A server seals them with a key
    /// kept outside the database.)
    func resealSecrets(_ transform: @escaping @Sendable (String) throws -> String?) async throws -> Int

    // MARK: Triage
    /// Raises `alerts` on `record` in one transaction: an alert updates its cause's open item when it brings new
    /// evidence, raises a new item when its cause has none open and its evidence is not all in the last resolved one,
    /// and is dropped otherwise.
    func raiseTriage(_ alerts: [CareTriageAlert], record: CareRecordID, now: Date) async throws -> CareTriageRaise
    /// The open items of `records` (urgent, then new, then newest first), or the resolved ones (newest first).
    func triageItems(records: [CareRecordID], open: Bool, limit: Int) async throws -> [CareTriageItem]
    /// The item with the id `id`, open or resolved, of whichever record; nil when there is none (old resolved items are
    /// dropped: `CareTriageItem.maximumResolvedPerRecord`). It checks no access: the caller checks that whoever asks
    /// may see the item's record.
    func triageItem(_ id: RandomIdentifier) async throws -> CareTriageItem?
    /// How many items of `records` are open, and how many of those are urgent.
    func openTriageCounts(records: [CareRecordID]) async throws -> (open: Int, urgent: Int)
    /// The same for each of `records` that has open items.
    func openTriageCountsByRecord(records: [CareRecordID]) async throws -> [CareRecordID: CareTriageCounts]
    /// Acknowledges, assigns or resolves an open item, by `account`; a conflict when another did it first.
    func actOnTriageItem(_ id: RandomIdentifier, _ action: CareTriageAction, by account: CareAccountID, now: Date) async throws
        -> CareTriageItem

    // MARK: Messages
    // Each names who reads or writes: a thread of an audience their role in the record does not include is, to them,
    // no thread (`CareDirectoryError.noSuchThread`; and no listing, no count).

    /// Starts a thread in the draft's record with its first message, by `author` — or, for a triage item with a thread of
    /// the audience already, adds the message to that thread. Bounded: subject and body length, threads per record,
    /// messages per record, and each person's messages per minute.
    func startThread(_ draft: CareThreadDraft, by author: CareAccountID, now: Date) async throws -> (thread: CareThread, message: CareMessage)
    /// Adds a message to a thread, by `author`, within the same bounds; the author has read the thread through it.
    func postMessage(thread: RandomIdentifier, body: String, by author: CareAccountID, now: Date) async throws
        -> (thread: CareThread, message: CareMessage)
    /// The threads of `record` that `reader` sees, most recently active first, after the thread `before` (from the
    /// first when nil), each with the messages of others the reader has not read.
    func threads(record: CareRecordID, reader: CareAccountID, before: RandomIdentifier?, limit: Int) async throws -> [CareThreadListing]
    /// The thread `id`, if `reader` sees it (a member of its record, in a role its audience includes); nil otherwise,
    /// whether or not the thread exists.
    func thread(_ id: RandomIdentifier, reader: CareAccountID) async throws -> CareThread?
    /// The newest `limit` messages of a thread sent before the message `before` (the newest when nil), oldest first.
    func threadMessages(_ id: RandomIdentifier, reader: CareAccountID, before: RandomIdentifier?, limit: Int) async throws -> [CareMessage]
    /// Marks the thread read by `reader` through the message at `through` (its newest when nil, or when `through` is
    /// beyond it); false when it was read that far already.
    func markThreadRead(_ id: RandomIdentifier, reader: CareAccountID, through: Int?, now: Date) async throws -> Bool
    /// How far each member who sees the thread has read it.
    func threadReads(_ id: RandomIdentifier, reader: CareAccountID) async throws -> [CareThreadRead]
    /// For each of `records` with any, how many messages of others `account` has not read in the threads it sees.
    func unreadMessageCounts(account: CareAccountID, records: [CareRecordID]) async throws -> [CareRecordID: Int]
    /// Adds another server's messages and triage items to `record`, in one transaction, within the record's bounds
    /// (`CareTeamWork.problem`): all or nothing.
    func importTeamWork(_ work: CareTeamWork, record: CareRecordID, now: Date) async throws

    // MARK: Audit log
    /// Numbers, chains and appends entries in one transaction.
    func appendAudit(_ drafts: [AuditEntry.Draft]) async throws
    /// A record's entries, newest first.
    func auditEntries(record: CareRecordID, limit: Int, offset: Int) async throws -> [AuditEntry]
    /// A record's entries of one resource (such as `plan:task`), newest first.
    func auditEntries(record: CareRecordID, resource: String, limit: Int) async throws -> [AuditEntry]
    /// Entries in order after `sequence`, for export and verification.
    func auditEntries(after sequence: Int64, limit: Int) async throws -> [AuditEntry]
    /// Checks the whole chain.
    func verifyAuditLog() async throws -> AuditVerification
}

extension CareDirectory {
    /// Adds a record, with its first member (usually its owner).
    public func addRecord(_ record: CareRecord, member: CareMembership?) async throws {
        try await addRecord(record, member: member, teamWork: CareTeamWork())
    }
}
