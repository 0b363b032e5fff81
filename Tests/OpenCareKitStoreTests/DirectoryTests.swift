import Foundation
import OpenCareKitDirectory
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

    @Test func secureRandomGivesEveryByteAskedAndUnbiasedCharacters() {
        // Every byte asked is random, also past what one read of /dev/urandom may give at a time: a fill that left
        // some unset (zeros) would show few distinct values (300 random bytes have about 177).
        #expect(SecureRandom.bytes(0).isEmpty)
        for count in [300, 1000, 70_000] {
            let bytes = SecureRandom.bytes(count)
            #expect(bytes.count == count && Set(bytes.suffix(300)).count > 120)
        }
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
        // Every value of a byte turns up in 100,000 bytes (missing one would have probability about 256 · e^-390).
        var seen = Set<UInt8>()
        for _ in 0..<100 { seen.formUnion(SecureRandom.bytes(1000)) }
        #expect(seen.count == 256)
        // 200 characters: a byte taken modulo 200 without drawing again would make the first 56 twice as likely as the
        // rest; drawn again, the two groups' mean counts agree within 1% or so (28,000 and 72,000 draws).
        let alphabet = (0..<200).map { Character(UnicodeScalar(0x100 + $0)!) }
        let text = SecureRandom.characters(from: alphabet, count: 100_000)
        #expect(text.count == 100_000)
        var counts = [Character: Int]()
        for character in text { counts[character, default: 0] += 1 }
        #expect(Set(counts.keys).isSubset(of: Set(alphabet)))
        let first = Double(alphabet.prefix(56).map { counts[$0, default: 0] }.reduce(0, +)) / 56
        let rest = Double(alphabet.dropFirst(56).map { counts[$0, default: 0] }.reduce(0, +)) / 144
        #expect(abs(first / rest - 1) < 0.1, "first 56: \(first), the rest: \(rest)")
    }

    @Test func emailsAreNormalizedAndCheckedForForm() {
        #expect(CareAccount.normalizedEmail("  Ana@Example.ORG ") == "ana@example.org")
        for text in ["ana", "ana@", "@example.org", "ana@example", "a b@example.org", "ana@@example.org", "<a>@example.org",
                     String(repeating: "a", count: 250) + "@example.org"] {
            #expect(CareAccount.normalizedEmail(text) == nil, "\(text)")
        }
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

    @Test func answersOfAClosedSurveyAreNotLeftInTheFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "directory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "directory.sqlite").path
        let marker = "pain-answer-\(UUID().uuidString)"
        do {
            let directory = try SQLiteCareDirectory(path: path)
            let record = CareRecord(patientName: "Ana", timeZoneIdentifier: "UTC", createdDate: now)
            try await directory.addRecord(record, member: nil)
            let hour = now.addingTimeInterval(3600)
            let session = CareSurveySession(id: "s", record: record.id, ownerHash: "owner", event: "task/0", value: Data("\(marker) step 1".utf8),
                                            expiryDate: hour)
            _ = try await directory.openSurveySession(session, now: now, perOwner: 4, perRecord: 8)
            #expect(try await directory.setSurveySession(id: "s", record: record.id, from: .open, to: .open,
                                                         value: Data("\(marker) step 2".utf8), expiryDate: hour))
            #expect(try await directory.setSurveySession(id: "s", record: record.id, from: .open, to: .finished, value: Data(), expiryDate: hour))
        }
        // Closed (and the directory closed, its log checkpointed), the answers are in no page of the files.
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        for file in files {
            let bytes = try Data(contentsOf: folder.appending(path: file))
            #expect(bytes.firstRange(of: Data(marker.utf8)) == nil, "\(file) still holds the answers")
        }
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
