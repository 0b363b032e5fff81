import Foundation
import OpenCareKitStore

/// Changes a care plan the way a care team expects, on top of CareKit's versioned store, so that an edit never meets
/// CareKit's "To prevent implicit data loss…" error (CareKit #353, #570, #655) and never rewrites what happened:
/// - a change to a task takes effect from a moment the editor chooses with the person (by default the task's next
///   event not yet done), as a new version, so every past event keeps the version it had;
/// - no change takes effect before today, nor before an event that already has an outcome;
/// - ending a task keeps its past; deleting is for tasks without outcomes (end those instead);
/// - a deleted task's id can be used again for a new task (CareKit #379);
/// - a change made from an old reading of the task is refused (`Failure.changedMeanwhile`), never merged silently.
///
/// Every write goes through the store, so the store's own rules (surveys, consent, limits) still apply.
///
/// For example, ibuprofen moved to 8:00 and 20:00 from its next event not yet done:
/// ```swift
/// let editor = OCKPlanEditor(store: store, calendar: calendar)
/// guard var task = try await editor.task(withID: "ibuprofen") else { return }
/// let from = try await editor.suggestedEffectiveDate(current: task, now: now)
/// var rule = OCKScheduleRule(start: OCKScheduleRule.Day(from, in: calendar), timeZone: calendar.timeZone)
/// rule.times = [.init(hour: 8, minute: 0), .init(hour: 20, minute: 0)]
/// task.schedule = try rule.schedule()
/// try await editor.update(task, effective: from, now: now)
/// ```
public struct OCKPlanEditor: Sendable {
    /// Why the editor refused a change.
    public enum Failure: Error, Hashable, Sendable {
        /// The task changed since it was read (its newest version is another one).
        case changedMeanwhile
        /// The change would take effect before `earliest` (today's start, or just after the latest event with an
        /// outcome).
        case tooEarly(earliest: Date)
        /// The task has outcomes: end it instead of deleting it.
        case hasOutcomes
        /// There is no task with that id.
        case noSuchTask
        /// A task (or contact) with that id exists.
        case idTaken
        /// The care plan has as many notes as it keeps.
        case tooManyNotes(limit: Int)
        /// The plan has as many tasks (or contacts) as the editor adds to one plan.
        case planFull(limit: Int)
    }

    /// The store every change is read from and written to.
    public let store: OCKStore
    /// The record's calendar: where "today" begins.
    public let calendar: Calendar

    /// An editor of the plan in `store`.
    ///
    /// - Parameters:
    ///   - store: The record's store.
    ///   - calendar: The record's calendar (the patient's time zone), in which "today" begins.
    public init(store: OCKStore, calendar: Calendar) {
        self.store = store
        self.calendar = calendar
    }

    /// The newest version of task `id`, or nil if there is none (or it was deleted).
    public func task(withID id: String) async throws -> OCKTask? {
        try await store.newestVersion(ofTaskWithID: id)
    }

    /// The earliest a change to task `id` may take effect: the start of today, or just after the start of the latest
    /// event with an outcome, whichever is later.
    public func earliestEffectiveDate(ofTaskWithID id: String, now: Date) async throws -> Date {
        earliestEffectiveDate(afterOutcomeAt: try await store.latestOutcomeEventStart(ofTaskWithID: id), now: now)
    }

    /// The earliest effective date given the start of the latest event with an outcome (nil: none).
    func earliestEffectiveDate(afterOutcomeAt latest: Date?, now: Date) -> Date {
        let today = calendar.startOfDay(for: now)
        guard let latest else { return today }
        return max(today, latest.addingTimeInterval(Self.afterOutcome))
    }

    /// How long after the latest outcome's event a change may take effect (the store compares seconds).
    static let afterOutcome: TimeInterval = 0.001

    /// When a change to `current` applies unless the person chooses: the start of the task's next event not yet
    /// done, after now and after every event with an outcome. A task that has not begun and has no outcome is replaced
    /// from when it takes effect, not before today. Ending the task uses the same moment.
    public func suggestedEffectiveDate(current: OCKTask, now: Date) async throws -> Date {
        let latest = try await store.latestOutcomeEventStart(ofTaskWithID: current.id)
        let earliest = earliestEffectiveDate(afterOutcomeAt: latest, now: now)
        let hasOutcomes = latest != nil
        let threshold = max(now, earliest)
        if !hasOutcomes, current.effectiveDate >= now {
            // A task that has not begun changes from when it begins: a version cannot take effect before the one it
            // replaces (versions answer by effective date), so a new schedule starting earlier shows from then on.
            return max(earliest, current.effectiveDate)
        }
        let next = current.schedule.elements.compactMap { element in
            element.firstOccurrence(startingAtOrAfter: threshold).flatMap(element.date(ofOccurrence:))
        }.min()
        // Never before the version it replaces takes effect (the newer effective date would win from then on).
        return max(next ?? threshold, current.effectiveDate)
    }

    /// The events of `proposed` (with its effective date set) on each of `days` days from the day containing
    /// `start`, as the Care page will show them once it is saved: the same version walk as the store's event fetch.
    public func preview(_ proposed: OCKTask, from start: Date, days: Int = 14) async throws -> [(day: Date, events: [OCKEvent<OCKTask, OCKOutcome>])] {
        var result: [(day: Date, events: [OCKEvent<OCKTask, OCKOutcome>])] = []
        var day = calendar.startOfDay(for: start)
        for _ in 0..<max(0, days) {
            let next = calendar.date(byAdding: .day, value: 1, to: day) ?? day.addingTimeInterval(86_400)
            let events = try await store.previewEvents(of: proposed, query: OCKEventQuery(dateInterval: DateInterval(start: day, end: next)))
            result.append((day, events))
            day = next
        }
        return result
    }

    /// Adds a new task (or a task with the id of a deleted one). It takes effect from its schedule's start, but not
    /// before today: a new task adds nothing to days already past.
    @discardableResult
    public func add(_ task: OCKTask, now: Date) async throws -> OCKTask {
        var task = task
        task.effectiveDate = max(task.schedule.startDate(), calendar.startOfDay(for: now))
        if try await self.task(withID: task.id) != nil { throw Failure.idTaken }
        try await checkRoom(adding: 1)
        do {
            return try await store.addTask(task)
        } catch let OCKStoreError.addFailed(reason) where reason.contains("same id") {
            // Added by someone else since the check.
            throw Failure.idTaken
        }
    }

    /// The most tasks, and the most contacts, the editor lets one plan have: every page of the record lists them, so
    /// their number is bounded (`Failure.planFull`). Ended tasks count until they are deleted.
    public static let maximumTasks = 200, maximumContacts = 200

    /// Throws `Failure.planFull` unless the plan has room for `tasks` more tasks and `contacts` more contacts.
    public func checkRoom(adding tasks: Int, contacts: Int = 0) async throws {
        if tasks > 0, try await self.tasks().count + tasks > Self.maximumTasks { throw Failure.planFull(limit: Self.maximumTasks) }
        if contacts > 0, try await self.contacts().count + contacts > Self.maximumContacts {
            throw Failure.planFull(limit: Self.maximumContacts)
        }
    }

    /// Saves `proposed` — the task as read (its `uuid` names that version), changed — as a new version from
    /// `effective`.
    ///
    /// - Throws: `Failure.tooEarly` (before today, an outcome, or the effective date of the version read),
    ///   `.changedMeanwhile` or `.noSuchTask`; the store's errors for invalid values.
    @discardableResult
    public func update(_ proposed: OCKTask, effective: Date, now: Date) async throws -> OCKTask {
        // A version effective before the one it replaces would be hidden by it from that one's effective date on
        // (versions answer by effective date): such a change is too early, like one before an outcome.
        let earliest = max(try await earliestEffectiveDate(ofTaskWithID: proposed.id, now: now), proposed.effectiveDate)
        guard effective >= earliest else { throw Failure.tooEarly(earliest: earliest) }
        var version = proposed
        version.effectiveDate = effective
        return try await conditionally { try await store.updateTasks([version], onlyIfNewest: true)[0] }
    }

    /// Ends `task` (as read) from `effective`: its events before stay as they are, with their outcomes; it has none
    /// from then on.
    ///
    /// - Throws: as `update`.
    @discardableResult
    public func end(_ task: OCKTask, effective: Date, now: Date) async throws -> OCKTask {
        var ended = task
        ended.schedule = Self.schedule(of: task.schedule, endingAt: effective)
        return try await update(ended, effective: effective, now: now)
    }

    /// `schedule` cut at `end`: elements that began end there, elements that had not begun are dropped. A schedule
    /// with nothing before `end` keeps one empty element (an event just before `end`, which the version taking effect
    /// at `end` does not own).
    static func schedule(of schedule: OCKSchedule, endingAt end: Date) -> OCKSchedule {
        let begun = schedule.elements.filter { $0.start < end }.map { element in
            var cut = element
            cut.end = min(element.end ?? end, end)
            return cut
        }
        if !begun.isEmpty { return OCKSchedule(composing: begun) }
        guard var placeholder = schedule.elements.first else { return schedule }
        placeholder = OCKScheduleElement(start: end.addingTimeInterval(-60), end: end, interval: placeholder.interval,
                                         text: placeholder.text, targetValues: placeholder.targetValues,
                                         duration: .seconds(0), calendar: placeholder.calendar)
        return OCKSchedule(composing: [placeholder])
    }

    /// Deletes `task` (as read), which must have no outcome on any version.
    ///
    /// - Throws: `Failure.hasOutcomes`, `.changedMeanwhile` or `.noSuchTask`; the store's rules.
    public func delete(_ task: OCKTask) async throws {
        guard let current = try await self.task(withID: task.id) else { throw Failure.noSuchTask }
        guard current.uuid == task.uuid else { throw Failure.changedMeanwhile }
        guard try await store.latestOutcomeEventStart(ofTaskWithID: task.id) == nil else { throw Failure.hasOutcomes }
        try await store.deleteTask(current)
    }

    /// Every version of task `id` that was not a deletion, oldest first (a task added again after a delete lists the
    /// deleted task's versions first).
    public func versions(ofTaskWithID id: String) async throws -> [OCKTask] {
        var query = OCKTaskQuery()
        query.ids = [id]
        return try await store.fetchTasks(query: query)
            .sorted { ($0.updatedDate ?? .distantPast, $0.effectiveDate) < ($1.updatedDate ?? .distantPast, $1.effectiveDate) }
    }

    /// Runs a conditional update, turning the store's conflict into `Failure`.
    func conditionally<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch OCKStoreError.updateFailed(OCKStore.changedMeanwhile) {
            throw Failure.changedMeanwhile
        } catch OCKStoreError.updateFailed(let reason) where reason.hasPrefix("No previous version") || reason.hasSuffix("deleted already") {
            throw Failure.noSuchTask
        }
    }
}
