import Foundation
import GRDB

/// The directory in one SQLite file, beside the records' store files: WAL with `synchronous = NORMAL`, so a commit
/// is in the file (it survives the process crashing) before the call returns, and reaches the disk at the next
/// checkpoint; an operating-system crash or a power cut may lose the last commits, never the chain's order or the
/// file's integrity. (The records' stores, which hold the patient's data, use `FULL`.) Waiting for the disk at each
/// commit would make every audited request wait for it.
///
/// For example:
/// ```swift
/// let directory = try SQLiteCareDirectory(path: "/var/lib/opencarekit/directory.sqlite")
/// let records = try await directory.memberships(of: account.id)
/// ```
public final class SQLiteCareDirectory: CareDirectory {
    let database: any DatabaseWriter

    /// Opens (creating if needed) the directory at `path`, or an in-memory one when `path` is nil (tests).
    /// - Throws: `CareDirectoryError.storage` if the file cannot be opened or was written by a newer OpenCareKit.
    public init(path: String?) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            let database: any DatabaseWriter = if let path {
                try DatabasePool(path: path, configuration: configuration)
            } else {
                try DatabaseQueue(configuration: configuration)
            }
            if try database.read(DirectorySchema.migrator.hasBeenSuperseded) {
                throw CareDirectoryError(.storage, "The directory was written by a newer OpenCareKit; update OpenCareKit to open it")
            }
            try DirectorySchema.migrator.migrate(database)
            self.database = database
        } catch let error as CareDirectoryError {
            throw error
        } catch {
            throw CareDirectoryError(.storage, "Cannot open the directory: \((error as? DatabaseError)?.message ?? "\(type(of: error))")")
        }
    }

    /// Runs `work` in a write transaction, with GRDB's errors turned into the directory's (without SQL arguments).
    func write<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await database.write(work)
        } catch let error as CareDirectoryError {
            throw error
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
                    || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
            throw CareDirectoryError(.conflict, "It exists already.")
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
            throw CareDirectoryError(.notFound, "The account or record it names does not exist.")
        } catch let error as DatabaseError {
            throw CareDirectoryError(.storage, "The directory cannot be written: \(error.message ?? "SQLite error \(error.resultCode.rawValue)")")
        }
    }

    func read<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await database.read(work)
        } catch let error as DatabaseError {
            throw CareDirectoryError(.storage, "The directory cannot be read: \(error.message ?? "SQLite error \(error.resultCode.rawValue)")")
        }
    }

    // MARK: Accounts

    public func addAccount(_ account: CareAccount) async throws {
        try await write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM account WHERE email = ?", arguments: [account.email]) == true {
                throw CareDirectoryError(.emailTaken, "An account with that email address exists already.")
            }
            try db.execute(sql: """
                INSERT INTO account (id, email, name, password_hash, totp_secret, recovery_codes, failed_sign_ins, locked_until, created_date)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: StatementArguments(Self.columns(account)))
        }
    }

    public func account(_ id: CareAccountID) async throws -> CareAccount? {
        try await read { db in try Row.fetchOne(db, sql: "SELECT * FROM account WHERE id = ?", arguments: [id.description]).map(Self.account) }
    }

    public func account(email: String) async throws -> CareAccount? {
        guard let email = CareAccount.normalizedEmail(email) else { return nil }
        return try await read { db in try Row.fetchOne(db, sql: "SELECT * FROM account WHERE email = ?", arguments: [email]).map(Self.account) }
    }

    public func updateAccount(_ account: CareAccount) async throws {
        try await write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM account WHERE email = ? AND id <> ?",
                                 arguments: [account.email, account.id.description]) == true {
                throw CareDirectoryError(.emailTaken, "An account with that email address exists already.")
            }
            let columns = Self.columns(account)
            try db.execute(sql: """
                UPDATE account SET email = ?, name = ?, password_hash = ?, totp_secret = ?, recovery_codes = ?,
                failed_sign_ins = ?, locked_until = ?, created_date = ? WHERE id = ?
                """, arguments: StatementArguments(Array(columns.dropFirst()) + [columns[0]]))
            guard db.changesCount == 1 else { throw CareDirectoryError(.notFound, "No such account.") }
        }
    }

    public func noteFailedSignIn(_ id: CareAccountID, now: Date, threshold: Int, lockout: TimeInterval) async throws -> CareAccount? {
        try await write { db in
            try db.execute(sql: """
                UPDATE account SET failed_sign_ins = failed_sign_ins + 1,
                locked_until = CASE WHEN failed_sign_ins + 1 >= ? THEN ? ELSE locked_until END WHERE id = ?
                """, arguments: [threshold, now.addingTimeInterval(lockout).timeIntervalSince1970, id.description])
            return try Row.fetchOne(db, sql: "SELECT * FROM account WHERE id = ?", arguments: [id.description]).map(Self.account)
        }
    }

    public func noteSuccessfulSignIn(_ id: CareAccountID) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE account SET failed_sign_ins = 0, locked_until = NULL WHERE id = ?", arguments: [id.description])
        }
    }

    // MARK: Records and memberships

    public func addRecord(_ record: CareRecord, member: CareMembership?) async throws {
        try await write { db in
            try db.execute(sql: """
                INSERT INTO record (id, store_name, patient_name, time_zone, care_plan, patient_edits_plan, created_date)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [record.id.description, record.storeName, record.patientName, record.timeZoneIdentifier,
                                 record.carePlan, record.patientEditsPlan, record.createdDate.timeIntervalSince1970])
            if let member { try Self.upsert(member, in: db) }
        }
    }

    public func record(_ id: CareRecordID) async throws -> CareRecord? {
        try await read { db in try Row.fetchOne(db, sql: "SELECT * FROM record WHERE id = ?", arguments: [id.description]).map(Self.record) }
    }

    public func updateRecord(_ record: CareRecord) async throws {
        try await write { db in
            try db.execute(sql: """
                UPDATE record SET patient_name = ?, time_zone = ?, care_plan = ?, patient_edits_plan = ? WHERE id = ?
                """, arguments: [record.patientName, record.timeZoneIdentifier, record.carePlan, record.patientEditsPlan,
                                 record.id.description])
            guard db.changesCount == 1 else { throw CareDirectoryError(.notFound, "There is no such care record.") }
        }
    }

    public func records(limit: Int, after: CareRecordID?) async throws -> [CareRecord] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM record WHERE id > ? ORDER BY id LIMIT ?",
                             arguments: [after?.description ?? "", limit]).map(Self.record)
        }
    }

    public func recordCount() async throws -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record") ?? 0 }
    }

    public func membership(record: CareRecordID, account: CareAccountID) async throws -> CareMembership? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM membership WHERE record = ? AND account = ?",
                             arguments: [record.description, account.description]).map(Self.membership)
        }
    }

    public func memberships(of account: CareAccountID) async throws -> [(membership: CareMembership, record: CareRecord)] {
        try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT membership.record, membership.account, membership.role, membership.is_owner, membership.created_date AS membership_created,
                record.* FROM membership JOIN record ON record.id = membership.record WHERE membership.account = ?
                ORDER BY record.patient_name, record.id
                """, arguments: [account.description]).map { row in (Self.joinedMembership(row), Self.record(row)) }
        }
    }

    public func members(of record: CareRecordID) async throws -> [(membership: CareMembership, account: CareAccount)] {
        try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT membership.record, membership.account, membership.role, membership.is_owner, membership.created_date AS membership_created,
                account.* FROM membership JOIN account ON account.id = membership.account WHERE membership.record = ?
                ORDER BY membership.is_owner DESC, CASE membership.role WHEN 'patient' THEN 0 WHEN 'caregiver' THEN 1 ELSE 2 END,
                account.name, account.id
                """, arguments: [record.description]).map { row in (Self.joinedMembership(row), Self.account(row)) }
        }
    }

    public func setMembership(_ membership: CareMembership) async throws {
        try await write { db in
            let hadOwner = try Self.hasOwner(membership.record, in: db)
            try Self.upsert(membership, in: db)
            if hadOwner, try !Self.hasOwner(membership.record, in: db) {
                throw CareDirectoryError(.conflict, "The record needs an owner: make someone else its owner first.")
            }
        }
    }

    public func removeMembership(record: CareRecordID, account: CareAccountID) async throws {
        try await write { db in
            let hadOwner = try Self.hasOwner(record, in: db)
            try db.execute(sql: "DELETE FROM membership WHERE record = ? AND account = ?", arguments: [record.description, account.description])
            guard db.changesCount == 1 else { throw CareDirectoryError(.notFound, "That person has no access to the record.") }
            if hadOwner, try !Self.hasOwner(record, in: db) {
                throw CareDirectoryError(.conflict, "The record's owner cannot be removed.")
            }
        }
    }

    /// A membership read from a join, whose own `created_date` is named `membership_created`.
    static func joinedMembership(_ row: Row) -> CareMembership {
        var membership = membership(row)
        membership.createdDate = Date(timeIntervalSince1970: row["membership_created"])
        return membership
    }

    static func hasOwner(_ record: CareRecordID, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT 1 FROM membership WHERE record = ? AND is_owner", arguments: [record.description]) == true
    }

    static func upsert(_ membership: CareMembership, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO membership (record, account, role, is_owner, created_date) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (record, account) DO UPDATE SET role = excluded.role, is_owner = excluded.is_owner
            """, arguments: [membership.record.description, membership.account.description, membership.role.rawValue,
                             membership.isOwner, membership.createdDate.timeIntervalSince1970])
    }

    // MARK: Invitations

    public func addInvitation(_ invitation: CareInvitation) async throws {
        try await write { db in
            try db.execute(sql: """
                INSERT INTO invitation (secret_hash, record, role, invited_by, created_date, expiry_date) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [invitation.secretHash, invitation.record.description, invitation.role.rawValue,
                                 invitation.invitedBy.description, invitation.createdDate.timeIntervalSince1970,
                                 invitation.expiryDate.timeIntervalSince1970])
        }
    }

    public func invitation(secretHash: String) async throws -> CareInvitation? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM invitation WHERE secret_hash = ?", arguments: [secretHash]).map(Self.invitation)
        }
    }

    public func invitations(of record: CareRecordID) async throws -> [CareInvitation] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM invitation WHERE record = ? ORDER BY created_date DESC",
                             arguments: [record.description]).map(Self.invitation)
        }
    }

    public func acceptInvitation(secretHash: String, account: CareAccountID, now: Date) async throws -> CareMembership? {
        try await write { db in
            guard let invitation = try Row.fetchOne(db, sql: "SELECT * FROM invitation WHERE secret_hash = ?", arguments: [secretHash])
                .map(Self.invitation), invitation.acceptedDate == nil, invitation.expiryDate > now else { return nil }
            try db.execute(sql: "UPDATE invitation SET accepted_date = ?, accepted_by = ? WHERE secret_hash = ?",
                           arguments: [now.timeIntervalSince1970, account.description, secretHash])
            if let existing = try Row.fetchOne(db, sql: "SELECT * FROM membership WHERE record = ? AND account = ?",
                                               arguments: [invitation.record.description, account.description]).map(Self.membership) {
                return existing
            }
            let membership = CareMembership(record: invitation.record, account: account, role: invitation.role, isOwner: false, createdDate: now)
            try Self.upsert(membership, in: db)
            return membership
        }
    }

    public func removeInvitation(secretHash: String) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM invitation WHERE secret_hash = ?", arguments: [secretHash]) }
    }

    // MARK: Sessions

    public func session(keyHash: String, now: Date) async throws -> (value: Data, expiryDate: Date?)? {
        try await read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT value, expiry_date FROM session WHERE key_hash = ?", arguments: [keyHash]) else {
                return nil
            }
            let expiry: Double? = row["expiry_date"]
            if let expiry, expiry <= now.timeIntervalSince1970 { return nil }
            return (row["value"], expiry.map(Date.init(timeIntervalSince1970:)))
        }
    }

    public func setSession(keyHash: String, account: CareAccountID?, value: Data, expiryDate: Date?, now: Date) async throws {
        try await write { db in
            try db.execute(sql: """
                INSERT INTO session (key_hash, account, value, expiry_date, updated_date) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (key_hash) DO UPDATE SET account = excluded.account, value = excluded.value,
                expiry_date = coalesce(excluded.expiry_date, session.expiry_date), updated_date = excluded.updated_date
                """, arguments: [keyHash, account?.description, value, expiryDate?.timeIntervalSince1970, now.timeIntervalSince1970])
        }
    }

    public func removeSession(keyHash: String) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM session WHERE key_hash = ?", arguments: [keyHash]) }
    }

    public func removeSessions(of account: CareAccountID) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM session WHERE account = ?", arguments: [account.description]) }
    }

    public func removeExpiredSessions(now: Date) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM session WHERE expiry_date <= ?", arguments: [now.timeIntervalSince1970])
        }
    }

    // MARK: Access tokens

    public func addAccessToken(_ token: CareAccessToken) async throws {
        try await write { db in
            try db.execute(sql: """
                INSERT INTO access_token (id, secret_hash, account, record, scope, label, created_date) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [token.id.description, token.secretHash, token.account.description, token.record.description,
                                 token.scope, token.label, token.createdDate.timeIntervalSince1970])
        }
    }

    public func accessToken(secretHash: String) async throws -> CareAccessToken? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM access_token WHERE secret_hash = ?", arguments: [secretHash]).map(Self.accessToken)
        }
    }

    public func accessTokens(of account: CareAccountID) async throws -> [CareAccessToken] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM access_token WHERE account = ? ORDER BY created_date DESC",
                             arguments: [account.description]).map(Self.accessToken)
        }
    }

    public func revokeAccessToken(_ id: RandomIdentifier, of account: CareAccountID, now: Date) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE access_token SET revoked_date = coalesce(revoked_date, ?) WHERE id = ? AND account = ?",
                           arguments: [now.timeIntervalSince1970, id.description, account.description])
            return db.changesCount == 1
        }
    }

    public func noteAccessTokenUse(_ id: RandomIdentifier, now: Date) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE access_token SET last_used_date = ? WHERE id = ?", arguments: [now.timeIntervalSince1970, id.description])
        }
    }
}
