import Foundation
import OpenCareKitStore

/// What a card asks the store to do, as CareKit's event-store extensions do for its task views: complete or
/// un-complete an event, log a value, delete a logged value, record a number.
///
/// Each call names the event by its task version's uuid and occurrence (what a form carries), fetches the event as
/// it is now, and makes one change. They are idempotent where a form may be sent twice: completing a completed
/// event changes nothing.
extension OCKEventStore where Task == OCKTask, Outcome == OCKOutcome {
    /// The event of the task version `taskUUID` at `occurrence`, with its current outcome.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` when there is no such task version or occurrence.
    public func fetchEvent(taskUUID: UUID, occurrence: Int) async throws -> Event {
        var query = OCKTaskQuery()
        query.uuids = [taskUUID]
        guard let task = try await fetchTasks(query: query).first else {
            throw OCKStoreError.fetchFailed(reason: "No task version has that uuid.")
        }
        guard occurrence >= 0 else { throw OCKStoreError.fetchFailed(reason: "Occurrences start at 0.") }
        return try await fetchEvent(forTask: task, occurrence: occurrence)
    }

    /// Marks the event done (an outcome with the value `true`, as CareKit's toggle) or not done (deleting its
    /// outcome). Returns the event as it is afterwards. `userInfo` goes with a new outcome (the app names who marked
    /// it done there).
    @discardableResult
    public func setEventCompletion(_ isComplete: Bool, taskUUID: UUID, occurrence: Int, now: Date = Date(),
                                   userInfo: [String: String]? = nil) async throws -> Event {
        var event = try await fetchEvent(taskUUID: taskUUID, occurrence: occurrence)
        switch (isComplete, event.outcome) {
        case (true, nil):
            var value = OCKOutcomeValue(true)
            value.createdDate = now
            var outcome = OCKOutcome(taskUUID: taskUUID, taskOccurrenceIndex: occurrence, values: [value])
            outcome.userInfo = userInfo
            event.outcome = try await addOutcome(outcome)
        case let (false, outcome?):
            try await deleteOutcome(outcome)
            event.outcome = nil
        default:
            break
        }
        return event
    }

    /// Appends `value` to the event's outcome, creating the outcome if there is none (CareKit's log button).
    @discardableResult
    public func appendOutcomeValue(_ value: OCKOutcomeValue, taskUUID: UUID, occurrence: Int) async throws -> Event {
        var event = try await fetchEvent(taskUUID: taskUUID, occurrence: occurrence)
        if var outcome = event.outcome {
            outcome.values.append(value)
            event.outcome = try await updateOutcome(outcome)
        } else {
            event.outcome = try await addOutcome(OCKOutcome(taskUUID: taskUUID, taskOccurrenceIndex: occurrence, values: [value]))
        }
        return event
    }

    /// Deletes the value at `index` of the event's outcome; the outcome goes when its last value does.
    ///
    /// - Throws: `OCKStoreError.invalidValue` when there is no value at `index`.
    @discardableResult
    public func deleteOutcomeValue(at index: Int, taskUUID: UUID, occurrence: Int) async throws -> Event {
        var event = try await fetchEvent(taskUUID: taskUUID, occurrence: occurrence)
        guard var outcome = event.outcome, outcome.values.indices.contains(index) else {
            throw OCKStoreError.invalidValue(reason: "The event has no logged value at that position.")
        }
        outcome.values.remove(at: index)
        if outcome.values.isEmpty {
            try await deleteOutcome(outcome)
            event.outcome = nil
        } else {
            event.outcome = try await updateOutcome(outcome)
        }
        return event
    }

    /// Makes `value` the event's only value (labeled-value and numeric-progress cards). `userInfo`, when given,
    /// replaces the outcome's (the app names who recorded it there).
    @discardableResult
    public func recordOutcomeValue(_ value: OCKOutcomeValue, taskUUID: UUID, occurrence: Int,
                                   userInfo: [String: String]? = nil) async throws -> Event {
        var event = try await fetchEvent(taskUUID: taskUUID, occurrence: occurrence)
        if var outcome = event.outcome {
            outcome.values = [value]
            if let userInfo { outcome.userInfo = userInfo }
            event.outcome = try await updateOutcome(outcome)
        } else {
            var outcome = OCKOutcome(taskUUID: taskUUID, taskOccurrenceIndex: occurrence, values: [value])
            outcome.userInfo = userInfo
            event.outcome = try await addOutcome(outcome)
        }
        return event
    }
}
