import Foundation

extension OCKScheduleRule {
    /// Something wrong with a rule, naming its field; an editor shows each beside its field, in the reader's
    /// language.
    public enum Problem: Hashable, Sendable {
        /// A time is not from 00:00 to 23:59.
        case timeOutOfRange
        /// There are more than ``OCKScheduleRule/maximumTimes`` times.
        case tooManyTimes
        /// Two times are the same.
        case repeatedTime
        /// A label is longer than ``OCKScheduleRule/maximumLabelLength`` characters.
        case labelTooLong
        /// The repetition is not every 1 to ``OCKScheduleRule/maximumDays`` days or 1 to
        /// ``OCKScheduleRule/maximumWeeks`` weeks.
        case intervalOutOfRange
        /// A weekly rule names no weekday, or a number outside 1…7.
        case noWeekdays
        /// A timed event does not last from 1 minute to 24 hours.
        case durationOutOfRange
        /// The first day is not a day on the calendar (such as February 30).
        case startDoesNotExist
        /// The last day is not a day on the calendar.
        case endDoesNotExist
        /// The last day is before the first.
        case endBeforeStart
        /// No event falls between the first and the last day.
        case noEventsBeforeEnd
        /// There are more than ``OCKScheduleRule/maximumTargets`` targets.
        case tooManyTargets
        /// A target is not a finite number (or, as a whole number, is too large).
        case targetNotFinite

        /// The rule's field: `times`, `interval`, `weekdays`, `duration`, `start`, `end` or `targets`.
        public var field: String {
            switch self {
            case .timeOutOfRange, .tooManyTimes, .repeatedTime, .labelTooLong: "times"
            case .intervalOutOfRange: "interval"
            case .noWeekdays: "weekdays"
            case .durationOutOfRange: "duration"
            case .startDoesNotExist: "start"
            case .endDoesNotExist, .endBeforeStart, .noEventsBeforeEnd: "end"
            case .tooManyTargets, .targetNotFinite: "targets"
            }
        }

        /// What is wrong, in English.
        public var reason: String {
            switch self {
            case .timeOutOfRange: "each time must be from 00:00 to 23:59"
            case .tooManyTimes: "must be at most \(OCKScheduleRule.maximumTimes) times a day"
            case .repeatedTime: "must not repeat a time"
            case .labelTooLong: "labels must be at most \(OCKScheduleRule.maximumLabelLength) characters"
            case .intervalOutOfRange: "must repeat every 1 to \(OCKScheduleRule.maximumDays) days or 1 to \(OCKScheduleRule.maximumWeeks) weeks"
            case .noWeekdays: "must name at least one weekday"
            case .durationOutOfRange: "must be from 1 minute to 24 hours"
            case .startDoesNotExist: "must be a day on the calendar"
            case .endDoesNotExist: "must be a day on the calendar"
            case .endBeforeStart: "must not be before the start"
            case .noEventsBeforeEnd: "must leave at least one event between the start and the end"
            case .tooManyTargets: "must be at most \(OCKScheduleRule.maximumTargets) targets"
            case .targetNotFinite: "must be numbers"
            }
        }
    }

    /// Every problem of the rule, in the order of its fields (empty for a rule that makes a schedule).
    public var problems: [Problem] {
        var problems: [Problem] = []
        if times.contains(where: { !(0...23).contains($0.hour) || !(0...59).contains($0.minute) }) { problems.append(.timeOutOfRange) }
        if times.count > Self.maximumTimes { problems.append(.tooManyTimes) }
        if Set(times.map { $0.hour * 60 + $0.minute }).count != times.count { problems.append(.repeatedTime) }
        if (times.compactMap(\.label) + [allDayLabel].compactMap { $0 }).contains(where: { $0.count > Self.maximumLabelLength }) {
            problems.append(.labelTooLong)
        }
        switch repetition {
        case let .days(count):
            if !(1...Self.maximumDays).contains(count) { problems.append(.intervalOutOfRange) }
        case let .weeks(count, weekdays):
            if !(1...Self.maximumWeeks).contains(count) { problems.append(.intervalOutOfRange) }
            if weekdays.isEmpty || !weekdays.isSubset(of: 1...7) { problems.append(.noWeekdays) }
        }
        if !isAllDay, !(1...Self.maximumDurationMinutes).contains(durationMinutes) { problems.append(.durationOutOfRange) }
        if targets.count > Self.maximumTargets { problems.append(.tooManyTargets) }
        if targets.contains(where: { !$0.value.isFinite || ($0.isInteger && abs($0.value) > 1e15) }) { problems.append(.targetNotFinite) }
        let startDate = start.start(in: calendar)
        if startDate == nil { problems.append(.startDoesNotExist) }
        if let end {
            if end.start(in: calendar) == nil {
                problems.append(.endDoesNotExist)
            } else if end < start {
                problems.append(.endBeforeStart)
            } else if startDate != nil, problems.isEmpty, elements().isEmpty {
                problems.append(.noEventsBeforeEnd)
            }
        }
        return problems
    }

    /// The schedule the rule describes.
    ///
    /// - Throws: `OCKValidationError` naming the rule's field for its first problem, or the schedule's limits.
    public func schedule() throws(OCKValidationError) -> OCKSchedule {
        if let problem = problems.first { throw OCKValidationError(field: problem.field, reason: problem.reason) }
        let schedule = OCKSchedule(composing: elements())
        try schedule.validate()
        return schedule
    }

    /// The first moment after the last day, where events stop.
    var endDate: Date? {
        end.flatMap { $0.adding(days: 1, in: calendar) }.flatMap { $0.start(in: calendar) }
    }

    /// One element per time (per weekday for weekly rules), leaving out weekdays whose first event is after the end.
    func elements() -> [OCKScheduleElement] {
        guard let first = start.start(in: calendar) else { return [] }
        let endDate = self.endDate
        let startWeekday = calendar.component(.weekday, from: first)
        let days: [(day: Day, interval: DateComponents)]
        switch repetition {
        case let .days(count):
            days = [(start, DateComponents(day: count))]
        case let .weeks(count, weekdays):
            days = weekdays.sorted().compactMap { weekday in
                start.adding(days: (weekday - startWeekday + 7) % 7, in: calendar).map { ($0, DateComponents(weekOfYear: count)) }
            }
        }
        let targetValues = targets.map { target in
            let number: OCKOutcomeValueUnderlyingType = target.isInteger ? Int(target.value.rounded()) : target.value
            var value = OCKOutcomeValue(number, units: target.units, createdDate: target.createdDate ?? first)
            value.kind = target.kind
            return value
        }
        var elements: [OCKScheduleElement] = []
        for (day, interval) in days {
            let starts: [(Date, String?)]
            if isAllDay {
                starts = day.start(in: calendar).map { [($0, allDayLabel)] } ?? []
            } else {
                starts = times.sorted().compactMap { time in
                    calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute))
                        .map { ($0, time.label) }
                }
            }
            for (date, label) in starts where endDate.map({ date < $0 }) ?? true {
                elements.append(OCKScheduleElement(start: date, end: endDate, interval: interval, text: label, targetValues: targetValues,
                                                   duration: isAllDay ? .allDay : .minutes(Double(durationMinutes)), calendar: calendar))
            }
        }
        return elements
    }
}
