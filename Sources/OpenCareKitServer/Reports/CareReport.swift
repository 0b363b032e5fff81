import Foundation
import OpenCareKit
import OpenCareKitStore
import OpenCareKitSurveys

/// A record's care over a range of days, for a clinician: adherence per task and week, every outcome value (check-in
/// answers, logged symptoms, numbers with their units), the notes, and the consent on file. Read from the store in
/// one query of events (bounded by the store's `OCKEventQuery.maximumEventsPerFetch`) and one of consents.
struct CareReport: Sendable {
    /// Completed events of a task in one week.
    struct Week: Sendable, Equatable {
        var completed = 0
        var total = 0
    }

    struct TaskSummary: Sendable {
        let taskID: String
        let title: String
        /// By week, in the order of `CareReport.weeks`.
        var weeks: [Week]
        var completed: Int { weeks.map(\.completed).reduce(0, +) }
        var total: Int { weeks.map(\.total).reduce(0, +) }
    }

    /// One outcome value.
    struct Row: Sendable {
        let taskID: String
        let taskTitle: String
        let occurrence: Int
        let eventStart: Date
        let isAllDay: Bool
        let value: OCKOutcomeValue
        /// The outcome's notes, joined (on every row of the outcome).
        let note: String
    }

    struct Note: Sendable {
        let date: Date
        let taskTitle: String
        let text: String
        let author: String?
    }

    /// The most days a report covers.
    static let maximumDays = 366
    /// The most values a report page lists (the newest; the others are counted, and the page says so).
    static let maximumRows = 20_000
    /// The most values a CSV holds (more are refused: choose fewer days); the events read are bounded anyway by the
    /// store's `OCKEventQuery.maximumEventsPerFetch`.
    static let maximumCSVRows = 500_000

    let patientName: String
    let preparedBy: String
    let preparedDate: Date
    /// The first and last day (starts of days in `calendar`).
    let firstDay: Date
    let lastDay: Date
    let calendar: Calendar
    /// The weeks (Monday to Sunday, their starts), the first and last cut to the range.
    let weeks: [Date]
    /// Tasks that count toward adherence, with their weekly completion.
    let adherence: [TaskSummary]
    /// Every outcome value of the range's events, by the time it was recorded.
    let rows: [Row]
    /// Values of the range not listed (beyond `maximumRows`).
    let rowsLeftOut: Int
    let notes: [Note]
    let consents: [OCKSignedConsent]

    /// The days of the range, their starts.
    var days: [Date] {
        var days: [Date] = []
        var day = firstDay
        while day <= lastDay, days.count <= Self.maximumDays {
            days.append(day)
            day = calendar.date(byAdding: .day, value: 1, to: day) ?? lastDay.addingTimeInterval(1)
        }
        return days
    }

    /// Reads the report of `store` for the days from `firstDay` through `lastDay` (starts of days in `calendar`).
    static func make(store: OCKStore, firstDay: Date, lastDay: Date, calendar: Calendar, onboardingTaskID: String?,
                     preparedBy: String, now: Date, maximumRows: Int = CareReport.maximumRows) async throws -> CareReport {
        let end = calendar.date(byAdding: .day, value: 1, to: lastDay) ?? lastDay
        let events = try await store.fetchEvents(query: OCKEventQuery(dateInterval: DateInterval(start: firstDay, end: end)))
            .filter { $0.scheduleEvent.start >= firstDay && $0.scheduleEvent.start < end }
        var weekCalendar = calendar
        weekCalendar.firstWeekday = 2
        var weeks: [Date] = []
        var week = weekCalendar.dateInterval(of: .weekOfYear, for: firstDay)?.start ?? firstDay
        while week < end {
            weeks.append(max(week, firstDay))
            week = weekCalendar.date(byAdding: .weekOfYear, value: 1, to: week) ?? end
        }
        func weekIndex(_ date: Date) -> Int {
            // The last week starting at or before `date`.
            var low = 0, high = weeks.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if weeks[middle] <= date { low = middle } else { high = middle - 1 }
            }
            return low
        }
        var summaries: [String: TaskSummary] = [:]
        var order: [String] = []
        var rows: [Row] = [], notes: [Note] = [], rowsLeftOut = 0
        for event in events {
            let task = event.task
            let title = task.title ?? task.id
            if task.impactsAdherence, task.id != onboardingTaskID {
                if summaries[task.id] == nil {
                    summaries[task.id] = TaskSummary(taskID: task.id, title: title, weeks: Array(repeating: Week(), count: weeks.count))
                    order.append(task.id)
                }
                let index = weekIndex(event.scheduleEvent.start)
                summaries[task.id]?.weeks[index].total += 1
                if event.outcome != nil { summaries[task.id]?.weeks[index].completed += 1 }
            }
            guard let outcome = event.outcome, task.id != onboardingTaskID else { continue }
            let outcomeNotes = (outcome.notes ?? []).map { [$0.title, $0.content].compactMap { $0 }.joined(separator: ": ") }
            for note in outcome.notes ?? [] {
                // When the person recorded it: its values' time, else when the store took it.
                notes.append(Note(date: outcome.values.first?.createdDate ?? outcome.createdDate ?? event.scheduleEvent.start, taskTitle: title,
                                  text: [note.title, note.content].compactMap { $0 }.joined(separator: ": "), author: note.author))
            }
            for value in outcome.values {
                rows.append(Row(taskID: task.id, taskTitle: title, occurrence: event.scheduleEvent.occurrence, eventStart: event.scheduleEvent.start,
                                isAllDay: event.scheduleEvent.element.duration == .allDay, value: value,
                                note: outcomeNotes.joined(separator: "; ")))
            }
        }
        rows.sort { ($0.value.createdDate, $0.eventStart, $0.taskID) < ($1.value.createdDate, $1.eventStart, $1.taskID) }
        // Beyond the limit, the newest are kept: what a clinician looks at first.
        if rows.count > maximumRows {
            rowsLeftOut = rows.count - maximumRows
            rows.removeFirst(rowsLeftOut)
        }
        notes.sort { $0.date < $1.date }
        var consents: [OCKSignedConsent] = []
        if let onboardingTaskID {
            var query = OCKOutcomeQuery()
            query.taskIDs = [onboardingTaskID]
            consents = try await store.fetchOutcomes(query: query).compactMap { OCKSignedConsent(values: $0.values) }
        }
        let patient = try await store.fetchPatients(query: OCKPatientQuery()).first
        let name = patient.map { [$0.name.givenName, $0.name.familyName].compactMap { $0 }.joined(separator: " ") } ?? ""
        return CareReport(patientName: name, preparedBy: preparedBy, preparedDate: now, firstDay: firstDay, lastDay: lastDay,
                          calendar: calendar, weeks: weeks, adherence: order.compactMap { summaries[$0] }, rows: rows,
                          rowsLeftOut: rowsLeftOut, notes: notes, consents: consents)
    }
}
