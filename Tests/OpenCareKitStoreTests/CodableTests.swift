import Foundation
import Testing
@testable import OpenCareKitStore

/// Entities encoded by CareKit decode here and encode back to the same JSON.
@Suite struct CodableTests {
    private func roundTrips<T: Codable & Equatable>(_ type: T.Type, fixture: String) throws -> T {
        let data = try Fixtures.data(fixture)
        let decoded = try JSONDecoder().decode(type, from: data)
        let encoded = try Fixtures.encode(decoded)
        #expect(try Fixtures.jsonObject(encoded) == Fixtures.jsonObject(data), "\(fixture) does not encode back the same")
        #expect(try JSONDecoder().decode(type, from: encoded) == decoded)
        return decoded
    }

    @Test func careKitTaskDecodesAndEncodesBackTheSame() throws {
        let task = try roundTrips(OCKTask.self, fixture: "task")
        #expect(task.id == "doxylamine")
        #expect(task.impactsAdherence)
        #expect(task.schemaVersion == OCKSemanticVersion(majorVersion: 3))
        #expect(task.notes?.first?.author == "Dr. Maria Ruiz")
        #expect(task.schedule.elements.count == 2)
        #expect(task.schedule.elements[0].targetValues.first?.doubleValue == 25)
        #expect(task.schedule.elements[1].duration == .allDay)
        #expect(task.timezone.identifier == "America/Los_Angeles")
    }

    @Test func careKitsAutoupdatingCalendarKeepsTheTimeZoneItWasEncodedIn() throws {
        // The fixture's calendar was CareKit's autoupdating current calendar in Los Angeles. Foundation alone would
        // decode it as this process's calendar; the schedule keeps Los Angeles.
        let task = try JSONDecoder().decode(OCKTask.self, from: Fixtures.data("task"))
        let element = task.schedule.elements[0]
        #expect(element.timeZone.identifier == "America/Los_Angeles")
        // 200 daily events from November 2025 cross the March 2026 change: computed in Los Angeles they all keep the
        // first event's local time (08:00); computed in this process's zone they would shift by an hour.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/Los_Angeles")!
        let events = element.events(betweenOccurrenceIndex: 0, and: 200)
        #expect(events.count == 200)
        let expected = calendar.dateComponents([.hour, .minute], from: events[0].start)
        #expect(expected == DateComponents(hour: 8, minute: 0))
        #expect(events.allSatisfy { calendar.dateComponents([.hour, .minute], from: $0.start) == expected })
    }

    @Test func careKitOutcomeWithEveryValueTypeRoundTrips() throws {
        let outcome = try roundTrips(OCKOutcome.self, fixture: "outcome")
        #expect(outcome.taskOccurrenceIndex == 12)
        #expect(outcome.values.map(\.type) == [.boolean, .double, .integer, .text, .date, .binary])
        #expect(outcome.values[0].booleanValue == true)
        #expect(outcome.values[1].doubleValue == 25.5)
        #expect(outcome.values[1].units == "mg")
        #expect(outcome.values[2].integerValue == 7)
        #expect(outcome.values[3].stringValue == "felt better after an hour")
        #expect(outcome.values[4].dateValue == Date(timeIntervalSinceReferenceDate: 786038000))
        #expect(outcome.values[5].dataValue == Data([0, 1, 2, 255]))
        #expect(outcome.values[5].endDate == Date(timeIntervalSinceReferenceDate: 786038500))
    }

    @Test func careKitPatientCarePlanAndContactRoundTrip() throws {
        let patient = try roundTrips(OCKPatient.self, fixture: "patient")
        #expect(patient.name.givenName == "Min-jun")
        #expect(patient.name.nickname == "MJ")
        #expect(patient.sex == .other("intersex"))
        let plan = try roundTrips(OCKCarePlan.self, fixture: "careplan")
        #expect(plan.previousVersionUUIDs.count == 1)
        #expect(plan.deletedDate != nil)
        let contact = try roundTrips(OCKContact.self, fixture: "contact")
        #expect(contact.category == .careProvider)
        #expect(contact.address?.city == "San Francisco")
        #expect(contact.phoneNumbers == [OCKLabeledValue(label: "work", value: "(324) 555-7415")])
        #expect(contact.name.namePrefix == "Dr.")
    }

    @Test func revisionRecordWithEntitiesAndKnowledgeVectorRoundTrips() throws {
        let record = try roundTrips(OCKRevisionRecord.self, fixture: "revision")
        #expect(record.entities.first?.entityType == .carePlan)
        #expect(record.knowledgeVector.clock(for: UUID(uuidString: "6A5B4C3D-2E1F-4A0B-9C8D-7E6F5A4B3C2D")!) == 11)
    }

    @Test func careKitHealthKitTasksInARevisionRoundTripAndAreKeptByAStore() async throws {
        let record = try roundTrips(OCKRevisionRecord.self, fixture: "healthkit-revision")
        #expect(record.entities.map(\.entityType) == [.healthKitTask, .healthKitTask])
        guard case let .healthKitTask(steps) = record.entities[0], case let .healthKitTask(heart) = record.entities[1] else {
            Issue.record("not HealthKit tasks")
            return
        }
        #expect(steps.healthKitLinkage == OCKHealthKitLinkage(quantityIdentifier: "HKQuantityTypeIdentifierStepCount",
                                                              quantityType: .cumulative, unitString: "count"))
        #expect(heart.healthKitLinkage.quantityType == .discrete && heart.healthKitLinkage.unitString == "count/min")
        #expect(!heart.impactsAdherence && heart.carePlanUUID == nil && heart.createdDate == nil)
        #expect(steps.schedule.elements[0].targetValues.first?.doubleValue == 2000)
        #expect(steps.schedule.elements[0].timeZone.identifier == "Asia/Seoul")
        // A store merges them as a CareKit device pushed them, and hands them back the same.
        let store = OCKStore(name: "healthkit", type: .inMemory)
        try await store.mergeRevisions([record], deviceKnowledge: record.knowledgeVector)
        #expect(try await store.fetchHealthKitTasks(query: OCKTaskQuery()).sorted { $0.id > $1.id } == [steps, heart])
        #expect(try await store.fetchTasks(query: OCKTaskQuery()).isEmpty)
        let pulled = try await store.revisions(since: .init()).revisions
        #expect(pulled.map(\.knowledgeVector) == [record.knowledgeVector])
        #expect(Set(pulled.flatMap(\.entities)) == Set(record.entities))
        // A linkage CareKit cannot have written is refused with the field named.
        let unknown = String(decoding: try Fixtures.data("healthkit-revision"), as: UTF8.self)
            .replacingOccurrences(of: "\"discrete\"", with: "\"sampled\"")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(OCKRevisionRecord.self, from: Data(unknown.utf8)) }
        let blank = String(decoding: try Fixtures.data("healthkit-revision"), as: UTF8.self)
            .replacingOccurrences(of: "\"count/min\"", with: "\"\"")
        do {
            _ = try JSONDecoder().decode(OCKRevisionRecord.self, from: Data(blank.utf8))
            Issue.record("an empty unit was accepted")
        } catch {
            #expect("\(error)".contains("healthKitLinkage.unitString"))
        }
    }

    @Test func entitiesCreatedHereRoundTripThroughJSON() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        let start = calendar.date(from: DateComponents(year: 2026, month: 3, day: 1, hour: 9))!
        var task = OCKTask(id: "walk", title: "Walk", carePlanUUID: UUID(),
                           schedule: .dailyAtTime(hour: 9, minutes: 0, start: start, end: nil, text: "Morning",
                                                  calendar: calendar))
        task.tags = ["exercise"]
        task.userInfo = ["minutes": "30"]
        task.impactsAdherence = false
        let decoded = try JSONDecoder().decode(OCKTask.self, from: Fixtures.encode(task))
        #expect(decoded == task)
        #expect(decoded.schedule.elements[0].timeZone.identifier == "Europe/Berlin")

        var contact = OCKContact(id: "nurse", givenName: "Ji-woo", familyName: "Park", carePlanUUID: nil)
        contact.category = .friendsAndFamily
        contact.address = OCKPostalAddress(street: "1 Main St", city: "Seoul", state: "", postalCode: "04524",
                                           country: "South Korea")
        #expect(try JSONDecoder().decode(OCKContact.self, from: Fixtures.encode(contact)) == contact)

        var patient = OCKPatient(id: "p", givenName: "A", familyName: "B")
        patient.sex = .female
        patient.birthday = Date(timeIntervalSinceReferenceDate: 0)
        #expect(try JSONDecoder().decode(OCKPatient.self, from: Fixtures.encode(patient)) == patient)

        let entity = OCKEntity.task(task)
        #expect(try JSONDecoder().decode(OCKEntity.self, from: Fixtures.encode(entity)) == entity)
    }

    @Test func outcomeValueJSONUsesCareKitsTypeTag() throws {
        let value = OCKOutcomeValue(200, units: "mg", createdDate: Date(timeIntervalSinceReferenceDate: 10))
        let json = try #require(JSONSerialization.jsonObject(with: Fixtures.encode(value)) as? [String: Any])
        #expect(json["type"] as? String == "integer")
        #expect(json["value"] as? Int == 200)
        #expect(json["units"] as? String == "mg")
        #expect(json["createdDate"] as? Double == 10)
        #expect(json["kind"] == nil)
    }

    @Test func semanticVersionEncodesAsCareKitsObject() throws {
        let json = try #require(JSONSerialization.jsonObject(
            with: Fixtures.encode(OCKSemanticVersion(majorVersion: 2, minorVersion: 1, patchNumber: 3))) as? [String: Int])
        #expect(json == ["majorVersion": 2, "minorVersion": 1, "patchNumber": 3])
    }

    @Test func durationEncodesAsCareKitDoes() throws {
        #expect(String(decoding: try Fixtures.encode(OCKScheduleElement.Duration.allDay), as: UTF8.self) == #"{"isAllDay":true}"#)
        #expect(String(decoding: try Fixtures.encode(OCKScheduleElement.Duration.hours(1)), as: UTF8.self)
            == #"{"isAllDay":false,"seconds":3600}"#)
        #expect(throws: DecodingError.self) { try Fixtures.decode(OCKScheduleElement.Duration.self, from: "{}") }
    }

    @Test func biologicalSexIsAPlainString() throws {
        #expect(String(decoding: try Fixtures.encode([OCKBiologicalSex.female]), as: UTF8.self) == #"["female"]"#)
        #expect(try Fixtures.decode([OCKBiologicalSex].self, from: #"["male","intersex"]"#) == [.male, .other("intersex")])
        #expect(OCKBiologicalSex(rawValue: "other")?.rawValue == "other")
    }
}
