import Foundation
import Hummingbird
import OpenCareKitFHIR
import OpenCareKitStore

/// FHIR R4: a record exported as one Bundle (`/records/{id}/fhir/export`), for another system or for the person to
/// keep. Reading the whole record, it asks for the permission to read and is audited as an export.
extension CareHost {
    func addFHIRRoutes(to routes: inout HostRoutes) {
        let host = self
        addRecordRoute(&routes, .get, "/fhir/export", .page("fhir-export", .read, action: .execute)) { _, _, access in
            try await host.fhirExport(access)
        }
    }

    /// The record as a FHIR R4 Bundle.
    func fhirExport(_ access: RecordAccess) async throws -> Response {
        guard let server = try await records.server(for: access.record, load: { try await directory.record(access.record) }) else {
            return APIError(status: .notFound, field: nil, message: "There is no such record.").response
        }
        try await server.store.catchUp()
        let members = try await directory.members(of: access.record).map { member in
            FHIRExport.Member(name: member.account.name, role: member.membership.role.rawValue)
        }
        let export = FHIRExport(patientID: access.record.description, members: members, surveys: server.configuration.surveys,
                                consentTaskID: server.configuration.onboardingTaskID, now: configuration.now())
        let bundle = try await export.bundle(of: server.store)
        return Response(status: .ok, headers: [.contentType: "application/fhir+json", .cacheControl: "no-store",
                                               .contentDisposition: "attachment; filename=\"care-record-fhir.json\""],
                        body: .init(byteBuffer: ByteBuffer(string: bundle.text)))
    }
}
