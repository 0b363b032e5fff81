import Foundation
import Testing
@testable import OpenCareKitStore

/// Values CareKit traps on get a clear error naming the field; hostile JSON throws instead of trapping.
@Suite struct ValidationTests {
    static let newYork = ScheduleSemanticsTests.newYork
    static let start = ScheduleSemanticsTests.date(newYork, 2026, 1, 1, 8)

    private func element(start: Date = start, end: Date? = nil, interval: DateComponents = DateComponents(day: 1),
                         duration: OCKScheduleElement.Duration = .hours(1)) -> OCKScheduleElement {
        OCKScheduleElement(start: start, end: end, interval: interval, duration: duration, calendar: Self.newYork)
    }

    private func error(_ body: () throws -> Void) -> OCKValidationError? {
        do { try body() } catch let error as OCKValidationError { return error } catch { return nil }
        return nil
    }

    @Test func anEndBeforeTheStartNamesTheEnd() {
        let invalid = element(end: Self.start.addingTimeInterval(-60))
        #expect(error { try invalid.validate() } == OCKValidationError(field: "end", reason: "must be after start"))
        // Computing with it does not trap: there are simply no events.
        #expect(invalid.events(from: Self.start.addingTimeInterval(-86_400), to: Self.start.addingTimeInterval(86_400)).isEmpty)
    }

    @Test(arguments: [DateComponents(), DateComponents(day: 0), DateComponents(day: -1), DateComponents(hour: 0, minute: 0),
                      DateComponents(day: 1, hour: -24), DateComponents(quarter: 1), DateComponents(era: 1)])
    func intervalsThatDoNotMoveForwardAreRejected(interval: DateComponents) {
        let invalid = element(interval: interval)
        #expect(error { try invalid.validate() }?.field == "interval")
        #expect(error { try invalid.validate() }?.reason == "must move forward in time")
        // No infinite loop and no trap: the first event exists, the schedule stops there.
        #expect(invalid.events(betweenOccurrenceIndex: 0, and: 5).count == 1)
        #expect(invalid.events(from: Self.start, to: Self.start.addingTimeInterval(86_400 * 3)).count == 1)
        #expect(invalid.date(ofOccurrence: 3) == nil)
    }

    @Test func allDayElementsMustMoveByADay() {
        let invalid = element(interval: DateComponents(hour: 6), duration: .allDay)
        #expect(error { try invalid.validate() }?.reason == "must move an all-day event forward by at least one day")
    }

    @Test func negativeAndNonFiniteDurationsAreRejected() {
        #expect(error { try element(duration: .seconds(-1)).validate() } == OCKValidationError(field: "duration", reason: "must not be negative"))
        #expect(error { try element(duration: .seconds(.nan)).validate() }?.reason == "must be a finite number of seconds")
        #expect(error { try element(duration: .seconds(.infinity)).validate() }?.field == "duration")
    }

    @Test func negativeOccurrencesReturnNothing() {
        let valid = element()
        #expect(valid.date(ofOccurrence: -1) == nil)
        #expect(valid.event(forOccurrenceIndex: -5) == nil)
        #expect(valid[-1].occurrence == 0) // CareKit traps here; we return an empty event instead
        #expect(OCKSchedule(composing: [valid]).event(forOccurrenceIndex: -1) == nil)
        var outcome = OCKOutcome(taskUUID: UUID(), taskOccurrenceIndex: -1, values: [])
        outcome.id = "o"
        #expect(error { try outcome.validate() } == OCKValidationError(field: "taskOccurrenceIndex", reason: "must not be negative"))
    }

    @Test func hugeIntervalsAndFarDatesDoNotTrap() {
        let huge = element(interval: DateComponents(year: Int.max / 2))
        #expect(error { try huge.validate() }?.field == "interval")
        #expect(huge.date(ofOccurrence: 5) == nil)
        let far = element(interval: DateComponents(day: 1))
        #expect(far.date(ofOccurrence: Int.max) == nil)
        #expect(far.events(from: .distantFuture.addingTimeInterval(-86_400), to: .distantFuture).count <= 1)
        #expect(far.firstOccurrence(startingAtOrAfter: .distantFuture.addingTimeInterval(-3_600)) != nil)
        #expect(OCKSchedule(composing: [OCKScheduleElement]()).events(from: Self.start, to: .distantFuture).isEmpty)
        #expect(error { try OCKSchedule(composing: [OCKScheduleElement]()).validate() }?.field == "elements")
    }

    @Test func emptyIdsAreRejected() {
        let schedule = OCKSchedule(composing: [element()])
        #expect(error { try OCKTask(id: "", title: nil, carePlanUUID: nil, schedule: schedule).validate() }
            == OCKValidationError(field: "id", reason: "must not be empty"))
        #expect(error { try OCKTask(id: "  \n", title: nil, carePlanUUID: nil, schedule: schedule).validate() }?.field == "id")
        #expect(error { try OCKPatient(id: "", givenName: "A", familyName: "B").validate() }?.field == "id")
        #expect(error { try OCKCarePlan(id: "", title: "Plan", patientUUID: nil).validate() }?.field == "id")
        #expect(error { try OCKContact(id: "", givenName: "A", familyName: "B", carePlanUUID: nil).validate() }?.field == "id")
        #expect(error { try OCKTask(id: String(repeating: "x", count: 2_000), title: nil, carePlanUUID: nil, schedule: schedule).validate() }?
            .reason == "must not be longer than 1024 bytes")
    }

    @Test func errorsInsideATaskNameTheNestedField() {
        let schedule = OCKSchedule(composing: [element(), element(interval: DateComponents())])
        let task = OCKTask(id: "t", title: nil, carePlanUUID: nil, schedule: schedule)
        let failure = error { try task.validate() }
        #expect(failure?.field == "schedule.elements[1].interval")
        #expect(failure?.description == "schedule.elements[1].interval: must move forward in time")
    }

    // MARK: - Hostile JSON

    private static func elementJSON(start: String = "788932800", interval: String = #"{"day":1}"#,
                                    duration: String = #"{"isAllDay":false,"seconds":3600}"#, end: String? = nil) -> String {
        let endField = end.map { #","end":\#($0)"# } ?? ""
        return #"{"start":\#(start),"interval":\#(interval),"duration":\#(duration),"targetValues":[],"calendar":{"identifier":"gregorian","timeZone":{"identifier":"America/New_York"},"firstWeekday":1,"minimumDaysInFirstWeek":1,"current":0}\#(endField)}"#
    }

    private func decodingFailure(_ json: String, decoder: JSONDecoder = JSONDecoder()) -> String? {
        do {
            _ = try decoder.decode(OCKScheduleElement.self, from: Data(json.utf8))
            return nil
        } catch let DecodingError.dataCorrupted(context) {
            return context.debugDescription
        } catch {
            return "\(error)"
        }
    }

    @Test func validElementJSONDecodes() throws {
        #expect(decodingFailure(Self.elementJSON()) == nil)
    }

    @Test func hostileElementJSONThrowsWithTheField() {
        #expect(decodingFailure(Self.elementJSON(duration: #"{"isAllDay":false,"seconds":-5}"#)) == "duration: must not be negative")
        #expect(decodingFailure(Self.elementJSON(interval: "{}")) == "interval: must move forward in time")
        #expect(decodingFailure(Self.elementJSON(interval: #"{"day":0,"hour":0}"#)) == "interval: must move forward in time")
        #expect(decodingFailure(Self.elementJSON(start: "-63113904000")) == "start: must not be before 1900") // year 1
        #expect(decodingFailure(Self.elementJSON(start: "252423993600")) == "start: is too far in the future") // year 9999
        #expect(decodingFailure(Self.elementJSON(end: "252423993600")) == "end: is too far in the future")
        #expect(decodingFailure(Self.elementJSON(end: "788932700")) == "end: must be after start")
        #expect(decodingFailure(Self.elementJSON(interval: #"{"year":9223372036854775807}"#)) != nil)
        #expect(decodingFailure(Self.elementJSON(start: "1e300")) != nil)
        #expect(decodingFailure(Self.elementJSON().replacingOccurrences(of: "America/New_York", with: "Mars/Olympus"))
            == "calendar.timeZone: not a known time zone identifier")
    }

    @Test func notANumberDurationsThrow() {
        // Plain JSON has no NaN; a decoder configured to accept it still gets a validation error.
        #expect(decodingFailure(Self.elementJSON(duration: #"{"isAllDay":false,"seconds":"nan"}"#)) != nil)
        let lenient = JSONDecoder()
        lenient.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        #expect(decodingFailure(Self.elementJSON(duration: #"{"isAllDay":false,"seconds":"nan"}"#), decoder: lenient)
            == "duration: must be a finite number of seconds")
        #expect(decodingFailure(Self.elementJSON(duration: #"{"isAllDay":false,"seconds":"-inf"}"#), decoder: lenient)
            == "duration: must be a finite number of seconds")
    }

    @Test func hostileEntityJSONThrows() {
        let decoder = JSONDecoder()
        func fails<T: Decodable>(_ type: T.Type, _ json: String) -> Bool {
            (try? decoder.decode(type, from: Data(json.utf8))) == nil
        }
        let zone = #""timezone":{"identifier":"UTC"}"#
        #expect(fails(OCKCarePlan.self, #"{"id":"","title":"x","effectiveDate":0,\#(zone)}"#))
        #expect(fails(OCKCarePlan.self, #"{"id":"p","title":"x","effectiveDate":-63113904000,\#(zone)}"#))
        #expect(fails(OCKOutcome.self, #"{"id":"o","taskUUID":"2F1E5C4A-6B0E-4A5E-9B7C-1D2E3F4A5B6C","taskOccurrenceIndex":-3,"values":[],"effectiveDate":0,\#(zone)}"#))
        #expect(fails(OCKOutcome.self, #"{"id":"o","taskUUID":"not-a-uuid","taskOccurrenceIndex":0,"values":[],"effectiveDate":0,\#(zone)}"#))
        #expect(fails(OCKOutcome.self, #"{"id":"o","taskUUID":"2F1E5C4A-6B0E-4A5E-9B7C-1D2E3F4A5B6C","taskOccurrenceIndex":0,"values":[{"type":"integer","value":"seven","createdDate":0}],"effectiveDate":0,\#(zone)}"#))
        #expect(fails(OCKOutcome.self, #"{"id":"o","taskUUID":"2F1E5C4A-6B0E-4A5E-9B7C-1D2E3F4A5B6C","taskOccurrenceIndex":0,"values":[{"type":"mystery","value":1,"createdDate":0}],"effectiveDate":0,\#(zone)}"#))
        #expect(fails(OCKTask.self, #"{"id":"t","schedule":{"elements":[]},\#(zone)}"#))
        #expect(fails(OCKTask.self, #"{"id":"t","schedule":{"elements":[\#(Self.elementJSON(interval: "{}"))]},\#(zone)}"#))
        #expect(!fails(OCKTask.self, #"{"id":"t","schedule":{"elements":[\#(Self.elementJSON())]},\#(zone)}"#))
        #expect(fails(OCKRevisionRecord.KnowledgeVector.self,
                      #"{"processes":[{"id":"2F1E5C4A-6B0E-4A5E-9B7C-1D2E3F4A5B6C","clock":1},{"id":"2F1E5C4A-6B0E-4A5E-9B7C-1D2E3F4A5B6C","clock":2}]}"#))
        #expect(fails(OCKEntity.self, #"{"type":"spaceship","object":{}}"#))
        #expect(fails(OCKScheduleElement.self, "[1,2,3]"))
        #expect(fails(OCKTask.self, "null"))
    }

    @Test func decodingErrorsNameTheFieldButNotTheValue() {
        let secret = "Sensitive-Patient-Name"
        let json = #"{"id":"\#(secret)","title":"\#(secret)","schedule":{"elements":[\#(Self.elementJSON(interval: "{}"))]},"timezone":{"identifier":"UTC"}}"#
        do {
            _ = try JSONDecoder().decode(OCKTask.self, from: Data(json.utf8))
            Issue.record("decoding should fail")
        } catch {
            #expect(!"\(error)".contains(secret))
            #expect("\(error)".contains("interval: must move forward in time"))
        }
    }
}
