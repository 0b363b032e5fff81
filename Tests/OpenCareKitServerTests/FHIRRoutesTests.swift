import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import OpenCareKitDirectory
@testable import OpenCareKitFHIR
@testable import OpenCareKitServer
import OpenCareKitStore
import Testing

/// The read-only FHIR endpoints: tokens within their SMART scope and record, sessions, the date search, and
/// OperationOutcomes for every refusal and mistake.
extension AccountRoutesTests {
    @Test func fhirEndpointsAnswerWithinTheTokensScopeAndRefuseWithOperationOutcomes() async throws {
        let setup = try await setup()
        let record = try #require(try await setup.directory.record(setup.record))
        let server = try #require(try await setup.host.records.server(for: setup.record, load: { record }))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Asia/Seoul"))
        var patient = OCKPatient(id: "ana", givenName: "Ana", familyName: "Kim")
        patient.sex = .female
        try await server.store.addPatient(patient)
        let task = try await server.store.addTask(OCKTask(id: "weigh", title: "Weigh in", carePlanUUID: nil, schedule: .dailyAtTime(
            hour: 8, minutes: 0, start: now.addingTimeInterval(-86_400 * 10), end: nil, text: nil, calendar: calendar)))
        for (day, weight) in [(9, 70.5), (5, 70.1), (1, 69.8)] {
            let date = now.addingTimeInterval(-86_400 * Double(day))
            try await server.store.addOutcome(OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: 10 - day,
                                                         values: [OCKOutcomeValue(weight, units: "kg", createdDate: date)]))
        }
        // The day six days ago in the record's zone, as a FHIR date.
        let parts = calendar.dateComponents([.year, .month, .day], from: now.addingTimeInterval(-86_400 * 6))
        let sixDaysAgo = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        try await Application(router: setup.host.router()).test(.router) { client in
            let ana = TestBrowser(client)
            try await ana.signIn("ana@example.org", Self.password)
            func token(_ scope: String) async throws -> String {
                let page = String(buffer: try await ana.send("/account/tokens", .post, form: [
                    "label": scope, "record": setup.record.description, "scope": scope]).body)
                return String(try #require(page.firstMatch(of: #/value="(ock_[0-9a-z]{52})"/#)?.output.1))
            }
            func get(_ path: String, _ secret: String?) async throws -> (HTTPResponse.Status, FHIRJSON, TestResponse) {
                var headers: HTTPFields = [.accept: "application/fhir+json"]
                if let secret { headers[.authorization] = "Bearer \(secret)" }
                let response = try await client.executeRequest(uri: path, method: .get, headers: headers, body: nil)
                #expect(response.headers[.contentType] == "application/fhir+json", "\(path)")
                return (response.status, try JSONDecoder().decode(FHIRJSON.self, from: Data(buffer: response.body)), response)
            }
            let id = setup.record.description
            let everything = try await token("patient/*.rs")
            let (status, read, _) = try await get("/fhir/R4/Patient/\(id)", everything)
            #expect(status == .ok && read["id"]?.string == id && read["gender"]?.string == "female")
            #expect(read["name"]?.array?.first?["family"]?.string == "Kim")

            // Observations by date: ge and lt bound a range of days in the record's zone.
            // Observations are counted when asked (`_total=accurate`: a count visits every match).
            let (_, all, _) = try await get("/fhir/R4/Observation?patient=Patient/\(id)&_total=accurate", everything)
            #expect(all["type"]?.string == "searchset" && all["total"]?.integer == 3 && all["entry"]?.array?.count == 3)
            let (_, uncounted, _) = try await get("/fhir/R4/Observation?patient=Patient/\(id)", everything)
            #expect(uncounted["total"] == nil && uncounted["entry"] == all["entry"])
            let day = sixDaysAgo
            let (_, recent, _) = try await get("/fhir/R4/Observation?patient=\(id)&date=ge\(day)&_total=accurate", everything)
            #expect(recent["total"]?.integer == 2)
            let values = recent["entry"]?.array?.compactMap { $0["resource"]?["valueQuantity"]?["value"]?.number }
            #expect(values == [70.1, 69.8])
            let (_, older, _) = try await get("/fhir/R4/Observation?patient=\(id)&date=lt\(day)&_total=accurate", everything)
            #expect(older["total"]?.integer == 1)
            // Paging: _count, with a next link that carries the page's cursor; following the links gives every
            // Observation once, and the last page has no next.
            func next(_ bundle: FHIRJSON) -> String? {
                bundle["link"]?.array?.first { $0["relation"]?.string == "next" }?["url"]?.string
                    .flatMap { url in url.range(of: "/fhir/R4/").map { String(url[$0.lowerBound...]) } }
            }
            var (_, page, _) = try await get("/fhir/R4/Observation?patient=\(id)&_count=2", everything)
            var walked = page["entry"]?.array ?? []
            #expect(walked.count == 2 && next(page)?.contains("_cursor=") == true && next(page)?.contains("_count=2") == true)
            while let link = next(page), walked.count <= 3 {
                (_, page, _) = try await get(link, everything)
                walked += page["entry"]?.array ?? []
            }
            #expect(walked == all["entry"]?.array)
            // A cursor not of a link, or a count mode FHIR does not name: a clear refusal.
            for bad in ["_cursor=3ff0_x_1", "_cursor=", "_total=all"] {
                let (status, outcome, _) = try await get("/fhir/R4/Observation?patient=\(id)&\(bad)", everything)
                #expect(status == .badRequest && outcome["issue"]?.array?.first?["code"]?.string == "invalid", "\(bad)")
            }
            let (_, plans, _) = try await get("/fhir/R4/CarePlan?patient=\(id)", everything)
            #expect(plans["total"]?.integer == 1)
            #expect(try await get("/fhir/R4/CarePlan?patient=\(id)&_cursor=-_\(UUID())_0", everything).0 == .badRequest)

            // A token for Observations alone reads no CarePlan; a calendar link reads nothing.
            let observations = try await token("patient/Observation.rs")
            #expect(try await get("/fhir/R4/Observation?patient=\(id)", observations).0 == .ok)
            let (refused, outcome, _) = try await get("/fhir/R4/CarePlan?patient=\(id)", observations)
            #expect(refused == .forbidden && outcome["resourceType"]?.string == "OperationOutcome"
                    && outcome["issue"]?.array?.first?["code"]?.string == "forbidden")
            // Another record, an unknown one, no token: the same refusals whatever exists.
            let (missing, notFound, _) = try await get("/fhir/R4/Patient/\(RandomIdentifier.random())", everything)
            #expect(missing == .notFound && notFound["issue"]?.array?.first?["code"]?.string == "not-found")
            let (anonymous, login, response) = try await get("/fhir/R4/Patient/\(id)", nil)
            #expect(anonymous == .unauthorized && login["issue"]?.array?.first?["code"]?.string == "login")
            #expect(response.headers[.wwwAuthenticate] == "Bearer realm=\"OpenCareKit\"")
            // Mistakes: never a 500.
            for (path, code) in [("/fhir/R4/Observation", "required"), ("/fhir/R4/Observation?patient=\(id)&date=ge2026-13-01", "invalid"),
                                 ("/fhir/R4/Observation?patient=\(id)&code=1234", "not-supported"),
                                 ("/fhir/R4/Observation?patient=\(id)&_count=0", "invalid"), ("/fhir/R4/Patient/%00", "not-found")] {
                let (status, body, _) = try await get(path, everything)
                #expect(status.code >= 400 && status.code < 500 && body["issue"]?.array?.first?["code"]?.string == code, "\(path) \(status)")
            }
        }
        // Each read is audited as the record's, by its token.
        let audit = try await setup.directory.auditEntries(record: setup.record, limit: 100, offset: 0)
        #expect(audit.contains { $0.draft.detail == "GET /fhir/R4/Observation" && $0.draft.token != nil && $0.draft.outcome == .allowed })
        #expect(audit.contains { $0.draft.detail == "GET /fhir/R4/CarePlan" && $0.draft.outcome == .denied })
    }

    @Test func dateFiltersReadFHIRsPrefixesAndPrecisions() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Asia/Seoul"))
        let noon = try #require(calendar.date(from: DateComponents(year: 2026, month: 3, day: 15, hour: 12)))
        let day = try #require(FHIRSearch.DateFilter("2026-03-15", calendar: calendar))
        #expect(day.prefix == "eq" && day.matches(noon) && !day.matches(noon.addingTimeInterval(86_400)))
        #expect(try #require(FHIRSearch.DateFilter("ge2026-03", calendar: calendar)).matches(noon))
        #expect(try #require(FHIRSearch.DateFilter("lt2026", calendar: calendar)).matches(noon) == false)
        #expect(try #require(FHIRSearch.DateFilter("gt2026-03-14", calendar: calendar)).matches(noon))
        #expect(try #require(FHIRSearch.DateFilter("le2026-03-15T02:59:59Z", calendar: calendar)).matches(noon) == false)
        for bad in ["2026-02-30", "2026-3-01", "xx2026", "ge", "2026-03-15T25:00:00Z", "99999"] {
            #expect(FHIRSearch.DateFilter(bad, calendar: calendar) == nil, "\(bad)")
        }
    }
}
