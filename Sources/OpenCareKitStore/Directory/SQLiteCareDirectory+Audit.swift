import Foundation
import GRDB

extension SQLiteCareDirectory {
    public func appendAudit(_ drafts: [AuditEntry.Draft]) async throws {
        guard !drafts.isEmpty else { return }
        try await write { db in
            let head = try Row.fetchOne(db, sql: "SELECT sequence, hash FROM audit_head WHERE id = 1")
            var sequence: Int64 = head?["sequence"] ?? 0
            var previous: String = head?["hash"] ?? AuditEntry.firstPreviousHash
            let insert = try db.cachedStatement(sql: """
                INSERT INTO audit_entry (sequence, recorded, account, token, record, resource, action, outcome, address, detail, previous_hash, hash)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for draft in drafts {
                sequence += 1
                let entry = AuditEntry.chained(draft, sequence: sequence, after: previous)
                try insert.execute(arguments: [
                    sequence, Int64((draft.recorded.timeIntervalSince1970 * 1000).rounded()), draft.account?.description,
                    draft.token?.description, draft.record?.description, draft.resource, draft.action.rawValue,
                    draft.outcome.rawValue, draft.address, draft.detail, entry.previousHash, entry.hash,
                ])
                previous = entry.hash
            }
            try db.execute(sql: """
                INSERT INTO audit_head (id, sequence, hash) VALUES (1, ?, ?)
                ON CONFLICT (id) DO UPDATE SET sequence = excluded.sequence, hash = excluded.hash
                """, arguments: [sequence, previous])
        }
    }

    public func auditEntries(record: CareRecordID, limit: Int, offset: Int) async throws -> [AuditEntry] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM audit_entry WHERE record = ? ORDER BY sequence DESC LIMIT ? OFFSET ?",
                             arguments: [record.description, limit, offset]).map(Self.auditEntry)
        }
    }

    public func auditEntries(record: CareRecordID, resource: String, limit: Int) async throws -> [AuditEntry] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM audit_entry WHERE record = ? AND resource = ? ORDER BY sequence DESC LIMIT ?",
                             arguments: [record.description, resource, limit]).map(Self.auditEntry)
        }
    }

    public func auditEntries(after sequence: Int64, limit: Int) async throws -> [AuditEntry] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM audit_entry WHERE sequence > ? ORDER BY sequence LIMIT ?",
                             arguments: [sequence, limit]).map(Self.auditEntry)
        }
    }

    public func verifyAuditLog() async throws -> AuditVerification {
        // One read transaction: a consistent snapshot even while the server appends.
        try await read { db in
            var check = AuditEntry.ChainCheck()
            var count: Int64 = 0
            let entries = try Row.fetchCursor(db, sql: "SELECT * FROM audit_entry ORDER BY sequence")
            while let row = try entries.next() {
                check.check(Self.auditEntry(row))
                count += 1
            }
            let head = try Row.fetchOne(db, sql: "SELECT sequence, hash FROM audit_head WHERE id = 1")
            check.finish(headSequence: head?["sequence"] ?? 0, headHash: head?["hash"] ?? AuditEntry.firstPreviousHash)
            return AuditVerification(entries: count, headHash: check.previousHash, problem: check.problem)
        }
    }

    static func auditEntry(_ row: Row) -> AuditEntry {
        let recorded: Int64 = row["recorded"]
        let draft = AuditEntry.Draft(
            recorded: Date(timeIntervalSince1970: Double(recorded) / 1000),
            account: (row["account"] as String?).flatMap(RandomIdentifier.init), token: (row["token"] as String?).flatMap(RandomIdentifier.init),
            record: (row["record"] as String?).flatMap(RandomIdentifier.init), resource: row["resource"],
            action: AuditEntry.Action(rawValue: row["action"]) ?? .execute, outcome: AuditEntry.Outcome(rawValue: row["outcome"]) ?? .denied,
            address: row["address"], detail: row["detail"])
        var entry = AuditEntry(sequence: row["sequence"], draft: draft, previousHash: row["previous_hash"], hash: row["hash"])
        // A stored value this code cannot read back as it was written must fail verification, not pass as another.
        if (row["action"] as String) != draft.action.rawValue || (row["outcome"] as String) != draft.outcome.rawValue
            || (row["account"] as String?) != draft.account?.description || (row["record"] as String?) != draft.record?.description
            || (row["token"] as String?) != draft.token?.description {
            entry.hash = "unreadable"
        }
        return entry
    }
}

// MARK: Rows

extension SQLiteCareDirectory {
    static func columns(_ account: CareAccount) -> [(any DatabaseValueConvertible)?] {
        let codes = (try? JSONEncoder().encode(account.recoveryCodeHashes)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return [account.id.description, account.email, account.name, account.passwordHash, account.totpSecret, codes,
                account.failedSignIns, account.lockedUntil?.timeIntervalSince1970, account.createdDate.timeIntervalSince1970]
    }

    static func account(_ row: Row) -> CareAccount {
        let codes = (row["recovery_codes"] as String?).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
        return CareAccount(id: RandomIdentifier(uncheckedText: row["id"]), email: row["email"], name: row["name"],
                           passwordHash: row["password_hash"], totpSecret: row["totp_secret"], recoveryCodeHashes: codes,
                           failedSignIns: row["failed_sign_ins"], lockedUntil: (row["locked_until"] as Double?).map(Date.init(timeIntervalSince1970:)),
                           createdDate: Date(timeIntervalSince1970: row["created_date"]))
    }

    static func record(_ row: Row) -> CareRecord {
        var record = CareRecord(id: RandomIdentifier(uncheckedText: row["id"]), storeName: row["store_name"], patientName: row["patient_name"],
                                timeZoneIdentifier: row["time_zone"], carePlan: row["care_plan"],
                                createdDate: Date(timeIntervalSince1970: row["created_date"]))
        record.patientEditsPlan = row["patient_edits_plan"] ?? true
        return record
    }

    static func membership(_ row: Row) -> CareMembership {
        CareMembership(record: RandomIdentifier(uncheckedText: row["record"]), account: RandomIdentifier(uncheckedText: row["account"]),
                       role: CareRole(rawValue: row["role"]) ?? .caregiver, isOwner: row["is_owner"],
                       createdDate: Date(timeIntervalSince1970: (row["created_date"] as Double?) ?? 0))
    }

    static func invitation(_ row: Row) -> CareInvitation {
        CareInvitation(secretHash: row["secret_hash"], record: RandomIdentifier(uncheckedText: row["record"]),
                       role: CareRole(rawValue: row["role"]) ?? .caregiver, invitedBy: RandomIdentifier(uncheckedText: row["invited_by"]),
                       createdDate: Date(timeIntervalSince1970: row["created_date"]), expiryDate: Date(timeIntervalSince1970: row["expiry_date"]),
                       acceptedDate: (row["accepted_date"] as Double?).map(Date.init(timeIntervalSince1970:)),
                       acceptedBy: (row["accepted_by"] as String?).map(RandomIdentifier.init(uncheckedText:)))
    }

    static func accessToken(_ row: Row) -> CareAccessToken {
        CareAccessToken(id: RandomIdentifier(uncheckedText: row["id"]), secretHash: row["secret_hash"],
                        account: RandomIdentifier(uncheckedText: row["account"]), record: RandomIdentifier(uncheckedText: row["record"]),
                        scope: row["scope"], label: row["label"], createdDate: Date(timeIntervalSince1970: row["created_date"]),
                        lastUsedDate: (row["last_used_date"] as Double?).map(Date.init(timeIntervalSince1970:)),
                        revokedDate: (row["revoked_date"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}
