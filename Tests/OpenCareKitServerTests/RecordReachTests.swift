import Foundation
import Testing

/// The ways into a record's store that do not pass the record gate (`CareHost.answer`, which makes the only
/// `RecordAccess` and `RecordContext`): each is the host's own work, named here with why it may. A new way in — a
/// handler that opens a store by id — fails this test until it is listed here, and a reviewer asks why it is not
/// behind the gate.
@Suite struct RecordReachTests {
    /// Calls that reach a store without a `RecordAccess`, by file.
    static let patterns = ["records.server(for:", "serverForBackgroundWork(of:", "openReadingStore(for:", ".store(for:", "records.openServer(",
                           "storeForBackgroundReading(of:"]

    /// What may, and why.
    static let allowed: [String: [String]] = [
        // The gate's own: `server(for: RecordAccess)`, and the reminder service's (no request asks for it).
        "Host/CareHost+Records.swift": ["records.server(for:", "records.server(for:"],
        // The reminder service reads a record's tasks into its index, and checks due events in a store opened for reading.
        "Reminders/ReminderService.swift": ["serverForBackgroundWork(of:", "storeForBackgroundReading(of:"],
        // A calendar feed is opened by its secret, checked against the directory first.
        "Reminders/CareHost+Calendar.swift": ["records.server(for:"],
        // The clinician's home summarizes the records the directory lists as theirs.
        "Clinician/CareHost+Clinician.swift": ["records.openServer(", "openReadingStore(for:", "records.server(for:"],
        // The triage queue raises the alerts of a record that changed, or whose day began (the host's own work).
        "Triage/CareHost+Triage.swift": ["records.openServer(", "openReadingStore(for:", "records.server(for:", "storeForBackgroundReading(of:"],
        // An import writes the new record it has just made the importer own.
        "FHIR/CareHost+FHIR.swift": ["records.server(for:"],
        // How the host opens stores, and the demo's people (made at start, before any request).
        "Host/CareHost.swift": [".store(for:"],
        "Host/DemoPeople.swift": [".store(for:", ".store(for:"],
    ]

    @Test func everyWayToARecordsStoreOutsideTheGateIsKnown() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/OpenCareKitServer")
            .standardizedFileURL
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL })
            .filter { $0.pathExtension == "swift" }
        #expect(files.count > 50)
        var found: [String: [String]] = [:]
        for file in files {
            let name = String(file.standardizedFileURL.path.dropFirst(sources.path.count + 1))
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                for pattern in Self.patterns {
                    var rest = Substring(code)
                    while let range = rest.range(of: pattern) {
                        found[name, default: []].append(pattern)
                        rest = rest[range.upperBound...]
                    }
                }
            }
        }
        for name in Set(found.keys).union(Self.allowed.keys).sorted() {
            #expect(found[name]?.sorted() == Self.allowed[name]?.sorted(), "\(name)")
        }
    }
}
