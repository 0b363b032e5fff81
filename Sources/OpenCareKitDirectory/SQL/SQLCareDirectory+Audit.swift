import Foundation
import OpenCareKitStore

/// An entry as the database's audit function takes it; its hash covers the same fields as `AuditEntry.hash`.
private struct AppendedAuditEntry: Encodable {
    let recorded: Int64
    let account, token, record: String?
    let resource, action, outcome, address, detail: String

    init(_ draft: AuditEntry.Draft) {
        recorded = Int64((draft.recorded.timeIntervalSince1970 * 1000).rounded())
        account = draft.account?.description
        token = draft.token?.description
        record = draft.record?.description
        resource = draft.resource
        action = draft.action.rawValue
        outcome = draft.outcome.rawValue
        address = draft.address
        detail = draft.detail
    }
}

extension SQLCareDirectory {
    public func appendAudit(_ drafts: [AuditEntry.Draft]) async throws {
        guard !drafts.isEmpty else { return }
        if let function = runner.dialect.auditAppendFunction {
            // The database numbers, hashes and appends them in one statement: no lock is held across a round trip.
            let entries = String(decoding: try JSONEncoder().encode(drafts.map(AppendedAuditEntry.init)), as: UTF8.self)
            try await write(alone: true) { db in _ = try await db.scalar("SELECT \(function)(?::jsonb)", [entries]) }
            return
        }
        try await write { db in
            let head = try await db.firstRow("SELECT sequence, hash FROM audit_head WHERE id = 1") {
                (sequence: Int64(try $0.int("sequence")), hash: try $0.string("hash"))
            }
            var sequence = head?.sequence ?? 0
            var previous = head?.hash ?? AuditEntry.firstPreviousHash
            var rows: [[SQLValue]] = []
            for draft in drafts {
                sequence += 1
                let entry = AuditEntry.chained(draft, sequence: sequence, after: previous)
                let row: [any SQLBindable] = [
                    sequence, Int64((draft.recorded.timeIntervalSince1970 * 1000).rounded()), draft.account?.description,
                    draft.token?.description, draft.record?.description, draft.resource, draft.action.rawValue,
                    draft.outcome.rawValue, draft.address, draft.detail, entry.previousHash, entry.hash,
                ]
                rows.append(row.map(\.sqlValue))
                previous = entry.hash
            }
            try await StoredTable.auditEntry.insert(rows, into: db)
            try await db.execute("""
                INSERT INTO audit_head (id, sequence, hash) VALUES (1, ?, ?)
                ON CONFLICT (id) DO UPDATE SET sequence = excluded.sequence, hash = excluded.hash
                """, [sequence, previous])
        }
    }

    public func auditEntries(record: CareRecordID, limit: Int, offset: Int) async throws -> [AuditEntry] {
        try await read { db in
            try await db.rows("SELECT * FROM audit_entry WHERE record = ? ORDER BY sequence DESC LIMIT ? OFFSET ?", [record.description, limit, offset], Self.auditEntry)
        }
    }

    public func auditEntries(record: CareRecordID, resource: String, limit: Int) async throws -> [AuditEntry] {
        try await read { db in
            try await db.rows("SELECT * FROM audit_entry WHERE record = ? AND resource = ? ORDER BY sequence DESC LIMIT ?", [record.description, resource, limit], Self.auditEntry)
        }
    }

    public func auditEntries(after sequence: Int64, limit: Int) async throws -> [AuditEntry] {
        try await read { db in
            try await db.rows("SELECT * FROM audit_entry WHERE sequence > ? ORDER BY sequence LIMIT ?", [sequence, limit], Self.auditEntry)
        }
    }

    public func verifyAuditLog() async throws -> AuditVerification {
        // One read transaction: a consistent snapshot even while the server appends.
        try await read { db in
            var check = AuditEntry.ChainCheck()
            var count: Int64 = 0
            try await db.forEachRow("SELECT * FROM audit_entry ORDER BY sequence", []) { row in
                check.check(try Self.auditEntry(row))
                count += 1
            }
            let head = try await db.firstRow("SELECT sequence, hash FROM audit_head WHERE id = 1") {
                (sequence: Int64(try $0.int("sequence")), hash: try $0.string("hash"))
            }
            check.finish(headSequence: head?.sequence ?? 0, headHash: head?.hash ?? AuditEntry.firstPreviousHash)
            return AuditVerification(entries: count, headHash: check.previousHash, problem: check.problem)
        }
    }

    static func auditEntry(_ row: any SQLRow) throws -> AuditEntry {
        let (action, outcome) = (try row.string("action"), try row.string("outcome"))
        let (account, token, record) = (try row.optionalString("account"), try row.optionalString("token"), try row.optionalString("record"))
        let draft = AuditEntry.Draft(
            recorded: Date(timeIntervalSince1970: Double(try row.int("recorded")) / 1000),
            account: account.flatMap(RandomIdentifier.init), token: token.flatMap(RandomIdentifier.init),
            record: record.flatMap(RandomIdentifier.init), resource: try row.string("resource"),
            action: AuditEntry.Action(rawValue: action) ?? .execute, outcome: AuditEntry.Outcome(rawValue: outcome) ?? .denied,
            address: try row.string("address"), detail: try row.string("detail"))
        var entry = AuditEntry(sequence: Int64(try row.int("sequence")), draft: draft, previousHash: try row.string("previous_hash"),
                               hash: try row.string("hash"))
        // A stored value this code cannot read back as it was written must fail verification, not pass as another.
        if action != draft.action.rawValue || outcome != draft.outcome.rawValue || account != draft.account?.description
            || record != draft.record?.description || token != draft.token?.description {
            entry.hash = "unreadable"
        }
        return entry
    }
}

// MARK: Rows

extension SQLCareDirectory {
    static func columns(_ account: CareAccount) -> [any SQLBindable] {
        let codes = (try? JSONEncoder().encode(account.recoveryCodeHashes)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return [account.id.description, account.email, account.name, account.passwordHash, account.totpSecret, codes,
                account.failedSignIns, account.lockedUntil?.timeIntervalSince1970, account.createdDate.timeIntervalSince1970]
    }

    static func account(_ row: any SQLRow) throws -> CareAccount {
        let codes = try row.optionalString("recovery_codes").flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
        return CareAccount(id: RandomIdentifier(uncheckedText: try row.string("id")), email: try row.string("email"),
                           name: try row.string("name"), passwordHash: try row.string("password_hash"),
                           totpSecret: try row.optionalString("totp_secret"), recoveryCodeHashes: codes,
                           failedSignIns: try row.int("failed_sign_ins"), lockedUntil: try Self.date(row, "locked_until"),
                           createdDate: Date(timeIntervalSince1970: try row.double("created_date")))
    }

    static func record(_ row: any SQLRow) throws -> CareRecord {
        var record = CareRecord(id: RandomIdentifier(uncheckedText: try row.string("id")), storeName: try row.string("store_name"),
                                patientName: try row.string("patient_name"), timeZoneIdentifier: try row.string("time_zone"),
                                carePlan: try row.optionalString("care_plan"),
                                createdDate: Date(timeIntervalSince1970: try row.double("created_date")))
        record.patientEditsPlan = try row.optionalInt("patient_edits_plan").map { $0 != 0 } ?? true
        return record
    }

    static func membership(_ row: any SQLRow) throws -> CareMembership {
        CareMembership(record: RandomIdentifier(uncheckedText: try row.string("record")),
                       account: RandomIdentifier(uncheckedText: try row.string("account")),
                       role: CareRole(rawValue: try row.string("role")) ?? .caregiver, isOwner: try row.int("is_owner") != 0,
                       createdDate: try Self.date(row, "created_date") ?? Date(timeIntervalSince1970: 0))
    }

    static func invitation(_ row: any SQLRow) throws -> CareInvitation {
        CareInvitation(secretHash: try row.string("secret_hash"), record: RandomIdentifier(uncheckedText: try row.string("record")),
                       role: CareRole(rawValue: try row.string("role")) ?? .caregiver,
                       invitedBy: RandomIdentifier(uncheckedText: try row.string("invited_by")),
                       createdDate: Date(timeIntervalSince1970: try row.double("created_date")),
                       expiryDate: Date(timeIntervalSince1970: try row.double("expiry_date")),
                       acceptedDate: try Self.date(row, "accepted_date"),
                       acceptedBy: try row.optionalString("accepted_by").map(RandomIdentifier.init(uncheckedText:)))
    }

    static func accessToken(_ row: any SQLRow) throws -> CareAccessToken {
        CareAccessToken(id: RandomIdentifier(uncheckedText: try row.string("id")), secretHash: try row.string("secret_hash"),
                        account: RandomIdentifier(uncheckedText: try row.string("account")),
                        record: RandomIdentifier(uncheckedText: try row.string("record")),
                        scope: try row.string("scope"), label: try row.string("label"),
                        createdDate: Date(timeIntervalSince1970: try row.double("created_date")),
                        lastUsedDate: try Self.date(row, "last_used_date"), revokedDate: try Self.date(row, "revoked_date"))
    }

    /// A directory date column (seconds since 1970).
    private static func date(_ row: any SQLRow, _ column: String) throws -> Date? {
        try row.optionalDouble(column).map(Date.init(timeIntervalSince1970:))
    }
}

// MARK: Reminders

extension SQLCareDirectory {
    public func setPushSubscription(_ subscription: CarePushSubscription) async throws {
        try await write { db in
            try await db.execute("DELETE FROM push_subscription WHERE endpoint = ?", [subscription.endpoint])
            try await db.execute("""
                INSERT INTO push_subscription (id, account, endpoint, public_key, auth_secret, created_date) VALUES (?, ?, ?, ?, ?, ?)
                """, [subscription.id.description, subscription.account.description, subscription.endpoint, subscription.publicKey,
                      subscription.authSecret, subscription.createdDate.timeIntervalSince1970])
        }
    }

    public func pushSubscriptions(of account: CareAccountID) async throws -> [CarePushSubscription] {
        try await read { db in
            try await db.rows("SELECT * FROM push_subscription WHERE account = ? ORDER BY created_date, endpoint", [account.description]) { row in
                CarePushSubscription(id: RandomIdentifier(uncheckedText: try row.string("id")),
                                     account: RandomIdentifier(uncheckedText: try row.string("account")), endpoint: try row.string("endpoint"),
                                     publicKey: try row.string("public_key"), authSecret: try row.string("auth_secret"),
                                     createdDate: Date(timeIntervalSince1970: try row.double("created_date")))
            }
        }
    }

    public func removePushSubscription(endpoint: String) async throws {
        try await write { db in try await db.execute("DELETE FROM push_subscription WHERE endpoint = ?", [endpoint]) }
    }

    public func setReminderSettings(_ settings: CareReminderSettings) async throws {
        guard settings.taskIDs.count <= CareReminderSettings.maximumTasks else {
            throw CareDirectoryError(.conflict, "Reminders name at most \(CareReminderSettings.maximumTasks) tasks.")
        }
        let tasks = String(decoding: try JSONEncoder().encode(settings.taskIDs), as: UTF8.self)
        try await write { db in
            try await db.execute("DELETE FROM reminder_setting WHERE account = ? AND record = ?", [settings.account.description, settings.record.description])
            try await db.execute("""
                INSERT INTO reminder_setting (account, record, task_ids, quiet_start, quiet_end, follow_up_minutes, updated_date)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [settings.account.description, settings.record.description, tasks, settings.quietStart, settings.quietEnd,
                      settings.followUpMinutes, settings.updatedDate.timeIntervalSince1970])
        }
    }

    public func reminderSettings(record: CareRecordID, account: CareAccountID) async throws -> CareReminderSettings? {
        try await read { db in
            try await db.firstRow("SELECT * FROM reminder_setting WHERE record = ? AND account = ?", [record.description, account.description],
                            Self.reminderSettings)
        }
    }

    public func reminderSettings(of record: CareRecordID) async throws -> [CareReminderSettings] {
        try await read { db in
            try await db.rows("SELECT * FROM reminder_setting WHERE record = ? AND task_ids <> '[]' ORDER BY account", [record.description],
                        Self.reminderSettings)
        }
    }

    public func recordsWithReminders() async throws -> [CareRecordID] {
        try await read { db in
            try await db.rows("SELECT DISTINCT record FROM reminder_setting WHERE task_ids <> '[]' ORDER BY record", []) { row in
                RandomIdentifier(uncheckedText: try row.string("record"))
            }
        }
    }

    public func recordsWithReminderSettingsChanged(after date: Date) async throws -> [CareRecordID] {
        try await read { db in
            try await db.rows("SELECT DISTINCT record FROM reminder_setting WHERE updated_date > ? ORDER BY record", [date.timeIntervalSince1970]) { row in
                RandomIdentifier(uncheckedText: try row.string("record"))
            }
        }
    }

    public func sharedValue(named name: String, orKeep value: String, now: Date) async throws -> String {
        try await write { db in
            try await db.execute("INSERT INTO shared_value (name, value, created_date) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING",
                           [name, value, now.timeIntervalSince1970])
            guard let kept = try await db.firstRow("SELECT value FROM shared_value WHERE name = ?", [name], { try $0.string("value") }) else {
                throw CareDirectoryError(.conflict, "The shared value \(name) could not be kept.")
            }
            return kept
        }
    }

    public func resealSecrets(_ transform: @escaping @Sendable (String) throws -> String?) async throws -> Int {
        try await write { db in
            var changed = 0
            let keys = try await db.rows("SELECT id, totp_secret FROM account WHERE totp_secret IS NOT NULL", []) {
                (try $0.string("id"), try $0.string("totp_secret"))
            }
            for (id, secret) in keys {
                guard let sealed = try transform(secret) else { continue }
                await changed += try db.execute("UPDATE account SET totp_secret = ? WHERE id = ?", [sealed, id])
            }
            let values = try await db.rows("SELECT name, value FROM shared_value", []) { (try $0.string("name"), try $0.string("value")) }
            for (name, value) in values {
                guard let sealed = try transform(value) else { continue }
                await changed += try db.execute("UPDATE shared_value SET value = ? WHERE name = ?", [sealed, name])
            }
            return changed
        }
    }

    static func reminderSettings(_ row: any SQLRow) throws -> CareReminderSettings {
        CareReminderSettings(account: RandomIdentifier(uncheckedText: try row.string("account")),
                             record: RandomIdentifier(uncheckedText: try row.string("record")),
                             taskIDs: (try? JSONDecoder().decode([String].self, from: Data(try row.string("task_ids").utf8))) ?? [],
                             quietStart: try row.optionalInt("quiet_start"), quietEnd: try row.optionalInt("quiet_end"),
                             followUpMinutes: try row.optionalInt("follow_up_minutes"),
                             updatedDate: Date(timeIntervalSince1970: try row.double("updated_date")))
    }
}
