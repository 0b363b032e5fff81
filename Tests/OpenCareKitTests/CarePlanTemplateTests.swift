import Foundation
import OpenCareKit
import OpenCareKitStore
import Testing

/// Care plan templates: the built-in ones read back from their JSON and apply on any day in any zone; a plan saved
/// as a template applies back to the same tasks; bad templates name where they are wrong.
@Suite struct CarePlanTemplateTests {
    static func calendar(_ zone: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar
    }

    @Test func builtInTemplatesHaveNoProblemAndReadBackFromTheirJSON() throws {
        #expect(OCKCarePlanTemplate.builtIn.map(\.id) == ["knee-recovery", "hypertension-follow-up", "wound-care"])
        for template in OCKCarePlanTemplate.builtIn {
            #expect(template.problems.isEmpty, "\(template.id): \(template.problems)")
            #expect(try OCKCarePlanTemplate(json: template.json()) == template)
            #expect(template.tasks.count >= 5)
        }
        let knee = OCKCarePlanTemplate.kneeRecovery
        #expect(!knee.tasks.contains { $0.id == "onboarding" })
        #expect(knee.tasks.first { $0.id == "check-in" }?.survey == "check-in")
        #expect(knee.tasks.first { $0.id == "hydration" }?.schedule.targets == [OCKCarePlanTemplate.Target(8, units: "glasses")])
        #expect(!knee.contacts.contains { $0.id == "sam-rivera" })
    }

    @Test(arguments: ["Asia/Seoul", "America/New_York", "Europe/London"])
    func builtInTemplatesApplyAcrossADaylightSavingChange(zone: String) throws {
        // Nov 1 2026 is the end of daylight saving time in New York; Oct 25 in London.
        let start = OCKScheduleRule.Day(year: 2026, month: 10, day: 20)
        let calendar = Self.calendar(zone)
        for template in OCKCarePlanTemplate.builtIn {
            let tasks = try template.tasks(start: start, timeZone: calendar.timeZone, carePlanUUID: nil)
            #expect(tasks.count == template.tasks.count)
            for (task, item) in zip(tasks, template.tasks) {
                // Each task reads back as the rule the template states, and its times stay local across the change.
                let rule = try #require(OCKScheduleRule(schedule: task.schedule))
                #expect(rule.times.map { OCKCarePlanTemplate.Time(String(format: "%02d:%02d", $0.hour, $0.minute), label: $0.label) }
                        == (item.schedule.times ?? []))
                // The rule starts on its first event's day: day `startDay`, or the first chosen weekday after it.
                let first = try #require(start.adding(days: item.schedule.startDay, in: calendar))
                #expect(rule.start >= first && rule.start < first.adding(days: 7, in: calendar)!)
                let later = task.schedule.events(from: calendar.date(from: DateComponents(year: 2026, month: 11, day: 5))!,
                                                 to: calendar.date(from: DateComponents(year: 2026, month: 11, day: 6))!)
                for event in later where event.element.duration != .allDay {
                    let clock = String(format: "%02d:%02d", calendar.component(.hour, from: event.start), calendar.component(.minute, from: event.start))
                    #expect(item.schedule.times?.contains { $0.time == clock } == true, "\(task.id) at \(clock) in \(zone)")
                }
            }
        }
    }

    @Test func aPlanSavedAsATemplateAppliesBackToTheSameSchedules() throws {
        let calendar = Self.calendar("Asia/Seoul")
        let start = OCKScheduleRule.Day(year: 2026, month: 11, day: 16)
        for template in OCKCarePlanTemplate.builtIn {
            let tasks = try template.tasks(start: start, timeZone: calendar.timeZone, carePlanUUID: nil)
            let contacts = template.contacts(carePlanUUID: nil, timeZone: calendar.timeZone, now: Date())
            let saved = OCKCarePlanTemplate.plan(id: template.id, title: template.title, tasks: tasks, contacts: contacts, start: start,
                                                 calendar: calendar)
            #expect(saved.omitted.isEmpty)
            var expected = template
            expected.summary = nil
            expected.tasks.sort { $0.id < $1.id }
            expected.contacts.sort { $0.id < $1.id }
            #expect(saved.template.tasks == expected.tasks)
            #expect(saved.template.contacts.map(\.id) == expected.contacts.map(\.id))
        }
    }

    @Test func aScheduleNoRuleExpressesIsLeftOutAndNamed() {
        let calendar = Self.calendar("UTC")
        let start = calendar.date(from: DateComponents(year: 2026, month: 11, day: 16, hour: 9))!
        let hourly = OCKSchedule(composing: [OCKScheduleElement(start: start, end: nil, interval: DateComponents(hour: 3), calendar: calendar)])
        let task = OCKTask(id: "every-three-hours", title: "Every three hours", carePlanUUID: nil, schedule: hourly)
        let result = OCKCarePlanTemplate.plan(id: "p", title: "P", tasks: [task], contacts: [], start: OCKScheduleRule.Day(start, in: calendar),
                                              calendar: calendar)
        #expect(result.template.tasks.isEmpty)
        #expect(result.omitted == ["every-three-hours"])
    }

    static let header = #""$schema": "https://opencarekit.org/schemas/care-plan-template-1.json", "formatVersion": 1, "id": "t", "title": "T""#

    @Test(arguments: [
        ("[]", "", OCKCarePlanTemplate.Problem.Kind.wrongType),
        ("{\(header)}", "tasks", .missingField),
        ("{\(header), \"tasks\": [], \"colour\": \"red\"}", "colour", .unknownField),
        ("{\(header), \"tasks\": [{\"id\": \"a b\", \"title\": \"A\", \"schedule\": {\"repeat\": \"days\", \"every\": 1, \"startDay\": 0}}]}",
         "tasks[0].id", .idInvalid),
        ("{\(header), \"tasks\": [{\"id\": \"a\", \"title\": \" \", \"schedule\": {\"repeat\": \"days\", \"every\": 1, \"startDay\": 0}}]}",
         "tasks[0].title", .textRequired),
        ("{\(header), \"tasks\": [{\"id\": \"a\", \"title\": \"A\", \"countsTowardAdherence\": 1, \"schedule\": {\"repeat\": \"days\", \"every\": 1, \"startDay\": 0}}]}",
         "tasks[0].countsTowardAdherence", .wrongType),
        ("{\(header), \"tasks\": [{\"id\": \"a\", \"title\": \"A\", \"schedule\": {\"repeat\": \"days\", \"every\": true, \"startDay\": 0}}]}",
         "tasks[0].schedule.every", .wrongType),
        ("{\(header), \"tasks\": [{\"id\": \"a\", \"title\": \"A\", \"schedule\": {\"repeat\": \"weeks\", \"every\": 1, \"startDay\": 0}}]}",
         "tasks[0].schedule.weekdays", .schedule(.noWeekdays)),
        ("{\(header), \"tasks\": [{\"id\": \"a\", \"title\": \"A\", \"schedule\": {\"repeat\": \"days\", \"every\": 1, \"startDay\": 400}}]}",
         "tasks[0].schedule.startDay", .outOfRange),
        ("{\(header), \"tasks\": [{\"id\": \"a\", \"title\": \"A\", \"schedule\": {\"repeat\": \"days\", \"every\": 1, \"startDay\": 0, \"times\": [{\"time\": \"25:00\"}]}}]}",
         "tasks[0].schedule.times[0].time", .schedule(.timeOutOfRange)),
        ("{\(header), \"tasks\": [{\"id\": \"a\", \"title\": \"A\", \"schedule\": {\"repeat\": \"days\", \"every\": 1, \"startDay\": 0, \"times\": [{\"time\": \"08:00\"}, {\"time\": \"08:00\"}]}}]}",
         "tasks[0].schedule.times", .schedule(.repeatedTime)),
        ("{\(header), \"tasks\": [{\"id\": \"a\", \"title\": \"A\", \"schedule\": {\"repeat\": \"days\", \"every\": 1, \"startDay\": 0, \"targets\": [{\"value\": \"four\"}]}}]}",
         "tasks[0].schedule.targets[0].value", .wrongType),
        ("{\(header), \"tasks\": [{\"id\": \"a\", \"title\": \"A\", \"schedule\": {\"repeat\": \"days\", \"every\": 1, \"startDay\": 0}}, {\"id\": \"a\", \"title\": \"B\", \"schedule\": {\"repeat\": \"days\", \"every\": 1, \"startDay\": 0}}]}",
         "tasks[1].id", .idRepeated),
        ("{\(header), \"tasks\": [{\"id\": \"a\", \"title\": \"A\", \"schedule\": {\"repeat\": \"days\", \"every\": 1, \"startDay\": 0, \"weekdays\": [9]}}]}",
         "tasks[0].schedule.weekdays", .notAllowed),
        ("{\(header), \"tasks\": [{\"id\": \"a\", \"title\": \"A\", \"schedule\": {\"repeat\": \"days\", \"every\": 1, \"startDay\": 0, \"times\": [{\"time\": \"+8:00\"}]}}]}",
         "tasks[0].schedule.times[0].time", .schedule(.timeOutOfRange)),
        ("{\(header), \"tasks\": [{\"id\": \"a\", \"title\": \"\(String(repeating: "e\u{301}", count: 150))\", \"schedule\": {\"repeat\": \"days\", \"every\": 1, \"startDay\": 0}}]}",
         "tasks[0].title", .tooLong(200)),
        ("{\(header), \"tasks\": [], \"contacts\": [{\"id\": \"c\"}]}", "contacts[0].givenName", .textRequired),
        ("{\(header), \"tasks\": [], \"contacts\": [{\"id\": \"c\", \"givenName\": \"C\", \"category\": \"rivals\"}]}", "contacts[0].category", .notAllowed),
    ])
    func aBadTemplateNamesWhereItIsWrong(json: String, path: String, kind: OCKCarePlanTemplate.Problem.Kind) {
        #expect(throws: OCKCarePlanTemplate.Problems.self) { try OCKCarePlanTemplate(json: Data(json.utf8)) }
        do {
            _ = try OCKCarePlanTemplate(json: Data(json.utf8))
        } catch {
            #expect(error.all.contains(OCKCarePlanTemplate.Problem(path: path, kind: kind)), "\(error.all)")
        }
    }

    @Test func aNullAdherenceMeansTheDefaultAndAContactWithoutCategoryIsCareTeam() throws {
        let json = "{\(Self.header), \"tasks\": [{\"id\": \"a\", \"title\": \"A\", \"countsTowardAdherence\": null, "
            + "\"schedule\": {\"repeat\": \"days\", \"every\": 1, \"startDay\": 0}}], \"contacts\": [{\"id\": \"c\", \"familyName\": \"C\"}]}"
        let template = try OCKCarePlanTemplate(json: Data(json.utf8))
        #expect(template.tasks[0].countsTowardAdherence)
        #expect(template.contacts(carePlanUUID: nil, timeZone: .gmt, now: Date())[0].category == .careProvider)
    }

    @Test func aTemplateLargerThanTheLimitIsRefusedUnread() {
        let huge = Data(repeating: UInt8(ascii: " "), count: OCKCarePlanTemplate.maximumBytes + 1)
        do {
            _ = try OCKCarePlanTemplate(json: huge)
            Issue.record("read")
        } catch {
            #expect(error.all == [OCKCarePlanTemplate.Problem(path: "", kind: .tooLarge(OCKCarePlanTemplate.maximumBytes))])
        }
    }
}
