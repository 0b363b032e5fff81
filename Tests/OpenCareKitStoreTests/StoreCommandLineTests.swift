import Foundation
import OpenCareKitStore
import Testing

/// `opencarekit store …`, run as separate processes on a store file.
@Suite struct StoreCommandLineTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ock-cli-\(UUID().uuidString)")
    var store: String { directory.appendingPathComponent("demo.sqlite").path }

    private func run(_ arguments: [String]) throws -> CommandLineTests.Result {
        try CommandLineTests.run(["store"] + arguments + ["--store", store, "--zone", "America/New_York"])
    }

    @Test func seedDemoThenReadLogAndExport() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try run(["init"]).status == 0)
        let seeded = try run(["seed-demo", "--start", "2026-11-20"])
        #expect(seeded.status == 0)
        #expect(seeded.output.contains("Added 9 tasks") && seeded.output.contains("Added 4 contacts"))
        // The store keeps the demo plan's rules: nothing is logged before onboarding, nor for a day still to come.
        let early = try run(["log", "ibuprofen", "--date", "2026-11-22"])
        #expect(early.status != 0 && early.errors.contains("Onboarding comes first"), "\(early.errors)")
        try FileManager.default.removeItem(at: directory)
        #expect(try run(["seed-demo", "--start", "2026-11-20", "--signed-by", "Alex Rivera"]).output.contains("Onboarding done"))
        let future = Calendar(identifier: .gregorian).date(byAdding: .day, value: 3, to: Date())!
        let futureDay = ISO8601DateFormatter.string(from: future, timeZone: TimeZone(identifier: "America/New_York")!, formatOptions: [.withFullDate])
        let tooEarly = try run(["log", "ibuprofen", "--date", futureDay])
        #expect(tooEarly.status != 0 && tooEarly.errors.contains("Events still to come are read-only"), "\(tooEarly.errors)")

        let tasks = try run(["tasks", "--date", "2026-11-22"]).output.split(separator: "\n").map { $0.split(separator: "\t")[0] }
        #expect(Set(tasks) == ["onboarding", "check-in", "ibuprofen", "enoxaparin", "omeprazole", "knee-exercises", "nausea",
                               "hydration", "weigh-in"])

        // Knee exercises every other day from the 20th: on the 22nd, not on the 21st.
        #expect(try run(["events", "--date", "2026-11-21"]).output.contains("knee-exercises") == false)
        let before = try run(["events", "--date", "2026-11-22"]).output
        #expect(before.contains("08:00\tibuprofen\tIbuprofen\t#6\t-"))
        #expect(before.contains("17:00\tknee-exercises"))

        #expect(try run(["log", "ibuprofen", "--date", "2026-11-22"]).output == "Logged ibuprofen #6\n")
        #expect(try run(["log", "nausea", "--date", "2026-11-22", "--value", "6", "--units", "of 10"]).status == 0)
        #expect(try run(["log", "nausea", "--date", "2026-11-22", "--value", "3", "--units", "of 10"]).status == 0)
        let after = try run(["events", "--date", "2026-11-22"]).output
        #expect(after.contains("08:00\tibuprofen\tIbuprofen\t#6\tdone true"))
        #expect(after.contains("all day\tnausea\tTrack Nausea\t#2\tdone 6 of 10, 3 of 10"))

        let export = try run(["export"])
        #expect(export.status == 0)
        let entities = try JSONDecoder().decode([OCKEntity].self, from: Data(export.output.utf8))
        let kinds = Dictionary(grouping: entities, by: \.entityType).mapValues(\.count)
        #expect(kinds[.patient] == 1 && kinds[.carePlan] == 1 && kinds[.contact] == 4 && kinds[.task] == 9)
        #expect(kinds[.outcome] == 4) // the onboarding, ibuprofen, and two versions of the nausea outcome
        let contacts = entities.compactMap { if case let .contact(contact) = $0 { contact } else { nil } }
        #expect(Set(contacts.compactMap(\.category)) == [.careProvider, .friendsAndFamily])
        #expect(contacts.allSatisfy { $0.phoneNumbers?.isEmpty == false && $0.emailAddresses?.isEmpty == false && $0.address != nil })
    }

    @Test func errorsAreOneLineWithANonZeroExit() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try run(["seed-demo"]).status == 0)
        for result in [try run(["seed-demo"]), try run(["log", "no-such-task"]), try run(["events", "--date", "2026-02-30"]),
                       try CommandLineTests.run(["store", "tasks", "--store", directory.appendingPathComponent("x.db").path])] {
            #expect(result.status != 0)
            #expect(result.errors.split(separator: "\n").count == 1, "\(result.errors)")
            #expect(result.errors.hasPrefix("opencarekit: "))
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let notAStore = directory.appendingPathComponent("notes.sqlite")
        try Data("hello".utf8).write(to: notAStore)
        let refused = try CommandLineTests.run(["store", "tasks", "--store", notAStore.path])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("not an OpenCareKit store"))
        #expect(try String(contentsOf: notAStore, encoding: .utf8) == "hello")
    }
}
