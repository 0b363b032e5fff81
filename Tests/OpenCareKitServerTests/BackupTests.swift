import Foundation
import OpenCareKit
import OpenCareKitDirectory
@testable import OpenCareKitServer
import OpenCareKitStore
import Synchronization
import Testing

/// Online backups of a data directory: taken while a store goes on writing, restored into an empty data directory
/// with every write acknowledged before the backup began; a damaged, cut-short or added-to backup is refused, and a
/// refused restore writes nothing.
@Suite struct BackupTests {
    struct Setup {
        let folder: URL
        let data: CareDataDirectory
        let written: CareRecord
        let unwritten: CareRecord
        let store: OCKStore
        let task: OCKTask
    }

    /// A data directory with two records: one whose store has a daily task, one never opened (no file).
    func setup() async throws -> Setup {
        let folder = FileManager.default.temporaryDirectory.appending(path: "ock-backup-\(UUID().uuidString)")
        let data = CareDataDirectory(path: folder.appending(path: "data").path)
        let directory = try data.openDirectory()
        let now = Date()
        let written = CareRecord(patientName: "Patient", timeZoneIdentifier: "UTC", createdDate: now)
        let unwritten = CareRecord(patientName: "Other", timeZoneIdentifier: "UTC", createdDate: now)
        try await directory.addRecord(written, member: nil)
        try await directory.addRecord(unwritten, member: nil)
        let store = try data.store(for: written)
        let task = try await store.addTask(OCKTask(id: "walk", title: "Walk", carePlanUUID: nil, schedule: .dailyAtTime(
            hour: 9, minutes: 0, start: Date(timeIntervalSince1970: 946_684_800), end: nil, text: nil)))
        return Setup(folder: folder, data: data, written: written, unwritten: unwritten, store: store, task: task)
    }

    @Test func aBackupDuringContinuousWritesRestoresEveryWriteAcknowledgedBeforeItBegan() async throws {
        let setup = try await setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        let acknowledged = Mutex<[Int]>([])
        let (progress, wrote) = AsyncStream<Int>.makeStream()
        let stop = Atomic<Bool>(false)
        // The writer: an outcome a day, each acknowledged (its call returned) before the next.
        let writer = Task { [store = setup.store, task = setup.task] in
            var occurrence = 0
            while !stop.load(ordering: .relaxed) {
                _ = try await store.addOutcome(OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: occurrence, values: [OCKOutcomeValue(Double(occurrence))]))
                acknowledged.withLock { $0.append(occurrence) }
                wrote.yield(occurrence)
                occurrence += 1
            }
            wrote.finish()
        }
        // Once 100 writes are acknowledged, the backup begins while the writer goes on.
        for await count in progress where count >= 99 { break }
        let before = Set(acknowledged.withLock { $0 })
        let backup = setup.folder.appending(path: "backup")
        let manifest = try DataBackup.backUp(setup.data, to: backup)
        let during = acknowledged.withLock { $0.count } - before.count
        stop.store(true, ordering: .relaxed)
        try await writer.value
        print("backup: \(before.count) writes acknowledged before it began, \(during) while it ran")

        #expect(manifest.records == 2)
        #expect(manifest.files.map(\.path) == ["directory.sqlite", "records/\(setup.written.id).sqlite"])
        #expect(try DataBackup.verify(backup) == manifest)

        let restored = CareDataDirectory(path: setup.folder.appending(path: "restored").path)
        #expect(try DataBackup.restore(from: backup, into: restored) == manifest)
        let directory = try restored.openDirectory()
        #expect(Set(try await directory.records(limit: 10, after: nil).map(\.id)) == [setup.written.id, setup.unwritten.id])
        let store = try restored.store(for: setup.written)
        #expect(try store.checkIntegrity() == ["ok"])
        let kept = Set(try await store.fetchOutcomes(query: OCKOutcomeQuery()).map(\.taskOccurrenceIndex))
        #expect(before.isSubset(of: kept), "lost: \(before.subtracting(kept).sorted().prefix(10))")
        // Nothing in the restore that was never written; each value is its own occurrence's.
        #expect(kept.isSubset(of: Set(acknowledged.withLock { $0 })))
        #expect(try await store.fetchOutcomes(query: OCKOutcomeQuery()).allSatisfy { $0.values.first?.doubleValue == Double($0.taskOccurrenceIndex) })
        // The restored files are private to the server's user.
        let mode = try FileManager.default.attributesOfItem(atPath: restored.url.appending(path: "directory.sqlite").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aDamagedCutShortOrAddedToBackupIsRefusedAndARefusedRestoreWritesNothing() async throws {
        let setup = try await setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        _ = try await setup.store.addOutcome(OCKOutcome(taskUUID: setup.task.uuid, taskOccurrenceIndex: 0, values: [OCKOutcomeValue(true)]))
        let backup = setup.folder.appending(path: "backup")
        _ = try DataBackup.backUp(setup.data, to: backup)
        let target = CareDataDirectory(path: setup.folder.appending(path: "target").path)
        func refusal(_ change: (URL) throws -> Void) throws -> String {
            let copy = setup.folder.appending(path: "copy-\(UUID().uuidString)")
            try FileManager.default.copyItem(at: backup, to: copy)
            try change(copy)
            do {
                _ = try DataBackup.restore(from: copy, into: target)
                return "restored"
            } catch let error as BackupError {
                #expect(!FileManager.default.fileExists(atPath: target.url.path), "a refused restore wrote \(target.url.path)")
                return error.description
            }
        }
        let store = "records/\(setup.written.id).sqlite"
        // One byte changed in a store.
        #expect(try refusal { copy in
            let file = copy.appending(path: store)
            var bytes = try Data(contentsOf: file)
            bytes[bytes.count / 2] ^= 0x5a
            try bytes.write(to: file)
        } == "\(store): damaged (its checksum is not the manifest's)")
        #expect(try refusal { try FileManager.default.removeItem(at: $0.appending(path: store)) } == "\(store): missing from the backup")
        #expect(try refusal { try FileManager.default.removeItem(at: $0.appending(path: "manifest.json")) }.contains("has no manifest.json"))
        #expect(try refusal { try Data("{}".utf8).write(to: $0.appending(path: "manifest.json")) } == "manifest.json: damaged, or not an OpenCareKit backup's")
        #expect(try refusal { try Data("x".utf8).write(to: $0.appending(path: "records/extra.sqlite")) } == "records/extra.sqlite: not in the manifest (a file added to the backup)")
        // A manifest whose checksums match a file that is not a sound database.
        #expect(try refusal { copy in
            let file = copy.appending(path: store)
            try Data(repeating: 7, count: 4096).write(to: file)
            let manifestURL = copy.appending(path: "manifest.json")
            var text = try String(contentsOf: manifestURL, encoding: .utf8)
            let entry = try #require(try DataBackup.verifyEntry(text, store))
            let (bytes, digest) = try DataBackup.sha256(of: file)
            text = text.replacingOccurrences(of: entry.sha256, with: digest).replacingOccurrences(of: "\"bytes\" : \(entry.bytes)", with: "\"bytes\" : \(bytes)")
            try Data(text.utf8).write(to: manifestURL)
        }.hasPrefix("\(store): fails SQLite's integrity check"))

        // A data directory in use, or a backup folder in use, is never written over.
        #expect(throws: BackupError.self) { try DataBackup.restore(from: backup, into: setup.data) }
        #expect(throws: BackupError.self) { try DataBackup.backUp(setup.data, to: backup) }
        // The untouched backup restores.
        #expect(try DataBackup.restore(from: backup, into: target).records == 2)
    }
}

extension DataBackup {
    /// The manifest's entry for `path` (tests edit manifests by hand).
    static func verifyEntry(_ manifest: String, _ path: String) throws -> BackupManifest.File? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(BackupManifest.self, from: Data(manifest.utf8)).files.first { $0.path == path }
    }
}
