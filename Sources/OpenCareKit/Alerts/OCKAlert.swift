import Foundation
import OpenCareKitStore

/// An alert rule that holds now, and what makes it hold.
///
/// Alerts are found from the store as it is (`OCKAlert.find(in:calendar:now:)`), not from the write that changed it,
/// so every writer raises them — the app, the JSON API, a device's sync, an import, the command line — and finding
/// them twice finds the same. `evidence` names what raised it (the outcomes, or the missed days), so that a care team
/// that has dealt with an alert is asked again only when something new holds it.
public struct OCKAlert: Hashable, Sendable {
    /// The task whose rule it is (its id: the alert outlives task versions).
    public var taskID: String
    public var taskTitle: String?
    public var rule: OCKAlertRule
    /// What raised it: outcome ids (`outcome:<id>`), missed days (`day:2026-11-27`), or the newest activity before a
    /// quiet (`quiet:<outcome id>`, `quiet:none`). Sorted; at most `maximumEvidence`.
    public var evidence: [String]
    /// The outcomes that raised it, newest first (at most `maximumEvidence`).
    public var outcomeIDs: [String]
    /// The figure behind it: the highest (or lowest) value, the change, the days missed, or the days quiet.
    public var observed: Double
    /// When its newest evidence happened (the event's start, the missed day's start, or the quiet's start).
    public var latest: Date

    /// The rule it holds for, unique in a record: the task's id and the rule's.
    public var cause: String { "\(taskID)/\(rule.id)" }

    public static let maximumEvidence = 31

    /// Whether this alert holds by something `earlier` did not name (a new outcome, a new missed day, a new quiet).
    public func isNew(since earlier: [String]) -> Bool {
        !Set(evidence).isSubset(of: earlier)
    }
}

extension OCKAlert {
    /// The alerts that hold in `store` at `now`, over days of `calendar` (the record's time zone), for the rules of
    /// the tasks in effect today. The cost is bounded by the rules: each reads its task's events of at most
    /// `OCKAlertRule.maximumQuietDays` days.
    ///
    /// - Throws: what the store's reads throw. A task whose rules cannot be read (stored before the rules existed)
    ///   raises nothing.
    public static func find(in store: OCKStore, calendar: Calendar, now: Date) async throws -> [OCKAlert] {
        let today = calendar.startOfDay(for: now)
        guard let tomorrow = calendar.date(byAdding: .day, value: 1, to: today) else { return [] }
        var alerts: [OCKAlert] = []
        for task in try await store.fetchTasks(query: OCKTaskQuery(for: now, calendar: calendar)) where task.deletedDate == nil {
            guard let rules = try? task.alertRules(), !rules.isEmpty else { continue }
            let reach = rules.map(\.daysRead).max() ?? 0
            guard let start = calendar.date(byAdding: .day, value: -reach, to: today) else { continue }
            var query = OCKEventQuery(dateInterval: DateInterval(start: start, end: tomorrow))
            query.taskIDs = [task.id]
            let events = try await store.fetchEvents(query: query)
            for rule in rules {
                let found: OCKAlert?
                switch rule.condition {
                case let .missedDoses(days, ofDays):
                    found = missedDoses(task, rule, events, days: days, ofDays: ofDays, calendar: calendar, today: today)
                case let .value(kind, atLeast, atMost):
                    found = value(task, rule, events, kind: kind, atLeast: atLeast, atMost: atMost, calendar: calendar, today: today)
                case let .change(kind, by, withinDays):
                    found = change(task, rule, events, kind: kind, by: by, withinDays: withinDays, calendar: calendar, today: today)
                case let .noActivity(days):
                    found = try await noActivity(task, rule, in: store, days: days, calendar: calendar, today: today)
                }
                if let found { alerts.append(found) }
            }
        }
        return alerts
    }

    typealias Event = OCKEvent<OCKTask, OCKOutcome>

    private static func alert(_ task: OCKTask, _ rule: OCKAlertRule, evidence: [String], outcomes: [(id: String, at: Date)],
                              observed: Double, latest: Date) -> OCKAlert {
        OCKAlert(taskID: task.id, taskTitle: task.title, rule: rule, evidence: Array(evidence.sorted().suffix(maximumEvidence)),
                 outcomeIDs: outcomes.sorted { $0.at > $1.at }.prefix(maximumEvidence).map(\.id), observed: observed, latest: latest)
    }

    /// A day string in `calendar` (the record's), for evidence.
    static func dayString(_ date: Date, _ calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    private static func missedDoses(_ task: OCKTask, _ rule: OCKAlertRule, _ events: [Event], days: Int, ofDays: Int,
                                    calendar: Calendar, today: Date) -> OCKAlert? {
        guard let first = calendar.date(byAdding: .day, value: -ofDays, to: today) else { return nil }
        var missed = Set<Date>()
        for event in events where event.scheduleEvent.start >= first && event.scheduleEvent.start < today {
            if event.outcome?.values.isEmpty ?? true { missed.insert(calendar.startOfDay(for: event.scheduleEvent.start)) }
        }
        guard missed.count >= days, let latest = missed.max() else { return nil }
        return alert(task, rule, evidence: missed.map { "day:" + dayString($0, calendar) }, outcomes: [],
                     observed: Double(missed.count), latest: latest)
    }

    /// The numbers of `kind` (any number when nil) recorded for `events`, with their outcome and event start.
    private static func numbers(_ events: [Event], kind: String?) -> [(value: Double, outcome: String, at: Date)] {
        events.flatMap { event -> [(value: Double, outcome: String, at: Date)] in
            guard let outcome = event.outcome else { return [] }
            return outcome.values.compactMap { value in
                guard kind == nil || value.kind == kind, value.type == .integer || value.type == .double,
                      let number = value.numberValue?.doubleValue, number.isFinite else { return nil }
                return (number, outcome.id, event.scheduleEvent.start)
            }
        }
    }

    private static func value(_ task: OCKTask, _ rule: OCKAlertRule, _ events: [Event], kind: String?, atLeast: Double?, atMost: Double?,
                              calendar: Calendar, today: Date) -> OCKAlert? {
        guard let first = calendar.date(byAdding: .day, value: 1 - OCKAlertRule.lookbackDays, to: today) else { return nil }
        let past = numbers(events, kind: kind).filter { number in
            number.at >= first && ((atLeast.map { number.value >= $0 } ?? false) || (atMost.map { number.value <= $0 } ?? false))
        }
        guard let latest = past.map(\.at).max() else { return nil }
        // The figure: the furthest past the threshold it crossed (the highest above, the lowest below).
        let above = past.filter { number in atLeast.map { number.value >= $0 } ?? false }.map(\.value).max()
        let observed = above ?? past.map(\.value).min() ?? 0
        return alert(task, rule, evidence: Set(past.map { "outcome:" + $0.outcome }).sorted(),
                     outcomes: past.map { ($0.outcome, $0.at) }, observed: observed, latest: latest)
    }

    private static func change(_ task: OCKTask, _ rule: OCKAlertRule, _ events: [Event], kind: String?, by: Double, withinDays: Int,
                               calendar: Calendar, today: Date) -> OCKAlert? {
        guard let first = calendar.date(byAdding: .day, value: 1 - OCKAlertRule.lookbackDays, to: today) else { return nil }
        let values = numbers(events, kind: kind).sorted { $0.at < $1.at }
        var best: (delta: Double, earlier: (value: Double, outcome: String, at: Date), later: (value: Double, outcome: String, at: Date))?
        for later in values where later.at >= first {
            guard let from = calendar.date(byAdding: .day, value: -withinDays, to: later.at) else { continue }
            for earlier in values where earlier.at >= from && earlier.at < later.at {
                let delta = later.value - earlier.value
                guard by > 0 ? delta >= by : delta <= by else { continue }
                if best == nil || abs(delta) > abs(best!.delta) { best = (delta, earlier, later) }
            }
        }
        guard let best else { return nil }
        return alert(task, rule, evidence: ["outcome:" + best.earlier.outcome, "outcome:" + best.later.outcome],
                     outcomes: [(best.earlier.outcome, best.earlier.at), (best.later.outcome, best.later.at)],
                     observed: best.delta, latest: best.later.at)
    }

    private static func noActivity(_ task: OCKTask, _ rule: OCKAlertRule, in store: OCKStore, days: Int,
                                   calendar: Calendar, today: Date) async throws -> OCKAlert? {
        var newest = OCKOutcomeQuery()
        newest.taskIDs = [task.id]
        newest.limit = 1
        let outcome = try await store.fetchOutcomes(query: newest).first
        // When it was recorded, by the store's clock (or the device's, for a version a sync brought).
        let last = outcome.map { max($0.createdDate ?? .distantPast, $0.updatedDate ?? .distantPast) } ?? task.effectiveDate
        let quietSince = calendar.startOfDay(for: last)
        guard let quiet = calendar.dateComponents([.day], from: quietSince, to: today).day, quiet >= days else { return nil }
        return alert(task, rule, evidence: ["quiet:" + (outcome?.id ?? "none")], outcomes: outcome.map { [($0.id, last)] } ?? [],
                     observed: Double(quiet), latest: quietSince)
    }
}
