import Foundation
@testable import OpenCareKitStore
import Testing

@Suite struct DirectoryTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func account(_ email: String) -> CareAccount {
        CareAccount(email: email, name: "Person", passwordHash: "hash", createdDate: now)
    }

    func record() -> CareRecord {
        CareRecord(patientName: "Patient", timeZoneIdentifier: "Asia/Seoul", createdDate: now)
    }

    @Test func identifiersAreRandomAndParsedStrictly() {
        let identifiers = Set((0..<1000).map { _ in RandomIdentifier.random() })
        #expect(identifiers.count == 1000)
        for identifier in identifiers.prefix(20) { #expect(RandomIdentifier(identifier.description) == identifier) }
        for text in ["", "abc", String(repeating: "z", count: 26), String(repeating: "0", count: 25) + "i",
                     String(repeating: "0", count: 27), "../../etc/passwd00000000000",
                     String(repeating: "0", count: 24) + "é", String(repeating: "0", count: 25) + "A"] {
            #expect(RandomIdentifier(text) == nil, "\(text)")
        }
    }

    @Test func emailsAreNormalizedAndCheckedForForm() {
        #expect(CareAccount.normalizedEmail("  Ana@Example.ORG ") == "ana@example.org")
        for text in ["ana", "ana@", "@example.org", "ana@example", "a b@example.org", "ana@@example.org", "<a>@example.org",
                     String(repeating: "a", count: 250) + "@example.org"] {
            #expect(CareAccount.normalizedEmail(text) == nil, "\(text)")
        }
    }

    @Test func accountsHaveUniqueEmailsAndLockAfterRepeatedFailures() async throws {
        let directory = try SQLiteCareDirectory(path: nil)
        let ana = account("ana@example.org")
        try await directory.addAccount(ana)
        await #expect(throws: CareDirectoryError(.emailTaken, "An account with that email address exists already.")) {
            try await directory.addAccount(self.account("ana@example.org"))
        }
        #expect(try await directory.account(email: "ANA@example.org")?.id == ana.id)
        for attempt in 1...9 {
            let counted = try await directory.noteFailedSignIn(ana.id, now: now, threshold: 10, lockout: 900)
            #expect(counted?.failedSignIns == attempt)
            #expect(counted?.lockedUntil == nil)
        }
        let locked = try await directory.noteFailedSignIn(ana.id, now: now, threshold: 10, lockout: 900)
        #expect(locked?.lockedUntil == now.addingTimeInterval(900))
        try await directory.noteSuccessfulSignIn(ana.id)
        let cleared = try await directory.account(ana.id)
        #expect(cleared?.failedSignIns == 0 && cleared?.lockedUntil == nil)
    }

    @Test func aRecordKeepsItsOwner() async throws {
        let directory = try SQLiteCareDirectory(path: nil)
        let (ana, ben) = (account("ana@example.org"), account("ben@example.org"))
        try await directory.addAccount(ana)
        try await directory.addAccount(ben)
        let care = record()
        try await directory.addRecord(care, member: CareMembership(record: care.id, account: ana.id, role: .patient, isOwner: true, createdDate: now))
        try await directory.setMembership(CareMembership(record: care.id, account: ben.id, role: .caregiver, isOwner: false, createdDate: now))
        #expect(try await directory.members(of: care.id).map(\.membership.role) == [.patient, .caregiver])
        #expect(try await directory.memberships(of: ben.id).map(\.record.id) == [care.id])

        await #expect(throws: CareDirectoryError.self) { try await directory.removeMembership(record: care.id, account: ana.id) }
        await #expect(throws: CareDirectoryError.self) {
            try await directory.setMembership(CareMembership(record: care.id, account: ana.id, role: .patient, isOwner: false, createdDate: self.now))
        }
        #expect(try await directory.membership(record: care.id, account: ana.id)?.isOwner == true)
        try await directory.removeMembership(record: care.id, account: ben.id)
        #expect(try await directory.membership(record: care.id, account: ben.id) == nil)
        #expect(try await directory.recordCount() == 1)
    }

    @Test func anInvitationIsUsedOnceAndExpires() async throws {
        let directory = try SQLiteCareDirectory(path: nil)
        let (ana, ben, cho) = (account("ana@example.org"), account("ben@example.org"), account("cho@example.org"))
        for person in [ana, ben, cho] { try await directory.addAccount(person) }
        let care = record()
        try await directory.addRecord(care, member: CareMembership(record: care.id, account: ana.id, role: .patient, isOwner: true, createdDate: now))
        try await directory.addInvitation(CareInvitation(secretHash: "one", record: care.id, role: .caregiver, invitedBy: ana.id,
                                                         createdDate: now, expiryDate: now.addingTimeInterval(7 * 86_400)))
        try await directory.addInvitation(CareInvitation(secretHash: "two", record: care.id, role: .clinician, invitedBy: ana.id,
                                                         createdDate: now, expiryDate: now.addingTimeInterval(7 * 86_400)))
        #expect(try await directory.acceptInvitation(secretHash: "one", account: ben.id, now: now)?.role == .caregiver)
        #expect(try await directory.acceptInvitation(secretHash: "one", account: cho.id, now: now) == nil)
        #expect(try await directory.acceptInvitation(secretHash: "two", account: cho.id, now: now.addingTimeInterval(7 * 86_400)) == nil)
        #expect(try await directory.acceptInvitation(secretHash: "nope", account: cho.id, now: now) == nil)
        #expect(try await directory.membership(record: care.id, account: cho.id) == nil)
        // The patient who follows her own link keeps her role.
        try await directory.addInvitation(CareInvitation(secretHash: "three", record: care.id, role: .caregiver, invitedBy: ana.id,
                                                         createdDate: now, expiryDate: now.addingTimeInterval(60)))
        #expect(try await directory.acceptInvitation(secretHash: "three", account: ana.id, now: now)?.role == .patient)
    }

    @Test func sessionsExpireAndEndTogether() async throws {
        let directory = try SQLiteCareDirectory(path: nil)
        let ana = account("ana@example.org")
        try await directory.addAccount(ana)
        try await directory.setSession(keyHash: "a", account: ana.id, value: Data("1".utf8), expiryDate: now.addingTimeInterval(60), now: now)
        try await directory.setSession(keyHash: "b", account: ana.id, value: Data("2".utf8), expiryDate: now.addingTimeInterval(600), now: now)
        try await directory.setSession(keyHash: "c", account: nil, value: Data("3".utf8), expiryDate: nil, now: now)
        #expect(try await directory.session(keyHash: "a", now: now)?.value == Data("1".utf8))
        #expect(try await directory.session(keyHash: "a", now: now.addingTimeInterval(60)) == nil)
        // Updating without an expiry keeps the stored one.
        try await directory.setSession(keyHash: "b", account: ana.id, value: Data("4".utf8), expiryDate: nil, now: now)
        #expect(try await directory.session(keyHash: "b", now: now)?.expiryDate == now.addingTimeInterval(600))
        try await directory.removeSessions(of: ana.id)
        #expect(try await directory.session(keyHash: "b", now: now) == nil)
        #expect(try await directory.session(keyHash: "c", now: now) != nil)
    }

    @Test func tokensAreRevokedOnlyByTheirOwner() async throws {
        let directory = try SQLiteCareDirectory(path: nil)
        let (ana, ben) = (account("ana@example.org"), account("ben@example.org"))
        try await directory.addAccount(ana)
        try await directory.addAccount(ben)
        let care = record()
        try await directory.addRecord(care, member: nil)
        let token = CareAccessToken(secretHash: "secret", account: ana.id, record: care.id, scope: "patient/*.rs", label: "Phone", createdDate: now)
        try await directory.addAccessToken(token)
        #expect(try await directory.revokeAccessToken(token.id, of: ben.id, now: now) == false)
        #expect(try await directory.accessToken(secretHash: "secret")?.revokedDate == nil)
        #expect(try await directory.revokeAccessToken(token.id, of: ana.id, now: now) == true)
        #expect(try await directory.accessToken(secretHash: "secret")?.revokedDate == now)
    }

    func filledAuditLog() async throws -> SQLiteCareDirectory {
        let directory = try SQLiteCareDirectory(path: nil)
        let care = RandomIdentifier.random()
        try await directory.appendAudit((0..<5).map { index in
            AuditEntry.Draft(recorded: now.addingTimeInterval(Double(index)), account: .random(), record: care, resource: "care-page",
                             action: .read, outcome: .allowed, address: "127.0.0.1", detail: "GET /records/{record}/care")
        })
        try await directory.appendAudit([AuditEntry.Draft(recorded: now, account: nil, record: nil, resource: "session", action: .execute,
                                                          outcome: .denied, address: "10.0.0.1", detail: "sign-in")])
        return directory
    }

    @Test func theAuditLogIsAChainThatRefusesChanges() async throws {
        let directory = try await filledAuditLog()
        let verification = try await directory.verifyAuditLog()
        #expect(verification.isIntact)
        #expect(verification.entries == 6)
        let entries = try await directory.auditEntries(after: 0, limit: 100)
        #expect(entries.map(\.sequence) == Array(1...6))
        #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.hash == $1.previousHash })
        #expect(verification.headHash == entries.last?.hash)
        // The file itself refuses an update or a delete.
        await #expect(throws: SQLFailure.self) {
            try await directory.runner.write { try $0.execute("UPDATE audit_entry SET address = 'x' WHERE sequence = 2") }
        }
        await #expect(throws: SQLFailure.self) {
            try await directory.runner.write { try $0.execute("DELETE FROM audit_entry WHERE sequence = 2") }
        }
    }

    /// Someone with the file drops the triggers, then edits or deletes: verification names the entry.
    func tampered(_ statements: String...) async throws -> AuditVerification {
        let directory = try await filledAuditLog()
        try await directory.runner.write { db in
            try db.execute("DROP TRIGGER audit_entry_is_append_only_update")
            try db.execute("DROP TRIGGER audit_entry_is_append_only_delete")
            for sql in statements { try db.execute(sql) }
        }
        return try await directory.verifyAuditLog()
    }

    @Test func verificationDetectsAnEditedEntry() async throws {
        let edited = try await tampered("UPDATE audit_entry SET outcome = 'allowed' WHERE sequence = 6")
        #expect(edited.problem == "entry 6 was changed after it was written")
        let rehashed = try await tampered("UPDATE audit_entry SET address = '10.9.9.9', hash = 'ff' WHERE sequence = 3")
        #expect(rehashed.problem == "entry 3 was changed after it was written")
    }

    @Test func verificationDetectsADeletedEntry() async throws {
        let middle = try await tampered("DELETE FROM audit_entry WHERE sequence = 3")
        #expect(middle.problem == "entry 3 is missing (the next is 4)")
        let last = try await tampered("DELETE FROM audit_entry WHERE sequence = 6")
        #expect(last.problem == "entries 6 to 6 are missing from the end")
        let renumbered = try await tampered("DELETE FROM audit_entry WHERE sequence = 3",
                                              "UPDATE audit_entry SET sequence = sequence - 1 WHERE sequence > 3")
        #expect(renumbered.problem == "entry 3 does not follow the entry before it (deleted or changed)")
    }

    @Test func aDirectoryOnDiskSurvivesReopening() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "directory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "directory.sqlite").path
        let ana = account("ana@example.org")
        do {
            let directory = try SQLiteCareDirectory(path: path)
            try await directory.addAccount(ana)
            try await directory.appendAudit([AuditEntry.Draft(recorded: now, account: ana.id, record: nil, resource: "session",
                                                              action: .execute, outcome: .allowed, address: "::1", detail: "sign-in")])
        }
        let reopened = try SQLiteCareDirectory(path: path)
        #expect(try await reopened.account(ana.id) == ana)
        #expect(try await reopened.verifyAuditLog().entries == 1)
    }
}

@Suite struct CachingDirectoryTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func lookupsAreRememberedUntilAWriteThroughItOrTheirFreshnessEnds() async throws {
        let base = try SQLiteCareDirectory(path: nil)
        let cached = CachingCareDirectory(base, freshness: 3600)
        let ana = CareAccount(email: "ana@example.org", name: "Ana", passwordHash: "-", createdDate: now)
        try await cached.addAccount(ana)
        let record = CareRecord(patientName: "Ana", timeZoneIdentifier: "UTC", createdDate: now)
        try await cached.addRecord(record, member: CareMembership(record: record.id, account: ana.id, role: .patient, isOwner: true, createdDate: now))
        try await cached.setSession(keyHash: "s", account: ana.id, value: Data("1".utf8), expiryDate: now.addingTimeInterval(60), now: now)
        #expect(try await cached.session(keyHash: "s", now: now) != nil)
        #expect(try await cached.membership(record: record.id, account: ana.id)?.role == .patient)
        #expect(try await cached.account(ana.id)?.name == "Ana")
        // Changed behind its back (another server): still remembered while fresh…
        try await base.removeSession(keyHash: "s")
        #expect(try await cached.session(keyHash: "s", now: now) != nil)
        // …but never past the session's own expiry, and forgotten when the change goes through it.
        #expect(try await cached.session(keyHash: "s", now: now.addingTimeInterval(60)) == nil)
        try await cached.removeSessions(of: ana.id)
        #expect(try await cached.session(keyHash: "s", now: now) == nil)
        var renamed = ana
        renamed.name = "Ana Kim"
        try await cached.updateAccount(renamed)
        #expect(try await cached.account(ana.id)?.name == "Ana Kim")
        let ben = CareAccount(email: "ben@example.org", name: "Ben", passwordHash: "-", createdDate: now)
        try await cached.addAccount(ben)
        #expect(try await cached.membership(record: record.id, account: ben.id) == nil)
        try await cached.setMembership(CareMembership(record: record.id, account: ben.id, role: .caregiver, isOwner: false, createdDate: now))
        #expect(try await cached.membership(record: record.id, account: ben.id)?.role == .caregiver)
        try await cached.removeMembership(record: record.id, account: ben.id)
        #expect(try await cached.membership(record: record.id, account: ben.id) == nil)
        // With no freshness at all, every lookup asks the directory.
        let uncached = CachingCareDirectory(base, freshness: 0)
        try await base.setMembership(CareMembership(record: record.id, account: ben.id, role: .clinician, isOwner: false, createdDate: now))
        #expect(try await uncached.membership(record: record.id, account: ben.id)?.role == .clinician)
        try await base.removeMembership(record: record.id, account: ben.id)
        #expect(try await uncached.membership(record: record.id, account: ben.id) == nil)
    }
}
