import Foundation
@testable import OpenCareKitFHIR
import OpenCareKitStore
import Testing

/// FHIR R4 export details the Python validation does not see: JSON text, timings, units.
@Suite struct FHIRExportTests {
    @Test func jsonTextEscapesAndKeepsMemberOrder() throws {
        let value = FHIRJSON.object(("resourceType", "Observation"), ("note", .string("a \"b\"\n\\ \u{1}")), ("n", .decimal(72.5)),
                                    ("whole", .decimal(8)), ("small", .decimal(0.000012)), ("empty", .array([])), ("none", nil))
        #expect(value.text == #"{"resourceType":"Observation","note":"a \"b\"\n\\ \u0001","n":72.5,"whole":8,"small":0.000012}"#)
        // Read back, the same values.
        let read = try JSONDecoder().decode(FHIRJSON.self, from: Data(value.text.utf8))
        #expect(read["note"]?.string == "a \"b\"\n\\ \u{1}" && read["n"]?.number == 72.5 && read["whole"]?.integer == 8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FHIRJSON.self, from: Data(#"{"a":null}"#.utf8)) }
    }

    @Test func timingsSayTheScheduleInFHIRsTerms() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Asia/Seoul"))
        let start = try #require(calendar.date(from: DateComponents(year: 2026, month: 3, day: 2, hour: 9, minute: 30)))
        let export = FHIRExport(patientID: "p", now: start)
        let weekly = export.timing(OCKScheduleElement(start: start, end: start.addingTimeInterval(86_400 * 70), interval: DateComponents(weekOfYear: 2),
                                                      duration: .minutes(45), calendar: calendar))["repeat"]
        #expect(weekly?["period"]?.number == 2 && weekly?["periodUnit"]?.string == "wk" && weekly?["frequency"]?.integer == 1)
        #expect(weekly?["timeOfDay"]?.array == [.string("09:30:00")])
        #expect(weekly?["duration"]?.number == 45 && weekly?["durationUnit"]?.string == "min")
        #expect(weekly?["boundsPeriod"]?["start"]?.string == "2026-03-02T00:30:00.000Z")
        #expect(weekly?["boundsPeriod"]?["end"]?.string == "2026-05-11T00:30:00.000Z")
        // Elapsed-time steps have no wall-clock time; all-day events no duration; two units no repeat period.
        let hourly = export.timing(OCKScheduleElement(start: start, end: nil, interval: DateComponents(hour: 8), calendar: calendar))["repeat"]
        #expect(hourly?["periodUnit"]?.string == "h" && hourly?["timeOfDay"] == nil)
        let allDay = export.timing(OCKScheduleElement(start: start, end: nil, interval: DateComponents(day: 1), duration: .allDay,
                                                      calendar: calendar))["repeat"]
        #expect(allDay?["periodUnit"]?.string == "d" && allDay?["timeOfDay"] == nil && allDay?["duration"] == nil)
        let mixed = export.timing(OCKScheduleElement(start: start, end: nil, interval: DateComponents(day: 1, weekOfYear: 1), calendar: calendar))["repeat"]
        #expect(mixed?["period"] == nil && mixed?["boundsPeriod"] != nil)
    }

    @Test func quantitiesCarryUCUMCodesForKnownUnitsOnly() {
        let export = FHIRExport(patientID: "p", now: Date())
        #expect(export.quantity(72.5, "kg") == .object(("value", .decimal(72.5)), ("unit", "kg"), ("system", "http://unitsofmeasure.org"), ("code", "kg")))
        #expect(export.quantity(400, "mg")["code"]?.string == "mg" && export.quantity(7, "hours")["code"]?.string == "h")
        #expect(export.quantity(3, "spoonfuls")["system"] == nil && export.quantity(3, "spoonfuls")["unit"]?.string == "spoonfuls")
    }
}
