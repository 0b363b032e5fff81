import ArgumentParser
import Foundation
import OpenCareKit
import OpenCareKitDirectory
import OpenCareKitServer
import OpenCareKitStore
import OpenCareKitSurveys

/// `opencarekit store …`: work with a store file.
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Create, fill, read and export a store file.",
        subcommands: [StoreInit.self, StoreSeedDemo.self, StoreTasks.self, StoreEvents.self, StoreLog.self,
                      StoreExport.self, StoreStressWriter.self])
}

/// Options every store command takes: a store file, or with `--record` a record of a server's data directory or
/// database.
struct StoreOptions: ParsableArguments {
    @Option(help: "The store file, ending in .sqlite (default: opencarekit.sqlite in the data directory).")
    var store: String?

    @Option(help: "A care record's id: work on that record's store, in the data directory or the database (--data, --database).")
    var record: String?

    @OptionGroup var records: DataOptions

    @Option(help: "The IANA time zone for dates and times (default: this machine's).")
    var zone: String = TimeZone.current.identifier

    /// For tests, as `serve --now`: the current moment (ISO 8601), which decides today and which events are still to
    /// come.
    @Option(help: .hidden)
    var now: String?

    /// The clock the store's rules and "today" follow.
    var clock: @Sendable () -> Date {
        get throws { try ServeRun.clock(startingAt: now) }
    }

    var calendar: Calendar {
        get throws {
            guard let timeZone = TimeZone(identifier: zone) else {
                throw ValidationError("--zone: not a known time zone identifier")
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            return calendar
        }
    }

    /// Opens (creating if needed) the store and runs `body` with it; a record's store on PostgreSQL while the
    /// connection pool runs. What was done to a record's store is audited once done, as `access` by the command line
    /// (`command` names the subcommand; a command refused or failed leaves no entry); a store file outside the
    /// server's records has no audit log.
    func withStore<T: Sendable>(_ access: AuditEntry.Action, command: String, _ body: (OCKStore) async throws -> T) async throws -> T {
        guard let record else {
            guard records.database == nil else { throw ValidationError("--database: give the record to work on with --record") }
            return try await body(try openFile())
        }
        guard store == nil else { throw ValidationError("--store and --record: give one of them") }
        guard let id = CareRecordID(record) else { throw ValidationError("--record: not a record id") }
        return try await records.withData { data in
            guard let found = try await data.directory.record(id) else { throw ValidationError("--record: there is no such record") }
            let store = try data.stores.store(for: found)
            try store.open()
            CarePlanCatalog.installRules(on: store, for: found, now: try clock)
            let result = try await body(store)
            try await data.audit(record: id, resource: "store", access, command: "store \(command)")
            return result
        }
    }

    /// Where the store is, for messages.
    func describe(_ store: OCKStore) -> String {
        store.fileURL?.path ?? record.map { "record \($0)" } ?? "memory"
    }

    private func openFile() throws -> OCKStore {
        let store: OCKStore
        if let path = self.store {
            let url = URL(fileURLWithPath: path)
            guard url.pathExtension == "sqlite" else { throw ValidationError("--store: the file name must end in .sqlite") }
            store = OCKStore(name: url.deletingPathExtension().lastPathComponent, type: .onDisk(),
                             directory: url.deletingLastPathComponent())
        } else {
            store = OCKStore(name: "opencarekit", type: .onDisk(), directory: records.dataDirectory.url)
        }
        try store.open()
        // A store file outside the records follows the demo's plan, in --zone: its rules are a demo record's.
        CarePlanCatalog.installRules(on: store, for: CareRecord(patientName: "", timeZoneIdentifier: zone, carePlan: CarePlanCatalog.demo,
                                                               createdDate: Date()), now: try clock)
        return store
    }

    /// A day given as YYYY-MM-DD, or today.
    func day(_ text: String?) throws -> Date {
        let calendar = try self.calendar
        guard let text else { return calendar.startOfDay(for: try clock()) }
        return calendar.startOfDay(for: try CommandLineDates(calendar: calendar).date(text, option: "--date"))
    }
}

struct StoreInit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "init", abstract: "Create the store file (or check an existing one).")
    @OptionGroup var options: StoreOptions

    func run() async throws {
        try await options.withStore(.execute, command: "init") { store in
            print("Store ready at \(options.describe(store))")
        }
    }
}

struct StoreSeedDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed-demo",
        abstract: "Fill an empty store with the demo care plan: a patient, medications, exercises, logs and a care team.")
    @OptionGroup var options: StoreOptions
    @Option(help: "The first day of the plan, YYYY-MM-DD (default: today).") var start: String?
    @Option(help: "Finish the demo's onboarding on the first day, the consent signed with this typed name (until then the plan's outcomes cannot be recorded).")
    var signedBy: String?

    func run() async throws {
        let signer = try Self.signer(signedBy)
        try await options.withStore(.create, command: "seed-demo") { store in
            guard try await store.fetchPatients(query: OCKPatientQuery()).isEmpty,
                  try await store.fetchTasks(query: OCKTaskQuery()).isEmpty else {
                throw ValidationError("the store already has data; seed-demo needs an empty store")
            }
            let plan = OCKDemoCarePlan(calendar: try options.calendar, start: try options.day(start))
            try await plan.seed(into: store) { print("Added \($0)") }
            if let signer {
                try await OCKDemoSurveys.completeOnboarding(in: store, on: plan.start, calendar: try options.calendar, signerName: signer,
                                                            now: try options.clock())
                print("Onboarding done, the consent signed")
            }
            print("Demo care plan ready at \(options.describe(store))")
        }
    }
}

extension StoreSeedDemo {
    /// The typed name of `--signed-by`, checked.
    static func signer(_ text: String?) throws -> String? {
        let signer = text?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let signer, signer.isEmpty || signer.count > 200 { throw ValidationError("--signed-by: from 1 to 200 characters") }
        return signer
    }
}

struct StoreTasks: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tasks", abstract: "List the tasks in effect on a day.")
    @OptionGroup var options: StoreOptions
    @Option(help: "The day, YYYY-MM-DD (default: today).") var date: String?

    func run() async throws {
        try await options.withStore(.read, command: "tasks") { store in
            let day = try options.day(date)
            var query = OCKTaskQuery(for: day, calendar: try options.calendar)
            query.sortDescriptors = [.title(ascending: true)]
            for task in try await store.fetchTasks(query: query) {
                let times = task.schedule.elements.compactMap(\.text).joined(separator: ", ")
                print("\(task.id)\t\(task.title ?? "")\t\(times)")
            }
        }
    }
}

struct StoreEvents: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "events", abstract: "List a day's events and what was recorded.")
    @OptionGroup var options: StoreOptions
    @Option(help: "The day, YYYY-MM-DD (default: today).") var date: String?

    func run() async throws {
        try await options.withStore(.read, command: "events") { store in
            let calendar = try options.calendar
            let events = try await store.fetchEvents(query: OCKEventQuery(for: try options.day(date), calendar: calendar))
            let formatter = DateFormatter()
            formatter.calendar = calendar
            formatter.timeZone = calendar.timeZone
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "HH:mm"
            for event in events {
                let time = event.scheduleEvent.element.duration == .allDay ? "all day" : formatter.string(from: event.scheduleEvent.start)
                let values = event.outcome.map { outcome in
                    "done " + outcome.values.map { value in [value.description, value.units].compactMap { $0 }.joined(separator: " ") }
                        .joined(separator: ", ")
                } ?? "-"
                print("\(time)\t\(event.task.id)\t\(event.task.title ?? "")\t#\(event.scheduleEvent.occurrence)\t\(values)")
            }
        }
    }
}

struct StoreLog: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Record a value for a task's event on a day (appended to what is already recorded).")
    @OptionGroup var options: StoreOptions
    @Argument(help: "The task id.") var task: String
    @Option(help: "The day, YYYY-MM-DD (default: today).") var date: String?
    @Option(help: "Which of the day's events, counting from 1 (default: the first without an outcome, else the last).")
    var event: Int?
    @Option(help: "The value: a number, true/false, or text (default: true, meaning done).") var value: String = "true"
    @Option(help: "The value's units, such as mg.") var units: String?

    func run() async throws {
        try await options.withStore(.update, command: "log") { store in
            var query = OCKEventQuery(for: try options.day(date), calendar: try options.calendar)
            query.taskIDs = [task]
            let events = try await store.fetchEvents(query: query)
            guard !events.isEmpty else { throw ValidationError("task has no events on that day (check the id and --date)") }
            let chosen: OCKStore.Event
            if let event {
                guard events.indices.contains(event - 1) else { throw ValidationError("--event: that day has \(events.count) event(s)") }
                chosen = events[event - 1]
            } else {
                chosen = events.first { $0.outcome == nil } ?? events[events.count - 1]
            }
            let recorded = OCKOutcomeValue(Self.parse(value), units: units)
            if var outcome = chosen.outcome {
                outcome.values.append(recorded)
                try await store.updateOutcome(outcome)
            } else {
                try await store.addOutcome(OCKOutcome(taskUUID: chosen.task.uuid, taskOccurrenceIndex: chosen.scheduleEvent.occurrence,
                                                      values: [recorded]))
            }
            print("Logged \(task) #\(chosen.scheduleEvent.occurrence)")
        }
    }

    static func parse(_ text: String) -> any OCKOutcomeValueUnderlyingType {
        if let integer = Int(text) { return integer }
        if let double = Double(text), double.isFinite { return double }
        if let flag = Bool(text) { return flag }
        return text
    }
}

struct StoreExport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every version of every entity as CareKit-format JSON (an array of {\"type\", \"object\"}).")
    @OptionGroup var options: StoreOptions
    @Option(help: "The output file (default: standard output).") var output: String?

    func run() async throws {
        try await options.withStore(.read, command: "export") { store in
            let entities: [OCKEntity] = try await store.fetchPatients(query: OCKPatientQuery()).map(OCKEntity.patient)
                + store.fetchCarePlans(query: OCKCarePlanQuery()).map(OCKEntity.carePlan)
                + store.fetchContacts(query: OCKContactQuery()).map(OCKEntity.contact)
                + store.fetchTasks(query: OCKTaskQuery()).map(OCKEntity.task)
                + store.fetchOutcomes(query: OCKOutcomeQuery()).map(OCKEntity.outcome)
            let handle: FileHandle
            if let output {
                guard FileManager.default.createFile(atPath: output, contents: nil) ,
                      let file = FileHandle(forWritingAtPath: output) else {
                    throw ValidationError("--output: cannot write \(output)")
                }
                handle = file
            } else {
                handle = FileHandle.standardOutput
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            handle.write(Data("[".utf8))
            for (index, entity) in entities.enumerated() {
                handle.write(try encoder.encode(entity) + Data((index + 1 < entities.count ? ",\n" : "").utf8))
                if (index + 1) % 10_000 == 0 || index + 1 == entities.count, entities.count >= 10_000 {
                    FileHandle.standardError.write(Data("Exported \(index + 1) of \(entities.count) entities\n".utf8))
                }
            }
            handle.write(Data("]\n".utf8))
            if output != nil { try handle.close() }
        }
    }
}

/// Writes outcomes one transaction at a time and prints `ack <occurrence>` after each returns: the child process of
/// the durability test, which kills it at random moments.
struct StoreStressWriter: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stress-writer", shouldDisplay: false)
    @OptionGroup var options: StoreOptions
    @Option var task: String
    @Option var from: Int = 0
    @Option var count: Int = 1_000_000

    func run() async throws {
        try await options.withStore(.update, command: "stress-writer") { store in
            let version = try await store.fetchTask(withID: task)
            for occurrence in from..<(from + count) {
                try await store.addOutcome(OCKOutcome(taskUUID: version.uuid, taskOccurrenceIndex: occurrence,
                                                      values: [OCKOutcomeValue(occurrence)]))
                FileHandle.standardOutput.write(Data("ack \(occurrence)\n".utf8))
            }
        }
    }
}
