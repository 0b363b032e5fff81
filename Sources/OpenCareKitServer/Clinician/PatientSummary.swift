import Foundation
import OpenCareKit
import OpenCareKitStore

/// When a patient needs a clinician's attention: the rules behind the flags of the clinician's home. A server sets
/// them once (`serve --flag-missed-dose-days`, `--flag-pain-score`).
public struct ClinicianFlagRules: Sendable, Hashable {
    /// Flag a patient who missed a dose on at least this many of the last days before today (within the 7 days the
    /// rings show); nil turns the rule off.
    public var missedDoseDays: Int?
    /// Flag a patient who reported pain at or above this score in the last 7 days; nil turns the rule off.
    public var painScore: Double?
    /// The kind of a task's target value that makes its events doses (the demo plan's medications use `"dose"`).
    public var doseKind: String
    /// The kind of the outcome value that holds a pain score (the demo check-in's `"pain"`, 0 to 10).
    public var painKind: String

    /// Rules with these thresholds; the defaults are `serve`'s (2 days of missed doses, a pain score of 7) and the
    /// demo plan's kinds.
    ///
    /// For example:
    /// ```swift
    /// var configuration = CareHost.Configuration()
    /// configuration.flagRules = ClinicianFlagRules(missedDoseDays: 3, painScore: nil)  // no pain flag
    /// ```
    ///
    /// - Parameters:
    ///   - missedDoseDays: On how many of the 6 days before today a dose must have been missed (an event with a
    ///     `doseKind` target value and no outcome); 0 or less counts as 1, and nil turns the rule off.
    ///   - painScore: The lowest pain score that flags a patient, from any outcome value of `painKind` in the last
    ///     7 days, today included; nil turns the rule off.
    ///   - doseKind: The kind of target value that makes a task's events doses.
    ///   - painKind: The kind of outcome value that holds a pain score.
    public init(missedDoseDays: Int? = 2, painScore: Double? = 7, doseKind: String = "dose", painKind: String = "pain") {
        self.missedDoseDays = missedDoseDays
        self.painScore = painScore
        self.doseKind = doseKind
        self.painKind = painKind
    }
}

/// One patient at a glance, as the clinician's home shows it: the last 7 days' adherence, the last activity and
/// what needs attention. Made from the record's store by `init(store:calendar:now:rules:)`; holds no names, values
/// or notes beyond the pain score the flag quotes.
struct PatientSummary: Sendable, Equatable {
    enum Flag: Sendable, Equatable {
        /// Doses were missed on `days` of the days before today in the window.
        case missedDoses(days: Int)
        /// The highest pain score reported in the window.
        case pain(score: Double)
        /// The record's store could not be read (its file is damaged or from a newer version).
        case unreadable
    }

    /// The summary of a record whose store could not be read: flagged, so it comes first and someone looks.
    static let unreadable = PatientSummary(days: [], lastActivity: nil, flags: [.unreadable])

    /// The last 7 days, oldest first and today last, with each day's completion (nil: nothing to do that day).
    var days: [(day: Date, completion: Double?)]
    /// When anything was last recorded in the record (the newest outcome), if ever.
    var lastActivity: Date?
    var flags: [Flag]

    /// How many days the rings show and the flags look at.
    static let windowDays = 7

    /// The mean completion of the days that had something to do, or nil if none had.
    var adherence: Double? {
        let values = days.compactMap(\.completion)
        return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    static func == (lhs: PatientSummary, rhs: PatientSummary) -> Bool {
        lhs.days.map(\.day) == rhs.days.map(\.day) && lhs.days.map(\.completion) == rhs.days.map(\.completion)
            && lhs.lastActivity == rhs.lastActivity && lhs.flags == rhs.flags
    }

    /// The starts of the window's days in `calendar`: the 6 days before the one containing `now`, then that day.
    static func window(calendar: Calendar, now: Date) -> [Date] {
        let today = calendar.startOfDay(for: now)
        return (1 - windowDays...0).map { calendar.date(byAdding: .day, value: $0, to: today) ?? today }
    }

    /// The summary of a record with no store yet: nothing planned, nothing recorded.
    static func empty(calendar: Calendar, now: Date) -> PatientSummary {
        PatientSummary(days: window(calendar: calendar, now: now).map { ($0, nil) }, lastActivity: nil, flags: [])
    }

    /// The summary of `store` on the day containing `now` in `calendar` (the record's time zone).
    init(store: OCKStore, calendar: Calendar, now: Date, rules: ClinicianFlagRules) async throws {
        let page = OCKDailyTasksPage(calendar: calendar)
        let starts = Self.window(calendar: calendar, now: now)
        let today = calendar.startOfDay(for: now)
        let window = DateInterval(start: starts.first ?? today, end: page.day(containing: today).end)
        days = try await page.completion(of: starts, in: store)
        var latest = OCKOutcomeQuery()
        latest.limit = 1
        lastActivity = try await store.fetchOutcomes(query: latest).first.map { outcome in
            max(outcome.createdDate ?? .distantPast, outcome.values.map(\.createdDate).max() ?? .distantPast)
        }

        var missedDays = Set<Date>()
        var highestPain: Double?
        for event in try await store.fetchAnyEvents(query: OCKEventQuery(dateInterval: window)) {
            let values = event.outcome?.values ?? []
            if rules.missedDoseDays != nil, values.isEmpty, event.scheduleEvent.start < today,
               event.scheduleEvent.element.targetValues.contains(where: { $0.kind == rules.doseKind }) {
                missedDays.insert(calendar.startOfDay(for: event.scheduleEvent.start))
            }
            if rules.painScore != nil {
                for value in values where value.kind == rules.painKind {
                    guard let score = value.numberValue?.doubleValue, score.isFinite else { continue }
                    highestPain = max(highestPain ?? score, score)
                }
            }
        }
        var flags: [Flag] = []
        if let threshold = rules.missedDoseDays, missedDays.count >= max(threshold, 1) {
            flags.append(.missedDoses(days: missedDays.count))
        }
        if let threshold = rules.painScore, let highestPain, highestPain >= threshold {
            flags.append(.pain(score: highestPain))
        }
        self.flags = flags
    }

    init(days: [(day: Date, completion: Double?)], lastActivity: Date?, flags: [Flag]) {
        self.days = days
        self.lastActivity = lastActivity
        self.flags = flags
    }
}
