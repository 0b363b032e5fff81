import Foundation
import OpenCareKitDirectory
import OpenCareKitStore
import OpenCareKitSurveys

extension CareDataDirectory {
    /// Adopts the store of a data directory from before records (`opencarekit.sqlite`) as a record without members,
    /// leaving the file where it is, so nothing is lost or moved. Does nothing when there is no such store or it was
    /// adopted already.
    ///
    /// - Returns: The adopted record, if this call adopted one.
    public func adoptLegacyStore(into directory: any CareDirectory, timeZone: TimeZone, now: Date) async throws -> CareRecord? {
        guard FileManager.default.fileExists(atPath: legacyStoreFile.path) else { return nil }
        var after: CareRecordID?
        while true {
            let page = try await directory.records(limit: 500, after: after)
            if page.contains(where: { $0.storeName == "opencarekit" }) { return nil }
            guard let last = page.last else { break }
            after = last.id
        }
        let store = OCKStore(name: "opencarekit", type: .onDisk(), directory: url)
        try store.open()
        let patient = try await store.fetchPatients(query: OCKPatientQuery()).first
        let name = patient.map { [$0.name.givenName, $0.name.familyName].compactMap { $0 }.joined(separator: " ") } ?? ""
        var query = OCKTaskQuery()
        query.ids = [OCKDemoSurveys.onboardingTaskID]
        let followsDemo = try await !store.fetchTasks(query: query).isEmpty
        let record = CareRecord(storeName: "opencarekit", patientName: name.isEmpty ? "Care record" : name,
                                timeZoneIdentifier: timeZone.identifier, carePlan: followsDemo ? CarePlanCatalog.demo : nil,
                                createdDate: now)
        try await directory.addRecord(record, member: nil)
        return record
    }
}
