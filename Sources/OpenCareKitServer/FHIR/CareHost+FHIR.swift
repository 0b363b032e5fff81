import Foundation
import Hummingbird
import OpenCareKitDirectory
import OpenCareKitFHIR
import OpenCareKitStore

/// FHIR R4: a record exported as one Bundle (`/records/{id}/fhir/export`), and read-only endpoints under `/fhir/R4`
/// for other systems — `Patient/{id}`, `CarePlan?patient=`, `Observation?patient=&date=` — where a Patient is a
/// record (its id is the record's). They take the same sign-in and access tokens as the JSON API, a token within its
/// SMART scope (`patient/Observation.rs` …) and for its own record only; every read is authorized and audited before
/// the store is touched. Every error is an `OperationOutcome`, a malformed request's never a 500.
extension CareHost {
    /// The most resources a search answers at once (`_count`), and the default.
    static let fhirPageLimit = 500
    static let fhirPageDefault = 100

    func addFHIRRoutes(to routes: inout HostRoutes) {
        let host = self
        addRecordRoute(&routes, .get, "/fhir/export", .page("fhir-export", .read, action: .execute)) { _, _, access in
            try await host.heavy(for: access.identity) { try await host.fhirExport(access) }
        }
        routes.account(.post, "/records/import") { request, context, identity in
            try await host.fhirImport(request, context, identity)
        }
        routes.fhir(.get, "/fhir/R4/Patient/:id", .api(.read, ["Patient"], "r")) { request, context in
            try await host.fhirRead(request, context, record: context.parameters.get("id"), policy: .api(.read, ["Patient"], "r"),
                                    detail: "GET /fhir/R4/Patient/{id}") { store, export, _ in
                guard let patient = try await export.resources(of: store, only: "Patient").first else {
                    return (.notFound, FHIRSearch.outcome("not-found", "There is no such patient, or you have no access to it."))
                }
                return (.ok, patient)
            }
        }
        // The care team's work: messages for every member (the threads their role sees), alerts and their triage for
        // the clinicians.
        let searches: [(String, RecordPermission)] = [("CarePlan", .read), ("Observation", .read), ("Communication", .read), ("Flag", .triage),
                                                      ("Task", .triage)]
        for (type, permission) in searches {
            let detail = "GET /fhir/R4/\(type)"
            let policy = RecordRoutePolicy.api(permission, [type], "s")
            routes.fhir(.get, "/fhir/R4/\(type)", policy) { request, context in
                let parameters = request.uri.queryParameters
                guard let patient = parameters.get("patient") else {
                    throw FHIRRefusal(status: .badRequest, code: "required", reason: "Name the patient: ?patient=Patient/{id}.",
                                      expression: "patient")
                }
                let id = patient.hasPrefix("Patient/") ? String(patient.dropFirst("Patient/".count)) : patient
                return try await host.fhirRead(request, context, record: id, policy: policy, detail: detail) { store, export, calendar in
                    try await host.search(type, request: request, calendar: calendar) { asked in
                        if type == "Observation" {
                            // Paged in the store's query, from the cursor of the page before: the cost follows the
                            // page, not the record.
                            let found = try await export.observationPage(of: store, conditions: asked.filters, after: asked.cursor,
                                                                         offset: asked.offset, count: asked.count, counting: asked.counting)
                            return (found.total, found.page, found.next.map { "_cursor=\($0.token)" })
                        }
                        let all = try await export.resources(of: store, only: type)
                        let end = asked.offset + asked.count
                        return (all.count, Array(all.dropFirst(asked.offset).prefix(asked.count)), end < all.count ? "_offset=\(end)" : nil)
                    }
                }
            }
        }
    }

    /// What a FHIR search asks for: its `date` filters, where its page starts (`_cursor`, a `next` link's, or
    /// `_offset`), how many (`_count`), and whether to count every match (`_total=accurate`).
    struct FHIRPageRequest {
        var filters: [FHIRSearch.DateFilter]
        var cursor: OCKOutcomeValueCursor?
        var offset: Int
        var count: Int
        var counting: Bool
    }

    /// A search for `type`: its parameters read (the `date` filters and `_cursor`, Observations only; `_count`,
    /// `_offset` and `_total`), then `page` asked for the page, how many match (when it counted them) and the parameter
    /// that starts the next page, answered as a `searchset` Bundle.
    func search(_ type: String, request: Request, calendar: Calendar,
                page: (FHIRPageRequest) async throws -> (total: Int?, page: [FHIRJSON], next: String?))
        async throws -> (HTTPResponse.Status, FHIRJSON) {
        let parameters = request.uri.queryParameters
        let known: Set<String> = type == "Observation" ? ["patient", "date", "_count", "_offset", "_cursor", "_total"]
            : ["patient", "_count", "_offset", "_total"]
        if let unknown = parameters.map({ String($0.key) }).first(where: { !known.contains($0) }) {
            return (.badRequest, FHIRSearch.outcome("not-supported", "This server does not search \(type) by that parameter.", expression: unknown))
        }
        var filters: [FHIRSearch.DateFilter] = []
        for value in parameters[values: "date"] {
            guard let filter = FHIRSearch.DateFilter(String(value), calendar: calendar) else {
                return (.badRequest, FHIRSearch.outcome("invalid", "A date is a prefix (eq, ne, lt, le, gt, ge) and YYYY, YYYY-MM, YYYY-MM-DD "
                                                        + "or a date and time with its zone.", expression: "date"))
            }
            filters.append(filter)
        }
        func number(_ name: String, default value: Int, in range: ClosedRange<Int>) -> Int? {
            guard let text = parameters.get(name) else { return value }
            return Int(text).flatMap { range.contains($0) ? $0 : nil }
        }
        guard let count = number("_count", default: Self.fhirPageDefault, in: 1...Self.fhirPageLimit),
              let offset = number("_offset", default: 0, in: 0...1_000_000) else {
            return (.badRequest, FHIRSearch.outcome("invalid", "_count is from 1 to \(Self.fhirPageLimit), _offset from 0 to 1000000."))
        }
        let cursor = parameters.get("_cursor").map(OCKOutcomeValueCursor.init(token:))
        if case .some(nil) = cursor {
            return (.badRequest, FHIRSearch.outcome("invalid", "_cursor is the one of a next link, unchanged.", expression: "_cursor"))
        }
        let total = parameters.get("_total") ?? "none"
        guard ["none", "estimate", "accurate"].contains(total) else {
            return (.badRequest, FHIRSearch.outcome("invalid", "_total is none, estimate or accurate.", expression: "_total"))
        }
        let found = try await page(FHIRPageRequest(filters: filters, cursor: cursor ?? nil, offset: offset, count: count, counting: total == "accurate"))
        let origin = configuration.publicOrigin ?? "http://\(request.head.authority ?? "localhost")"
        let base = origin + "/fhir/R4"
        let query = parameters.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        let kept = parameters.filter { !["_offset", "_cursor"].contains($0.key) }.map { "\($0.key)=\($0.value)" }
        return (.ok, FHIRSearch.searchset(page: found.page, total: found.total, selfLink: "\(base)/\(type)?\(query)",
                                          nextLink: found.next.map { "\(base)/\(type)?\((kept + [$0]).joined(separator: "&"))" }, base: base))
    }

    /// Authorizes a FHIR read of the record `record` names (a Patient id), then answers with `body`'s resource over the
    /// record's resources; refusals and failures as OperationOutcomes.
    func fhirRead(_ request: Request, _ context: CareRequestContext, record: String?, policy: RecordRoutePolicy, detail: String,
                  _ body: (OCKStore, FHIRExport, Calendar) async throws -> (HTTPResponse.Status, FHIRJSON)) async throws -> Response {
        let access = try await authorize(policy, detail: detail, request, context, record: record ?? "")
        return try await heavy(for: access.identity) {
            let teamWork = (policy.tokenAccess?.resourceTypes ?? []).filter(Self.teamWorkTypes.contains)
            guard let (server, export) = try await fhirSource(access, teamWork: Set(teamWork)) else { throw Self.noSuchRecord }
            let (status, resource) = try await body(server.store, export, server.calendar)
            return Self.fhirResponse(status, resource)
        }
    }

    /// Runs `body` as heavy work of `identity`'s account (`HeavyWork`); beyond the limits, `HeavyWork.Busy` (503 with
    /// `Retry-After`; an OperationOutcome, `throttled`, to FHIR's clients), at once.
    func heavy(for identity: CareIdentity, _ body: () async throws -> Response) async throws -> Response {
        try await heavyWork.run(for: identity.account.id.description, body)
    }

    static func fhirResponse(_ status: HTTPResponse.Status, _ resource: FHIRJSON) -> Response {
        Response(status: status, headers: [.contentType: "application/fhir+json", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: resource.text)))
    }

    /// `POST /records/import` (a Bundle as `/fhir/export` writes it, `application/fhir+json`, at most 32 MB): a new record
    /// of the person asking (its owner, as its patient, or `?role=caregiver`) holding the Bundle's patient, care plans,
    /// tasks and outcomes. The Bundle is read whole and written first into a store in memory under the same rules as
    /// every write (the surveys' too), so a Bundle refused leaves nothing behind; then into the new record's store.
    /// Answers 201 with the record's address, or an OperationOutcome naming what is wrong.
    func fhirImport(_ request: Request, _ context: CareRequestContext, _ identity: CareIdentity) async throws -> Response {
        guard request.headers[.contentType]?.hasPrefix("application/fhir+json") == true || request.headers[.contentType]?.hasPrefix("application/json") == true else {
            throw FHIRRefusal(status: .unsupportedMediaType, code: "not-supported", reason: "Send the Bundle as application/fhir+json.")
        }
        let role: CareRole
        switch request.uri.queryParameters.get("role") ?? "patient" {
        case "patient": role = .patient
        case "caregiver": role = .caregiver
        default: throw FHIRRefusal(status: .badRequest, code: "invalid", reason: "role is patient or caregiver.", expression: "role")
        }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: FHIRImport.maximumBytes)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw FHIRRefusal(status: .contentTooLarge, code: "too-costly", reason: "A Bundle is at most 32 MB.")
        }
        let data = Data(buffer: body)
        // A record per import: an account owns a bounded number (the directory refuses more; asked first here, so a
        // refused import writes nothing).
        let owned = try await directory.memberships(of: identity.account.id).count { $0.membership.isOwner }
        guard owned < CareDirectoryLimits.recordsPerAccount else {
            throw FHIRRefusal(status: .forbidden, code: "business-rule",
                              reason: "An account owns at most \(CareDirectoryLimits.recordsPerAccount) records.", expression: "Bundle")
        }
        // The Bundle received (a slow upload holds no slot), reading and writing it is heavy work.
        return try await heavy(for: identity) { try await importBundle(data, role: role, context, identity) }
    }

    /// Reads the Bundle `data` and writes it into a new record of `identity`'s, with `role` (`fhirImport`).
    private func importBundle(_ data: Data, role: CareRole, _ context: CareRequestContext, _ identity: CareIdentity) async throws -> Response {
        // The plan named by the Bundle decides the surveys, whose answers carry their questions' units.
        let plan = try FHIRImport().read(data).carePlanName.flatMap { $0 == CarePlanCatalog.demo ? $0 : nil }
        let now = configuration.now()
        var draft = CareRecord(patientName: "", timeZoneIdentifier: TimeZone.current.identifier, carePlan: plan, createdDate: now)
        let settings = CarePlanCatalog.configuration(for: draft)
        let imported = try FHIRImport(surveys: settings.surveys).read(data)
        let name = imported.patientName.trimmingCharacters(in: .whitespacesAndNewlines)
        draft.patientName = name.isEmpty ? "Imported record" : String(name.prefix(200))
        draft.timeZoneIdentifier = imported.timeZone ?? draft.timeZoneIdentifier
        let record = draft
        // Checked first where a refusal leaves nothing behind.
        let check = OCKStore(name: "import-\(record.id)", type: .inMemory)
        CarePlanCatalog.installRules(on: check, for: record, now: configuration.now)
        do {
            try await FHIRImport.write(imported, into: check)
        } catch {
            throw FHIRRefusal(status: .unprocessableContent, code: "business-rule", reason: Self.importRefusal(error))
        }
        guard let server = try await records.server(for: record.id, load: { record }) else { throw NewRecordUnavailable() }
        try await FHIRImport.write(imported, into: server.store)
        // With its messages and triage items, checked as the Bundle was read (`CareTeamWork.problem`) and again by the
        // directory as it writes them, in the record's own transaction.
        try await directory.addRecord(record, member: CareMembership(record: record.id, account: identity.account.id, role: role,
                                                                     isOwner: true, createdDate: now), teamWork: imported.teamWork)
        try await audit.record(AuditEntry.Draft(recorded: now, account: identity.account.id, record: record.id, resource: "fhir-import",
                                                action: .create, outcome: .allowed, address: context.clientAddress,
                                                detail: "POST /records/import"))
        var response = Self.fhirResponse(.created, .object(
            ("resourceType", "OperationOutcome"),
            ("issue", .array([.object(("severity", "information"), ("code", "informational"),
                                      ("diagnostics", .string("Imported into record \(record.id).")))]))))
        response.headers[.location] = "/records/\(record.id)/care"
        return response
    }

    /// The record an import has just made could not be opened: the server's fault.
    struct NewRecordUnavailable: Error {}

    /// What a store said about an imported entity, without its data: the rule or limit it broke.
    static func importRefusal(_ error: any Error) -> String {
        switch error {
        case let violation as OCKStoreRuleViolation: "The Bundle breaks a rule of its care plan: \(violation.reason)"
        case let error as OCKStoreError: "The Bundle holds something the store refuses: \(error.localizedDescription)"
        default: "The Bundle could not be imported."
        }
    }

    /// The resources of the care team's work (the directory's, not the store's).
    static let teamWorkTypes: Set = ["Communication", "Flag", "Task"]

    /// The record's server, its store caught up, and how its resources are exported (nil: no such record); with
    /// `teamWork`, the export holds what the person sees of the messages (Communication) and triage items (Flag, Task).
    func fhirSource(_ access: RecordAccess, members: [FHIRExport.Member] = [], teamWork: Set<String> = []) async throws -> (CareServer, FHIRExport)? {
        let record = access.record
        guard let stored = try await directory.record(record), let server = try await server(for: access) else {
            return nil
        }
        try await server.store.catchUp()
        var export = FHIRExport(patientID: record.description, members: members, surveys: server.configuration.surveys,
                                consentTaskID: server.configuration.onboardingTaskID, timeZone: stored.timeZoneIdentifier,
                                carePlanName: stored.carePlan, now: configuration.now())
        if !teamWork.isEmpty { export.teamWork = try await self.teamWork(for: access, types: teamWork) }
        return (server, export)
    }

    /// What `access`'s person sees of the record's messages (the threads their role sees, oldest first) and, for a
    /// clinician, its triage items: bounded by what a record keeps (`CareThread`, `CareMessage`, `CareTriageItem`).
    func teamWork(for access: RecordAccess, types: Set<String>) async throws -> FHIRExport.TeamWork {
        let reader = access.identity.account.id
        var threads: [CareTeamWork.Thread] = []
        if types.contains("Communication") {
            // Every thread in one read (a record has at most 1,000): a message arriving meanwhile moves none of them.
            for listing in try await directory.threads(record: access.record, reader: reader, before: nil, limit: CareThread.maximumPerRecord) {
                let messages = try await directory.threadMessages(listing.thread.id, reader: reader, before: nil, limit: CareMessage.maximumPerRecord)
                threads.append(CareTeamWork.Thread(thread: listing.thread, messages: messages))
            }
        }
        var items: [CareTriageItem] = []
        if !types.isDisjoint(with: ["Flag", "Task"]), RecordPermission.triage.isGranted(to: access.membership) {
            items = try await directory.triageItems(records: [access.record], open: true, limit: CareTriageItem.maximumOpenPerRecord)
                + directory.triageItems(records: [access.record], open: false,
                                        limit: CareTriageItem.maximumResolvedPerRecord + CareTriageItem.maximumOpenPerRecord)
        }
        let accounts = threads.flatMap { $0.messages.compactMap(\.author) }
            + items.flatMap { [$0.owner, $0.acknowledgedBy, $0.resolvedBy].compactMap { $0 } }
        return FHIRExport.TeamWork(threads: threads.sorted { ($0.thread.startedDate, $0.thread.id) < ($1.thread.startedDate, $1.thread.id) },
                                   triageItems: items, names: try await accountNames(accounts))
    }

    /// The record as a FHIR R4 Bundle.
    func fhirExport(_ access: RecordAccess) async throws -> Response {
        let members = try await directory.members(of: access.record).map { member in
            FHIRExport.Member(name: member.account.name, role: member.membership.role.rawValue)
        }
        guard let (server, export) = try await fhirSource(access, members: members, teamWork: Self.teamWorkTypes) else {
            throw ClientError(status: .notFound, message: "There is no such record.")
        }
        let bundle = try await export.bundle(of: server.store)
        return Response(status: .ok, headers: [.contentType: "application/fhir+json", .cacheControl: "no-store",
                                               .contentDisposition: "attachment; filename=\"care-record-fhir.json\""],
                        body: .init(byteBuffer: ByteBuffer(string: bundle.text)))
    }
}
