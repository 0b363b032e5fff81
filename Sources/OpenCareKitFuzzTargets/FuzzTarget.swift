import Foundation
import OpenCareKitStore
import OpenCareKitSurveys
import OpenCareKitUI

/// What the fuzzers feed with arbitrary bytes (`scripts/fuzz`, libFuzzer through `opencarekit-fuzz`), and what the
/// regression tests replay (`Tests/Fuzz/<target>/`): every entry point that reads data from outside. Each must
/// refuse bad input with an error, never crash, and finish in time in proportion to its input.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The entities' JSON decoders, which validate what they decode (CareKit's JSON, as the API and sync read it);
    /// a task that decodes then lists its events over two days.
    case entities
    /// The schedule engine's public entry points, on a schedule decoded from JSON after a header of parameters:
    /// events in a window, an event by occurrence, whether a day has events.
    case schedule
    /// The form-body parser every form post goes through.
    case form
    /// The survey form reader: each step of the demo surveys read from a parsed form body.
    case survey

    public func run(_ data: Data) {
        switch self {
        case .entities: Self.entities(data)
        case .schedule: Self.schedule(data)
        case .form: _ = OCKFormBody.fields(String(decoding: data, as: UTF8.self))
        case .survey: Self.survey(data)
        }
    }

    /// Well-formed inputs for the fuzzers to start from (`opencarekit-fuzz seeds DIR` writes them).
    public var seeds: [Data] {
        let encoder = JSONEncoder()
        let start = Date(timeIntervalSinceReferenceDate: 815_000_000)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/New_York") ?? .gmt
        let schedules = [
            OCKSchedule.dailyAtTime(hour: 8, minutes: 30, start: start, end: nil, text: "Breakfast", calendar: calendar),
            OCKSchedule.weeklyAtTime(weekday: 2, hours: 18, minutes: 0, start: start, end: start.addingTimeInterval(90 * 86_400),
                                     targetValues: [], text: nil, calendar: calendar),
            OCKSchedule(composing: [
                OCKScheduleElement(start: start, end: nil, interval: DateComponents(minute: 90), duration: .seconds(1_800)),
                OCKScheduleElement(start: start, end: nil, interval: DateComponents(month: 1), duration: .allDay),
            ]),
        ]
        func json(_ value: some Encodable) -> Data { (try? encoder.encode(value)) ?? Data() }
        switch self {
        case .entities:
            let task = OCKTask(id: "ibuprofen", title: "Ibuprofen", carePlanUUID: nil, schedule: schedules[0])
            return schedules.enumerated().map { json(OCKTask(id: "task-\($0.offset)", title: "Task", carePlanUUID: nil, schedule: $0.element)) }
                + [json(OCKOutcome(taskUUID: task.uuid, taskOccurrenceIndex: 3, values: [OCKOutcomeValue(2.5, units: "mg")])),
                   json(OCKPatient(id: "patient", givenName: "Given", familyName: "Family")),
                   json(OCKContact(id: "contact", givenName: "Given", familyName: "Family", carePlanUUID: nil)),
                   json(schedules[2].elements)]
        case .schedule:
            return schedules.map { Data([0, 3, 48, 0, 7, 0, 10, 0]) + json($0) }
        case .form:
            return ["csrf=0123abcd&complete=true&taskUUID=5E2A54E4-8C1B-4C33-9E5B-4E0B6F3F0A11&occurrence=1",
                    "title=Ice+pack&time-1=21%3A00&every=2&checked=a&checked=b", "%zz=%&=&&a"].map { Data($0.utf8) }
        case .survey:
            return ["answer=7", "answer=6.5", "answer=2026-11-25T09:30", "answer=true", "answer=a&answer=b",
                    "fullName=Given+Family&agree=true&signature=data%3Aimage%2Fpng%3Bbase64%2CiVBORw0KGgo%3D", "version=1.0",
                    "permission.notifications=granted"].map { Data($0.utf8) }
        }
    }

    private static let decoder = JSONDecoder()
    private static let epoch = Date(timeIntervalSinceReferenceDate: 0)

    private static func entities(_ data: Data) {
        if let task = try? decoder.decode(OCKTask.self, from: data) {
            try? task.validate()
            let start = task.schedule.startDate()
            _ = task.schedule.events(from: start, to: start.addingTimeInterval(2 * 86_400))
        }
        _ = try? decoder.decode(OCKOutcome.self, from: data)
        _ = try? decoder.decode(OCKPatient.self, from: data)
        _ = try? decoder.decode(OCKCarePlan.self, from: data)
        _ = try? decoder.decode(OCKContact.self, from: data)
        _ = try? decoder.decode(OCKHealthKitTask.self, from: data)
        _ = try? decoder.decode([OCKScheduleElement].self, from: data)
    }

    /// A header of 8 bytes — the window's start (days from the schedule's start, signed 16 bits), its length (hours,
    /// 8 bits), an occurrence (16 bits), a day (days from the start, signed 16 bits), a spare byte — then the
    /// schedule's JSON.
    private static func schedule(_ data: Data) {
        guard data.count > 8 else { return }
        let bytes = [UInt8](data.prefix(8))
        func int16(_ at: Int) -> Int { Int(Int16(bitPattern: UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]))) }
        guard let schedule = try? decoder.decode(OCKSchedule.self, from: data.dropFirst(8)) else { return }
        let start = schedule.startDate()
        let from = start.addingTimeInterval(Double(int16(0)) * 86_400)
        _ = schedule.events(from: from, to: from.addingTimeInterval(Double(bytes[2]) * 3_600))
        _ = schedule.event(forOccurrenceIndex: Int(UInt16(bytes[3]) << 8 | UInt16(bytes[4])))
        _ = schedule.exists(onDay: start.addingTimeInterval(Double(int16(5)) * 86_400))
        _ = schedule.endDate()
    }

    private static func survey(_ data: Data) {
        let fields = OCKFormBody.fields(String(decoding: data, as: UTF8.self))
        for survey in OCKDemoSurveys.byTaskID.values {
            for step in survey.steps {
                _ = try? OCKSurveyForm.result(for: step, fields: fields, now: epoch, timeZone: .gmt)
            }
        }
    }
}
