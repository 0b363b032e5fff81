import Foundation

extension OCKScheduleElement: OCKValidatable {
    /// Throws the first broken rule: dates outside 1900…4001 (starts before 2200), an end not after the start, a
    /// duration that is negative or not finite, an interval that does not move forward by at least a minute from
    /// every date (see `shortestStep`), or an invalid target value.
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
        if ScheduleLimits.areChecked { try validateStep() }
        for (index, value) in targetValues.enumerated() {
            do { try value.validate() } catch { throw error.nested(in: "targetValues[\(index)]") }
        }
    }
}

extension OCKSchedule: OCKValidatable {
    /// Throws if the schedule has no elements, an element is invalid (the field names the element), or the schedule
    /// breaks the limits on elements and events per day (`maximumElements`, `maximumEventsPerDay`).
    public func validate() throws(OCKValidationError) {
        guard !elements.isEmpty else {
            throw OCKValidationError(field: "elements", reason: "must contain at least one element")
        }
        if ScheduleLimits.areChecked, elements.count > Self.maximumElements {
            throw OCKValidationError(field: "elements", reason: "must have at most \(Self.maximumElements) elements")
        }
        for (index, element) in elements.enumerated() {
            do { try element.validate() } catch { throw error.nested(in: "elements[\(index)]") }
        }
        if ScheduleLimits.areChecked { try validateLimits() }
    }
}

/// Whether `validate()` applies the schedule limits. Data the store reads back was checked when it was written, under
/// the limits of its day: a task stored before a limit existed must still load (its events are capped when listed).
enum ScheduleLimits {
    @TaskLocal static var areChecked = true

    /// Runs `body` with the limits off (for decoding what the store already holds).
    static func unchecked<T>(_ body: () throws -> T) rethrows -> T {
        try $areChecked.withValue(false, operation: body)
    }
}
