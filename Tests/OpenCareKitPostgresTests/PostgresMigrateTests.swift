import Foundation
import OpenCareKitDirectory
import OpenCareKitPostgresTesting
import Logging
import PostgresNIO
import OpenCareKitCommandTesting
@testable import OpenCareKitPostgres
import OpenCareKitServer
import OpenCareKitStore
import Synchronization
import Testing

/// `opencarekit migrate` and `CareDataImport`: a data directory moves into PostgreSQL whole, is checked, is never
/// copied over a record that differs, and a second run after an interruption finishes the copy without duplicates.
@Suite struct PostgresMigrateTests {
    @Test func aDataDirectoryMovesIntoPostgreSQLAsItIsAndASecondRunCopiesNothingAgain() async throws {
        let source = try await SourceData(clinicSize: 2)
        defer { source.remove() }
        // Alex's store has synchronized once: the knowledge of its versions moves too (its clock does not: the copy
        // is a new process).
        let alexStore = try source.data.store(for: source.alexRecord)
        _ = try await alexStore.revisions(since: .init())
        let database = try await PostgresTestDatabase()
        // Seven rows at a time: many transactions, and keys of two columns continued across them.
        let first = try AppServer.run(["migrate", "--from", source.url.path, "--to", database.url, "--rows-per-transaction", "7"])
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output.components(separatedBy: "copied and checked").count - 1 == source.records.count, "\(first.output)")
        #expect(first.output.contains("Accounts: \(source.accountCount) copied, 0 already there."))
        #expect(first.output.contains("Audit log: \(source.auditEntryCount) entries copied"))
        #expect(first.output.contains("  outcome_values: 7 rows") && first.output.contains("  outcome_values: 14 rows"))
        for name in ["Alex", "Rivera", "Okafor", "ibuprofen"] { #expect(!first.output.contains(name), "\(name)") }

        // Every record reads the same through the store's API: versions, tombstones, every kind of value.
        let directory = database.records.directory()
        for record in source.records {
            let here = try source.data.openReadingStore(for: record), there = database.records.store(for: record)
            #expect(try await Snapshot(here) == Snapshot(there))
            #expect(try await directory.record(record.id) == record)
            #expect(try await directory.invitations(of: record.id) == source.directory.invitations(of: record.id))
        }
        let alex = try await Snapshot(database.records.store(for: source.alexRecord))
        #expect(alex.outcomes.contains { $0.values.count == 6 && $0.tags == ["b", "a"] && $0.notes?.first?.content == "Taken with food" })
        #expect(alex.tasks.contains { $0.instructions == "Changed after the first version" })
        #expect(alex.healthKitTasks.map(\.healthKitLinkage.unitString).sorted() == ["count", "km"])
        // The directory: accounts with their password hashes, memberships, tokens, and the audit chain as it was.
        for email in source.emails {
            let account = try #require(try await source.directory.account(email: email))
            #expect(try await directory.account(email: email) == account)
            #expect(try await directory.memberships(of: account.id).map(\.membership)
                    == source.directory.memberships(of: account.id).map(\.membership))
            #expect(try await directory.accessTokens(of: account.id) == source.directory.accessTokens(of: account.id))
            #expect(try await directory.pushSubscriptions(of: account.id) == source.directory.pushSubscriptions(of: account.id))
        }
        // Reminder settings come with their record, push subscriptions with their account.
        let alexAccount = try #require(try await source.directory.account(email: DemoPeople.patientEmail))
        let reminders = try await directory.reminderSettings(record: source.alexRecord.id, account: alexAccount.id)
        let sourceReminders = try await source.directory.reminderSettings(record: source.alexRecord.id, account: alexAccount.id)
        #expect(reminders != nil && reminders == sourceReminders)
        // Messages, and how far each person read them.
        let threads = try await directory.threads(record: source.alexRecord.id, reader: alexAccount.id, before: nil, limit: 10)
        let sourceThreads = try await source.directory.threads(record: source.alexRecord.id, reader: alexAccount.id, before: nil, limit: 10)
        #expect(threads.count == 2 && threads == sourceThreads, "the demo's and the test's")
        let thread = try #require(threads.first { $0.thread.subject == "Dose" }?.thread.id)
        #expect(try await directory.threadMessages(thread, reader: alexAccount.id, before: nil, limit: 10).map(\.body) == ["Is it with food? ☃", "Yes."])
        #expect(try await directory.threadReads(thread, reader: alexAccount.id) == source.directory.threadReads(thread, reader: alexAccount.id))
        #expect(try await directory.pushSubscriptions(of: alexAccount.id).map(\.endpoint) == ["https://push.example.net/alex"])
        #expect(try await directory.sharedValue(named: "web-push-key", orKeep: "another", now: Date()) == "the source's key")
        let audit = try await directory.verifyAuditLog(), sourceAudit = try await source.directory.verifyAuditLog()
        #expect(audit.problem == nil && audit.entries == sourceAudit.entries && audit.headHash == sourceAudit.headHash)

        // Again: nothing is copied twice, and every record is found the same.
        let second = try AppServer.run(["migrate", "--from", source.url.path, "--to", database.url])
        #expect(second.status == 0, "\(second.errors)")
        #expect(second.output.contains("Done: 0 records copied, \(source.records.count) already there, 0 refused."), "\(second.output)")
        #expect(second.output.contains("Accounts: 0 copied, \(source.accountCount) already there."))
        #expect(second.output.contains("Audit log: 0 entries copied, \(source.auditEntryCount) already there."))
        #expect(try await directory.verifyAuditLog().entries == sourceAudit.entries)
        // Synchronizing from either side gives the same revisions, the copy as a process of its own.
        let movedStore = database.records.store(for: source.alexRecord)
        let original = try await alexStore.knowledgeVector(), moved = try await movedStore.knowledgeVector()
        #expect(moved.processes.count == 1 && Set(moved.uuids).isDisjoint(with: original.uuids))
        let here = try await alexStore.revisions(since: .init()), there = try await movedStore.revisions(since: .init())
        #expect(!here.revisions.isEmpty && here.revisions == there.revisions)
        #expect(here.revisions.flatMap(\.entities).contains { entity in
            if case let .outcome(outcome) = entity { !outcome.values.isEmpty } else { false }
        })

        // A server on the database opens the moved record for its patient.
        let server = try await AppServer.start(["--database", database.url, "--demo", "--demo-patients", "0"], browser: TestBrowser())
        defer { server.stop() }
        #expect(!server.output.contains("Added the demo people"))
        let care = try await server.signInAsDemoPatient()
        #expect(care.hasSuffix("/records/\(source.alexRecord.id)/care"))
        #expect(try await server.get(try #require(URL(string: care)?.path)).status == 200)
    }

    /// What the copy reads and writes is every column of both schemas (a column added to one schema and not to
    /// `StoredTable` would otherwise be left behind).
    @Test func theCopiedColumnsAreEveryColumnOfBothSchemas() async throws {
        let source = try await SourceData(clinicSize: 0)
        defer { source.remove() }
        let database = try await PostgresTestDatabase()
        let store = try source.data.openReadingStore(for: source.alexRecord)
        for table in StoredTable.store + StoredTable.directory {
            let sql = "SELECT name FROM pragma_table_info('\(table.name)')"
            let sqlite = StoredTable.store.contains { $0.name == table.name }
                ? try await store.engine.read { db in try await db.rows(sql) { try $0.string("name") } }
                : try await source.directory.runner.read { db in try await db.rows(sql) { try $0.string("name") } }
            #expect(Set(sqlite) == Set(table.columns), "\(table.name)")
            let postgres = try await database.records.directory().runner.read { db in
                try await db.rows("""
                    SELECT column_name FROM information_schema.columns WHERE table_schema = 'opencarekit' AND table_name = ?
                    """, [table.name]) { try $0.string("column_name") }
            }
            #expect(Set(postgres).subtracting(["record_id"]) == Set(table.columns), "\(table.name)")
        }
    }

    @Test func anInterruptedCopyIsFinishedByTheNextRunWithoutDuplicates() async throws {
        let source = try await SourceData(clinicSize: 2)
        defer { source.remove() }
        let database = try await PostgresTestDatabase()
        let copy = CareDataImport(directory: source.directory, stores: source.data, into: database.records, rowsPerTransaction: 25)
        struct Interruption: Error {}
        // Stopped in the middle of the outcomes of a record after the first (a clinic patient's: Alex's has few).
        let current = Mutex<CareRecordID?>(nil)
        let started = Mutex(0)
        await #expect(throws: Interruption.self) {
            try await copy.run { progress in
                switch progress {
                case let .recordStarted(id, _, _):
                    current.withLock { $0 = id }
                    started.withLock { $0 += 1 }
                case let .rowsCopied(_, "outcomes", rows) where started.withLock({ $0 }) >= 2 && rows >= 50:
                    throw Interruption()
                default: break
                }
            }
        }
        let interrupted = try #require(current.withLock { $0 })
        let done = started.withLock { $0 } - 1
        let directory = database.records.directory()
        // Its rows are partly there, but not the record: no server sees a half-copied record.
        let partial = try await database.records.transactions.run(.read(record: interrupted.description)) { db in
            try await db.scalar("SELECT count(*) FROM outcomes").int ?? 0
        }
        #expect(partial >= 50)
        #expect(try await directory.record(interrupted) == nil)
        #expect(try await directory.recordCount() == done)

        let summary = try await copy.run()
        #expect(summary.refused.isEmpty)
        #expect(summary.alreadyThere.count == done && summary.copied.count == source.records.count - done)
        #expect(summary.copied.contains { $0.record == interrupted })
        #expect(summary.accountsCopied == 0 && summary.accountsAlreadyThere == source.accountCount)
        for record in source.records {
            let here = try source.data.openReadingStore(for: record), there = database.records.store(for: record)
            #expect(try await Snapshot(here) == Snapshot(there))
        }
        // Every outcome once: the checksums of a third run are the copies', with the same row counts.
        let third = try await copy.run()
        #expect(third.copied.isEmpty && third.alreadyThere.count == source.records.count)
        #expect(Set(third.alreadyThere.map(\.checksum)) == Set((summary.alreadyThere + summary.copied).map(\.checksum)))

        // While another run holds the database, a second one is refused before it writes anything.
        let holder = try await PostgresConnection.connect(configuration: try PostgresAddress(url: database.url).testConnectionConfiguration(),
                                                          id: 9, logger: Logger(label: "test"))
        _ = try await holder.query("SELECT pg_advisory_lock(\(CareDataImport.runLock))", logger: Logger(label: "test")).collect()
        await #expect {
            try await copy.run()
        } throws: { error in
            "\(error)".contains("Another copy into this database is running")
        }
        try await holder.close()
        #expect(try await copy.run().alreadyThere.count == source.records.count)
    }

    @Test func aRecordThatDiffersIsNotOverwrittenAndAnotherDataDirectoryIsRefused() async throws {
        let source = try await SourceData(clinicSize: 0)
        defer { source.remove() }
        let database = try await PostgresTestDatabase()
        #expect(try AppServer.run(["migrate", "--from", source.url.path, "--to", database.url]).status == 0)
        // The record changes in the database (a server on it is already in use)…
        let there = database.records.store(for: source.alexRecord)
        var added = OCKTask(id: "added-in-the-database", title: "Added", carePlanUUID: nil,
                            schedule: .dailyAtTime(hour: 9, minutes: 0, start: Date(), end: nil, text: nil))
        added = try await there.addTask(added)
        // … so a second run leaves it as it is there, says so, and ends with status 1.
        let again = try AppServer.run(["migrate", "--from", source.url.path, "--to", database.url])
        #expect(again.status == 1)
        #expect(again.output.contains("not copied: it exists in the database and differs from the data directory's"), "\(again.output)")
        #expect(again.errors == "opencarekit: 1 record not copied: \(source.alexRecord.id)\n")
        var query = OCKTaskQuery()
        query.ids = [added.id]
        #expect(try await there.fetchTasks(query: query) == [added])

        // Another data directory: its account with an email address taken there under another id is refused…
        let other = try await SourceData(clinicSize: 0)
        defer { other.remove() }
        let taken = try AppServer.run(["migrate", "--from", other.url.path, "--to", database.url])
        #expect(taken.status != 0 && taken.errors.contains("has the email address of account"), "\(taken.errors)")
        #expect(try await database.records.directory().recordCount() == 1)
        // … and so is an audit log that is not the database's: two hash chains cannot be merged.
        let third = FileManager.default.temporaryDirectory.appending(path: "ock-migrate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: third) }
        let thirdDirectory = try CareDataDirectory(path: third.path).openDirectory()
        // (Its account is not written either: everything that refuses a copy is checked before anything is written.)
        try await thirdDirectory.addAccount(CareAccount(email: "zoe@example.org", name: "Zoe", passwordHash: "x", createdDate: Date()))
        try await thirdDirectory.appendAudit([AuditEntry.Draft(recorded: Date(), account: nil, record: nil, resource: "session",
                                                               action: .create, outcome: .denied, address: "127.0.0.1", detail: "POST /sign-in")])
        let merged = try AppServer.run(["migrate", "--from", third.path, "--to", database.url])
        #expect(merged.status != 0 && merged.errors.contains("audit logs cannot be merged"), "\(merged.errors)")
        #expect(merged.errors.split(separator: "\n").count == 1)
        #expect(try await database.records.directory().account(email: "zoe@example.org") == nil)

        let notADataDirectory = try AppServer.run(["migrate", "--from", "/nonexistent", "--to", database.url])
        #expect(notADataDirectory.status != 0 && notADataDirectory.errors.contains("--from: not a data directory"))
    }
}

/// A data directory as a clinic's server leaves it: the demo people and `clinicSize` patients with their histories,
/// plus, in Alex's record, versions, a tombstone, an outcome with every kind of value, tags, notes and user info; an
/// invitation, an access token and audit entries.
struct SourceData {
    let url: URL
    let data: CareDataDirectory
    let directory: SQLiteCareDirectory
    let records: [CareRecord]
    let alexRecord: CareRecord
    let emails: [String]
    let auditEntryCount: Int
    var accountCount: Int { emails.count }

    init(clinicSize: Int) async throws {
        let url = FileManager.default.temporaryDirectory.appending(path: "ock-migrate-\(UUID().uuidString)")
        let data = CareDataDirectory(path: url.path)
        let directory = try data.openDirectory()
        (self.url, self.data, self.directory) = (url, data, directory)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Asia/Seoul"))
        let now = Date()
        try await DemoPeople.ensure(in: directory, stores: data, calendar: calendar, now: now, passwordCost: 4, clinicSize: clinicSize)
        let records = try await directory.records(limit: 100, after: nil)
        let alexRecord = try #require(records.first { $0.patientName == "Alex Rivera" })
        (self.records, self.alexRecord) = (records, alexRecord)
        let alex = try #require(try await directory.account(email: DemoPeople.patientEmail))

        let store = try data.store(for: alexRecord)
        let tasks = try await store.fetchTasks(query: OCKTaskQuery())
        try #require(tasks.count >= 2)
        var outcome = OCKOutcome(taskUUID: tasks[0].uuid, taskOccurrenceIndex: 0, values: [
            OCKOutcomeValue(3), OCKOutcomeValue(2.5, units: "mg"), OCKOutcomeValue(true), OCKOutcomeValue("text ☃"),
            OCKOutcomeValue(Data([0, 1, 255])), OCKOutcomeValue(Date(timeIntervalSince1970: 1_000_000)),
        ])
        outcome.tags = ["b", "a"]
        outcome.notes = [OCKNote(author: "Alex", title: nil, content: "Taken with food")]
        outcome.userInfo = ["source": "test"]
        _ = try await store.addOutcome(outcome)
        var task = tasks[1]
        task.instructions = "Changed after the first version"
        _ = try await store.updateTask(task)
        let contact = try #require(try await store.fetchContacts(query: OCKContactQuery()).first)
        _ = try await store.deleteContact(contact)
        // A HealthKit task a CareKit device synchronized, in two versions.
        var steps = OCKHealthKitTask(id: "steps", title: "Steps", carePlanUUID: tasks[0].carePlanUUID, schedule: tasks[0].schedule,
                                     healthKitLinkage: OCKHealthKitLinkage(quantityIdentifier: "HKQuantityTypeIdentifierStepCount",
                                                                           quantityType: .cumulative, unitString: "count"))
        steps = try #require(try await store.addHealthKitTasks([steps]).first)
        steps.healthKitLinkage.unitString = "km"
        steps.effectiveDate = now
        _ = try await store.updateHealthKitTasks([steps])

        try await directory.addInvitation(CareInvitation(secretHash: String(repeating: "ab", count: 32), record: alexRecord.id,
                                                         role: .caregiver, invitedBy: alex.id, createdDate: now,
                                                         expiryDate: now.addingTimeInterval(86_400)))
        try await directory.addAccessToken(CareAccessToken(secretHash: String(repeating: "cd", count: 32), account: alex.id,
                                                           record: alexRecord.id, scope: "patient/*.rs", label: "phone", createdDate: now))
        try await directory.setPushSubscription(CarePushSubscription(account: alex.id, endpoint: "https://push.example.net/alex",
                                                                     publicKey: "key", authSecret: "auth", createdDate: now))
        _ = try await directory.sharedValue(named: "web-push-key", orKeep: "the source's key", now: now)
        try await directory.setReminderSettings(CareReminderSettings(account: alex.id, record: alexRecord.id, taskIDs: [tasks[0].id],
                                                                     quietStart: 1_320, quietEnd: 420, followUpMinutes: 30, updatedDate: now))
        let asked = try await directory.startThread(CareThreadDraft(record: alexRecord.id, audience: .everyone, subject: "Dose",
                                                                    body: "Is it with food? ☃"), by: alex.id, now: now)
        _ = try await directory.postMessage(thread: asked.thread.id, body: "Yes.", by: alex.id, now: now.addingTimeInterval(1))
        let drafts = (0..<5).map { index in
            AuditEntry.Draft(recorded: now.addingTimeInterval(Double(index)), account: alex.id, record: alexRecord.id,
                             resource: "care-page", action: .read, outcome: .allowed, address: "127.0.0.1",
                             detail: "GET /records/{record}/care")
        }
        try await directory.appendAudit(drafts)
        auditEntryCount = drafts.count
        emails = try await directory.runner.read { db in try await db.rows("SELECT email FROM account ORDER BY email") { try $0.string("email") } }
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Everything a store holds, as its API reads it: every entity's current and past versions, and today's events.
struct Snapshot: Equatable {
    var patients: [OCKPatient]
    var carePlans: [OCKCarePlan]
    var contacts: [OCKContact]
    var tasks: [OCKTask]
    var healthKitTasks: [OCKHealthKitTask]
    var outcomes: [OCKOutcome]
    /// Today's events: each one's task version, occurrence and outcome.
    var events: [String]

    init(_ store: OCKStore) async throws {
        patients = try await store.fetchPatients(query: OCKPatientQuery()).sorted { $0.uuid.uuidString < $1.uuid.uuidString }
        carePlans = try await store.fetchCarePlans(query: OCKCarePlanQuery()).sorted { $0.uuid.uuidString < $1.uuid.uuidString }
        contacts = try await store.fetchContacts(query: OCKContactQuery()).sorted { $0.uuid.uuidString < $1.uuid.uuidString }
        tasks = try await store.fetchTasks(query: OCKTaskQuery()).sorted { $0.uuid.uuidString < $1.uuid.uuidString }
        healthKitTasks = try await store.fetchHealthKitTasks(query: OCKTaskQuery()).sorted { $0.uuid.uuidString < $1.uuid.uuidString }
        outcomes = try await store.fetchOutcomes(query: OCKOutcomeQuery()).sorted { $0.uuid.uuidString < $1.uuid.uuidString }
        events = try await store.fetchEvents(query: OCKEventQuery(for: Date())).map {
            "\($0.task.uuid) \($0.scheduleEvent.occurrence) \($0.outcome.map { "\($0.uuid) \($0.values.count)" } ?? "-")"
        }
    }
}
