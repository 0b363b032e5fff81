import Foundation

/// Reads events (task occurrences joined with their outcomes) of any type.
public protocol OCKAnyReadOnlyEventStore: OCKAnyReadOnlyTaskStore, OCKAnyReadOnlyOutcomeStore {
    /// A live query for events.
    func anyEvents(matching query: OCKEventQuery) -> CareStoreQueryResults<OCKAnyEvent>
    /// The events that overlap the query's interval.
    func fetchAnyEvents(query: OCKEventQuery) async throws -> [OCKAnyEvent]
    /// One occurrence of `task`, with its outcome.
    func fetchAnyEvent(forTask task: any OCKAnyTask, occurrence: Int) async throws -> OCKAnyEvent
    /// Daily adherence (see the default implementation).
    func fetchAdherence(query: OCKAdherenceQuery) async throws -> [OCKAdherence]
}

/// Reads and writes tasks and outcomes of any type, and reads events.
public protocol OCKAnyEventStore: OCKAnyReadOnlyEventStore, OCKAnyTaskStore, OCKAnyOutcomeStore {}

/// Reads events of one task and outcome type.
public protocol OCKReadOnlyEventStore: OCKAnyReadOnlyEventStore, OCKReadableTaskStore, OCKReadableOutcomeStore {
    typealias Event = OCKEvent<Task, Outcome>
    associatedtype Events: AsyncSequence & Sendable where Events.Element == [Event]

    /// A live query for events.
    func events(matching query: OCKEventQuery) -> Events
    /// The events that overlap the query's interval, in start order.
    func fetchEvents(query: OCKEventQuery) async throws -> [Event]
    /// One occurrence of `task` (that exact version), with its outcome.
    func fetchEvent(forTask task: Task, occurrence: Int) async throws -> Event
}

/// A store of patients, care plans, contacts, tasks and outcomes with events: what `OCKStore` is.
public protocol OCKEventStore: OCKReadOnlyEventStore, OCKTaskStore, OCKOutcomeStore, OCKAnyEventStore {}

/// CareKit's complete store.
public typealias OCKStoreProtocol = OCKPatientStore & OCKCarePlanStore & OCKContactStore & OCKEventStore

/// CareKit's complete store, type-erased.
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
    public func anyEvents(matching query: OCKEventQuery) -> CareStoreQueryResults<OCKAnyEvent> {
        CareStoreQueryResults(wrapping: events(matching: query).map { $0.map(\.anyEvent) })
    }

    public func fetchAnyEvents(query: OCKEventQuery) async throws -> [OCKAnyEvent] {
        try await fetchEvents(query: query).map(\.anyEvent)
    }

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
