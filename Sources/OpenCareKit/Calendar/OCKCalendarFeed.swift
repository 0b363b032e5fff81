import Foundation
import OpenCareKitStore

/// A care record's tasks as an iCalendar feed (RFC 5545), for calendar apps to subscribe to.
///
/// Each schedule element of each task version becomes one recurring event (`VEVENT` with `RRULE`) where a rule
/// generates exactly the occurrences the store has (`calendarRecurrence(from:through:)`): every N days or weeks at a
/// wall-clock time in the element's time zone (written with that zone's `VTIMEZONE`, so events keep their local time
/// across daylight-saving changes), every N months or years, every so many hours or minutes (in UTC: those are
/// elapsed time), all-day events as dates. Where no rule is exact — a time a spring-forward change skips, the 31st of
/// a month, an interval that mixes units — the occurrences of the next `expandedDays` are listed one by one. A task
/// version owns the events that start from its effective date until the next version's (as `fetchEvents`), so an
/// update ends the old series (`UNTIL`) and starts a new one. Each event carries a reminder (`VALARM`) at its start,
/// all-day events at `allDayReminderHour`.
///
/// The feed covers events from `pastDays` before `now`; deleted tasks are not in it. Its size is bounded: at most
/// `maximumExpandedEvents` listed occurrences in all (series are one event each), and the store's limit on tasks.
///
/// For example, the feed of a store, served as `text/calendar`:
/// ```swift
/// let feed = OCKCalendarFeed(title: "Alex Rivera", now: Date())
/// let ics = feed.render(try await feed.tasks(of: store))
/// ```
public struct OCKCalendarFeed: Sendable {
    /// The calendar's name (`X-WR-CALNAME`).
    public var title: String
    /// The moment the feed is made at: it keeps events from ``pastDays`` before it, and lists occurrences one by one
    /// up to ``expandedDays`` after it.
    public var now: Date
    /// How many days of past events the feed keeps.
    public var pastDays = 30
    /// How many days ahead occurrences are listed where no rule says them exactly.
    public var expandedDays = 90
    /// The hour of the day (in the event's zone) at which an all-day event's reminder fires.
    public var allDayReminderHour = 9
    /// The most occurrences listed one by one in a feed.
    public static let maximumExpandedEvents = 5_000
    /// The most versions of one task a feed reads.
    public static let maximumVersionsPerTask = 100
    /// How far ahead an open-ended series is checked for a step that breaks its rule.
    static let ruleHorizonYears = 2

    /// A feed with the default window: 30 past days, 90 days of listed occurrences, all-day reminders at 9:00.
    ///
    /// - Parameters:
    ///   - title: The calendar's name, as calendar apps show it.
    ///   - now: The moment the feed is made at.
    public init(title: String, now: Date) {
        self.title = title
        self.now = now
    }

    /// The feed of `tasks`: for each task, its versions newest first (as far back as the one in effect `pastDays`
    /// ago), as ``tasks(of:)`` reads them.
    ///
    /// - Returns: The iCalendar text (`VCALENDAR`), with CRLF line endings; a calendar with no events when `tasks`
    ///   is empty.
    public func render(_ tasks: [[OCKTask]]) -> String {
        let windowStart = now.addingTimeInterval(-Double(pastDays) * 86_400)
        let expansionEnd = now.addingTimeInterval(Double(expandedDays) * 86_400)
        let ruleHorizon = Calendar(identifier: .gregorian).date(byAdding: .year, value: Self.ruleHorizonYears, to: now) ?? expansionEnd
        var events: [ICalendarWriter] = []
        var zones: [String: TimeZone] = [:]
        var expanded = 0
        for chain in tasks {
            for (version, end) in Self.ownership(chain) where end.map({ $0 > windowStart }) ?? true {
                for (index, element) in version.schedule.elements.enumerated() {
                    let from = max(version.effectiveDate, windowStart)
                    guard let first = element.occurrenceIndex(startingAtOrAfter: from) else { continue }
                    let last = element.lastOccurrence(before: end)
                    if let last, last < first { continue }
                    let checkedThrough = last ?? max(first, (element.occurrenceIndex(startingAtOrAfter: ruleHorizon) ?? first))
                    if let recurrence = element.calendarRecurrence(from: first, through: checkedThrough),
                       let start = element.start(ofOccurrence: first) {
                        var event = ICalendarWriter()
                        let until = last.flatMap { element.start(ofOccurrence: $0) }
                        writeEvent(&event, version: version, element: element, uid: "\(version.uuid.uuidString)-\(index)", start: start,
                                   rule: (recurrence, until), zones: &zones)
                        events.append(event)
                        continue
                    }
                    // Listed one by one, up to the expansion horizon.
                    var occurrence = first
                    while expanded < Self.maximumExpandedEvents, last.map({ occurrence <= $0 }) ?? true,
                          let start = element.start(ofOccurrence: occurrence), start < expansionEnd {
                        var event = ICalendarWriter()
                        writeEvent(&event, version: version, element: element, uid: "\(version.uuid.uuidString)-\(index)-\(occurrence)",
                                   start: start, rule: nil, zones: &zones)
                        events.append(event)
                        expanded += 1
                        occurrence += 1
                    }
                }
            }
        }
        var writer = ICalendarWriter()
        writer.line("BEGIN", "VCALENDAR")
        writer.line("VERSION", "2.0")
        writer.line("PRODID", "-//OpenCareKit//Care plan//EN")
        writer.line("CALSCALE", "GREGORIAN")
        writer.line("METHOD", "PUBLISH")
        writer.line("X-WR-CALNAME", ICalendarWriter.text(title))
        writer.line("REFRESH-INTERVAL;VALUE=DURATION", "PT1H")
        writer.line("X-PUBLISHED-TTL", "PT1H")
        for zone in zones.values.sorted(by: { $0.identifier < $1.identifier }) {
            // From a day before the window (a series starts in it) through the horizon the rules are checked to.
            CalendarTimeZone(zone: zone).write(to: &writer, from: windowStart.addingTimeInterval(-86_400), through: ruleHorizon)
        }
        var text = writer.output
        for event in events { text += event.output }
        return text + "END:VCALENDAR\r\n"
    }

    /// Each version with the end of the events it owns (nil: open), as `fetchEvents` assigns them: walking from the
    /// newest, a version owns the events that start from its effective date up to the earliest effective date of the
    /// versions after it.
    static func ownership(_ chain: [OCKTask]) -> [(OCKTask, Date?)] {
        let ordered = chain.enumerated().sorted { ($1.element.effectiveDate, $0.offset) < ($0.element.effectiveDate, $1.offset) }
        var end: Date?
        var owned: [(OCKTask, Date?)] = []
        for (_, version) in ordered {
            if end.map({ version.effectiveDate < $0 }) ?? true { owned.append((version, end)) }
            end = min(end ?? version.effectiveDate, version.effectiveDate)
        }
        return owned
    }

    private func writeEvent(_ writer: inout ICalendarWriter, version: OCKTask, element: OCKScheduleElement, uid: String, start: Date,
                            rule: (recurrence: CalendarRecurrence, until: Date?)?, zones: inout [String: TimeZone]) {
        let zone = element.timeZone
        let allDay = element.duration == .allDay
        writer.line("BEGIN", "VEVENT")
        writer.line("UID", ICalendarWriter.text(uid + "@opencarekit"))
        writer.line("DTSTAMP", ICalendarWriter.utc(version.updatedDate ?? version.createdDate ?? version.effectiveDate))
        let elapsed = rule?.recurrence.isElapsed ?? false
        if allDay {
            writer.line("DTSTART;VALUE=DATE", ICalendarWriter.day(start, in: zone))
            writer.line("DURATION", "P1D")
        } else {
            if elapsed {
                writer.line("DTSTART", ICalendarWriter.utc(start))
            } else {
                // A wall-clock time in the element's zone: the feed carries that zone's VTIMEZONE.
                zones[zone.identifier] = zone
                writer.line("DTSTART;TZID=" + ICalendarWriter.parameter(zone.identifier), ICalendarWriter.local(start, in: zone))
            }
            writer.line("DURATION", ICalendarWriter.duration(seconds: element.duration.seconds))
        }
        if let (recurrence, until) = rule {
            var value = "FREQ=\(recurrence.frequency.rawValue);INTERVAL=\(recurrence.interval)"
            if let until {
                value += ";UNTIL=" + (allDay ? ICalendarWriter.day(until, in: zone) : ICalendarWriter.utc(until))
            }
            writer.line("RRULE", value)
        }
        let title = version.title.flatMap { $0.isEmpty ? nil : $0 } ?? version.id
        writer.line("SUMMARY", ICalendarWriter.text(title))
        let description = [element.text, version.instructions].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "\n")
        if !description.isEmpty { writer.line("DESCRIPTION", ICalendarWriter.text(description)) }
        writer.line("BEGIN", "VALARM")
        writer.line("ACTION", "DISPLAY")
        writer.line("DESCRIPTION", ICalendarWriter.text(title))
        writer.line("TRIGGER", allDay ? "PT\(allDayReminderHour)H" : "PT0S")
        writer.line("END", "VALARM")
        writer.line("END", "VEVENT")
    }
}

extension OCKCalendarFeed {
    /// The tasks of `store` a feed shows: for each task not deleted, its versions newest first, back to the one in
    /// effect `pastDays` before `now` (the store's own walk, `previousVersionUUIDs`, one version at a time), and at
    /// most `maximumVersionsPerTask` of them (a task edited more often than that in the window shows its events
    /// from the oldest of those on).
    ///
    /// - Throws: What the store's task fetches throw.
    public func tasks<Store: OCKReadableTaskStore>(of store: Store) async throws -> [[OCKTask]] where Store.Task == OCKTask {
        let start = now.addingTimeInterval(-Double(pastDays) * 86_400)
        // The version of each task in effect at the far end: the newest. (Over all time: a task whose newest version's
        // schedule has ended may still have a version before it with events to come.)
        let newest = try await store.fetchTasks(query: OCKTaskQuery(dateInterval: DateInterval(start: .distantPast, end: .distantFuture)))
        var chains: [[OCKTask]] = []
        for task in newest {
            var chain = [task]
            var current = task
            while chain.count < Self.maximumVersionsPerTask, !(current.effectiveDate < start && task.effectiveDate <= start),
                  let previous = current.previousVersionUUIDs.first {
                var query = OCKTaskQuery()
                query.uuids = [previous]
                guard let found = try await store.fetchTasks(query: query).first else { break }
                chain.append(found)
                current = found
            }
            chains.append(chain)
        }
        return chains
    }
}
