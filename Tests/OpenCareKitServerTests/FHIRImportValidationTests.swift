import Foundation
import OpenCareKit
import OpenCareKitFHIR
@testable import OpenCareKitServer
import OpenCareKitStore
import OpenCareKitSurveys
import Testing

/// FHIR import checks every element it reads against R4's datatypes and required value sets, whatever else the
/// Bundle holds, naming the path; and accepts what R4 allows.
@Suite struct FHIRImportValidationTests {
    typealias JSON = [String: Any]

    /// An export of the demo record with a signed onboarding, a check-in and doses: every resource kind imported.
    static func exported() async throws -> JSON {
        let (store, export) = try await record()
        let bundle = try await export.bundle(of: store)
        return try #require(try JSONSerialization.jsonObject(with: Data(bundle.text.utf8)) as? JSON)
    }

    /// The store of that record, and its export.
    static func record() async throws -> (OCKStore, FHIRExport) {
        let fixture = ServerFixture(surveys: true)
        try await fixture.seed()
        try await fixture.onboard(daysFromToday: -1)
        let dose = try await fixture.event("ibuprofen", daysFromToday: -1)
        try await fixture.store.addOutcome(OCKOutcome(taskUUID: dose.task.uuid, taskOccurrenceIndex: dose.scheduleEvent.occurrence,
                                                      values: [OCKOutcomeValue(true)]))
        let checkIn = try await fixture.event(OCKDemoSurveys.checkInTaskID, daysFromToday: -1)
        var session = OCKSurveySession(survey: OCKDemoSurveys.checkIn)
        try session.record(.answer(.scale(4)), for: "pain")
        try session.record(.answer(.number(7.5)), for: "sleep")
        try session.record(.answer(.yesNo(true)), for: "exercises")
        try await fixture.store.addOutcome(OCKOutcome(taskUUID: checkIn.task.uuid, taskOccurrenceIndex: checkIn.scheduleEvent.occurrence,
                                                      values: try session.finish().outcomeValues(createdDate: fixture.now)))
        let export = FHIRExport(patientID: "p", members: [.init(name: "Alex Rivera", role: "patient")], surveys: OCKDemoSurveys.byTaskID,
                                consentTaskID: OCKDemoSurveys.onboardingTaskID, timeZone: "Asia/Seoul", carePlanName: CarePlanCatalog.demo,
                                now: fixture.now)
        return (fixture.store, export)
    }

    @Test func anIntegerBeyond32BitsIsExportedAsAQuantityAndReadBack() async throws {
        let (store, export) = try await Self.record()
        // Two days ago's hydration (the record's fixture is at noon on 16 November 2026, in Seoul).
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Seoul")!
        var query = OCKEventQuery(for: calendar.date(from: DateComponents(year: 2026, month: 11, day: 14, hour: 12))!, calendar: calendar)
        query.taskIDs = ["hydration"]
        let event = try #require(try await store.fetchEvents(query: query).first)
        let large = 1 << 40
        try await store.addOutcome(OCKOutcome(taskUUID: event.task.uuid, taskOccurrenceIndex: event.scheduleEvent.occurrence,
                                              values: [OCKOutcomeValue(large)]))
        let bundle = try #require(try JSONSerialization.jsonObject(with: Data(try await export.bundle(of: store).text.utf8)) as? JSON)
        let record = try Self.read(bundle).get()
        #expect(record.outcomes.contains { $0.values.first?.doubleValue == Double(large) })
    }

    @Test func aReadOfOneTypeBuildsTheResourcesOfThatTypeAlone() async throws {
        let (store, export) = try await Self.record()
        let all = try await export.resources(of: store)
        let types = Set(all.compactMap { $0["resourceType"]?.string })
        #expect(types == ["Patient", "CarePlan", "Observation", "QuestionnaireResponse", "Questionnaire", "Consent", "CareTeam"])
        for type in types {
            #expect(try await export.resources(of: store, only: type) == all.filter { $0["resourceType"]?.string == type }, "\(type)")
        }
    }

    /// Reads `bundle` as the import does: the record, or the problem.
    static func read(_ bundle: JSON) throws -> Result<FHIRImport.Record, FHIRImport.Problem> {
        let data = try JSONSerialization.data(withJSONObject: bundle)
        do {
            return .success(try FHIRImport(surveys: OCKDemoSurveys.byTaskID).read(data))
        } catch {
            return .failure(error)
        }
    }

    /// `bundle` with the first resource of `type` changed by `change`; and the path of that resource.
    static func changing(_ bundle: JSON, _ type: String, _ change: (inout JSON) -> Void) throws -> (JSON, String) {
        var bundle = bundle
        var entries = try #require(bundle["entry"] as? [JSON])
        let index = try #require(entries.firstIndex { ($0["resource"] as? JSON)?["resourceType"] as? String == type })
        var resource = try #require(entries[index]["resource"] as? JSON)
        change(&resource)
        entries[index]["resource"] = resource
        bundle["entry"] = entries
        return (bundle, "Bundle.entry[\(index)].resource")
    }

    @Test func anExportIsReadWhole() async throws {
        let record = try Self.read(try await Self.exported()).get()
        #expect(record.patient != nil && record.tasks.count == 9 && record.outcomes.count == 3)
    }

    @Test func everyElementReadIsCheckedAgainstR4NamingItsPath() async throws {
        let bundle = try await Self.exported()
        // A Bundle of a lone Patient that this server did not write (no identifier) is checked as much.
        let lone: JSON = ["resourceType": "Bundle", "type": "collection",
                          "entry": [["resource": ["resourceType": "Patient", "birthDate": "yesterday"]]]]
        var cases: [(String, JSON, String)] = [("a lone Patient's birthDate", lone, "Bundle.entry[0].resource.birthDate")]
        var untyped = bundle
        untyped["type"] = "banana"
        cases.append(("Bundle.type", untyped, "Bundle.type"))
        untyped["type"] = nil
        cases.append(("no Bundle.type", untyped, "Bundle.type"))
        for (type, key, value, element) in [
            ("Patient", "birthDate", "1968-02-30", "birthDate"), ("Patient", "birthDate", "1968-4", "birthDate"),
            ("Patient", "gender", "maybe", "gender"),
            ("Observation", "status", "maybe", "status"), ("Observation", "status", nil, "status"),
            ("Observation", "effectiveDateTime", "2026-11-24T09:00:00", "effectiveDateTime"),
            ("Observation", "effectiveDateTime", "2026-02-29T10:00:00Z", "effectiveDateTime"),
            ("Observation", "effectiveDateTime", "2026-04-31", "effectiveDateTime"), ("Patient", "birthDate", "1900-02-29", "birthDate"),
            ("QuestionnaireResponse", "status", "maybe", "status"), ("Consent", "status", "signed", "status"),
            ("CarePlan", "status", "going", "status"), ("CarePlan", "intent", nil, "intent"), ("CarePlan", "id", "not an id", "id"),
        ] as [(String, String, String?, String)] {
            let (changed, path) = try Self.changing(bundle, type) { $0[key] = value }
            cases.append(("\(type).\(key) = \(value ?? "absent")", changed, "\(path).\(element)"))
        }
        let (largeInteger, integerPath) = try Self.changing(bundle, "Observation") { resource in
            resource["valueBoolean"] = nil
            resource["valueInteger"] = 1 << 40
        }
        cases.append(("an integer of more than 32 bits", largeInteger, "\(integerPath).valueInteger"))
        let (badActivity, activityPath) = try Self.changing(bundle, "CarePlan") { resource in
            var activities = resource["activity"] as? [JSON] ?? []
            var detail = activities[0]["detail"] as? JSON ?? [:]
            detail["status"] = "someday"
            activities[0]["detail"] = detail
            resource["activity"] = activities
        }
        cases.append(("an activity's status", badActivity, "\(activityPath).activity[0].detail.status"))
        for (name, changed, path) in cases {
            guard case let .failure(problem) = try Self.read(changed) else {
                Issue.record("\(name): accepted")
                continue
            }
            #expect(problem.expression == path, "\(name): \(problem.expression) \(problem.message)")
            #expect(["value", "required"].contains(problem.code), "\(name): \(problem.code)")
        }
    }

    @Test func aBundleOfTooManyEntriesIsRefusedBeforeItIsParsed() throws {
        // Entries that are not even JSON: counted in the bytes, refused without parsing.
        let entry = #"{"resource":{"resourceType":"Observation"}},"#
        let text = #"{"resourceType":"Bundle","type":"collection","entry":["# + String(repeating: entry, count: FHIRImport.maximumEntries + 1)
        do {
            _ = try FHIRImport().read(Data(text.utf8) + Data("not json".utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.code == "too-costly" && error.expression == "Bundle.entry")
        }
        #expect(FHIRImport.resourceTypeCount(Data(text.utf8), atMost: 10) == 11)
    }

    @Test func whatR4AllowsIsAccepted() async throws {
        let bundle = try await Self.exported()
        // Partial birth dates: the birthday is their first day.
        for (text, day) in [("1968", "1968-01-01"), ("1968-04", "1968-04-01"), ("1968-04-23", "1968-04-23")] {
            let (changed, _) = try Self.changing(bundle, "Patient") { $0["birthDate"] = text }
            let birthday = try #require(try Self.read(changed).get().patient?.birthday)
            #expect(ISO8601DateFormatter.string(from: birthday, timeZone: .gmt, formatOptions: [.withFullDate]) == day, "\(text)")
        }
        // A dateTime of a day, and one with an offset and fractions of a second; another R4 status.
        for value in ["2026-11-24", "2026-11-24T09:00:00.125+09:00", "2016-12-31T23:59:60Z", "2024-02-29T10:00:00-14:00"] {
            let (changed, _) = try Self.changing(bundle, "Observation") { $0["effectiveDateTime"] = value; $0["status"] = "amended" }
            #expect((try? Self.read(changed).get()) != nil, "\(value)")
        }
        var batch = bundle
        batch["type"] = "batch"
        #expect((try? Self.read(batch).get()) != nil)
    }
}
