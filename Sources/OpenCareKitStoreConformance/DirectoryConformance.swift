import Foundation
import OpenCareKitDirectory
import OpenCareKitStore
import Testing

/// A directory the conformance suite can test, with what someone holding its database could do behind its back.
public struct DirectoryUnderTest: Sendable {
    public let directory: any CareDirectory
    /// Runs statements on the database directly, in one transaction, bypassing the directory.
    public let execute: @Sendable ([String]) async throws -> Void
    /// The statements that remove the database's own refusal to change the audit log (its triggers).
    public let dropAuditGuards: [String]
    /// Another fresh, empty directory of the same backend.
    public let fresh: @Sendable () async throws -> DirectoryUnderTest

    public init(directory: any CareDirectory, execute: @escaping @Sendable ([String]) async throws -> Void, dropAuditGuards: [String],
                fresh: @escaping @Sendable () async throws -> DirectoryUnderTest) {
        self.directory = directory
        self.execute = execute
        self.dropAuditGuards = dropAuditGuards
        self.fresh = fresh
    }
}

/// One behaviour every directory backend must have, run against a fresh, empty directory.
public struct DirectoryCheck: Sendable, CustomStringConvertible {
    public let description: String
    private let body: @Sendable (DirectoryUnderTest) async throws -> Void

    init(_ name: String, _ body: @escaping @Sendable (DirectoryUnderTest) async throws -> Void) {
        description = name
        self.body = body
    }

    public func run(on subject: DirectoryUnderTest) async throws {
        try await body(subject)
    }
}

/// The directory's behaviour, the same on every backend: accounts, records and owners, invitations, sessions, surveys
/// in progress, tokens and the audit chain.
public enum DirectoryConformance {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func account(_ email: String) -> CareAccount {
        CareAccount(email: email, name: "Person", passwordHash: "hash", createdDate: now)
    }

    static func record() -> CareRecord {
        CareRecord(patientName: "Patient", timeZoneIdentifier: "Asia/Seoul", createdDate: now)
    }

    static func filledAuditLog(_ directory: any CareDirectory) async throws -> any CareDirectory {
        let care = RandomIdentifier.random()
        try await directory.appendAudit((0..<5).map { index in
            AuditEntry.Draft(recorded: now.addingTimeInterval(Double(index)), account: .random(), record: care, resource: "care-page",
                             action: .read, outcome: .allowed, address: "127.0.0.1", detail: "GET /records/{record}/care")
        })
        try await directory.appendAudit([AuditEntry.Draft(recorded: now, account: nil, record: nil, resource: "session", action: .execute,
                                                          outcome: .denied, address: "10.0.0.1", detail: "sign-in")])
        return directory
    }

    /// Someone with a fresh directory's database drops the guards, then edits or deletes: verification names the entry.
    static func tampered(_ subject: DirectoryUnderTest, _ statements: String...) async throws -> AuditVerification {
        let subject = try await subject.fresh()
        let directory = try await filledAuditLog(subject.directory)
        try await subject.execute(subject.dropAuditGuards + statements)
        return try await directory.verifyAuditLog()
    }

    public static let checks: [DirectoryCheck] = [
        DirectoryCheck("accountsHaveUniqueEmailsAndLockAfterRepeatedFailures") { subject in
            let directory = subject.directory
            let ana = account("ana@example.org")
            try await directory.addAccount(ana)
            await #expect(throws: CareDirectoryError(.emailTaken, "An account with that email address exists already.")) {
                try await directory.addAccount(account("ana@example.org"))
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
        },
        DirectoryCheck("aRecordKeepsItsOwner") { subject in
            let directory = subject.directory
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
                try await directory.setMembership(CareMembership(record: care.id, account: ana.id, role: .patient, isOwner: false, createdDate: now))
            }
            #expect(try await directory.membership(record: care.id, account: ana.id)?.isOwner == true)
            try await directory.removeMembership(record: care.id, account: ben.id)
            #expect(try await directory.membership(record: care.id, account: ben.id) == nil)
            #expect(try await directory.recordCount() == 1)
        },
        DirectoryCheck("anInvitationIsUsedOnceAndExpires") { subject in
            let directory = subject.directory
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
        },
        DirectoryCheck("aRecordHasOnePatientWhoeverWritesItsMemberships") { subject in
            let directory = subject.directory
            let (ana, ben, cho) = (account("ana@example.org"), account("ben@example.org"), account("cho@example.org"))
            for person in [ana, ben, cho] { try await directory.addAccount(person) }
            let care = record()
            try await directory.addRecord(care, member: CareMembership(record: care.id, account: ana.id, role: .patient, isOwner: true, createdDate: now))
            try await directory.setMembership(CareMembership(record: care.id, account: ben.id, role: .caregiver, isOwner: false, createdDate: now))
            // A role change, an invitation, and an invitation made before the patient joined: each refused.
            await #expect(throws: CareDirectoryError.secondPatient) {
                try await directory.setMembership(CareMembership(record: care.id, account: ben.id, role: .patient, isOwner: false, createdDate: now))
            }
            await #expect(throws: CareDirectoryError.secondPatient) {
                try await directory.addInvitation(CareInvitation(secretHash: "patient", record: care.id, role: .patient, invitedBy: ana.id,
                                                                 createdDate: now, expiryDate: now.addingTimeInterval(60)))
            }
            let adopted = record()
            try await directory.addRecord(adopted, member: CareMembership(record: adopted.id, account: ben.id, role: .caregiver, isOwner: true,
                                                                          createdDate: now))
            // Two patient invitations while the record has none; the first accepted makes the second one's a second patient.
            for secret in ["first", "second"] {
                try await directory.addInvitation(CareInvitation(secretHash: secret, record: adopted.id, role: .patient, invitedBy: ben.id,
                                                                 createdDate: now, expiryDate: now.addingTimeInterval(60)))
            }
            #expect(try await directory.acceptInvitation(secretHash: "first", account: ana.id, now: now)?.role == .patient)
            await #expect(throws: CareDirectoryError.secondPatient) {
                _ = try await directory.acceptInvitation(secretHash: "second", account: cho.id, now: now)
            }
            #expect(try await directory.members(of: adopted.id).filter { $0.membership.role == .patient }.map(\.account.id) == [ana.id])
            #expect(try await directory.membership(record: care.id, account: ben.id)?.role == .caregiver)
        },
        DirectoryCheck("openInvitationsAndSessionsAreBounded") { subject in
            let directory = subject.directory
            let ana = account("ana@example.org")
            try await directory.addAccount(ana)
            let care = record()
            try await directory.addRecord(care, member: CareMembership(record: care.id, account: ana.id, role: .patient, isOwner: true, createdDate: now))
            func invite(_ index: Int, at time: Date) async throws {
                try await directory.addInvitation(CareInvitation(secretHash: "invitation-\(index)", record: care.id, role: .caregiver,
                                                                 invitedBy: ana.id, createdDate: time, expiryDate: time.addingTimeInterval(3_600)))
            }
            for index in 0..<CareDirectoryLimits.openInvitationsPerRecord { try await invite(index, at: now) }
            await #expect(throws: CareDirectoryError.self) { try await invite(-1, at: now) }
            // Expired ones do not count.
            try await invite(-2, at: now.addingTimeInterval(7_200))
            // Each new session of an account beyond the limit ends its least recently used one.
            for index in 0...CareDirectoryLimits.sessionsPerAccount {
                try await directory.setSession(keyHash: "session-\(index)", account: ana.id, value: Data(), expiryDate: now.addingTimeInterval(3_600),
                                               now: now.addingTimeInterval(Double(index)))
            }
            #expect(try await directory.session(keyHash: "session-0", now: now) == nil)
            #expect(try await directory.session(keyHash: "session-1", now: now) != nil)
            #expect(try await directory.session(keyHash: "session-\(CareDirectoryLimits.sessionsPerAccount)", now: now) != nil)
        },
        DirectoryCheck("storedSecretsAreResealedInPlace") { subject in
            let directory = subject.directory
            var ana = account("ana@example.org")
            ana.totpSecret = "plain-two-step-key"
            try await directory.addAccount(ana)
            try await directory.addAccount(account("ben@example.org"))
            _ = try await directory.sharedValue(named: "web-push-key", orKeep: "plain-signing-key", now: now)
            // Only what the transform changes is written; accounts without a key are left alone.
            #expect(try await directory.resealSecrets { $0.hasPrefix("sealed:") ? nil : "sealed:" + $0 } == 2)
            #expect(try await directory.account(ana.id)?.totpSecret == "sealed:plain-two-step-key")
            #expect(try await directory.sharedValue(named: "web-push-key", orKeep: "other", now: now) == "sealed:plain-signing-key")
            #expect(try await directory.resealSecrets { $0.hasPrefix("sealed:") ? nil : "sealed:" + $0 } == 0)
        },
        DirectoryCheck("aTwoStepCodeIsTakenOnce") { subject in
            let directory = subject.directory
            let (ana, ben) = (account("ana@example.org"), account("ben@example.org"))
            try await directory.addAccount(ana)
            try await directory.addAccount(ben)
            #expect(try await directory.takeTwoStepCode(step: 100, of: ana.id))
            #expect(try await !directory.takeTwoStepCode(step: 100, of: ana.id))
            // An earlier step's code is refused once a later one was taken; another account's are its own.
            #expect(try await !directory.takeTwoStepCode(step: 99, of: ana.id))
            #expect(try await directory.takeTwoStepCode(step: 100, of: ben.id))
            #expect(try await directory.takeTwoStepCode(step: 101, of: ana.id))
        },
        DirectoryCheck("pushSubscriptionsAndReminderSettingsAreKeptPerDeviceAndPerRecord") { subject in
            let directory = subject.directory
            let (ana, ben) = (account("ana@example.org"), account("ben@example.org"))
            try await directory.addAccount(ana)
            try await directory.addAccount(ben)
            let care = record()
            try await directory.addRecord(care, member: CareMembership(record: care.id, account: ana.id, role: .patient, isOwner: true,
                                                                       createdDate: now))
            // One subscription per endpoint: a browser that subscribes again (or another person on it) replaces it.
            let phone = CarePushSubscription(account: ana.id, endpoint: "https://push.example.net/1", publicKey: "key", authSecret: "auth",
                                             createdDate: now)
            try await directory.setPushSubscription(phone)
            try await directory.setPushSubscription(CarePushSubscription(account: ana.id, endpoint: "https://push.example.net/2",
                                                                         publicKey: "key2", authSecret: "auth2", createdDate: now))
            #expect(try await directory.pushSubscriptions(of: ana.id).map(\.endpoint) == ["https://push.example.net/1", "https://push.example.net/2"])
            try await directory.setPushSubscription(CarePushSubscription(account: ben.id, endpoint: "https://push.example.net/1",
                                                                         publicKey: "key3", authSecret: "auth3", createdDate: now))
            #expect(try await directory.pushSubscriptions(of: ana.id).map(\.endpoint) == ["https://push.example.net/2"])
            #expect(try await directory.pushSubscriptions(of: ben.id).map(\.publicKey) == ["key3"])
            try await directory.removePushSubscription(endpoint: "https://push.example.net/2")
            #expect(try await directory.pushSubscriptions(of: ana.id).isEmpty)
            // Settings per person and record, replaced whole; a record's list leaves out those that remind of nothing.
            let settings = CareReminderSettings(account: ana.id, record: care.id, taskIDs: ["ibuprofen", "약"], quietStart: 22 * 60,
                                                quietEnd: 7 * 60, followUpMinutes: 30, updatedDate: now)
            try await directory.setReminderSettings(settings)
            #expect(try await directory.reminderSettings(record: care.id, account: ana.id) == settings)
            #expect(try await directory.reminderSettings(of: care.id) == [settings])
            #expect(try await directory.recordsWithReminders() == [care.id])
            #expect(settings.isQuiet(atMinute: 23 * 60) && settings.isQuiet(atMinute: 6 * 60) && !settings.isQuiet(atMinute: 12 * 60))
            var off = settings
            off.taskIDs = []
            try await directory.setReminderSettings(off)
            #expect(try await directory.reminderSettings(of: care.id).isEmpty)
            #expect(try await directory.recordsWithReminders().isEmpty)
            // Turning reminders off is a change too; an earlier save is not one after a later moment.
            #expect(try await directory.recordsWithReminderSettingsChanged(after: now.addingTimeInterval(-1)) == [care.id])
            #expect(try await directory.recordsWithReminderSettingsChanged(after: now).isEmpty)
            #expect(try await directory.reminderSettings(record: care.id, account: ana.id)?.quietStart == 22 * 60)
            // Bounded, and tied to existing accounts and records.
            off.taskIDs = (0...CareReminderSettings.maximumTasks).map { "t\($0)" }
            await #expect(throws: CareDirectoryError.self) { try await directory.setReminderSettings(off) }
            await #expect(throws: CareDirectoryError.self) {
                try await directory.setReminderSettings(CareReminderSettings(account: ana.id, record: .random(), taskIDs: ["x"], updatedDate: now))
            }
        },
        DirectoryCheck("triageItemsAreOnePerCauseAndMoveFromNewToResolved") { subject in
            let directory = subject.directory
            let (lee, kim, stranger) = (account("lee@example.org"), account("kim@example.org"), account("x@example.org"))
            for person in [lee, kim, stranger] { try await directory.addAccount(person) }
            let care = record()
            try await directory.addRecord(care, member: CareMembership(record: care.id, account: lee.id, role: .clinician, isOwner: true,
                                                                       createdDate: now))
            try await directory.setMembership(CareMembership(record: care.id, account: kim.id, role: .clinician, isOwner: false, createdDate: now))
            func pain(_ evidence: [String], _ observed: Double = 9, priority: CareTriageItem.Priority = .urgent) -> CareTriageAlert {
                CareTriageAlert(cause: "check-in/pain", taskID: "check-in", taskTitle: "Check-in", ruleID: "pain", rule: "{}", priority: priority,
                                observed: observed, evidence: evidence, outcomeIDs: evidence, latest: now)
            }
            let doses = CareTriageAlert(cause: "med/doses", taskID: "med", taskTitle: nil, ruleID: "doses", rule: "{}", priority: .routine,
                                        observed: 2, evidence: ["day:2027-01-14", "day:2027-01-15"], outcomeIDs: [], latest: now)
            // Raised once per cause; the same evidence again changes nothing, new evidence updates the open item.
            let first = try await directory.raiseTriage([pain(["outcome:a"]), doses], record: care.id, now: now)
            #expect(first.raised.map(\.alert.cause).sorted() == ["check-in/pain", "med/doses"] && first.updated.isEmpty)
            #expect(try await directory.raiseTriage([pain(["outcome:a"]), doses], record: care.id, now: now).isEmpty)
            let later = now.addingTimeInterval(60)
            let again = try await directory.raiseTriage([pain(["outcome:a", "outcome:b"], 10)], record: care.id, now: later)
            #expect(again.raised.isEmpty && again.updated.map(\.raisedCount) == [2])
            var open = try await directory.triageItems(records: [care.id], open: true, limit: 10)
            #expect(open.map(\.alert.cause) == ["check-in/pain", "med/doses"], "urgent first")
            #expect(try await directory.openTriageCounts(records: [care.id, .random()]) == (2, 1))
            #expect(try await directory.openTriageCountsByRecord(records: [care.id, .random()]) == [care.id: CareTriageCounts(open: 2, urgent: 1)])
            let item = try #require(open.first)
            #expect(item.alert.observed == 10 && item.alert.evidence == ["outcome:a", "outcome:b"] && item.updatedDate == later)
            #expect(item.status == .new && item.owner == nil)

            // Acknowledged once, by whom and when: the second clinician is told it is taken.
            let seen = try await directory.actOnTriageItem(item.id, .acknowledge, by: lee.id, now: later)
            #expect(seen.status == .acknowledged && seen.acknowledgedBy == lee.id && seen.acknowledgedDate == later)
            await #expect(throws: CareDirectoryError(.conflict, "The item is acknowledged already.")) {
                try await directory.actOnTriageItem(item.id, .acknowledge, by: kim.id, now: later)
            }
            // Assigned to a member only, and back to the pool.
            #expect(try await directory.actOnTriageItem(item.id, .assign(kim.id), by: lee.id, now: later).owner == kim.id)
            await #expect(throws: CareDirectoryError.self) {
                try await directory.actOnTriageItem(item.id, .assign(stranger.id), by: lee.id, now: later)
            }
            #expect(try await directory.triageItem(item.id)?.owner == kim.id)
            // Resolved with a note, it leaves the open list; resolved is final.
            await #expect(throws: CareDirectoryError.self) { try await directory.actOnTriageItem(item.id, .resolve(note: "  "), by: kim.id, now: later) }
            let done = try await directory.actOnTriageItem(item.id, .resolve(note: "Called her; pain eased."), by: kim.id, now: later)
            #expect(done.status == .resolved && done.resolvedBy == kim.id && done.resolutionNote == "Called her; pain eased.")
            await #expect(throws: CareDirectoryError(.conflict, "The item is resolved already.")) {
                try await directory.actOnTriageItem(item.id, .acknowledge, by: lee.id, now: later)
            }
            open = try await directory.triageItems(records: [care.id], open: true, limit: 10)
            #expect(open.map(\.alert.cause) == ["med/doses"])
            #expect(try await directory.triageItems(records: [care.id], open: false, limit: 10).map(\.id) == [item.id])
            // What was resolved is not raised again by the same evidence; something new raises a new item.
            #expect(try await directory.raiseTriage([pain(["outcome:a", "outcome:b"])], record: care.id, now: later).isEmpty)
            let renewed = try await directory.raiseTriage([pain(["outcome:b", "outcome:c"])], record: care.id, now: later)
            #expect(renewed.raised.count == 1 && renewed.raised.first?.id != item.id)
            // Bounded: an alert out of bounds raises nothing; a stranger's record shows nothing.
            var huge = doses
            huge.cause = "huge"
            huge.evidence = (0...CareTriageAlert.maximumEvidence).map { "day:\($0)" }
            #expect(try await directory.raiseTriage([huge], record: care.id, now: later).isEmpty)
            #expect(try await directory.triageItems(records: [.random()], open: true, limit: 10).isEmpty)
            await #expect(throws: CareDirectoryError(.notFound, "There is no such item.")) {
                try await directory.actOnTriageItem(.random(), .acknowledge, by: lee.id, now: later)
            }
        },
        DirectoryCheck("triageItemsComeBackNewWithWorseNewsAndStayBounded") { subject in
            let directory = subject.directory
            let (lee, sam) = (account("lee@example.org"), account("sam@example.org"))
            try await directory.addAccount(lee)
            try await directory.addAccount(sam)
            let care = record()
            try await directory.addRecord(care, member: CareMembership(record: care.id, account: lee.id, role: .clinician, isOwner: true,
                                                                       createdDate: now))
            try await directory.setMembership(CareMembership(record: care.id, account: sam.id, role: .clinician, isOwner: false, createdDate: now))
            func alert(_ cause: String, _ evidence: [String], latest: Date = now) -> CareTriageAlert {
                CareTriageAlert(cause: cause, taskID: "t", taskTitle: nil, ruleID: cause, rule: "{}", priority: .routine, observed: 1,
                                evidence: evidence, outcomeIDs: [], latest: latest)
            }
            // Acknowledged, then something newer holds it: it is new again, for everyone to see.
            let item = try #require(try await directory.raiseTriage([alert("pain", ["a"])], record: care.id, now: now).raised.first)
            _ = try await directory.actOnTriageItem(item.id, .acknowledge, by: lee.id, now: now)
            _ = try await directory.actOnTriageItem(item.id, .assign(sam.id), by: lee.id, now: now)
            let worse = try await directory.raiseTriage([alert("pain", ["a", "b"], latest: now.addingTimeInterval(60))], record: care.id, now: now)
            #expect(worse.updated.first?.status == .new && worse.updated.first?.acknowledgedBy == nil)
            #expect(try await directory.triageItem(item.id)?.status == .new)
            // Older evidence coming to the fore only updates it: acknowledged stays acknowledged.
            _ = try await directory.actOnTriageItem(item.id, .acknowledge, by: lee.id, now: now)
            let older = try await directory.raiseTriage([alert("pain", ["c"], latest: now)], record: care.id, now: now)
            #expect(older.updated.first?.status == .acknowledged && older.updated.first?.alert.evidence == ["c"])
            #expect(try await directory.triageItem(item.id)?.acknowledgedBy == lee.id)
            // Sam, no longer a clinician of the record, hands it back to the care team.
            try await directory.setMembership(CareMembership(record: care.id, account: sam.id, role: .caregiver, isOwner: false, createdDate: now))
            #expect(try await directory.triageItem(item.id)?.owner == nil)
            await #expect(throws: CareDirectoryError.self) { try await directory.actOnTriageItem(item.id, .assign(sam.id), by: lee.id, now: now) }
            // One alert out of bounds is dropped alone.
            let long = alert("long", [String(repeating: "x", count: CareTriageAlert.maximumEvidenceLength + 1)])
            let mixed = try await directory.raiseTriage([long, alert("quiet", ["q"])], record: care.id, now: now)
            #expect(mixed.raised.map(\.alert.cause) == ["quiet"])
            // A record keeps 1,000 resolved items, and each cause's last one whatever its age.
            let columns = "id, record, cause, task_id, rule_id, rule, priority, status, observed, evidence, outcome_ids, latest, raised_date, updated_date, raised_count, resolved_date"
            try await subject.execute(["""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(CareTriageItem.maximumResolvedPerRecord + 1))
                INSERT INTO triage_item (\(columns)) SELECT 'old' || i, '\(care.id)', 'old-cause', 't', 'r', '{}', 'routine', 'resolved', 1,
                  '["e' || i || '"]', '[]', 0, 0, 0, 1, 1000 + i FROM n
                """, """
                INSERT INTO triage_item (\(columns)) VALUES ('oldest', '\(care.id)', 'lone-cause', 't', 'r', '{}', 'routine', 'resolved', 1,
                  '["z"]', '[]', 0, 0, 0, 1, 1)
                """])
            #expect(try await directory.raiseTriage([alert("new-cause", ["n"])], record: care.id, now: now).raised.count == 1)
            let resolved = try await directory.triageItems(records: [care.id], open: false, limit: 5_000)
            #expect(resolved.count == CareTriageItem.maximumResolvedPerRecord + 1)
            #expect(resolved.contains { $0.alert.cause == "lone-cause" } && !resolved.contains { $0.id.description == "old1" })
            // The lone cause's last evidence raises nothing again.
            #expect(try await directory.raiseTriage([alert("lone-cause", ["z"])], record: care.id, now: now).isEmpty)
            // A record's open items are bounded: past the limit a new cause raises nothing.
            try await subject.execute(["""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(CareTriageItem.maximumOpenPerRecord))
                INSERT INTO triage_item (\(columns)) SELECT 'open' || i, '\(care.id)', 'open-' || i, 't', 'r', '{}', 'routine', 'new', 1,
                  '["e"]', '[]', 0, 0, 0, 1, NULL FROM n
                """])
            #expect(try await directory.raiseTriage([alert("one-too-many", ["x"])], record: care.id, now: now).isEmpty)
            #expect(try await directory.openTriageCounts(records: [care.id]).open == CareTriageItem.maximumOpenPerRecord + 3)
        },
        DirectoryCheck("messagesReachTheirAudienceOnlyAndCountWhatIsUnread") { subject in
            let directory = subject.directory
            let (lee, pat, cara, stranger) = (account("lee@example.org"), account("pat@example.org"), account("cara@example.org"),
                                              account("x@example.org"))
            for person in [lee, pat, cara, stranger] { try await directory.addAccount(person) }
            let care = record()
            try await directory.addRecord(care, member: CareMembership(record: care.id, account: pat.id, role: .patient, isOwner: true,
                                                                       createdDate: now))
            try await directory.setMembership(CareMembership(record: care.id, account: lee.id, role: .clinician, isOwner: false, createdDate: now))
            try await directory.setMembership(CareMembership(record: care.id, account: cara.id, role: .caregiver, isOwner: false, createdDate: now))
            // The patient asks; everyone of the record sees it, the stranger nothing.
            let asked = try await directory.startThread(CareThreadDraft(record: care.id, audience: .everyone, subject: " Dizzy ",
                                                                        body: "I feel dizzy after the new pill."), by: pat.id, now: now)
            #expect(asked.thread.subject == "Dizzy" && asked.thread.messageCount == 1 && asked.message.author == pat.id)
            for reader in [lee, pat, cara] {
                #expect(try await directory.threads(record: care.id, reader: reader.id, before: nil, limit: 10).map(\.thread.id) == [asked.thread.id])
            }
            #expect(try await directory.threads(record: care.id, reader: stranger.id, before: nil, limit: 10).isEmpty)
            #expect(try await directory.thread(asked.thread.id, reader: stranger.id) == nil)
            await #expect(throws: CareDirectoryError.noSuchThread) {
                try await directory.postMessage(thread: asked.thread.id, body: "hello", by: stranger.id, now: now)
            }
            await #expect(throws: CareDirectoryError.self) {
                try await directory.startThread(CareThreadDraft(record: care.id, audience: .everyone, subject: "x", body: "x"), by: stranger.id, now: now)
            }
            // Unread per person: not one's own messages; read once, then nothing new to read.
            #expect(try await directory.unreadMessageCounts(account: lee.id, records: [care.id]) == [care.id: 1])
            #expect(try await directory.unreadMessageCounts(account: pat.id, records: [care.id]).isEmpty)
            #expect(try await directory.unreadMessageCounts(account: stranger.id, records: [care.id]).isEmpty)
            let later = now.addingTimeInterval(240)
            #expect(try await directory.markThreadRead(asked.thread.id, reader: lee.id, through: nil, now: later))
            #expect(try await !directory.markThreadRead(asked.thread.id, reader: lee.id, through: nil, now: later))
            #expect(try await directory.unreadMessageCounts(account: lee.id, records: [care.id]).isEmpty)
            let reads = try await directory.threadReads(asked.thread.id, reader: pat.id)
            #expect(Set(reads.map(\.account)) == [pat.id, lee.id])
            #expect(reads.first { $0.account == lee.id }?.readDate == later)
            // The reply: the patient and the caregiver each have one to read.
            let reply = try await directory.postMessage(thread: asked.thread.id, body: "Sit down; I will call you.", by: lee.id, now: later)
            #expect(reply.thread.messageCount == 2 && reply.thread.lastMessageDate == later)
            #expect(try await directory.unreadMessageCounts(account: pat.id, records: [care.id]) == [care.id: 1])
            #expect(try await directory.threads(record: care.id, reader: cara.id, before: nil, limit: 10).first?.unread == 2)

            // A team note: clinicians only, whoever asks and however.
            let note = try await directory.startThread(CareThreadDraft(record: care.id, audience: .careTeam, subject: "Dose",
                                                                       body: "Consider halving the dose."), by: lee.id,
                                                      now: later.addingTimeInterval(1))
            for reader in [pat, cara] {
                #expect(try await directory.threads(record: care.id, reader: reader.id, before: nil, limit: 10).map(\.thread.id) == [asked.thread.id])
                #expect(try await directory.thread(note.thread.id, reader: reader.id) == nil)
                await #expect(throws: CareDirectoryError.noSuchThread) {
                    try await directory.threadMessages(note.thread.id, reader: reader.id, before: nil, limit: 10)
                }
                await #expect(throws: CareDirectoryError.noSuchThread) {
                    try await directory.postMessage(thread: note.thread.id, body: "May I?", by: reader.id, now: later)
                }
                await #expect(throws: CareDirectoryError.noSuchThread) { try await directory.markThreadRead(note.thread.id, reader: reader.id, through: nil, now: later) }
                await #expect(throws: CareDirectoryError.self) {
                    try await directory.startThread(CareThreadDraft(record: care.id, audience: .careTeam, subject: "x", body: "x"), by: reader.id, now: later)
                }
            }
            #expect(try await directory.unreadMessageCounts(account: pat.id, records: [care.id]) == [care.id: 1], "the note is not counted")
            #expect(try await directory.threads(record: care.id, reader: lee.id, before: nil, limit: 10).map(\.thread.id) == [note.thread.id, asked.thread.id])

            // Bounds: length, NUL, subject, and each person's pace.
            for body in ["   ", String(repeating: "a", count: CareMessage.maximumBodyLength + 1), "a\u{0}b"] {
                await #expect(throws: CareDirectoryError.messageLength) {
                    try await directory.postMessage(thread: asked.thread.id, body: body, by: pat.id, now: later)
                }
            }
            await #expect(throws: CareDirectoryError.subjectLength) {
                try await directory.startThread(CareThreadDraft(record: care.id, audience: .everyone,
                                                                subject: String(repeating: "s", count: CareThread.maximumSubjectLength + 1), body: "x"),
                                                by: pat.id, now: later)
            }
            let burst = later.addingTimeInterval(600)
            for index in 0..<CareMessage.maximumPerMinutePerPerson {
                _ = try await directory.postMessage(thread: asked.thread.id, body: "message \(index)", by: cara.id, now: burst)
            }
            await #expect(throws: CareDirectoryError.tooManyMessages) {
                try await directory.postMessage(thread: asked.thread.id, body: "one too many", by: cara.id, now: burst.addingTimeInterval(30))
            }
            _ = try await directory.postMessage(thread: asked.thread.id, body: "a minute on", by: cara.id, now: burst.addingTimeInterval(61))
            // Paged from the newest, oldest first within a page, without gaps.
            let newest = try await directory.threadMessages(asked.thread.id, reader: pat.id, before: nil, limit: 5)
            #expect(newest.count == 5 && newest.last?.body == "a minute on")
            let earlier = try await directory.threadMessages(asked.thread.id, reader: pat.id, before: newest.first?.id, limit: 100)
            #expect(earlier.count == 13 - 5 && earlier.first?.body == "I feel dizzy after the new pill.")
            #expect(Set((earlier + newest).map(\.id)).count == 13)

            // A reply to a triage item goes into its thread, made with the first reply.
            let alert = CareTriageAlert(cause: "check-in/pain", taskID: "check-in", taskTitle: nil, ruleID: "pain", rule: "{}", priority: .urgent,
                                        observed: 9, evidence: ["o"], outcomeIDs: ["o"], latest: now)
            let item = try #require(try await directory.raiseTriage([alert], record: care.id, now: now).raised.first)
            let first = try await directory.startThread(CareThreadDraft(record: care.id, audience: .everyone, subject: "Pain 9", triageItem: item.id,
                                                                        body: "How is the pain now?"), by: lee.id, now: burst)
            let second = try await directory.startThread(CareThreadDraft(record: care.id, audience: .everyone, subject: "Pain 9", triageItem: item.id,
                                                                         body: "Still there?"), by: lee.id, now: burst)
            #expect(first.thread.id == second.thread.id && second.thread.messageCount == 2 && first.thread.triageItem == item.id)
            await #expect(throws: CareDirectoryError.self) {
                try await directory.startThread(CareThreadDraft(record: care.id, audience: .everyone, subject: "x", triageItem: .random(), body: "x"),
                                                by: lee.id, now: burst)
            }
            // Someone who leaves the record reads nothing more of it, and is not said to have seen anything.
            try await directory.removeMembership(record: care.id, account: cara.id)
            #expect(try await directory.threads(record: care.id, reader: cara.id, before: nil, limit: 10).isEmpty)
            #expect(try await !directory.threadReads(asked.thread.id, reader: pat.id).contains { $0.account == cara.id })
        },
        DirectoryCheck("aRecordsThreadsAreBounded") { subject in
            let directory = subject.directory
            let pat = account("pat@example.org")
            try await directory.addAccount(pat)
            let care = record()
            try await directory.addRecord(care, member: CareMembership(record: care.id, account: pat.id, role: .patient, isOwner: true,
                                                                       createdDate: now))
            try await subject.execute(["""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(CareThread.maximumPerRecord))
                INSERT INTO thread (id, record, audience, subject, started_date, last_message_date, message_count)
                SELECT 'thread' || i, '\(care.id)', 'everyone', 'Subject', i, i, 0 FROM n
                """])
            await #expect(throws: CareDirectoryError.tooManyThreads) {
                try await directory.startThread(CareThreadDraft(record: care.id, audience: .everyone, subject: "One more", body: "x"), by: pat.id, now: now)
            }
            // The list pages through all of them, and older threads still take replies.
            var listed: [CareThreadListing] = []
            var before: RandomIdentifier?
            repeat {
                let page = try await directory.threads(record: care.id, reader: pat.id, before: before, limit: 300)
                listed += page
                before = page.count == 300 ? page.last?.thread.id : nil
            } while before != nil
            #expect(Set(listed.map(\.thread.id)).count == CareThread.maximumPerRecord)
            let oldest = try #require(listed.last?.thread)
            #expect(oldest.lastMessageDate == Date(timeIntervalSince1970: 1))
            _ = try await directory.postMessage(thread: oldest.id, body: "Still here", by: pat.id, now: now)
            // A record's messages are bounded too.
            try await subject.execute(["""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(CareMessage.maximumPerRecord))
                INSERT INTO message (id, thread, record, author, position, body, sent_date)
                SELECT 'm' || i, 'thread2', '\(care.id)', NULL, i, 'old', i FROM n
                """, "UPDATE thread SET message_count = \(CareMessage.maximumPerRecord) WHERE id = 'thread2'"])
            await #expect(throws: CareDirectoryError.recordFullOfMessages) {
                try await directory.postMessage(thread: oldest.id, body: "And more", by: pat.id, now: now)
            }
        },
        DirectoryCheck("theFirstSharedValueKeptIsEveryonesValue") { subject in
            let directory = subject.directory
            #expect(try await directory.sharedValue(named: "key", orKeep: "first", now: now) == "first")
            #expect(try await directory.sharedValue(named: "key", orKeep: "second", now: now) == "first")
            #expect(try await directory.sharedValue(named: "other", orKeep: "second", now: now) == "second")
            // Servers starting together: every one gets the same value.
            let values = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<8 { group.addTask { try await directory.sharedValue(named: "race", orKeep: "v\(index)", now: now) } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(values.count == 1)
        },
        DirectoryCheck("sessionsExpireAndEndTogether") { subject in
            let directory = subject.directory
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
        },
        DirectoryCheck("surveySessionsAreOnePerEventCloseOnceAndStayBounded") { subject in
            let directory = subject.directory
            let ana = account("ana@example.org")
            try await directory.addAccount(ana)
            let care = record(), other = record()
            try await directory.addRecord(care, member: nil)
            try await directory.addRecord(other, member: nil)
            let hour = now.addingTimeInterval(3600)
            func session(_ id: String, owner: String = "owner", event: String = "task/0", in record: CareRecord? = nil,
                         expiry: Date? = nil) -> CareSurveySession {
                CareSurveySession(id: id, record: (record ?? care).id, ownerHash: owner, event: event, value: Data(id.utf8),
                                  expiryDate: expiry ?? hour)
            }
            // A browser's second start of the same event continues its open session.
            #expect(try await directory.openSurveySession(session("s1"), now: now, perOwner: 2, perRecord: 4).id == "s1")
            #expect(try await directory.openSurveySession(session("s2"), now: now, perOwner: 2, perRecord: 4).id == "s1")
            #expect(try await directory.openSurveySession(session("s3", owner: "someone else"), now: now, perOwner: 2, perRecord: 4).id == "s3")
            #expect(try await directory.surveySession(id: "s1", record: care.id, now: now)?.value == Data("s1".utf8))
            // Not through another record, and not once expired.
            #expect(try await directory.surveySession(id: "s1", record: other.id, now: now) == nil)
            #expect(try await directory.surveySession(id: "s1", record: care.id, now: hour) == nil)

            // Starts racing for one browser and event all continue one session.
            let raced = try await withThrowingTaskGroup(of: String.self) { group in
                for start in 0..<8 {
                    group.addTask {
                        try await directory.openSurveySession(session("race\(start)", event: "task/9"), now: now, perOwner: 8, perRecord: 16).id
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(raced.count == 1)
            #expect(try await directory.setSurveySession(id: raced.first!, record: care.id, from: .open, to: .cancelled, value: Data(),
                                                         expiryDate: hour))

            // An open session keeps its new value; so does one being saved; closing it happens once and forgets the value.
            #expect(try await directory.setSurveySession(id: "s1", record: care.id, from: .open, to: .open, value: Data("step 2".utf8),
                                                         expiryDate: hour))
            #expect(try await directory.surveySession(id: "s1", record: care.id, now: now)?.value == Data("step 2".utf8))
            #expect(try await directory.setSurveySession(id: "s1", record: care.id, from: .open, to: .saving, value: Data("answers".utf8),
                                                         expiryDate: hour))
            let saving = try await directory.surveySession(id: "s1", record: care.id, now: now)
            #expect(saving?.status == .saving && saving?.value == Data("answers".utf8))
            // Starting again finds the session being saved.
            #expect(try await directory.openSurveySession(session("s1b"), now: now, perOwner: 2, perRecord: 4).id == "s1")
            #expect(try await directory.setSurveySession(id: "s1", record: care.id, from: .saving, to: .open, value: Data("step 2".utf8),
                                                         expiryDate: hour))
            #expect(try await !directory.setSurveySession(id: "s1", record: other.id, from: .open, to: .finished, value: Data(), expiryDate: hour))
            #expect(try await directory.setSurveySession(id: "s1", record: care.id, from: .open, to: .finished, value: Data("x".utf8),
                                                         expiryDate: hour))
            #expect(try await !directory.setSurveySession(id: "s1", record: care.id, from: .open, to: .finished, value: Data(), expiryDate: hour))
            let closed = try await directory.surveySession(id: "s1", record: care.id, now: now)
            #expect(closed?.status == .finished && closed?.value.isEmpty == true)
            // Closed, it no longer stands in the way of a new start for the event.
            #expect(try await directory.openSurveySession(session("s4"), now: now, perOwner: 2, perRecord: 4).id == "s4")

            // A browser keeps at most `perOwner` open; the record at most `perRecord` of any kind, the least recently used
            // going first.
            _ = try await directory.openSurveySession(session("s5", event: "task/1", expiry: hour.addingTimeInterval(1)), now: now,
                                                      perOwner: 2, perRecord: 9)
            #expect(try await directory.surveySession(id: "s4", record: care.id, now: now) != nil)
            _ = try await directory.openSurveySession(session("s7", event: "task/2", expiry: hour.addingTimeInterval(0.5)), now: now,
                                                      perOwner: 2, perRecord: 9)
            #expect(try await directory.surveySession(id: "s4", record: care.id, now: now) == nil)
            #expect(try await directory.surveySession(id: "s5", record: care.id, now: now)?.status == .open)
            _ = try await directory.openSurveySession(session("s6", owner: "third", expiry: hour.addingTimeInterval(2)), now: now,
                                                      perOwner: 2, perRecord: 3)
            var left: [String] = []
            for id in ["s1", "s3", "s5", "s6", "s7"] where try await directory.surveySession(id: id, record: care.id, now: now) != nil {
                left.append(id)
            }
            #expect(left == ["s5", "s6", "s7"])
            // Another record's sessions are its own.
            _ = try await directory.openSurveySession(session("o1", in: other), now: now, perOwner: 2, perRecord: 1)
            #expect(try await directory.surveySession(id: "s5", record: care.id, now: now) != nil)

            // Expired ones are forgotten, open or closed.
            try await directory.removeExpiredSessions(now: hour.addingTimeInterval(1.5))
            #expect(try await directory.surveySession(id: "s6", record: care.id, now: now) != nil)
            #expect(try await directory.surveySession(id: "s5", record: care.id, now: now) == nil)
            #expect(try await directory.surveySession(id: "s7", record: care.id, now: now) == nil)
            #expect(try await directory.surveySession(id: "o1", record: other.id, now: now) == nil)
        },
        DirectoryCheck("tokensAreRevokedOnlyByTheirOwner") { subject in
            let directory = subject.directory
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
        },
        DirectoryCheck("theAuditLogIsAChainThatRefusesChanges") { subject in
            let directory = try await filledAuditLog(subject.directory)
            let verification = try await directory.verifyAuditLog()
            #expect(verification.isIntact)
            #expect(verification.entries == 6)
            let entries = try await directory.auditEntries(after: 0, limit: 100)
            #expect(entries.map(\.sequence) == Array(1...6))
            #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.hash == $1.previousHash })
            #expect(verification.headHash == entries.last?.hash)
            // The file itself refuses an update or a delete.
            await #expect(throws: (any Error).self) {
                try await subject.execute(["UPDATE audit_entry SET address = 'x' WHERE sequence = 2"])
            }
            await #expect(throws: (any Error).self) {
                try await subject.execute(["DELETE FROM audit_entry WHERE sequence = 2"])
            }
            #expect(try await directory.verifyAuditLog().isIntact)
            // Appends racing each other make one chain, and every field is in each hash whatever its characters.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await directory.appendAudit((0..<2).map { part in
                            AuditEntry.Draft(recorded: now.addingTimeInterval(Double(index) + 0.0005), account: .random(), token: .random(),
                                             record: .random(), resource: "care-page", action: .read, outcome: .denied,
                                             address: "::1", detail: "GET 한국어 é \u{1F9B5} \"\\ \(index).\(part)")
                        })
                    }
                }
                try await group.waitForAll()
            }
            let raced = try await directory.verifyAuditLog()
            #expect(raced.isIntact && raced.entries == 22)
            let appended = try await directory.auditEntries(after: 6, limit: 100)
            #expect(appended.map(\.sequence) == Array(7...22) && appended.allSatisfy { $0.hash == $0.expectedHash })
            #expect(Set(appended.map(\.draft.detail)).count == 16 && appended.allSatisfy { $0.draft.token != nil })
        },
        DirectoryCheck("verificationDetectsAnEditedEntry") { subject in
            let edited = try await tampered(subject, "UPDATE audit_entry SET outcome = 'allowed' WHERE sequence = 6")
            #expect(edited.problem == "entry 6 was changed after it was written")
            let rehashed = try await tampered(subject, "UPDATE audit_entry SET address = '10.9.9.9', hash = 'ff' WHERE sequence = 3")
            #expect(rehashed.problem == "entry 3 was changed after it was written")
        },
        DirectoryCheck("verificationDetectsADeletedEntry") { subject in
            let middle = try await tampered(subject, "DELETE FROM audit_entry WHERE sequence = 3")
            #expect(middle.problem == "entry 3 is missing (the next is 4)")
            let last = try await tampered(subject, "DELETE FROM audit_entry WHERE sequence = 6")
            #expect(last.problem == "entries 6 to 6 are missing from the end")
            let renumbered = try await tampered(subject, "DELETE FROM audit_entry WHERE sequence = 3",
                                                  "UPDATE audit_entry SET sequence = sequence - 1 WHERE sequence > 3")
            #expect(renumbered.problem == "entry 3 does not follow the entry before it (deleted or changed)")
        },
    ]
}
