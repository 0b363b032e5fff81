import Foundation
import OpenCareKit
import OpenCareKitStore
import OpenCareKitUI
import Testing

@Suite struct ScheduleRuleTests {
    static let newYork = TimeZone(identifier: "America/New_York")!
    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = newYork
        return calendar
    }

    static func rule(_ configure: (inout OCKScheduleRule) -> Void) -> OCKScheduleRule {
        var rule = OCKScheduleRule(start: .init(year: 2026, month: 11, day: 24), timeZone: newYork)
        configure(&rule)
        return rule
    }

    @Test func aWeeklyRuleMakesOneElementPerWeekdayAndTimeAtLocalTimes() throws {
        let rule = Self.rule {
            $0.repetition = .weeks(1, weekdays: [2, 5])
            $0.times = [.init(hour: 8, minute: 0)]
        }
        let schedule = try rule.schedule()
        #expect(schedule.elements.count == 2)
        // Nov 24, 2026 is a Tuesday: the first Thursday is Nov 26, the first Monday Nov 30.
        let starts = schedule.events(from: Self.date(24), to: Self.date(24, month: 12)).map(\.start)
        #expect(starts == [Self.date(26, 8), Self.date(30, 8), Self.date(3, 8, month: 12), Self.date(7, 8, month: 12),
                           Self.date(10, 8, month: 12), Self.date(14, 8, month: 12), Self.date(17, 8, month: 12),
                           Self.date(21, 8, month: 12)])
        #expect(Self.words(rule, .english) == "Every Monday and Thursday at 8:00 AM, from Nov 24")
        #expect(Self.words(rule, .korean) == "11월 24일부터 매주 월요일, 목요일 오전 8:00")
    }

    @Test func wordsSayIntervalsDurationsEndsAndTargets() throws {
        var target = OCKScheduleRule.Target(value: 400, units: "mg", kind: "dose")
        target.isInteger = false
        let rule = Self.rule {
            $0.repetition = .days(2)
            $0.times = [.init(hour: 20, minute: 0), .init(hour: 8, minute: 30, label: "Breakfast")]
            $0.durationMinutes = 90
            $0.end = .init(year: 2026, month: 12, day: 15)
            $0.targets = [target]
        }
        #expect(Self.words(rule, .english)
            == "Every 2 days at 8:30 AM (Breakfast) and 8:00 PM for 1 hour 30 minutes, from Nov 24 until Dec 15; target 400 mg")
        let allDay = Self.rule { $0.repetition = .weeks(2, weekdays: [1]) }
        #expect(Self.words(allDay, .english) == "Every 2 weeks on Sunday all day, from Nov 24")
        #expect(Self.words(allDay, .korean) == "11월 24일부터 2주마다 일요일 하루 종일")
    }

    @Test func theLastDayIsIncludedAndNothingFollowsIt() throws {
        let rule = Self.rule {
            $0.times = [.init(hour: 9, minute: 0)]
            $0.end = .init(year: 2026, month: 11, day: 26)
        }
        let events = try rule.schedule().events(from: Self.date(20), to: Self.date(1, month: 12))
        #expect(events.map(\.start) == [Self.date(24, 9), Self.date(25, 9), Self.date(26, 9)])
    }

    @Test func everyBadRuleNamesItsField() {
        let cases: [(OCKScheduleRule, OCKScheduleRule.Problem)] = [
            (Self.rule { $0.repetition = .days(0) }, .intervalOutOfRange),
            (Self.rule { $0.repetition = .days(-3) }, .intervalOutOfRange),
            (Self.rule { $0.repetition = .weeks(1, weekdays: []) }, .noWeekdays),
            (Self.rule { $0.end = .init(year: 2026, month: 11, day: 23) }, .endBeforeStart),
            (Self.rule { $0.times = (0..<1000).map { .init(hour: ($0 / 60) % 24, minute: $0 % 60) } }, .tooManyTimes),
            (Self.rule { $0.times = [.init(hour: 8, minute: 0), .init(hour: 8, minute: 0)] }, .repeatedTime),
            (Self.rule { $0.times = [.init(hour: 24, minute: 0)] }, .timeOutOfRange),
            (Self.rule { $0.times = [.init(hour: 8, minute: 0)]; $0.durationMinutes = 0 }, .durationOutOfRange),
            (Self.rule { $0.start = .init(year: 2026, month: 2, day: 30) }, .startDoesNotExist),
            (Self.rule { $0.targets = [.init(value: .nan)] }, .targetNotFinite),
            (Self.rule {
                $0.repetition = .weeks(1, weekdays: [2])
                $0.end = .init(year: 2026, month: 11, day: 28)
            }, .noEventsBeforeEnd),
        ]
        for (rule, problem) in cases {
            #expect(rule.problems.contains(problem), "\(problem)")
            #expect(throws: OCKValidationError.self) { try rule.schedule() }
        }
    }

    @Test func everyDemoScheduleReadsBackAsARuleThatRebuildsIt() throws {
        let plan = OCKDemoCarePlan(calendar: Self.calendar, start: Self.date(16, 10))
        let tasks = plan.makeTasks(plan: UUID())
        #expect(!tasks.isEmpty)
        for task in tasks {
            let rule = try #require(OCKScheduleRule(schedule: task.schedule), "\(task.id)")
            #expect(try rule.schedule() == task.schedule, "\(task.id)")
        }
        let ibuprofen = try #require(tasks.first { $0.id == "ibuprofen" }.flatMap { OCKScheduleRule(schedule: $0.schedule) })
        #expect(ibuprofen.times.map(\.label) == ["Breakfast", "Lunch", "Dinner"])
        #expect(ibuprofen.targets.map(\.kind) == ["dose"])
    }

    @Test func schedulesNoRuleExpressesAreNotReadAsRules() {
        let calendar = Self.calendar
        func element(_ hour: Int, _ interval: DateComponents, duration: OCKScheduleElement.Duration = .hours(1),
                     targets: [OCKOutcomeValue] = []) -> OCKScheduleElement {
            OCKScheduleElement(start: Self.date(24, hour), end: nil, interval: interval, targetValues: targets, duration: duration, calendar: calendar)
        }
        let composed = OCKSchedule(composing: [element(8, DateComponents(day: 1)), element(9, DateComponents(day: 2))])
        let hourly = OCKSchedule(composing: [element(8, DateComponents(hour: 4))])
        let monthly = OCKSchedule(composing: [element(8, DateComponents(month: 1))])
        let mixedDurations = OCKSchedule(composing: [element(8, DateComponents(day: 1)), element(9, DateComponents(day: 1), duration: .minutes(5))])
        let textTarget = OCKSchedule(composing: [element(8, DateComponents(day: 1), targets: [OCKOutcomeValue("yes")])])
        let seconds = OCKSchedule(composing: [OCKScheduleElement(start: Self.date(24, 8).addingTimeInterval(7), end: nil,
                                                                 interval: DateComponents(day: 1), calendar: calendar)])
        for schedule in [composed, hourly, monthly, mixedDurations, textTarget, seconds] {
            #expect(OCKScheduleRule(schedule: schedule) == nil)
        }
    }

    /// The rule's words with the narrow spaces of clock times ("8:00 AM") as plain ones.
    static func words(_ rule: OCKScheduleRule, _ language: OCKLanguage) -> String {
        rule.words(OCKLocalization(language: language, timeZone: newYork)).replacingOccurrences(of: "\u{202F}", with: " ")
    }

    static func date(_ day: Int, _ hour: Int = 0, _ minute: Int = 0, month: Int = 11, year: Int = 2026) -> Date {
        calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }
}
