import Crypto
import Foundation
import OpenCareKitStore

/// An alert rule that holds now, and what makes it hold.
///
/// Alerts are found from the store as it is (`OCKAlert.find(in:calendar:now:)`), not from the write that changed it,
/// so every writer raises them — the app, the JSON API, a device's sync, an import, the command line — and finding
/// them twice finds the same. `evidence` names what raised it (the outcomes, or the missed days), so that a care team
/// that has dealt with an alert is asked again only when something new holds it.
///
/// For example, the alerts a care team has not seen yet:
/// ```swift
/// // seenEvidence: [String: [String]], the evidence of the alerts dealt with, by cause.
/// let alerts = try await OCKAlert.find(in: store, calendar: calendar, now: Date())
/// for alert in alerts where alert.isNew(since: seenEvidence[alert.cause] ?? []) {
///     print(alert.rule.priority, alert.taskTitle ?? alert.taskID, alert.observed)
/// }
/// ```
public struct OCKAlert: Hashable, Sendable {
    /// The task whose rule it is (its id: the alert outlives task versions).
    public var taskID: String
    /// The task's title when the alert was found, cut to ``maximumTitleLength`` Unicode scalars; nil when the task
    /// has none.
    public var taskTitle: String?
    /// The rule that holds.
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

    /// The most pieces of evidence, and the most outcome ids, an alert keeps: the newest.
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

    /// The alert of `rule`, keeping the newest `maximumEvidence` pieces of evidence (by when they happened) and
    /// outcomes; ids longer than `maximumEvidenceLength` (an id a device chose) are named by their SHA-256, and the
    /// title is cut to `maximumTitleLength`, so that every alert fits what the directory keeps.
    private static func alert(_ task: OCKTask, _ rule: OCKAlertRule, evidence: [(name: String, at: Date)], outcomes: [(id: String, at: Date)],
                              observed: Double, latest: Date) -> OCKAlert {
        let newest = { (items: [(String, Date)]) in
            items.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.prefix(maximumEvidence).map { fitted($0.0) }
        }
        return OCKAlert(taskID: task.id, taskTitle: task.title.map { String(String.UnicodeScalarView($0.unicodeScalars.prefix(maximumTitleLength))) }, rule: rule,
                        evidence: Array(Set(newest(evidence))).sorted(), outcomeIDs: newest(outcomes), observed: observed, latest: latest)
    }

    /// The longest piece of evidence kept as it is, in UTF-8 bytes; a longer one (an outcome id a device chose) is
    /// kept as `sha256:` and its hash in hex.
    public static let maximumEvidenceLength = 120
    /// The longest task title an alert keeps, in Unicode scalars (so at most 800 bytes).
    public static let maximumTitleLength = 200

    /// `text`, or its SHA-256 when longer than `maximumEvidenceLength`.
    static func fitted(_ text: String) -> String {
        guard text.utf8.count > maximumEvidenceLength else { return text }
        return "sha256:" + SHA256.hash(data: Data(text.utf8)).hexEncoded
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
        return alert(task, rule, evidence: missed.map { ("day:" + dayString($0, calendar), $0) }, outcomes: [],
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
        return alert(task, rule, evidence: past.map { ("outcome:" + $0.outcome, $0.at) },
                     outcomes: past.map { ($0.outcome, $0.at) }, observed: observed, latest: latest)
    }

    private static func change(_ task: OCKTask, _ rule: OCKAlertRule, _ events: [Event], kind: String?, by: Double, withinDays: Int,
                               calendar: Calendar, today: Date) -> OCKAlert? {
        guard let first = calendar.date(byAdding: .day, value: 1 - OCKAlertRule.lookbackDays, to: today) else { return nil }
        let values = numbers(events, kind: kind).sorted { $0.at < $1.at }
        typealias Reading = (value: Double, outcome: String, at: Date)
        var best: (delta: Double, earlier: Reading, later: Reading)?
        // One pass: for each later value, the lowest (for a rise) or highest (for a fall) earlier value within the
        // window, kept in a deque of candidates (each value enters and leaves it once).
        var candidates: [Int] = []
        var head = 0, entered = 0
        for (index, later) in values.enumerated() {
            guard let from = calendar.date(byAdding: .day, value: -withinDays, to: later.at) else { continue }
            // Values before this one enter the deque, keeping it ordered best-first.
            while entered < index {
                if values[entered].at < later.at {
                    while candidates.count > head,
                          by > 0 ? values[candidates.last!].value >= values[entered].value : values[candidates.last!].value <= values[entered].value {
                        candidates.removeLast()
                    }
                    candidates.append(entered)
                    entered += 1
                } else {
                    break
                }
            }
            while candidates.count > head, values[candidates[head]].at < from { head += 1 }
            guard later.at >= first, candidates.count > head else { continue }
            let earlier = values[candidates[head]]
            let delta = later.value - earlier.value
            guard by > 0 ? delta >= by : delta <= by else { continue }
            if best == nil || abs(delta) > abs(best!.delta) { best = (delta, earlier, later) }
        }
        guard let best else { return nil }
        return alert(task, rule, evidence: [("outcome:" + best.earlier.outcome, best.earlier.at), ("outcome:" + best.later.outcome, best.later.at)],
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
        return alert(task, rule, evidence: [("quiet:" + (outcome?.id ?? "none"), last)], outcomes: outcome.map { [($0.id, last)] } ?? [],
                     observed: Double(quiet), latest: quietSince)
    }
}
