import Foundation
import OpenCareKit
import OpenCareKitDirectory
import OpenCareKitFHIR
import OpenCareKitPostgresTesting
@testable import OpenCareKitServer
import OpenCareKitStore
import OpenCareKitStoreConformance
import Synchronization
import Testing

/// Alert rules a clinician sets on a record's tasks (`OCKAlertRule`), found from the store as it is
/// (`OCKAlert.find(in:calendar:now:)`) on SQLite and PostgreSQL: each kind, in the patient's days across a
/// daylight-saving change and at the patient's midnight; raised whoever wrote the outcomes (a device's sync, an
/// import); and kept readable and bounded by every writer of tasks (`OCKAlertRulesStoreRule`).
@Suite struct AlertRuleTests {
    enum Backend: String, CaseIterable { case sqlite, postgres }

    /// The patient's zone: New York, whose clocks moved forward at 2:00 on Sunday 8 March 2026.
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/New_York")!
        return calendar
    }()

    /// A moment in the patient's days: `day` of March 2026 (0 and below reach into February), at `hour`.
    static func march(_ day: Int, _ hour: Int = 12, _ minute: Int = 0, _ second: Int = 0) -> Date {
        calendar.date(from: DateComponents(year: 2026, month: 3, day: day, hour: hour, minute: minute, second: second))!
    }

    /// Now: Tuesday 10 March, 14:00 in New York; the last seven days cross the clock change.
    static let now = march(10, 14)

    final class Clock: Sendable {
        private let moment: Mutex<Date>
        init(_ date: Date) { moment = Mutex(date) }
        func set(_ date: Date) { moment.withLock { $0 = date } }
        func callAsFunction() -> Date { moment.withLock { $0 } }
    }

    static func store(_ backend: Backend, clock: Clock) async throws -> OCKStore {
        let store: OCKStore = switch backend {
        case .sqlite: OCKStore(name: "alerts", type: .inMemory, directory: nil, clock: { clock() })
        case .postgres: try await PostgresTestDatabase.shared().records.store(forRecord: "alerts-\(UUID().uuidString)", clock: { clock() })
        }
        store.addRule(OCKAlertRulesStoreRule())
        return store
    }

    /// A task every day at 9:00 from 20 February (occurrence 18 is 10 March), with `rules`.
    static func task(_ id: String, _ rules: [OCKAlertRule]) -> OCKTask {
        let element = OCKScheduleElement(start: march(-8, 9), end: nil, interval: DateComponents(day: 1), calendar: calendar)
        var task = OCKTask(id: id, title: id.capitalized, carePlanUUID: nil, schedule: OCKSchedule(composing: [element]))
        task.effectiveDate = march(-8, 0)
        task.setAlertRules(rules)
        return task
    }

    /// The occurrence of a task of `task(_:_:)` on `day` of March.
    static func occurrence(_ day: Int) -> Int { day + 8 }

    static func outcome(_ task: OCKTask, day: Int, _ values: [OCKOutcomeValue] = [OCKOutcomeValue(true)]) -> OCKOutcome {
        OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: occurrence(day), values: values)
    }

    static func number(_ value: Double, _ kind: String) -> OCKOutcomeValue {
        var value = OCKOutcomeValue(value)
        value.kind = kind
        return value
    }

    static func alerts(_ store: OCKStore, at now: Date = now) async throws -> [String: OCKAlert] {
        Dictionary(uniqueKeysWithValues: try await OCKAlert.find(in: store, calendar: calendar, now: now).map { ($0.cause, $0) })
    }

    @Test(arguments: Backend.allCases)
    func missedDosesCountThePatientsDaysAcrossTheClockChange(_ backend: Backend) async throws {
        let clock = Clock(Self.now)
        let store = try await Self.store(backend, clock: clock)
        let two = OCKAlertRule(id: "two", condition: .missedDoses(days: 2, ofDays: 7), priority: .urgent)
        let three = OCKAlertRule(id: "three", condition: .missedDoses(days: 3, ofDays: 7))
        let med = try await store.addTask(Self.task("med", [two, three]))
        // Taken every day of the week before today but Saturday 7 and Sunday 8 March (the short day); today's dose,
        // not taken yet, is not missed.
        let taken = try await store.addOutcomes([3, 4, 5, 6, 9].map { Self.outcome(med, day: $0) })
        let found = try await Self.alerts(store)
        let alert = try #require(found["med/two"])
        #expect(alert.evidence == ["day:2026-03-07", "day:2026-03-08"])
        #expect(alert.observed == 2 && alert.rule.priority == .urgent && alert.taskTitle == "Med")
        #expect(alert.latest == Self.march(8, 0))
        #expect(found["med/three"] == nil)
        // An outcome left with no values is no dose: Friday's makes the third day.
        var emptied = try #require(taken.first { $0.taskOccurrenceIndex == Self.occurrence(6) })
        emptied.values = []
        try await store.updateOutcome(emptied)
        #expect(try await Self.alerts(store)["med/three"]?.evidence == ["day:2026-03-06", "day:2026-03-07", "day:2026-03-08"])
        // A dose recorded late for Sunday ends the alert for three days, not the one for two.
        try await store.addOutcome(Self.outcome(med, day: 8))
        let after = try await Self.alerts(store)
        #expect(after["med/three"] == nil && after["med/two"]?.evidence == ["day:2026-03-06", "day:2026-03-07"])
    }

    @Test(arguments: Backend.allCases)
    func anAnswerPastAThresholdRaisesAndTheThresholdIsIncluded(_ backend: Backend) async throws {
        let clock = Clock(Self.now)
        let store = try await Self.store(backend, clock: clock)
        let pain = OCKAlertRule(id: "pain", condition: .value(kind: "pain", atLeast: 7, atMost: nil), priority: .urgent)
        let sleep = OCKAlertRule(id: "sleep", condition: .value(kind: "sleep", atLeast: 12, atMost: 4))
        let checkIn = try await store.addTask(Self.task("check-in", [pain, sleep]))
        try await store.addOutcome(Self.outcome(checkIn, day: 9, [Self.number(5, "pain"), Self.number(7.5, "sleep")]))
        #expect(try await Self.alerts(store).isEmpty)
        // Eight days ago is outside the week.
        try await store.addOutcome(Self.outcome(checkIn, day: 2, [Self.number(10, "pain"), Self.number(3, "sleep")]))
        #expect(try await Self.alerts(store).isEmpty)
        let today = try await store.addOutcome(Self.outcome(checkIn, day: 10, [Self.number(7, "pain"), Self.number(4, "sleep")]))
        let found = try await Self.alerts(store)
        #expect(found["check-in/pain"]?.observed == 7)
        #expect(found["check-in/pain"]?.evidence == ["outcome:\(today.id)"] && found["check-in/pain"]?.outcomeIDs == [today.id])
        #expect(found["check-in/sleep"]?.observed == 4)
        // A text that looks like a number, or a value of another kind, is not one.
        let other = try await store.addTask(Self.task("other", [OCKAlertRule(id: "any", condition: .value(kind: nil, atLeast: 1, atMost: nil))]))
        var text = OCKOutcomeValue("9")
        text.kind = "pain"
        try await store.addOutcome(Self.outcome(other, day: 10, [text]))
        #expect(try await Self.alerts(store)["other/any"] == nil)
    }

    @Test(arguments: Backend.allCases)
    func aChangeWithinDaysRaisesTheHeartFailureRule(_ backend: Backend) async throws {
        let clock = Clock(Self.now)
        let store = try await Self.store(backend, clock: clock)
        let gain = OCKAlertRule(id: "gain", condition: .change(kind: "weight", by: 2, withinDays: 3), priority: .urgent)
        let overnight = OCKAlertRule(id: "overnight", condition: .change(kind: "weight", by: 2, withinDays: 1))
        let loss = OCKAlertRule(id: "loss", condition: .change(kind: "weight", by: -1, withinDays: 3))
        let weight = try await store.addTask(Self.task("weight", [gain, overnight, loss]))
        let first = try await store.addOutcome(Self.outcome(weight, day: 7, [Self.number(80, "weight")]))
        try await store.addOutcome(Self.outcome(weight, day: 8, [Self.number(81, "weight")]))
        let last = try await store.addOutcome(Self.outcome(weight, day: 10, [Self.number(82.5, "weight")]))
        let found = try await Self.alerts(store)
        let alert = try #require(found["weight/gain"])
        #expect(alert.observed == 2.5 && alert.evidence == ["outcome:\(first.id)", "outcome:\(last.id)"].sorted())
        #expect(alert.latest == Self.march(10, 9))
        #expect(found["weight/overnight"] == nil && found["weight/loss"] == nil)
    }

    @Test(arguments: Backend.allCases)
    func noActivityBeginsAtThePatientsMidnight(_ backend: Backend) async throws {
        let clock = Clock(Self.march(8, 20))
        let store = try await Self.store(backend, clock: clock)
        let quiet = OCKAlertRule(id: "quiet", condition: .noActivity(days: 2))
        let walk = try await store.addTask(Self.task("walk", [quiet]))
        let last = try await store.addOutcome(Self.outcome(walk, day: 8))
        // The server's midnight (UTC) is still Monday evening for the patient; at her midnight the second day begins.
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let serverMidnight = utc.date(from: DateComponents(year: 2026, month: 3, day: 10))!
        #expect(try await Self.alerts(store, at: serverMidnight).isEmpty)
        #expect(try await Self.alerts(store, at: Self.march(9, 23, 59, 59)).isEmpty)
        let alert = try #require(try await Self.alerts(store, at: Self.march(10, 0))["walk/quiet"])
        #expect(alert.observed == 2 && alert.evidence == ["quiet:\(last.id)"] && alert.latest == Self.march(8, 0))
        // A task never done is quiet from its effective date.
        try await store.addTask(Self.task("stretch", [quiet]))
        #expect(try await Self.alerts(store, at: Self.march(10, 0))["stretch/quiet"]?.evidence == ["quiet:none"])
    }

    /// The store as a device's sync and an import leave it raises the same alerts: they are found from what is
    /// stored, not from the call that wrote it.
    @Test(arguments: Backend.allCases)
    func outcomesFromADevicesSyncAndFromAnImportRaiseAlerts(_ backend: Backend) async throws {
        let clock = Clock(Self.now)
        let server = try await Self.store(backend, clock: clock)
        let pain = OCKAlertRule(id: "pain", condition: .value(kind: "pain", atLeast: 7, atMost: nil))
        try await server.addTask(Self.task("check-in", [pain]))
        let device = OCKStore(name: "phone", type: .inMemory, directory: nil, remote: StoreRemote(server: server), clock: { clock() })
        try await device.synchronize()
        let synced = try await device.fetchTask(withID: "check-in")
        #expect(try synced.alertRules() == [pain])
        try await device.addOutcome(Self.outcome(synced, day: 10, [Self.number(9, "pain")]))
        #expect(try await Self.alerts(server).isEmpty)
        try await device.synchronize()
        #expect(try await Self.alerts(server)["check-in/pain"]?.observed == 9)

        // The record exported as FHIR and imported into a new store: its rules come along, and raise the alert there.
        let bundle = try await FHIRExport(patientID: "p", now: Self.now).bundle(of: server)
        let record = try FHIRImport().read(Data(bundle.text.utf8))
        let imported = try await Self.store(backend, clock: clock)
        try await FHIRImport.write(record, into: imported)
        #expect(try await imported.fetchTask(withID: "check-in").alertRules() == [pain])
        #expect(try await Self.alerts(imported)["check-in/pain"]?.observed == 9)
    }

    /// Every writer of tasks passes one rule: a task whose alert rules cannot be read, or break a bound, is refused
    /// with the field named (never the value), by a call, an update and a device's push alike.
    @Test(arguments: Backend.allCases)
    func malformedOrUnboundedRulesAreRefusedByEveryWriterOfTasks(_ backend: Backend) async throws {
        let clock = Clock(Self.now)
        let store = try await Self.store(backend, clock: clock)
        let cases: [(String, String)] = [
            ("not json", "Alert rules: not a JSON array of rules"),
            (#"[{"id":"a","when":"sometimes"}]"#, "Alert rules: rule 1: when: missing or of the wrong type"),
            (#"[{"id":"a","when":"missedDoses","days":3}]"#, "Alert rules: rule 1: ofDays: missing or of the wrong type"),
            (#"[{"id":"a","when":"missedDoses","days":9,"ofDays":7}]"#, "Alert rules: rule 1: days: must be 1 to ofDays"),
            (#"[{"id":"a","when":"noActivity","days":400}]"#, "Alert rules: rule 1: days: must be 1 to 90"),
            (#"[{"id":"a","when":"value","kind":"pain"}]"#, "Alert rules: rule 1: atLeast, atMost: one is needed"),
            (#"[{"id":"a","when":"value","atLeast":3,"atMost":5}]"#, "Alert rules: rule 1: atMost: must be below atLeast"),
            (#"[{"id":"a","when":"change","by":0,"withinDays":3}]"#, "Alert rules: rule 1: by: must be a finite number other than 0"),
            (#"[{"id":"a b","when":"noActivity","days":1}]"#, "Alert rules: rule 1: id: must be 1 to 40 letters, digits or hyphens"),
            (#"[{"id":"a","when":"noActivity","days":1},{"id":"a","when":"noActivity","days":2}]"#, "Alert rules: two rules share an id"),
            ("[" + Array(repeating: #"{"id":"a","when":"noActivity","days":1}"#, count: 9).joined(separator: ",") + "]",
             "Alert rules: at most 8 rules a task"),
            (#"[{"id":"a","when":"noActivity","days":1,"pad":""# + String(repeating: "x", count: 4_096) + #""}]"#,
             "Alert rules: at most 4,096 bytes"),
        ]
        let good = try await store.addTask(Self.task("good", [OCKAlertRule(id: "quiet", condition: .noActivity(days: 3))]))
        for (index, (text, reason)) in cases.enumerated() {
            var bad = Self.task("bad\(index)", [])
            bad.userInfo = [OCKTask.alertRulesKey: text]
            await #expect(throws: OCKStoreError.invalidValue(reason: reason)) { try await store.addTask(bad) }
            var updated = good
            updated.userInfo = bad.userInfo
            await #expect(throws: OCKStoreError.invalidValue(reason: reason)) { try await store.updateTask(updated) }
        }
        // A device's push of such a task is refused the same way, and leaves nothing.
        let device = OCKStore(name: "device", type: .inMemory, directory: nil, clock: { clock() })
        var pushed = Self.task("pushed", [])
        pushed.userInfo = [OCKTask.alertRulesKey: #"[{"id":"a","when":"noActivity","days":0}]"#]
        try await device.addTask(pushed)
        let page = try await device.revisions(since: .init())
        await #expect(throws: OCKStoreError.invalidValue(reason: "Alert rules: rule 1: days: must be 1 to 90")) {
            try await store.mergeRevisions(page.revisions, deviceKnowledge: try await device.knowledgeVector())
        }
        #expect(try await store.fetchTasks(query: OCKTaskQuery()).map(\.id) == ["good"])
    }

    @Test func rulesRoundTripThroughTheirJSONAndTheTask() throws {
        let rules = [
            OCKAlertRule(id: "doses", condition: .missedDoses(days: 2, ofDays: 7), priority: .urgent),
            OCKAlertRule(id: "pain", condition: .value(kind: "pain", atLeast: 7, atMost: nil)),
            OCKAlertRule(id: "range", condition: .value(kind: nil, atLeast: 140, atMost: 90)),
            OCKAlertRule(id: "gain", condition: .change(kind: "weight", by: 2, withinDays: 3)),
            OCKAlertRule(id: "quiet", condition: .noActivity(days: 3)),
        ]
        var task = Self.task("t", rules)
        #expect(try task.alertRules() == rules)
        #expect(task.userInfo?[OCKTask.alertRulesKey]?.contains(#""when":"missedDoses""#) == true)
        task.userInfo?["ock.card"] = "checklist"
        task.setAlertRules([])
        #expect(task.userInfo == ["ock.card": "checklist"])
        #expect(try task.alertRules().isEmpty)
    }

    /// An alert keeps its newest evidence (by when it happened, not by the ids' order), and names an id longer than
    /// the directory keeps by its hash, so that every alert fits.
    @Test(arguments: Backend.allCases)
    func evidenceIsTheNewestAndFitsWhateverTheIDs(_ backend: Backend) async throws {
        let clock = Clock(Self.now)
        let store = try await Self.store(backend, clock: clock)
        let rule = OCKAlertRule(id: "any", condition: .value(kind: nil, atLeast: 1, atMost: nil))
        // Four values a day for the week, each outcome with an id a device chose: random, and one very long.
        var task = Self.task("many", [rule])
        task.schedule = OCKSchedule(composing: (0..<5).map { hour in
            OCKScheduleElement(start: Self.march(-8, 8 + hour), end: nil, interval: DateComponents(day: 1), calendar: Self.calendar)
        })
        let many = try await store.addTask(task)
        var outcomes: [OCKOutcome] = []
        for day in 4...10 {
            for slot in 0..<5 {
                var outcome = OCKOutcome(taskUUID: many.uuid, taskOccurrenceIndex: (day + 8) * 5 + slot, values: [OCKOutcomeValue(5.0)])
                outcome.id = day == 10 && slot == 4 ? String(repeating: "z", count: 500) : UUID().uuidString
                outcomes.append(outcome)
            }
        }
        try await store.addOutcomes(outcomes)
        let alert = try #require(try await Self.alerts(store)["many/any"])
        #expect(alert.evidence.count == OCKAlert.maximumEvidence)
        #expect(alert.evidence.allSatisfy { $0.utf8.count <= CareTriageAlert.maximumEvidenceLength })
        // The newest 31 of the 35: the first four of Wednesday 4 March are left out, the long id is named by its hash.
        let left = Set(outcomes.prefix(4).map { "outcome:" + $0.id })
        #expect(Set(alert.evidence).isDisjoint(with: left))
        #expect(alert.evidence.contains { $0.hasPrefix("sha256:") } && alert.outcomeIDs.first?.hasPrefix("sha256:") == true)
        #expect(CareHost.triageAlert(alert).evidence == alert.evidence)
    }

    /// A task's user info in a FHIR Bundle is read up to 16 KB; beyond, the import says where.
    @Test func anImportedTasksUserInfoIsBounded() async throws {
        let store = OCKStore(name: "info", type: .inMemory)
        var task = Self.task("big", [])
        task.userInfo = ["note": String(repeating: "x", count: FHIRImport.maximumUserInfoBytes)]
        try await store.addTask(task)
        let bundle = try await FHIRExport(patientID: "p", now: Self.now).bundle(of: store)
        #expect(throws: FHIRImport.Problem.self) { try FHIRImport().read(Data(bundle.text.utf8)) }
        let small = OCKStore(name: "small", type: .inMemory)
        task.userInfo = ["note": "fine"]
        try await small.addTask(task)
        let record = try FHIRImport().read(Data(try await FHIRExport(patientID: "p", now: Self.now).bundle(of: small).text.utf8))
        #expect(record.tasks.first?.userInfo == ["note": "fine"])
    }
}
