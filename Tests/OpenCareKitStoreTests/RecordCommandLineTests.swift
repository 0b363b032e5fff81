import Foundation
import GRDB
import Testing

/// `opencarekit account`, `record` and `audit`: the data directory found as `serve` finds it, passwords only from
/// standard input, clear one-line errors, and tampering with the audit log detected.
@Suite(.serialized) struct RecordCommandLineTests {
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("ock-records-\(UUID().uuidString)").path

    func run(_ arguments: [String], input: String? = nil) throws -> CommandLineTests.Result {
        try CommandLineTests.run(arguments + ["--data", data], input: input)
    }

    @Test func accountsRecordsAndSharingFromTheCommandLine() throws {
        defer { try? FileManager.default.removeItem(atPath: data) }
        let added = try run(["account", "add", "ana@example.org", "--name", "Ana Kim"], input: "a long password\n")
        #expect(added.status == 0, "\(added.errors)")
        #expect(try run(["account", "add", "ana@example.org", "--name", "Ana"], input: "a long password\n").errors
            .contains("exists already"))
        #expect(try run(["account", "add", "ben@example.org", "--name", "Ben"], input: "short\n").errors.contains("at least 10 characters"))
        #expect(try run(["account", "add", "not-an-email", "--name", "X"], input: "a long password\n").status != 0)
        #expect(try run(["account", "add", "ben@example.org", "--name", "Ben Park"], input: "another long one\n").status == 0)

        let record = try run(["record", "add", "--patient-name", "Ana Kim", "--owner", "ana@example.org", "--demo-plan", "--zone", "Asia/Seoul"])
        #expect(record.status == 0, "\(record.errors)")
        let id = record.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(id.count == 26)
        #expect(FileManager.default.fileExists(atPath: data + "/records/\(id).sqlite"))
        #expect(try run(["record", "add", "--patient-name", "X", "--owner", "nobody@example.org"]).errors.contains("no account"))

        let shared = try run(["record", "share", id, "--email", "ben@example.org", "--role", "clinician"])
        #expect(shared.status == 0 && shared.output.contains("clinician"))
        #expect(try run(["record", "share", id, "--email", "ben@example.org", "--role", "doctor"]).status != 0)
        #expect(try run(["record", "share", "00000000000000000000000000", "--email", "ben@example.org", "--role", "caregiver"])
            .errors.contains("no such record"))

        let list = try run(["record", "list"])
        #expect(list.output.contains(id) && list.output.contains("ana@example.org (patient, owner)")
                && list.output.contains("ben@example.org (clinician)") && list.output.contains("Asia/Seoul"))
        #expect(try run(["store", "events", "--record", id, "--date", "2026-11-24"]).status == 0)
        #expect(try run(["store", "seed-demo", "--record", id]).errors.contains("already has data"))

        // Every command that touched the directory or a record is in the audit log, as the command line's (no
        // account), chained with the rest; refused commands changed nothing, so they left no entry.
        let directory = try DatabaseQueue(path: data + "/directory.sqlite")
        let (ana, ben) = try directory.read { db in
            (try String.fetchOne(db, sql: "SELECT id FROM account WHERE email = 'ana@example.org'") ?? "",
             try String.fetchOne(db, sql: "SELECT id FROM account WHERE email = 'ben@example.org'") ?? "")
        }
        let entries = try directory.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM audit_entry ORDER BY sequence").map { row in
                [row["resource"], row["action"], row["record"] ?? "-", row["detail"]] as [String]
                    + [(row["account"] as String?) == nil && (row["address"] as String).hasPrefix("command line, user ") ? "cli" : "?"]
            }
        }
        #expect(entries == [
            ["account", "C", "-", "opencarekit account add (account \(ana))", "cli"],
            ["account", "C", "-", "opencarekit account add (account \(ben))", "cli"],
            ["record", "C", id, "opencarekit record add", "cli"],
            ["membership", "C", id, "opencarekit record share (account \(ben))", "cli"],
            ["record", "R", "-", "opencarekit record list", "cli"],
            ["store", "R", id, "opencarekit store events", "cli"],
        ])
        #expect(try run(["audit", "verify"]).output.contains("intact: 6 entries"))
    }

    @Test func aCheckpointKeptOutsideFindsAChainRewrittenWhole() async throws {
        defer { try? FileManager.default.removeItem(atPath: data) }
        for email in ["ana@example.org", "ben@example.org"] {
            #expect(try run(["account", "add", email, "--name", "A"], input: "a long password\n").status == 0)
        }
        let checkpoint = try run(["audit", "checkpoint"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(checkpoint.hasPrefix("2 ") && checkpoint.count == 2 + 64, "\(checkpoint)")
        #expect(try run(["audit", "verify", "--against", checkpoint]).output.contains("holds checkpoint 2"))
        // Whoever can write the file rewrites the whole chain, every hash consistent: verify alone says intact.
        let queue = try DatabaseQueue(path: data + "/directory.sqlite")
        try await queue.write { db in
            try db.execute(sql: "DROP TRIGGER audit_entry_is_append_only_update")
            try db.execute(sql: "DROP TRIGGER audit_entry_is_append_only_delete")
            try db.execute(sql: "DELETE FROM audit_entry")
            try db.execute(sql: "DELETE FROM audit_head")
        }
        #expect(try run(["account", "add", "carl@example.org", "--name", "C"], input: "a long password\n").status == 0)
        #expect(try run(["audit", "verify"]).status == 0)
        // The checkpoint, kept elsewhere (here in a file of checkpoints, the last line read), finds it.
        let file = data + "/../checkpoints-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try ("1 " + String(repeating: "0", count: 64) + "\n" + checkpoint + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let short = try run(["audit", "verify", "--against", file])
        #expect(short.status == 1 && short.errors.contains("ends before the checkpoint's entry 2"), "\(short.errors)")
        #expect(try run(["account", "add", "dan@example.org", "--name", "D"], input: "a long password\n").status == 0)
        let rewritten = try run(["audit", "verify", "--against", checkpoint])
        #expect(rewritten.status == 1 && rewritten.errors.contains("entry 2 is not the one the checkpoint noted"), "\(rewritten.errors)")
        #expect(try run(["audit", "verify", "--against", "2 nothex"]).errors.contains("--against"))
    }

    @Test func auditVerifyFailsOnATamperedLog() async throws {
        defer { try? FileManager.default.removeItem(atPath: data) }
        #expect(try run(["audit", "verify"]).output.contains("intact: 0 entries"))
        // A few entries, written as the server writes them.
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: data + "/directory.sqlite")
        _ = try run(["audit", "verify"])  // creates the directory's tables
        try await queue.write { db in
            var previous = String(repeating: "0", count: 64)
            for sequence in 1...3 {
                // Hashes that cannot match: verification must say which entry is wrong, not crash.
                let hash = String(repeating: String(sequence), count: 64)
                try db.execute(sql: """
                    INSERT INTO audit_entry (sequence, recorded, resource, action, outcome, address, detail, previous_hash, hash)
                    VALUES (?, 0, 'care-page', 'R', 'allowed', '127.0.0.1', 'GET /records/{record}/care', ?, ?)
                    """, arguments: [sequence, previous, hash])
                previous = hash
            }
        }
        let result = try run(["audit", "verify"])
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("opencarekit: the audit log was tampered with: entry 1 was changed"))
    }
}
