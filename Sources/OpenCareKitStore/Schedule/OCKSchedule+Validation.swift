import Foundation

extension OCKScheduleElement: OCKValidatable {
    /// Throws the first broken rule: dates outside 1900…4001 (starts before 2200), an end not after the start, a
    /// duration that is negative or not finite, an interval that does not move forward, or an invalid target value.
    public func validate() throws(OCKValidationError) {
        try DateBounds.check(start, field: "start", latest: DateBounds.latestStart)
        if let end {
            try DateBounds.check(end, field: "end")
            guard end > start else { throw OCKValidationError(field: "end", reason: "must be after start") }
        }
        try duration.validate()
        let components: [Calendar.Component] = [.era, .year, .yearForWeekOfYear, .quarter, .month, .weekOfYear,
                                                .weekOfMonth, .weekdayOrdinal, .day, .dayOfYear, .weekday, .hour,
                                                .minute, .second, .nanosecond]
        for component in components {
            if let value = interval.value(for: component), abs(value) > 1_000_000_000 {
                throw OCKValidationError(field: "interval", reason: "has a component too large to schedule")
            }
        }
        guard engine.referenceStep(start) != nil else {
            throw OCKValidationError(
                field: "interval",
                reason: duration == .allDay ? "must move an all-day event forward by at least one day"
                    : "must move forward in time")
        }
        for (index, value) in targetValues.enumerated() {
            do { try value.validate() } catch { throw error.nested(in: "targetValues[\(index)]") }
        }
    }
}

extension OCKSchedule: OCKValidatable {
    /// Throws if the schedule has no elements or an element is invalid (the field names the element).
    public func validate() throws(OCKValidationError) {
        guard !elements.isEmpty else {
            throw OCKValidationError(field: "elements", reason: "must contain at least one element")
        }
        for (index, element) in elements.enumerated() {
            do { try element.validate() } catch { throw error.nested(in: "elements[\(index)]") }
        }
    }
}
