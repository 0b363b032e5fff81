import Foundation
import OpenCareKitStore
import Synchronization

/// A directory that remembers, for `freshness` (2 s by default), the lookups every request makes — its session, its
/// account, its membership in the record — and forgets one as soon as a write through it changes it. A change made
/// elsewhere (another server on the same directory, the command line tool) is seen within `freshness`: a removed
/// member or a revoked session keeps access at most that long on this server. At most `capacity` entries of each
/// kind are kept.
///
/// Only those three lookups are remembered (an account's lookup by email is not); every other call goes to the base
/// directory. A session found expired is refused whatever the cache holds.
///
/// For example:
/// ```swift
/// let directory = CachingCareDirectory(try SQLiteCareDirectory(path: path))
/// // Asked of the base directory, then remembered for `freshness`:
/// let access = try await directory.membership(record: record.id, account: account.id)
/// // Forgets the record's remembered memberships:
/// try await directory.removeMembership(record: record.id, account: account.id)
/// ```
public final class CachingCareDirectory: CareDirectory {
    /// The directory it reads through and writes to.
    public let base: any CareDirectory
    /// How long, in seconds, a remembered lookup is used before the base directory is asked again.
    public let freshness: TimeInterval
    /// How many lookups of each kind it remembers; at that many, it forgets them all and starts again.
    public let capacity: Int

    private struct Entry<Value: Sendable>: Sendable {
        let value: Value
        let fetched: ContinuousClock.Instant
    }

    private struct MembershipKey: Hashable, Sendable {
        let record: CareRecordID
        let account: CareAccountID
    }

    private let sessions = Mutex<[String: Entry<(value: Data, expiryDate: Date?)?>]>([:])
    private let accounts = Mutex<[CareAccountID: Entry<CareAccount?>]>([:])
    private let memberships = Mutex<[MembershipKey: Entry<CareMembership?>]>([:])

    /// A cache in front of `base`.
    ///
    /// - Parameters:
    ///   - base: The directory it reads through and writes to.
    ///   - freshness: How long, in seconds, a lookup is remembered: how late this server may see a change made
    ///     elsewhere.
    ///   - capacity: How many lookups of each kind it remembers at most.
    public init(_ base: any CareDirectory, freshness: TimeInterval = 2, capacity: Int = 10_000) {
        self.base = base
        self.freshness = freshness
        self.capacity = capacity
    }

    private func fresh<Key: Hashable & Sendable, Value: Sendable>(_ cache: borrowing Mutex<[Key: Entry<Value>]>, _ key: Key) -> Entry<Value>? {
        cache.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard ContinuousClock.now - entry.fetched < .milliseconds(Int64(freshness * 1000)) else {
                entries[key] = nil
                return nil
            }
            return entry
        }
    }

    private func remember<Key: Hashable & Sendable, Value: Sendable>(_ cache: borrowing Mutex<[Key: Entry<Value>]>, _ key: Key, _ value: Value) {
        cache.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(value: value, fetched: .now)
        }
    }

    // MARK: Cached reads

    public func session(keyHash: String, now: Date) async throws -> (value: Data, expiryDate: Date?)? {
        let stored: (value: Data, expiryDate: Date?)?
        if let entry = fresh(sessions, keyHash) {
            stored = entry.value
        } else {
            stored = try await base.session(keyHash: keyHash, now: now)
            remember(sessions, keyHash, stored)
        }
        guard let stored else { return nil }
        if let expiry = stored.expiryDate, expiry <= now { return nil }
        return (stored.value, stored.expiryDate)
    }

    public func account(_ id: CareAccountID) async throws -> CareAccount? {
        if let entry = fresh(accounts, id) { return entry.value }
        let account = try await base.account(id)
        remember(accounts, id, account)
        return account
    }

    public func membership(record: CareRecordID, account: CareAccountID) async throws -> CareMembership? {
        let key = MembershipKey(record: record, account: account)
        if let entry = fresh(memberships, key) { return entry.value }
        let membership = try await base.membership(record: record, account: account)
        remember(memberships, key, membership)
        return membership
    }

    // MARK: Writes, which forget what they change

    private func forgetAccount(_ id: CareAccountID) { accounts.withLock { _ = $0.removeValue(forKey: id) } }
    private func forgetMemberships(record: CareRecordID) { memberships.withLock { $0 = $0.filter { $0.key.record != record } } }
    private func forgetMemberships(account: CareAccountID) { memberships.withLock { $0 = $0.filter { $0.key.account != account } } }

    public func addAccount(_ account: CareAccount) async throws { try await base.addAccount(account) }
    public func account(email: String) async throws -> CareAccount? { try await base.account(email: email) }
    public func updateAccount(_ account: CareAccount) async throws {
        defer { forgetAccount(account.id) }
        try await base.updateAccount(account)
    }
    public func noteFailedSignIn(_ id: CareAccountID, now: Date, threshold: Int, lockout: TimeInterval) async throws -> CareAccount? {
        defer { forgetAccount(id) }
        return try await base.noteFailedSignIn(id, now: now, threshold: threshold, lockout: lockout)
    }
    public func noteSuccessfulSignIn(_ id: CareAccountID) async throws {
        defer { forgetAccount(id) }
        try await base.noteSuccessfulSignIn(id)
    }

    public func addRecord(_ record: CareRecord, member: CareMembership?, teamWork: CareTeamWork) async throws {
        defer { forgetMemberships(record: record.id) }
        try await base.addRecord(record, member: member, teamWork: teamWork)
    }
    public func record(_ id: CareRecordID) async throws -> CareRecord? { try await base.record(id) }
    public func updateRecord(_ record: CareRecord) async throws { try await base.updateRecord(record) }
    public func records(limit: Int, after: CareRecordID?) async throws -> [CareRecord] { try await base.records(limit: limit, after: after) }
    public func recordCount() async throws -> Int { try await base.recordCount() }
    public func memberships(of account: CareAccountID) async throws -> [(membership: CareMembership, record: CareRecord)] {
        try await base.memberships(of: account)
    }
    public func members(of record: CareRecordID) async throws -> [(membership: CareMembership, account: CareAccount)] {
        try await base.members(of: record)
    }
    public func setMembership(_ membership: CareMembership) async throws {
        defer { forgetMemberships(record: membership.record) }
        try await base.setMembership(membership)
    }
    public func removeMembership(record: CareRecordID, account: CareAccountID) async throws {
        defer { forgetMemberships(record: record) }
        try await base.removeMembership(record: record, account: account)
    }

    public func addInvitation(_ invitation: CareInvitation) async throws { try await base.addInvitation(invitation) }
    public func invitation(secretHash: String) async throws -> CareInvitation? { try await base.invitation(secretHash: secretHash) }
    public func invitations(of record: CareRecordID) async throws -> [CareInvitation] { try await base.invitations(of: record) }
    public func acceptInvitation(secretHash: String, account: CareAccountID, now: Date) async throws -> CareMembership? {
        defer { forgetMemberships(account: account) }
        return try await base.acceptInvitation(secretHash: secretHash, account: account, now: now)
    }
    public func removeInvitation(secretHash: String) async throws { try await base.removeInvitation(secretHash: secretHash) }

    public func setSession(keyHash: String, account: CareAccountID?, value: Data, expiryDate: Date?, now: Date) async throws {
        defer { sessions.withLock { _ = $0.removeValue(forKey: keyHash) } }
        try await base.setSession(keyHash: keyHash, account: account, value: value, expiryDate: expiryDate, now: now)
    }
    public func removeSession(keyHash: String) async throws {
        defer { sessions.withLock { _ = $0.removeValue(forKey: keyHash) } }
        try await base.removeSession(keyHash: keyHash)
    }
    public func removeSessions(of account: CareAccountID) async throws {
        // Cached sessions do not say whose they are: forget them all.
        defer { sessions.withLock { $0.removeAll() } }
        try await base.removeSessions(of: account)
    }
    public func removeExpiredSessions(now: Date) async throws { try await base.removeExpiredSessions(now: now) }
    public func takeTwoStepCode(step: Int64, of account: CareAccountID) async throws -> Bool {
        try await base.takeTwoStepCode(step: step, of: account)
    }

    // Surveys in progress are used by one request at a time, and never cached.
    public func openSurveySession(_ session: CareSurveySession, now: Date, perOwner: Int, perRecord: Int) async throws -> CareSurveySession {
        try await base.openSurveySession(session, now: now, perOwner: perOwner, perRecord: perRecord)
    }
    public func surveySession(id: String, record: CareRecordID, now: Date) async throws -> CareSurveySession? {
        try await base.surveySession(id: id, record: record, now: now)
    }
    public func setSurveySession(id: String, record: CareRecordID, from: CareSurveySession.Status, to: CareSurveySession.Status,
                                 value: Data, expiryDate: Date) async throws -> Bool {
        try await base.setSurveySession(id: id, record: record, from: from, to: to, value: value, expiryDate: expiryDate)
    }

    public func addAccessToken(_ token: CareAccessToken) async throws { try await base.addAccessToken(token) }
    public func accessToken(secretHash: String) async throws -> CareAccessToken? { try await base.accessToken(secretHash: secretHash) }
    public func setPushSubscription(_ subscription: CarePushSubscription) async throws { try await base.setPushSubscription(subscription) }
    public func pushSubscriptions(of account: CareAccountID) async throws -> [CarePushSubscription] {
        try await base.pushSubscriptions(of: account)
    }
    public func removePushSubscription(endpoint: String) async throws { try await base.removePushSubscription(endpoint: endpoint) }
    public func setReminderSettings(_ settings: CareReminderSettings) async throws { try await base.setReminderSettings(settings) }
    public func reminderSettings(record: CareRecordID, account: CareAccountID) async throws -> CareReminderSettings? {
        try await base.reminderSettings(record: record, account: account)
    }
    public func reminderSettings(of record: CareRecordID) async throws -> [CareReminderSettings] { try await base.reminderSettings(of: record) }
    public func recordsWithReminders() async throws -> [CareRecordID] { try await base.recordsWithReminders() }
    public func recordsWithReminderSettingsChanged(after date: Date) async throws -> [CareRecordID] {
        try await base.recordsWithReminderSettingsChanged(after: date)
    }
    public func resealSecrets(_ transform: @escaping @Sendable (String) throws -> String?) async throws -> Int {
        // Accounts hold their two-step keys: forget them all.
        defer { accounts.withLock { $0.removeAll() } }
        return try await base.resealSecrets(transform)
    }
    public func raiseTriage(_ alerts: [CareTriageAlert], record: CareRecordID, now: Date) async throws -> CareTriageRaise {
        try await base.raiseTriage(alerts, record: record, now: now)
    }
    public func triageItems(records: [CareRecordID], open: Bool, limit: Int) async throws -> [CareTriageItem] {
        try await base.triageItems(records: records, open: open, limit: limit)
    }
    public func triageItem(_ id: RandomIdentifier) async throws -> CareTriageItem? { try await base.triageItem(id) }
    public func openTriageCounts(records: [CareRecordID]) async throws -> (open: Int, urgent: Int) {
        try await base.openTriageCounts(records: records)
    }
    public func openTriageCountsByRecord(records: [CareRecordID]) async throws -> [CareRecordID: CareTriageCounts] {
        try await base.openTriageCountsByRecord(records: records)
    }
    public func actOnTriageItem(_ id: RandomIdentifier, _ action: CareTriageAction, by account: CareAccountID, now: Date) async throws
        -> CareTriageItem {
        try await base.actOnTriageItem(id, action, by: account, now: now)
    }

    public func startThread(_ draft: CareThreadDraft, by author: CareAccountID, now: Date) async throws -> (thread: CareThread, message: CareMessage) {
        try await base.startThread(draft, by: author, now: now)
    }
    public func postMessage(thread: RandomIdentifier, body: String, by author: CareAccountID, now: Date) async throws
        -> (thread: CareThread, message: CareMessage) {
        try await base.postMessage(thread: thread, body: body, by: author, now: now)
    }
    public func threads(record: CareRecordID, reader: CareAccountID, before: RandomIdentifier?, limit: Int) async throws -> [CareThreadListing] {
        try await base.threads(record: record, reader: reader, before: before, limit: limit)
    }
    public func thread(_ id: RandomIdentifier, reader: CareAccountID) async throws -> CareThread? { try await base.thread(id, reader: reader) }
    public func threadMessages(_ id: RandomIdentifier, reader: CareAccountID, before: RandomIdentifier?, limit: Int) async throws -> [CareMessage] {
        try await base.threadMessages(id, reader: reader, before: before, limit: limit)
    }
    public func markThreadRead(_ id: RandomIdentifier, reader: CareAccountID, through: Int?, now: Date) async throws -> Bool {
        try await base.markThreadRead(id, reader: reader, through: through, now: now)
    }
    public func threadReads(_ id: RandomIdentifier, reader: CareAccountID) async throws -> [CareThreadRead] {
        try await base.threadReads(id, reader: reader)
    }
    public func unreadMessageCounts(account: CareAccountID, records: [CareRecordID]) async throws -> [CareRecordID: Int] {
        try await base.unreadMessageCounts(account: account, records: records)
    }
    public func importTeamWork(_ work: CareTeamWork, record: CareRecordID, now: Date) async throws {
        try await base.importTeamWork(work, record: record, now: now)
    }
    public func sharedValue(named name: String, orKeep value: String, now: Date) async throws -> String {
        try await base.sharedValue(named: name, orKeep: value, now: now)
    }
    public func accessTokens(of account: CareAccountID) async throws -> [CareAccessToken] { try await base.accessTokens(of: account) }
    public func revokeAccessToken(_ id: RandomIdentifier, of account: CareAccountID, now: Date) async throws -> Bool {
        try await base.revokeAccessToken(id, of: account, now: now)
    }
    public func noteAccessTokenUse(_ id: RandomIdentifier, now: Date) async throws { try await base.noteAccessTokenUse(id, now: now) }

    public func appendAudit(_ drafts: [AuditEntry.Draft]) async throws { try await base.appendAudit(drafts) }
    public func auditEntries(record: CareRecordID, limit: Int, offset: Int) async throws -> [AuditEntry] {
        try await base.auditEntries(record: record, limit: limit, offset: offset)
    }
    public func auditEntries(after sequence: Int64, limit: Int) async throws -> [AuditEntry] {
        try await base.auditEntries(after: sequence, limit: limit)
    }
    public func auditEntries(record: CareRecordID, resource: String, limit: Int) async throws -> [AuditEntry] {
        try await base.auditEntries(record: record, resource: resource, limit: limit)
    }
    public func verifyAuditLog() async throws -> AuditVerification { try await base.verifyAuditLog() }
}
