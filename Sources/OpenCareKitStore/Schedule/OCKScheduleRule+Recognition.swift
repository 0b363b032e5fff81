import Foundation

extension OCKScheduleRule {
    /// The rule that makes exactly `schedule`, or nil when no rule does (see the type's list of what rules express).
    ///
    /// The rule is read from the elements and then checked by rebuilding: it is returned only if `schedule()` gives
    /// back an equal schedule, so editing a schedule through its rule never changes what the rule did not show.
    public init?(schedule: OCKSchedule) {
        guard let first = schedule.elements.first, first.calendar.identifier == .gregorian else { return nil }
        let calendar = first.calendar
        let elements = schedule.elements
        guard elements.allSatisfy({
            $0.calendar == calendar && $0.end == first.end && $0.interval == first.interval && $0.duration == first.duration
                && $0.targetValues == first.targetValues
        }) else { return nil }

        self.init(start: Day(first.start, in: calendar), timeZone: calendar.timeZone)
        self.calendar = calendar
        guard let count = Self.count(of: first.interval) else { return nil }
        if count.weeks {
            repetition = .weeks(count.value, weekdays: Set(elements.map { calendar.component(.weekday, from: $0.start) }))
        } else {
            repetition = .days(count.value)
        }

        switch first.duration {
        case .allDay:
            guard Set(elements.map(\.text)).count == 1 else { return nil }
            allDayLabel = first.text
        case let .seconds(seconds):
            guard seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 else { return nil }
            durationMinutes = Int(seconds / 60)
            var byTime: [Int: Time] = [:]
            for element in elements {
                let parts = calendar.dateComponents([.hour, .minute], from: element.start)
                let time = Time(hour: parts.hour ?? 0, minute: parts.minute ?? 0, label: element.text)
                if let known = byTime[time.hour * 60 + time.minute], known != time { return nil }
                byTime[time.hour * 60 + time.minute] = time
            }
            times = byTime.values.sorted()
        }

        if let endDate = first.end {
            guard calendar.startOfDay(for: endDate) == endDate,
                  let last = Day(endDate, in: calendar).adding(days: -1, in: calendar) else { return nil }
            end = last
        }

        targets = []
        for value in first.targetValues {
            var target: Target
            switch value.value {
            case let number as Double: target = Target(value: number)
            case let number as Int: target = Target(value: Double(number)); target.isInteger = true
            default: return nil
            }
            target.units = value.units
            target.kind = value.kind
            target.createdDate = value.createdDate
            targets.append(target)
        }

        guard problems.isEmpty, let rebuilt = try? self.schedule(), rebuilt == schedule else { return nil }
    }

    /// N of an interval of exactly N days or N weeks (N > 0), or nil for any other interval.
    private static func count(of interval: DateComponents) -> (value: Int, weeks: Bool)? {
        let components: [Calendar.Component] = [.era, .year, .yearForWeekOfYear, .quarter, .month, .weekOfYear, .weekOfMonth,
                                                .weekdayOrdinal, .day, .dayOfYear, .weekday, .hour, .minute, .second, .nanosecond]
        let present = components.filter { (interval.value(for: $0) ?? 0) != 0 }
        guard present.count == 1, let value = interval.value(for: present[0]), value > 0 else { return nil }
        switch present[0] {
        case .day: return (value, false)
        case .weekOfYear: return (value, true)
        default: return nil
        }
    }
}
