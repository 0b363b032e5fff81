import Foundation
import OpenCareKitDirectory
import OpenCareKitStore

/// Fills a data directory with `count` care records for `scripts/bench-records`: their directory rows and one
/// clinician, Dr. Bench (`bench@example.org`), who is a member of all of them. The records' stores are not made:
/// a server opens a store on its record's first use, which is what the benchmark shows.
struct RecordsBenchmark {
    var count = 10_000
    var data: URL

    func run() async throws {
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let directory = try SQLiteCareDirectory(path: data.appending(path: "directory.sqlite").path)
        let now = Date()
        let clinician = CareAccount(email: "bench@example.org", name: "Dr. Bench", passwordHash: "-", createdDate: now)
        try await directory.addAccount(clinician)
        let start = ContinuousClock.now
        for index in 0..<count {
            let record = CareRecord(patientName: "Patient \(index + 1)", timeZoneIdentifier: "Asia/Seoul", createdDate: now)
            try await directory.addRecord(record, member: CareMembership(record: record.id, account: clinician.id, role: .clinician,
                                                                         isOwner: false, createdDate: now))
        }
        let seconds = Double((ContinuousClock.now - start).components.attoseconds) / 1e18 + Double((ContinuousClock.now - start).components.seconds)
        print("added \(count) records in \(String(format: "%.2f", seconds)) s")
    }
}
