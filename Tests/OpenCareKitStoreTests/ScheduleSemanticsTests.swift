import Foundation
import Testing
@testable import OpenCareKitStore

/// CareKit's schedule semantics, case by case.
@Suite struct ScheduleSemanticsTests {
    static func calendar(_ zone: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar
    }

    static let newYork = calendar("America/New_York")

    static func date(_ calendar: Calendar, _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Date {
        calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }

    private func local(_ date: Date, _ calendar: Calendar) -> DateComponents {
        calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    }

    @Test func monthlyFromTheThirtyFirstCapsAndThenKeepsTheCappedDay() {
        // CareKit adds the interval to the previous start, so Jan 31 → Feb 29 (2024) → Mar 29 → Apr 29 …
        let cal = Self.newYork
        let element = OCKScheduleElement(start: Self.date(cal, 2024, 1, 31, 9), end: nil, interval: DateComponents(month: 1),
                                         calendar: cal)
        let days = (0..<5).map { cal.dateComponents([.month, .day], from: element[$0].start) }
        #expect(days == [DateComponents(month: 1, day: 31), DateComponents(month: 2, day: 29), DateComponents(month: 3, day: 29),
                         DateComponents(month: 4, day: 29), DateComponents(month: 5, day: 29)])
    }

    @Test func yearlyFromALeapDayMovesToTheTwentyEighth() {
        let cal = Self.newYork
        let element = OCKScheduleElement(start: Self.date(cal, 2024, 2, 29, 9), end: nil, interval: DateComponents(year: 1),
                                         calendar: cal)
        let dates = (0..<6).map { local(element[$0].start, cal) }
        #expect(dates.map(\.day) == [29, 28, 28, 28, 28, 28])
        #expect(dates.map(\.year) == [2024, 2025, 2026, 2027, 2028, 2029])
        let everyFourYears = OCKScheduleElement(start: Self.date(cal, 2024, 2, 29, 9), end: nil,
                                                interval: DateComponents(year: 4), calendar: cal)
        // 2100 is not a leap year: the day caps there and stays capped.
        #expect(local(everyFourYears[19].start, cal).day == 28)
        #expect(local(everyFourYears[18].start, cal).day == 29)
        #expect(local(everyFourYears[20].start, cal).day == 28)
    }

    @Test func dailyAtEightStaysAtEightAcrossBothChangesInNewYork() {
        let cal = Self.newYork
        let schedule = OCKSchedule.dailyAtTime(hour: 8, minutes: 0, start: Self.date(cal, 2026, 1, 1), end: nil, text: nil,
                                               calendar: cal)
        for (from, to) in [(Self.date(cal, 2026, 3, 6), Self.date(cal, 2026, 3, 11)),
                           (Self.date(cal, 2026, 10, 30), Self.date(cal, 2026, 11, 4))] {
            let events = schedule.events(from: from, to: to)
            #expect(events.count == 5)
            for event in events {
                #expect(local(event.start, cal).hour == 8 && local(event.start, cal).minute == 0)
            }
        }
        // Across spring forward the events are 23 hours apart, across fall back 25.
        let spring = schedule.events(from: Self.date(cal, 2026, 3, 7), to: Self.date(cal, 2026, 3, 9))
        #expect(spring[1].start.timeIntervalSince(spring[0].start) == 23 * 3600)
        let fall = schedule.events(from: Self.date(cal, 2026, 10, 31), to: Self.date(cal, 2026, 11, 2))
        #expect(fall[1].start.timeIntervalSince(fall[0].start) == 25 * 3600)
    }

    @Test func dailyAtEightStaysAtEightInSydneyWhateverTheProcessTimeZone() throws {
        // The calendar travels with the element: decode it after encoding, compute, check local times in Sydney
        // (where daylight saving starts in October and ends in April).
        let cal = Self.calendar("Australia/Sydney")
        let schedule = OCKSchedule.dailyAtTime(hour: 8, minutes: 0, start: Self.date(cal, 2026, 3, 1), end: nil, text: nil,
                                               calendar: cal)
        let decoded = try JSONDecoder().decode(OCKSchedule.self, from: JSONEncoder().encode(schedule))
        #expect(decoded.elements[0].timeZone.identifier == "Australia/Sydney")
        for event in decoded.events(from: Self.date(cal, 2026, 4, 3), to: Self.date(cal, 2026, 4, 8))
            + decoded.events(from: Self.date(cal, 2026, 10, 2), to: Self.date(cal, 2026, 10, 7)) {
            #expect(local(event.start, cal).hour == 8)
        }
    }

    @Test func aTimeInsideTheSkippedHourMovesForwardAndStaysThere() {
        // 02:30 does not exist in New York on 2026-03-08. CareKit's step lands at 03:30 and, because each start is
        // computed from the previous one, every later event stays at 03:30.
        let cal = Self.newYork
        let element = OCKScheduleElement(start: Self.date(cal, 2026, 3, 6, 2, 30), end: nil, interval: DateComponents(day: 1),
                                         calendar: cal)
        let hours = (0..<5).map { local(element[$0].start, cal) }.map { "\($0.hour!):\($0.minute!)" }
        #expect(hours == ["2:30", "2:30", "3:30", "3:30", "3:30"])
        // The same in London, where the skipped hour is 01:00–02:00.
        let london = Self.calendar("Europe/London")
        let british = OCKScheduleElement(start: Self.date(london, 2026, 3, 28, 1, 15), end: nil,
                                         interval: DateComponents(day: 1), calendar: london)
        #expect((0..<3).map { local(british[$0].start, london).hour! } == [1, 2, 2])
    }

    @Test func aTimeInTheRepeatedHourTakesTheFirstOccurrence() {
        let cal = Self.newYork
        let element = OCKScheduleElement(start: Self.date(cal, 2026, 10, 30, 1, 30), end: nil,
                                         interval: DateComponents(day: 1), calendar: cal)
        // 2026-11-01 01:30 happens twice; the event is at the first (EDT, UTC-4).
        let fallBack = element[2].start
        #expect(local(fallBack, cal).hour == 1)
        #expect(cal.timeZone.secondsFromGMT(for: fallBack) == -4 * 3600)
        #expect(local(element[3].start, cal).hour == 1)
    }

    @Test func allDayEventsRunFromStartOfDayToItsLastSecond() {
        let cal = Self.newYork
        let element = OCKScheduleElement(start: Self.date(cal, 2026, 3, 7, 15), end: nil, interval: DateComponents(day: 1),
                                         duration: .allDay, calendar: cal)
        #expect(element.start == Self.date(cal, 2026, 3, 7))
        let event = element[1] // 2026-03-08: 23 hours long
        #expect(event.start == Self.date(cal, 2026, 3, 8))
        #expect(event.end == Self.date(cal, 2026, 3, 9).addingTimeInterval(-1))
        // An interval ending at midnight still includes that day's all-day event (the second before the end).
        let window = element.events(from: Self.date(cal, 2026, 3, 8, 12), to: Self.date(cal, 2026, 3, 10))
        #expect(window.map(\.occurrence) == [1, 2])
    }

    @Test func eventsThatStartedEarlierButOverlapTheIntervalAreIncluded() {
        let cal = Self.newYork
        let element = OCKScheduleElement(start: Self.date(cal, 2026, 1, 1, 20), end: nil, interval: DateComponents(day: 1),
                                         duration: .hours(6), calendar: cal)
        // Events run 20:00–02:00; the one from the evening before overlaps the next day's start.
        let events = element.events(from: Self.date(cal, 2026, 1, 5), to: Self.date(cal, 2026, 1, 6))
        #expect(events.map(\.occurrence) == [3, 4])
        // An event that ends exactly at `from` still counts (end >= from); one starting exactly at `to` does not.
        let exact = element.events(from: Self.date(cal, 2026, 1, 5, 2), to: Self.date(cal, 2026, 1, 5, 20))
        #expect(exact.map(\.occurrence) == [3])
    }

    @Test func scheduleEndIsExclusive() {
        let cal = Self.newYork
        let element = OCKScheduleElement(start: Self.date(cal, 2026, 1, 1, 8), end: Self.date(cal, 2026, 1, 4, 8),
                                         interval: DateComponents(day: 1), calendar: cal)
        #expect(element.events(betweenOccurrenceIndex: 0, and: 10).count == 3)
        #expect(element.date(ofOccurrence: 2) != nil)
        #expect(element.date(ofOccurrence: 3) == nil)
        #expect(element.event(forOccurrenceIndex: 3) == nil)
    }

    @Test func composedSchedulesNumberEventsInStartOrderWithTiesByElement() {
        let cal = Self.newYork
        let start = Self.date(cal, 2026, 1, 1)
        let evening = OCKScheduleElement(start: Self.date(cal, 2026, 1, 1, 20), end: nil, interval: DateComponents(day: 1),
                                         text: "evening", calendar: cal)
        let morning = OCKScheduleElement(start: Self.date(cal, 2026, 1, 1, 8), end: nil, interval: DateComponents(day: 1),
                                         text: "morning", calendar: cal)
        let alsoMorning = OCKScheduleElement(start: Self.date(cal, 2026, 1, 1, 8), end: nil,
                                             interval: DateComponents(day: 2), text: "second morning", calendar: cal)
        let schedule = OCKSchedule(composing: [evening, morning, alsoMorning])
        #expect(schedule.elements.map(\.text) == ["morning", "second morning", "evening"])
        #expect(schedule.startDate() == Self.date(cal, 2026, 1, 1, 8))
        #expect(schedule.endDate() == nil)
        let events = schedule.events(from: start, to: Self.date(cal, 2026, 1, 3))
        #expect(events.map(\.element.text) == ["morning", "second morning", "evening", "morning", "evening"])
        #expect(events.map(\.occurrence) == [0, 1, 2, 3, 4])
        #expect(schedule[3].element.text == "morning")
        #expect(schedule.event(forOccurrenceIndex: 5)?.element.text == "morning")
        #expect(schedule.event(forOccurrenceIndex: 6)?.element.text == "second morning")
        // The day after: occurrences continue from the number of earlier events.
        let nextDay = schedule.events(from: Self.date(cal, 2026, 1, 3), to: Self.date(cal, 2026, 1, 4))
        #expect(nextDay.map(\.occurrence) == [5, 6, 7])
    }

    @Test func windowNumbersAreTruePositionsWhenALongEventOverlapsTheStart() {
        // A: 22:00 for 9 hours; B: 23:00 for 30 minutes. On Jan 5, A's event from the evening before is in the window
        // but B's is not. Merged order: A1 B1 A2 B2 A3 B3 A4(6) B4(7) A5(8) B5(9).
        let cal = Self.newYork
        let long = OCKScheduleElement(start: Self.date(cal, 2026, 1, 1, 22), end: nil, interval: DateComponents(day: 1),
                                      text: "A", duration: .hours(9), calendar: cal)
        let short = OCKScheduleElement(start: Self.date(cal, 2026, 1, 1, 23), end: nil, interval: DateComponents(day: 1),
                                       text: "B", duration: .minutes(30), calendar: cal)
        let schedule = OCKSchedule(composing: [long, short])
        let window = schedule.events(from: Self.date(cal, 2026, 1, 5), to: Self.date(cal, 2026, 1, 6))
        #expect(window.map(\.occurrence) == [6, 8, 9])
        #expect(window.map(\.element.text) == ["A", "A", "B"])
        for event in window {
            #expect(schedule.event(forOccurrenceIndex: event.occurrence)?.start == event.start)
        }
        // CareKit counts back from the window's end and calls A4 occurrence 7, which is B4.
        #expect(ReferenceSchedule(schedule: schedule).careKitNumbering(from: Self.date(cal, 2026, 1, 5), to: Self.date(cal, 2026, 1, 6))
            .map(\.occurrence) == [7, 8, 9])
    }

    @Test func offsetShiftsEveryEventAndKeepsTheCalendar() {
        let cal = Self.calendar("Asia/Seoul")
        let schedule = OCKSchedule.dailyAtTime(hour: 8, minutes: 0, start: Self.date(cal, 2026, 1, 1), end: nil, text: nil,
                                               calendar: cal)
        let shifted = schedule.offset(by: DateComponents(hour: 2))
        #expect(local(shifted[0].start, cal).hour == 10)
        #expect(shifted.elements[0].timeZone.identifier == "Asia/Seoul")
    }

    @Test func weeklyAtTimeLandsOnTheWeekday() {
        let cal = Self.newYork
        let schedule = OCKSchedule.weeklyAtTime(weekday: 2, hours: 18, minutes: 30, start: Self.date(cal, 2026, 1, 1),
                                                end: nil, targetValues: [], text: nil, calendar: cal)
        for occurrence in 0..<60 {
            let components = cal.dateComponents([.weekday, .hour, .minute], from: schedule[occurrence].start)
            #expect(components == DateComponents(hour: 18, minute: 30, weekday: 2))
        }
    }

    @Test func existsOnDayFollowsStartAndEnd() {
        let cal = Self.newYork
        let schedule = OCKSchedule(composing: [OCKScheduleElement(
            start: Self.date(cal, 2026, 1, 5, 8), end: Self.date(cal, 2026, 1, 10), interval: DateComponents(day: 1),
            calendar: cal)])
        #expect(!schedule.exists(onDay: Self.date(cal, 2026, 1, 4, 12)))
        #expect(schedule.exists(onDay: Self.date(cal, 2026, 1, 5, 1)))
        #expect(schedule.exists(onDay: Self.date(cal, 2026, 1, 9, 23)))
        #expect(!schedule.exists(onDay: Self.date(cal, 2026, 1, 10, 12)))
    }
}
