import Foundation

/// Reads events (task occurrences joined with their outcomes) of any type.
public protocol OCKAnyReadOnlyEventStore: OCKAnyReadOnlyTaskStore, OCKAnyReadOnlyOutcomeStore {
    /// A live query for events: the matching events now, then again after each change to their tasks or outcomes that
    /// changes them.
    func anyEvents(matching query: OCKEventQuery) -> CareStoreQueryResults<OCKAnyEvent>
    /// The events that overlap the query's interval, each with its outcome, in start order.
    func fetchAnyEvents(query: OCKEventQuery) async throws -> [OCKAnyEvent]
    /// Occurrence `occurrence` of exactly the version `task`, with its outcome.
    func fetchAnyEvent(forTask task: any OCKAnyTask, occurrence: Int) async throws -> OCKAnyEvent
    /// The adherence of each day the query covers: whether tasks that impact adherence exist that day, and if so how
    /// much of their events is done (the default implementation's rules).
    func fetchAdherence(query: OCKAdherenceQuery) async throws -> [OCKAdherence]
}

/// Reads and writes tasks and outcomes of any type, and reads events.
public protocol OCKAnyEventStore: OCKAnyReadOnlyEventStore, OCKAnyTaskStore, OCKAnyOutcomeStore {}

/// Reads events of one task and outcome type.
///
/// A store that can fetch tasks and outcomes gets events for free: when its tasks are versioned
/// (``OCKAnyVersionableTask``), the extensions compute events, single events, live event queries and adherence from
/// `fetchTasks(query:)` and `fetchOutcomes(query:)` with CareKit's rules. So a custom read-only store implements
/// `reset()`, the two fetches and the two live queries.
///
/// For example, a store over a fixed snapshot of tasks and outcomes (an export, a test fixture):
/// ```swift
/// final class SnapshotStore: OCKReadOnlyEventStore {
///     let allTasks: [OCKTask]
///     let allOutcomes: [OCKOutcome]
///
///     init(tasks: [OCKTask], outcomes: [OCKOutcome]) {
///         allTasks = tasks
///         allOutcomes = outcomes
///     }
///
///     func reset() throws {}
///
///     func fetchTasks(query: OCKTaskQuery) async throws -> [OCKTask] { select(query) }
///
///     func fetchOutcomes(query: OCKOutcomeQuery) async throws -> [OCKOutcome] {
///         allOutcomes.filter { query.taskUUIDs.isEmpty || query.taskUUIDs.contains($0.taskUUID) }
///     }
///
///     // The snapshot never changes: a live query yields one result and ends.
///     func tasks(matching query: OCKTaskQuery) -> AsyncThrowingStream<[OCKTask], any Error> {
///         let tasks = select(query)
///         return AsyncThrowingStream { $0.yield(tasks); $0.finish() }
///     }
///
///     func outcomes(matching query: OCKOutcomeQuery) -> AsyncThrowingStream<[OCKOutcome], any Error> {
///         let outcomes = allOutcomes
///         return AsyncThrowingStream { $0.yield(outcomes); $0.finish() }
///     }
///
///     private func select(_ query: OCKTaskQuery) -> [OCKTask] {
///         allTasks.filter {
///             (query.ids.isEmpty || query.ids.contains($0.id))
///                 && (query.uuids.isEmpty || query.uuids.contains($0.uuid))
///         }
///     }
/// }
///
/// let events = try await SnapshotStore(tasks: tasks, outcomes: outcomes).fetchEvents(query: OCKEventQuery(for: day))
/// ```
public protocol OCKReadOnlyEventStore: OCKAnyReadOnlyEventStore, OCKReadableTaskStore, OCKReadableOutcomeStore {
    /// The store's event: one of its tasks with an outcome of its type.
    typealias Event = OCKEvent<Task, Outcome>
    /// The sequence a live event query returns: arrays of events, the current result first.
    associatedtype Events: AsyncSequence & Sendable where Events.Element == [Event]

    /// A live query for events: the matching events now, then again after each change to their tasks or outcomes that
    /// changes them.
    func events(matching query: OCKEventQuery) -> Events
    /// The events that overlap the query's interval, in start order.
    func fetchEvents(query: OCKEventQuery) async throws -> [Event]
    /// One occurrence of `task` (that exact version), with its outcome.
    func fetchEvent(forTask task: Task, occurrence: Int) async throws -> Event
}

/// Reads and writes tasks and outcomes of one type, and reads their events. Together with the patient, care plan and
/// contact stores it makes ``OCKStoreProtocol``, which ``OCKStore`` is.
public protocol OCKEventStore: OCKReadOnlyEventStore, OCKTaskStore, OCKOutcomeStore, OCKAnyEventStore {}

/// CareKit's complete store: patients, care plans, contacts, tasks, outcomes and events, each of one type. ``OCKStore``
/// is one.
///
/// To write a store of your own (another database, a web service), implement for each part the batch operations in
/// their async form (or in CareKit's callback form: a store implements either) and the live queries, plus `reset()`.
/// Everything else comes from the protocols' extensions: the single-item and by-id forms, the type-erased ("Any")
/// forms, the callback forms, and events and adherence computed from tasks and outcomes (see ``OCKReadOnlyEventStore``
/// for a small example). Each batch operation should be one transaction: all or nothing.
public typealias OCKStoreProtocol = OCKPatientStore & OCKCarePlanStore & OCKContactStore & OCKEventStore

/// CareKit's complete store, type-erased: what ``OCKStoreCoordinator`` is and attaches, and what code written for any
/// store takes.
///
/// For example, recording a value for an event works with an ``OCKStore`` and a coordinator alike:
/// ```swift
/// func record(_ value: OCKOutcomeValue, for event: OCKAnyEvent, in store: any OCKAnyStoreProtocol) async throws {
///     let outcome = OCKOutcome(taskUUID: event.task.uuid, taskOccurrenceIndex: event.scheduleEvent.occurrence,
///                              values: [value])
///     try await store.addAnyOutcome(outcome)
/// }
/// ```
public typealias OCKAnyStoreProtocol = OCKAnyPatientStore & OCKAnyCarePlanStore & OCKAnyContactStore & OCKAnyEventStore

extension OCKReadOnlyEventStore where Task: OCKAnyVersionableTask {
    /// CareKit's event fetch. For every task with a version in effect during the interval, it walks the task's
    /// versions back in time; each version owns the events that start from its effective date up to the next
    /// version's (events that overlap the interval are included). Outcomes are joined by task version and occurrence.
    /// Schedules are evaluated with the age-independent lookup, so old schedules cost the same as new ones.
    public func fetchEvents(query: OCKEventQuery) async throws -> [Event] {
        let interval = query.dateInterval
        let tasks = try await fetchTasks(query: query.taskQuery)
        var events: [Event] = []
        var versionUUIDs: [UUID] = []
        for newest in tasks {
            let chain = try await versionChain(from: newest, reaching: interval.start)
            versionUUIDs += chain.map(\.uuid)
            try Self.appendPartialEvents(chain, in: interval, to: &events)
        }
        guard !events.isEmpty else { return [] }
        return try await joiningOutcomes(events, of: versionUUIDs, in: interval)
    }

    /// `events` with their outcomes (of task versions `versionUUIDs`, in `interval`), in CareKit's event order.
    func joiningOutcomes(_ events: [Event], of versionUUIDs: [UUID], in interval: DateInterval) async throws -> [Event] {
        var events = events
        var outcomeQuery = OCKOutcomeQuery(dateInterval: interval)
        outcomeQuery.taskUUIDs = versionUUIDs
        var outcomes: [UUID: [Int: Outcome]] = [:]
        for outcome in try await fetchOutcomes(query: outcomeQuery) where outcomes[outcome.taskUUID]?[outcome.taskOccurrenceIndex] == nil {
            outcomes[outcome.taskUUID, default: [:]][outcome.taskOccurrenceIndex] = outcome
        }
        for index in events.indices {
            events[index].outcome = outcomes[events[index].task.uuid]?[events[index].scheduleEvent.occurrence]
        }
        events.sort()
        return events
    }

    /// One occurrence of exactly `task`'s version, with its outcome.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if the task version is not in the store or the occurrence does not exist.
    public func fetchEvent(forTask task: Task, occurrence: Int) async throws -> Event {
        var taskQuery = OCKTaskQuery()
        taskQuery.uuids = [task.uuid]
        guard let stored = try await fetchTasks(query: taskQuery).first else {
            throw OCKStoreError.fetchFailed(reason: "No task with that UUID")
        }
        guard let scheduleEvent = stored.schedule.event(forOccurrenceIndex: occurrence) else {
            throw OCKStoreError.fetchFailed(reason: "Invalid occurrence index")
        }
        var outcomeQuery = OCKOutcomeQuery(dateInterval: DateInterval(start: scheduleEvent.start,
                                                                      end: scheduleEvent.end.addingTimeInterval(1)))
        outcomeQuery.taskUUIDs = [stored.uuid]
        let outcome = try await fetchOutcomes(query: outcomeQuery).first { $0.taskOccurrenceIndex == occurrence }
        return Event(task: stored, outcome: outcome, scheduleEvent: scheduleEvent)
    }

    /// A live query for events: recomputed when the matching tasks or their outcomes change, yielded when the result
    /// differs from the last one.
    public func events(matching query: OCKEventQuery) -> CareStoreQueryResults<Event> {
        let taskChanges = tasks(matching: query.taskQuery)
        var outcomeQuery = OCKOutcomeQuery(dateInterval: query.dateInterval)
        outcomeQuery.taskIDs = query.taskIDs
        let outcomeChanges = outcomes(matching: outcomeQuery)
        let stream = AsyncThrowingStream<[Event], any Error> { continuation in
            let work = _Concurrency.Task {
                do {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        let (triggers, trigger) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
                        // When either source ends or fails, the triggers end too, and its error surfaces below.
                        group.addTask {
                            defer { trigger.finish() }
                            for try await _ in taskChanges { trigger.yield() }
                        }
                        group.addTask {
                            defer { trigger.finish() }
                            for try await _ in outcomeChanges { trigger.yield() }
                        }
                        var last: [Event]?
                        for await _ in triggers {
                            let events = try await self.fetchEvents(query: query)
                            if events != last {
                                last = events
                                continuation.yield(events)
                            }
                        }
                        group.cancelAll()
                        try await group.waitForAll()
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in work.cancel() }
        }
        return CareStoreQueryResults(wrapping: stream)
    }

    /// The task's versions from `newest` back through the one in effect at `start` (newest first). As CareKit, the
    /// walk stops at a version effective before `start` once the newest one is effective by `start`.
    func versionChain(from newest: Task, reaching start: Date) async throws -> [Task] {
        var chain = [newest]
        var current = newest
        while !(current.effectiveDate < start && newest.effectiveDate <= start),
              let previousUUID = current.previousVersionUUIDs.first {
            var query = OCKTaskQuery()
            query.uuids = [previousUUID]
            guard let previous = try await fetchTasks(query: query).first else { break }
            chain.append(previous)
            current = previous
        }
        return chain
    }

    /// The events each version owns: those that start from its effective date until the newer version's, and
    /// overlap the interval. (CareKit lets a version also list an event that began before it took effect, so an event
    /// spanning a version change showed twice, once per version.)
    ///
    /// A task lists at most `OCKEventQuery.maximumEvents(of:in:)` events: never fewer than a schedule within the
    /// limits has, but a bound on one stored before the limits existed.
    static func appendPartialEvents(_ chain: [Task], in interval: DateInterval, to events: inout [Event]) throws {
        let versions = chain.enumerated().sorted { ($1.element.effectiveDate, $0.offset) < ($0.element.effectiveDate, $1.offset) }
            .map(\.element)
        var end = interval.end
        var remaining = OCKEventQuery.maximumEvents(ofTaskWith: chain.map(\.schedule.elements.count).max() ?? 0, in: interval)
        for version in versions {
            let start = max(version.effectiveDate, interval.start)
            if start < end, remaining > 0 {
                let found = version.schedule.events(from: start, to: end, limit: remaining)
                    .filter { $0.start >= version.effectiveDate }
                remaining -= found.count
                guard events.count + found.count <= OCKEventQuery.maximumEventsPerFetch else {
                    throw OCKStoreError.invalidValue(reason: "The query covers more than \(OCKEventQuery.maximumEventsPerFetch) "
                                                    + "events: ask for a shorter interval or fewer tasks")
                }
                for scheduleEvent in found {
                    events.append(Event(task: version, outcome: nil, scheduleEvent: scheduleEvent))
                }
            }
            end = min(end, version.effectiveDate)
        }
    }
}

extension OCKReadOnlyEventStore {
    /// The type-erased form of `events(matching:)`: the same live query, its events as ``OCKAnyEvent``.
    public func anyEvents(matching query: OCKEventQuery) -> CareStoreQueryResults<OCKAnyEvent> {
        CareStoreQueryResults(wrapping: events(matching: query).map { $0.map(\.anyEvent) })
    }

    /// The type-erased form of `fetchEvents(query:)`.
    public func fetchAnyEvents(query: OCKEventQuery) async throws -> [OCKAnyEvent] {
        try await fetchEvents(query: query).map(\.anyEvent)
    }

    /// The type-erased form of `fetchEvent(forTask:occurrence:)`.
    ///
    /// - Throws: `OCKStoreError.fetchFailed` if `task` is not of the store's task type, or what
    ///   `fetchEvent(forTask:occurrence:)` throws.
    public func fetchAnyEvent(forTask task: any OCKAnyTask, occurrence: Int) async throws -> OCKAnyEvent {
        guard let task = task as? Task else {
            throw OCKStoreError.fetchFailed(reason: "Store of type \(type(of: self)) cannot fetch event with task type \(type(of: task)).")
        }
        return try await fetchEvent(forTask: task, occurrence: occurrence).anyEvent
    }
}

extension OCKAnyReadOnlyEventStore {
    /// CareKit's adherence: one entry per day of the query (elapsed days from its start), `.noTasks` where no task
    /// that impacts adherence exists that day, `.noEvents` where such tasks have no events, otherwise the mean
    /// progress of that day's events.
    public func fetchAdherence(query: OCKAdherenceQuery) async throws -> [OCKAdherence] {
        try await fetchAdherence(query: query, calendar: .current)
    }

    /// `fetchAdherence(query:)` with days counted in `calendar` (CareKit always uses the current calendar).
    public func fetchAdherence(query: OCKAdherenceQuery, calendar: Calendar) async throws -> [OCKAdherence] {
        var taskQuery = OCKTaskQuery(dateInterval: query.dateInterval)
        taskQuery.ids = query.taskIDs
        let tasks = try await fetchAnyTasks(query: taskQuery).filter(\.impactsAdherence)
        let dates = query.dates(calendar: calendar)
        guard !tasks.isEmpty else { return dates.map { _ in .noTasks } }
        var eventQuery = OCKEventQuery(dateInterval: query.dateInterval)
        eventQuery.taskIDs = Array(Set(tasks.map(\.id)))
        let events = try await fetchAnyEvents(query: eventQuery)
        func dayIndex(_ date: Date) -> Int {
            calendar.dateComponents([.day], from: query.dateInterval.start, to: date).day ?? 0
        }
        // At most 100,000 days, as `dates()`.
        var buckets = [[OCKAnyEvent]](repeating: [], count: min(max(dayIndex(query.dateInterval.end) + 1, 0), 100_001))
        for event in events {
            let index = dayIndex(event.scheduleEvent.start)
            if buckets.indices.contains(index) { buckets[index].append(event) }
        }
        var result = [OCKAdherence](repeating: .noTasks, count: buckets.count)
        for (index, date) in dates.enumerated() where index < result.count {
            guard tasks.contains(where: { $0.schedule.exists(onDay: date) }) else { continue }
            result[index] = buckets[index].isEmpty ? .noEvents
                : .progress(AggregatedCareTaskProgress(combining: buckets[index].map(query.computeProgress)).fractionCompleted)
        }
        return result
    }
}
