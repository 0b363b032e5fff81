import Foundation

/// One event of a schedule: when it starts and ends, the element it comes from, and its occurrence index.
public struct OCKScheduleEvent: Codable, Hashable, Sendable {
    /// When the event starts.
    public var start: Date
    /// When the event ends (the last second of the day for all-day events).
    public var end: Date
    /// The schedule element that produced the event.
    public var element: OCKScheduleElement
    /// The event's index in its schedule (0 is the first event).
    public var occurrence: Int

    /// Creates an event. CareKit only creates these from schedules; the initializer is public here so stores and
    /// tests written outside the module can build them.
    public init(start: Date, end: Date, element: OCKScheduleElement, occurrence: Int) {
        self.start = start
        self.end = end
        self.element = element
        self.occurrence = occurrence
    }
}
