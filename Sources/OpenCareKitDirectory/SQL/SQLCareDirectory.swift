import Foundation
import OpenCareKitStore

/// The directory as SQL, on any engine: `SQLiteCareDirectory` (one SQLite file) here, PostgreSQL in
/// OpenCareKitPostgres.
public final class SQLCareDirectory: CareDirectory {
    package let runner: any SQLTransactionRunner

    /// A directory kept by `runner`, whose schema is in place.
    package init(runner: any SQLTransactionRunner) {
        self.runner = runner
    }

    /// Runs `work` in a write transaction, with the engine's errors turned into the directory's (without SQL
    /// arguments).
    /// `alone`: each statement commits on its own (`SQLTransactionRunner.writeAlone`).
    @discardableResult
    func write<T: Sendable>(alone: Bool = false, _ work: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        do {
            return try await alone ? runner.writeAlone(work) : runner.write(work)
        } catch let error as CareDirectoryError {
            throw error
        } catch let error as SQLFailure where error.kind == .uniqueViolation {
            throw CareDirectoryError(.conflict, "It exists already.")
        } catch let error as SQLFailure where error.kind == .foreignKeyViolation {
            throw CareDirectoryError(.notFound, "The account or record it names does not exist.")
        } catch let error as SQLFailure where error.kind == .unavailable || error.kind == .conflict || error.kind == .fault {
            throw StorageUnavailableError.surfacing(error)
        } catch {
            throw CareDirectoryError(.storage, "The directory cannot be written: \(runner.describe(error))")
        }
    }

    /// Runs statements on the directory's database in one transaction, bypassing the directory (the tests' hand on the
    /// database, to show what the audit chain detects).
    package func executeDirectly(_ statements: [String]) async throws {
        try await runner.write { db in
            for statement in statements { try await db.execute(statement) }
        }
    }

    func read<T: Sendable>(_ work: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        do {
            return try await runner.read(work)
        } catch let error as CareDirectoryError {
            throw error
        } catch let error as SQLFailure where error.kind == .unavailable || error.kind == .conflict || error.kind == .fault {
            throw StorageUnavailableError.surfacing(error)
        } catch {
            throw CareDirectoryError(.storage, "The directory cannot be read: \(runner.describe(error))")
        }
    }

    // MARK: Accounts

    public func addAccount(_ account: CareAccount) async throws {
        try await write { db in
            if try await db.scalar("SELECT 1 FROM account WHERE email = ?", [account.email]).isTrue {
                throw CareDirectoryError(.emailTaken, "An account with that email address exists already.")
            }
            try await db.execute("""
                INSERT INTO account (id, email, name, password_hash, totp_secret, recovery_codes, failed_sign_ins, locked_until, created_date)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, Self.columns(account))
        }
    }

    public func account(_ id: CareAccountID) async throws -> CareAccount? {
        try await read { db in try await db.firstRow("SELECT * FROM account WHERE id = ?", [id.description], Self.account) }
    }

    public func account(email: String) async throws -> CareAccount? {
        guard let email = CareAccount.normalizedEmail(email) else { return nil }
        return try await read { db in try await db.firstRow("SELECT * FROM account WHERE email = ?", [email], Self.account) }
    }

    public func updateAccount(_ account: CareAccount) async throws {
        try await write { db in
            if try await db.scalar("SELECT 1 FROM account WHERE email = ? AND id <> ?", [account.email, account.id.description]).isTrue {
                throw CareDirectoryError(.emailTaken, "An account with that email address exists already.")
            }
            let columns = Self.columns(account)
            let changed = try await db.execute("""
                UPDATE account SET email = ?, name = ?, password_hash = ?, totp_secret = ?, recovery_codes = ?,
                failed_sign_ins = ?, locked_until = ?, created_date = ? WHERE id = ?
                """, Array(columns.dropFirst()) + [columns[0]])
            guard changed == 1 else { throw CareDirectoryError(.notFound, "No such account.") }
        }
    }

    public func noteFailedSignIn(_ id: CareAccountID, now: Date, threshold: Int, lockout: TimeInterval) async throws -> CareAccount? {
        try await write { db in
            try await db.execute("""
                UPDATE account SET failed_sign_ins = failed_sign_ins + 1,
                locked_until = CASE WHEN failed_sign_ins + 1 >= ? THEN ? ELSE locked_until END WHERE id = ?
                """, [threshold, now.addingTimeInterval(lockout).timeIntervalSince1970, id.description])
            return try await db.firstRow("SELECT * FROM account WHERE id = ?", [id.description], Self.account)
        }
    }

    public func noteSuccessfulSignIn(_ id: CareAccountID) async throws {
        try await write { db in
            try await db.execute("UPDATE account SET failed_sign_ins = 0, locked_until = NULL WHERE id = ?", [id.description])
        }
    }

    // MARK: Records and memberships

    /// Refuses a record whose owner owns `CareDirectoryLimits.recordsPerAccount` already.
    public func addRecord(_ record: CareRecord, member: CareMembership?, teamWork: CareTeamWork) async throws {
        try await write { db in
            if let member, member.isOwner {
                let owned = try await db.scalar("SELECT count(*) FROM membership WHERE account = ? AND is_owner <> 0", [member.account.description]).int ?? 0
                guard owned < CareDirectoryLimits.recordsPerAccount else {
                    throw CareDirectoryError(.conflict, "An account owns at most \(CareDirectoryLimits.recordsPerAccount) records.")
                }
            }
            try await db.execute("""
                INSERT INTO record (id, store_name, patient_name, time_zone, care_plan, patient_edits_plan, created_date)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [record.id.description, record.storeName, record.patientName, record.timeZoneIdentifier,
                                 record.carePlan, record.patientEditsPlan, record.createdDate.timeIntervalSince1970])
            if let member { try await Self.upsert(member, in: db) }
            try await Self.insert(teamWork, record: record.id, db)
        }
    }

    public func record(_ id: CareRecordID) async throws -> CareRecord? {
        try await read { db in try await db.firstRow("SELECT * FROM record WHERE id = ?", [id.description], Self.record) }
    }

    public func updateRecord(_ record: CareRecord) async throws {
        try await write { db in
            let changed = try await db.execute("""
                UPDATE record SET patient_name = ?, time_zone = ?, care_plan = ?, patient_edits_plan = ? WHERE id = ?
                """, [record.patientName, record.timeZoneIdentifier, record.carePlan, record.patientEditsPlan,
                                 record.id.description])
            guard changed == 1 else { throw CareDirectoryError(.notFound, "There is no such care record.") }
        }
    }

    public func records(limit: Int, after: CareRecordID?) async throws -> [CareRecord] {
        try await read { db in
            try await db.rows("SELECT * FROM record WHERE id > ? ORDER BY id LIMIT ?", [after?.description ?? "", limit], Self.record)
        }
    }

    public func recordCount() async throws -> Int {
        try await read { db in try await db.scalar("SELECT COUNT(*) FROM record").int ?? 0 }
    }

    public func membership(record: CareRecordID, account: CareAccountID) async throws -> CareMembership? {
        try await read { db in
            try await db.firstRow("SELECT * FROM membership WHERE record = ? AND account = ?",
                            [record.description, account.description], Self.membership)
        }
    }

    public func memberships(of account: CareAccountID) async throws -> [(membership: CareMembership, record: CareRecord)] {
        try await read { db in
            try await db.rows("""
                SELECT membership.record, membership.account, membership.role, membership.is_owner, membership.created_date AS membership_created,
                record.* FROM membership JOIN record ON record.id = membership.record WHERE membership.account = ?
                ORDER BY record.patient_name, record.id
                """, [account.description]) { row in (try Self.joinedMembership(row), try Self.record(row)) }
        }
    }

    public func members(of record: CareRecordID) async throws -> [(membership: CareMembership, account: CareAccount)] {
        try await read { db in
            try await db.rows("""
                SELECT membership.record, membership.account, membership.role, membership.is_owner, membership.created_date AS membership_created,
                account.* FROM membership JOIN account ON account.id = membership.account WHERE membership.record = ?
                ORDER BY membership.is_owner DESC, CASE membership.role WHEN 'patient' THEN 0 WHEN 'caregiver' THEN 1 ELSE 2 END,
                account.name, account.id
                """, [record.description]) { row in (try Self.joinedMembership(row), try Self.account(row)) }
        }
    }

    public func setMembership(_ membership: CareMembership) async throws {
        try await write { db in
            let hadOwner = try await Self.hasOwner(membership.record, in: db)
            try await Self.upsert(membership, in: db)
            if hadOwner, try await !Self.hasOwner(membership.record, in: db) {
                throw CareDirectoryError(.conflict, "The record needs an owner: make someone else its owner first.")
            }
        }
    }

    public func removeMembership(record: CareRecordID, account: CareAccountID) async throws {
        try await write { db in
            let hadOwner = try await Self.hasOwner(record, in: db)
            let removed = try await db.execute("DELETE FROM membership WHERE record = ? AND account = ?", [record.description, account.description])
            guard removed == 1 else { throw CareDirectoryError(.notFound, "That person has no access to the record.") }
            try await Self.unassignTriage(record: record, account: account, in: db)
            if hadOwner, try await !Self.hasOwner(record, in: db) {
                throw CareDirectoryError(.conflict, "The record's owner cannot be removed.")
            }
        }
    }

    /// A membership read from a join, whose own `created_date` is named `membership_created`.
    static func joinedMembership(_ row: any SQLRow) throws -> CareMembership {
        var membership = try membership(row)
        membership.createdDate = Date(timeIntervalSince1970: try row.double("membership_created"))
        return membership
    }

    static func hasOwner(_ record: CareRecordID, in db: any SQLDatabase) async throws -> Bool {
        try await db.scalar("SELECT 1 FROM membership WHERE record = ? AND is_owner <> 0", [record.description]).isTrue
    }

    /// Writes `membership`, refusing a second patient: every writer of memberships (sharing, invitations, records,
    /// the command line) passes here.
    static func upsert(_ membership: CareMembership, in db: any SQLDatabase) async throws {
        if membership.role == .patient, try await db.scalar("SELECT 1 FROM membership WHERE record = ? AND role = 'patient' AND account <> ?",
                                                      [membership.record.description, membership.account.description]).isTrue {
            throw CareDirectoryError.secondPatient
        }
        try await db.execute("""
            INSERT INTO membership (record, account, role, is_owner, created_date) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (record, account) DO UPDATE SET role = excluded.role, is_owner = excluded.is_owner
            """, [membership.record.description, membership.account.description, membership.role.rawValue,
                             membership.isOwner, membership.createdDate.timeIntervalSince1970])
        // Triage items are assigned to the record's clinicians only: someone no longer one hands them back.
        if membership.role != .clinician { try await unassignTriage(record: membership.record, account: membership.account, in: db) }
    }

    // MARK: Invitations

    public func addInvitation(_ invitation: CareInvitation) async throws {
        try await write { db in
            let record = invitation.record.description, now = invitation.createdDate.timeIntervalSince1970
            if invitation.role == .patient, try await db.scalar("SELECT 1 FROM membership WHERE record = ? AND role = 'patient'", [record]).isTrue {
                throw CareDirectoryError.secondPatient
            }
            let open = try await db.scalar("""
                SELECT count(*) FROM invitation WHERE record = ? AND accepted_date IS NULL AND expiry_date > ?
                """, [record, now]).int ?? 0
            guard open < CareDirectoryLimits.openInvitationsPerRecord else { throw CareDirectoryError.tooManyInvitations }
            try await db.execute("""
                INSERT INTO invitation (secret_hash, record, role, invited_by, created_date, expiry_date) VALUES (?, ?, ?, ?, ?, ?)
                """, [invitation.secretHash, invitation.record.description, invitation.role.rawValue,
                                 invitation.invitedBy.description, invitation.createdDate.timeIntervalSince1970,
                                 invitation.expiryDate.timeIntervalSince1970])
        }
    }

    public func invitation(secretHash: String) async throws -> CareInvitation? {
        try await read { db in
            try await db.firstRow("SELECT * FROM invitation WHERE secret_hash = ?", [secretHash], Self.invitation)
        }
    }

    public func invitations(of record: CareRecordID) async throws -> [CareInvitation] {
        try await read { db in
            try await db.rows("SELECT * FROM invitation WHERE record = ? ORDER BY created_date DESC", [record.description], Self.invitation)
        }
    }

    public func acceptInvitation(secretHash: String, account: CareAccountID, now: Date) async throws -> CareMembership? {
        try await write { db in
            guard let invitation = try await db.firstRow("SELECT * FROM invitation WHERE secret_hash = ?", [secretHash], Self.invitation), invitation.acceptedDate == nil, invitation.expiryDate > now else { return nil }
            try await db.execute("UPDATE invitation SET accepted_date = ?, accepted_by = ? WHERE secret_hash = ?", [now.timeIntervalSince1970, account.description, secretHash])
            if let existing = try await db.firstRow("SELECT * FROM membership WHERE record = ? AND account = ?",
                                              [invitation.record.description, account.description], Self.membership) {
                return existing
            }
            let membership = CareMembership(record: invitation.record, account: account, role: invitation.role, isOwner: false, createdDate: now)
            try await Self.upsert(membership, in: db)
            return membership
        }
    }

    public func removeInvitation(secretHash: String) async throws {
        try await write { db in try await db.execute("DELETE FROM invitation WHERE secret_hash = ?", [secretHash]) }
    }

    // MARK: Sessions

    public func session(keyHash: String, now: Date) async throws -> (value: Data, expiryDate: Date?)? {
        try await read { db in
            guard let (value, expiry) = try await db.firstRow("SELECT value, expiry_date FROM session WHERE key_hash = ?", [keyHash], {
                (try $0.data("value"), try $0.optionalDouble("expiry_date"))
            }) else {
                return nil
            }
            if let expiry, expiry <= now.timeIntervalSince1970 { return nil }
            return (value, expiry.map(Date.init(timeIntervalSince1970:)))
        }
    }

    /// Keeps at most `CareDirectoryLimits.sessionsPerAccount` sessions of an account: a new one ends the least
    /// recently used beyond them (a person signing in on one more device is never refused).
    public func setSession(keyHash: String, account: CareAccountID?, value: Data, expiryDate: Date?, now: Date) async throws {
        try await write { db in
            try await db.execute("""
                INSERT INTO session (key_hash, account, value, expiry_date, updated_date) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (key_hash) DO UPDATE SET account = excluded.account, value = excluded.value,
                expiry_date = coalesce(excluded.expiry_date, session.expiry_date), updated_date = excluded.updated_date
                """, [keyHash, account?.description, value, expiryDate?.timeIntervalSince1970, now.timeIntervalSince1970])
            guard let account else { return }
            try await db.execute("""
                DELETE FROM session WHERE account = ? AND key_hash NOT IN (
                    SELECT key_hash FROM session WHERE account = ? ORDER BY updated_date DESC, key_hash LIMIT ?)
                """, [account.description, account.description, CareDirectoryLimits.sessionsPerAccount])
        }
    }

    public func takeTwoStepCode(step: Int64, of account: CareAccountID) async throws -> Bool {
        try await write { db in
            try await db.execute("UPDATE account SET totp_last_step = ? WHERE id = ? AND (totp_last_step IS NULL OR totp_last_step < ?)",
                           [step, account.description, step]) == 1
        }
    }

    public func removeSession(keyHash: String) async throws {
        try await write { db in try await db.execute("DELETE FROM session WHERE key_hash = ?", [keyHash]) }
    }

    public func removeSessions(of account: CareAccountID) async throws {
        try await write { db in try await db.execute("DELETE FROM session WHERE account = ?", [account.description]) }
    }

    public func removeExpiredSessions(now: Date) async throws {
        try await write { db in
            try await db.execute("DELETE FROM session WHERE expiry_date <= ?", [now.timeIntervalSince1970])
            try await db.execute("DELETE FROM survey_session WHERE expiry_date <= ?", [now.timeIntervalSince1970])
        }
    }

    // MARK: Surveys in progress

    /// Not serialized with other directory writes: each statement stands alone, and the unique index on open and
    /// saving sessions (one per browser and event) settles two starts racing. The limits may be overshot by the starts
    /// running at the same moment, and are restored by the next.
    public func openSurveySession(_ session: CareSurveySession, now: Date, perOwner: Int, perRecord: Int) async throws -> CareSurveySession {
        try await write(alone: true) { db in
            let record = session.record.description
            func openOne() async throws -> CareSurveySession? {
                try await db.firstRow("""
                    SELECT * FROM survey_session WHERE record = ? AND owner_hash = ? AND event = ? AND status IN ('open', 'saving')
                    """, [record, session.ownerHash, session.event], Self.surveySession)
            }
            try await db.execute("DELETE FROM survey_session WHERE record = ? AND expiry_date <= ?", [record, now.timeIntervalSince1970])
            if let existing = try await openOne() { return existing }
            try await Self.keepSurveySessions(in: db, where: "record = ? AND owner_hash = ? AND status = 'open'",
                                        [record, session.ownerHash], atMost: perOwner - 1)
            try await Self.keepSurveySessions(in: db, where: "record = ?", [record], atMost: perRecord - 1)
            let inserted = try await db.execute("""
                INSERT INTO survey_session (id, record, owner_hash, event, status, value, expiry_date) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """, [session.id, record, session.ownerHash, session.event, session.status.rawValue, session.value,
                      session.expiryDate.timeIntervalSince1970])
            // Another start of the same browser and event won the race: continue that one.
            guard inserted == 0 else { return session }
            guard let existing = try await openOne() else { throw CareDirectoryError(.conflict, "It exists already.") }
            return existing
        }
    }

    /// Forgets the least recently used of the survey sessions `condition` selects beyond `limit` (a session's expiry
    /// moves on each time it is used).
    private static func keepSurveySessions(in db: any SQLDatabase, where condition: String, _ arguments: [any SQLBindable], atMost limit: Int) async throws {
        let count = try await db.scalar("SELECT count(*) FROM survey_session WHERE \(condition)", arguments).int ?? 0
        guard count > max(limit, 0) else { return }
        try await db.execute("""
            DELETE FROM survey_session WHERE id IN (SELECT id FROM survey_session WHERE \(condition) ORDER BY expiry_date, id LIMIT ?)
            """, arguments + [count - max(limit, 0)])
    }

    public func surveySession(id: String, record: CareRecordID, now: Date) async throws -> CareSurveySession? {
        try await read { db in
            try await db.firstRow("SELECT * FROM survey_session WHERE id = ? AND record = ? AND expiry_date > ?",
                            [id, record.description, now.timeIntervalSince1970], Self.surveySession)
        }
    }

    public func setSurveySession(id: String, record: CareRecordID, from: CareSurveySession.Status, to: CareSurveySession.Status,
                                 value: Data, expiryDate: Date) async throws -> Bool {
        try await write(alone: true) { db in
            try await db.execute("UPDATE survey_session SET status = ?, value = ?, expiry_date = ? WHERE id = ? AND record = ? AND status = ?",
                           [to.rawValue, to.keepsValue ? value : Data(), expiryDate.timeIntervalSince1970, id, record.description,
                            from.rawValue]) == 1
        }
    }

    static func surveySession(_ row: any SQLRow) throws -> CareSurveySession {
        CareSurveySession(id: try row.string("id"), record: RandomIdentifier(uncheckedText: try row.string("record")),
                          ownerHash: try row.string("owner_hash"), event: try row.string("event"),
                          status: CareSurveySession.Status(rawValue: try row.string("status")) ?? .discarded,
                          value: try row.data("value"), expiryDate: Date(timeIntervalSince1970: try row.double("expiry_date")))
    }

    // MARK: Access tokens

    public func addAccessToken(_ token: CareAccessToken) async throws {
        try await write { db in
            try await db.execute("""
                INSERT INTO access_token (id, secret_hash, account, record, scope, label, created_date) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [token.id.description, token.secretHash, token.account.description, token.record.description,
                                 token.scope, token.label, token.createdDate.timeIntervalSince1970])
        }
    }

    public func accessToken(secretHash: String) async throws -> CareAccessToken? {
        try await read { db in
            try await db.firstRow("SELECT * FROM access_token WHERE secret_hash = ?", [secretHash], Self.accessToken)
        }
    }

    public func accessTokens(of account: CareAccountID) async throws -> [CareAccessToken] {
        try await read { db in
            try await db.rows("SELECT * FROM access_token WHERE account = ? ORDER BY created_date DESC", [account.description], Self.accessToken)
        }
    }

    public func revokeAccessToken(_ id: RandomIdentifier, of account: CareAccountID, now: Date) async throws -> Bool {
        try await write { db in
            try await db.execute("UPDATE access_token SET revoked_date = coalesce(revoked_date, ?) WHERE id = ? AND account = ?",
                           [now.timeIntervalSince1970, id.description, account.description]) == 1
        }
    }

    public func noteAccessTokenUse(_ id: RandomIdentifier, now: Date) async throws {
        try await write { db in
            try await db.execute("UPDATE access_token SET last_used_date = ? WHERE id = ?", [now.timeIntervalSince1970, id.description])
        }
    }
}
