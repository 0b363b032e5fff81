import Foundation

extension OCKStore: OCKOutcomeStore {
    /// The store's outcome type: ``OCKOutcome``.
    public typealias Outcome = OCKOutcome

    public func outcomes(matching query: OCKOutcomeQuery) -> some AsyncSequence<[OCKOutcome], any Error> & Sendable {
        liveQuery(.outcomes) { try await self.fetchOutcomes(query: query) }
    }

    /// The matching outcomes. With a date interval: the current (newest, not deleted) version of each outcome whose
    /// event overlaps the interval (starts before its end, ends at or after its start). Without: every version that
    /// is not deleted, of outcomes that were not deleted.
    public func fetchOutcomes(query: OCKOutcomeQuery) async throws -> [OCKOutcome] {
        let cache = self.cache
        return try await read { db in
            var sql = QuerySQL(query, db.dialect, dateIntervalApplies: false)
            sql.matchRelated("task_uuid", table: "tasks", ids: query.taskIDs, uuids: query.taskUUIDs,
                             remoteIDs: query.taskRemoteIDs, indexed: query.dateInterval == nil)
            if let interval = query.dateInterval {
                sql.require("event_end >= ? AND event_start < ? AND next_effective_date IS NULL",
                            [interval.start.storeValue, interval.end.storeValue])
                // The outcomes an interval holds are those of the occurrences its task versions' schedules have
                // there: index ranges of the one current outcome per occurrence. (The store keeps no index on
                // event times, which every insert would pay for.)
                guard let ranges = try await OutcomeOccurrences.ranges(for: query, in: interval, db, cache: cache) else { return [] }
                if ranges.count <= OutcomeOccurrences.maximumRanges {
                    sql.join = OutcomeOccurrences.join(ranges, db.dialect)
                    sql.index = "outcomes_one_live_per_occurrence"
                }
            }
            var outcomes = try await sql.fetch(OCKOutcome.self, db, cache: cache)
            try await OCKOutcome.attachValues(to: &outcomes, db)
            return outcomes
        }
    }

    /// Adds outcomes. Fails if the task version does not exist, the occurrence is not in its schedule, a newer task
    /// version takes effect at or before the outcome's event, or a current outcome exists for that occurrence.
    @discardableResult
    public func addOutcomes(_ outcomes: [OCKOutcome]) async throws -> [OCKOutcome] {
        let (cache, rules) = (self.cache, self.rules)
        return try await write(.outcomes, failure: OCKStoreError.addFailed) { db, now in
            let events = OutcomeEvents(db, cache: cache)
            let checking = !rules.isEmpty
            var writes: [OCKStoreWrite] = []
            let added = try await Self.uniqueOutcomes {
                try await VersionedWrites.add(outcomes, now: now, db) { outcome in
                    let span = try await events.event(outcome)
                    if checking { writes.append(.addOutcome(outcome, task: try await events.task(outcome.taskUUID))) }
                    return span
                }
            }
            try await rules.check(writes, db, now: now, cache: cache)
            return added
        }
    }

    /// Appends new versions of outcomes and returns them.
    ///
    /// As in CareKit, a new version whose effective date is earlier than the version it replaces loses to that
    /// version: it is kept in the outcome's history, and the version it would have replaced stays what queries and
    /// events show (here, by appending a copy of that version after it, so the newest version is always the shown one).
    @discardableResult
    public func updateOutcomes(_ outcomes: [OCKOutcome]) async throws -> [OCKOutcome] {
        let (cache, rules, newUUID) = (self.cache, self.rules, self.newUUID)
        return try await write(.outcomes, failure: OCKStoreError.updateFailed) { db, now in
            let events = OutcomeEvents(db, cache: cache)
            var writes: [OCKStoreWrite] = []
            let updated = try await Self.uniqueOutcomes {
                var prevailing: [OCKOutcome] = []
                let updated = try await VersionedWrites.update(outcomes, now: now, newUUID: newUUID, db, cache: cache, check: { current, proposed in
                    writes += try await OCKStoreWrite.outcomeUpdate(current: current, proposed: proposed, task: events.task)
                    if proposed.effectiveDate < current.effectiveDate { prevailing.append(current) }
                }, event: events.event)
                // The versions read for the update carry no values; the copies need them.
                try await OCKOutcome.attachValues(to: &prevailing, db)
                for version in prevailing {
                    _ = try await VersionedWrites.appendVersion(version, deleting: false, now: now, newUUID: newUUID, db, cache: cache,
                                                          event: events.event)
                }
                return updated
            }
            try await rules.check(writes, db, now: now, cache: cache)
            return updated
        }
    }

    /// Deletes outcomes by id: each gets a tombstone, a copy of its current version with `deletedDate` set to now, so
    /// its event shows no outcome again (marked not done).
    @discardableResult
    public func deleteOutcomes(_ outcomes: [OCKOutcome]) async throws -> [OCKOutcome] {
        let (cache, rules, newUUID) = (self.cache, self.rules, self.newUUID)
        return try await write(.outcomes, failure: OCKStoreError.deleteFailed) { db, now in
            // A tombstone keeps its outcome's event; CareKit's placement rules apply to recording, not to deleting.
            let events = OutcomeEvents(db, cache: cache)
            var writes: [OCKStoreWrite] = []
            let deleted = try await VersionedWrites.delete(outcomes, now: now, newUUID: newUUID, db, cache: cache, check: { current in
                writes.append(.deleteOutcome(current, task: try await events.task(current.taskUUID)))
            }) { try await events.event($0, checkingPlacement: false) }
            try await rules.check(writes, db, now: now, cache: cache)
            return deleted
        }
    }

    /// Turns the store's one-current-outcome-per-occurrence constraint into CareKit's error.
    private static func uniqueOutcomes<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as SQLFailure where error.kind == .uniqueViolation {
            throw OCKStoreError.invalidValue(reason: "Tried to add a non-unique outcome to the store. Outcomes are "
                                             + "unique on their task UUID and task occurrence index.")
        }
    }
}

/// Finds the event an outcome records, checking CareKit's rules, with the task versions of one call cached.
final class OutcomeEvents {
    private let db: any SQLDatabase
    private let cache: DecodedEntityCache
    /// The task versions looked up, by uuid: a batch's outcomes cost one dictionary lookup each, no copy of the task.
    private var versions: [UUID: TaskVersion] = [:]

    /// A task version, the effective dates of the versions that follow it, and the last event looked up in it (so a
    /// batch of consecutive occurrences steps instead of searching).
    private final class TaskVersion {
        let task: OCKTask
        let laterVersionStarts: [Date]
        var lastEvent: OCKScheduleEvent?

        init(task: OCKTask, laterVersionStarts: [Date]) {
            self.task = task
            self.laterVersionStarts = laterVersionStarts
        }
    }

    init(_ db: any SQLDatabase, cache: DecodedEntityCache) {
        self.db = db
        self.cache = cache
    }

    func event(_ outcome: OCKOutcome) async throws -> DateInterval? {
        try await event(outcome, checkingPlacement: true)
    }

    /// The span of the outcome's event; with `checkingPlacement`, also CareKit's rule that no newer task version may
    /// take effect at or before it.
    func event(_ outcome: OCKOutcome, checkingPlacement: Bool) async throws -> DateInterval? {
        let version = try await version(outcome.taskUUID)
        let occurrence = outcome.taskOccurrenceIndex
        let found: OCKScheduleEvent?
        if let last = version.lastEvent, last.occurrence == occurrence - 1 {
            found = version.task.schedule.event(after: last)
        } else {
            found = occurrence >= 0 ? version.task.schedule.event(forOccurrenceIndex: occurrence) : nil
        }
        version.lastEvent = found
        guard let event = found else {
            throw OCKStoreError.invalidValue(reason: "Invalid outcome occurrence: the task's schedule has no such occurrence")
        }
        if checkingPlacement, !version.laterVersionStarts.isEmpty,
           version.laterVersionStarts.contains(where: { $0 >= version.task.effectiveDate && $0 <= event.start }) {
            throw OCKStoreError.invalidValue(reason: "Tried to place an outcome in a date range overshadowed by a newer "
                                             + "version of the task: the outcome's event starts after the newer version takes effect.")
        }
        return DateInterval(start: event.start, end: max(event.start, event.end))
    }

    /// The task version with `uuid`.
    func task(_ uuid: UUID) async throws -> OCKTask {
        try await version(uuid).task
    }

    /// The task version with `uuid` and the effective dates of the versions that follow it.
    private func version(_ uuid: UUID) async throws -> TaskVersion {
        if let known = versions[uuid] { return known }
        guard let task = try await db.firstRow("SELECT * FROM tasks WHERE uuid = ?", [uuid], { try OCKTask.decode($0, cache: cache) }) else {
            throw OCKStoreError.invalidValue(reason: "Failed to find the outcome's task (no task version with that UUID)")
        }
        var starts: [Date] = []
        var frontier = task.nextVersionUUIDs
        var seen = Set<UUID>()
        while let next = frontier.popLast(), seen.insert(next).inserted {
            guard let (start, nextUUIDs) = try await db.firstRow("SELECT effective_date, next_uuids FROM tasks WHERE uuid = ?", [next], {
                (try $0.date("effective_date"), try $0.data("next_uuids"))
            }) else { continue }
            if let start { starts.append(start) }
            frontier += PackedUUIDs.uuids(nextUUIDs)
        }
        let version = TaskVersion(task: task, laterVersionStarts: starts)
        versions[uuid] = version
        return version
    }
}

/// The occurrences an interval's outcomes can have, per task version (`OCKStore.fetchOutcomes`).
enum OutcomeOccurrences {
    /// Ranges joined in one statement at most (three arguments each, under SQLite's 32,766); a query over more task
    /// versions reads the outcomes without them (every current outcome, filtered by the event's times).
    static let maximumRanges = 9_000

    /// For each task version the query can match (its `taskUUIDs`, else the versions of its task ids or remote ids,
    /// else every version whose schedule starts before the interval ends), the occurrences whose events may overlap
    /// `interval`; versions with none are left out. Nil when no version has any: nothing can match.
    static func ranges(for query: OCKOutcomeQuery, in interval: DateInterval, _ db: any SQLDatabase,
                       cache: DecodedEntityCache) async throws -> [(task: UUID, occurrences: ClosedRange<Int>)]? {
        var tasks: [OCKTask] = []
        func read(_ condition: String, _ values: [SQLValue]) async throws {
            try await db.forEachRow("SELECT * FROM tasks WHERE \(condition)", values) { tasks.append(try OCKTask.decode($0, cache: cache)) }
        }
        func read(_ column: String, in values: [SQLValue]) async throws {
            for chunk in values.chunks(of: 500) {
                try await read("\(column) IN (\(QuerySQL.placeholders(chunk.count)))", Array(chunk))
            }
        }
        if !query.taskUUIDs.isEmpty {
            // Task versions never change their schedules: those decoded before need no read (a day's events).
            var missing: [SQLValue] = []
            for uuid in query.taskUUIDs {
                if let task = cache.entity(uuid, as: OCKTask.self) { tasks.append(task) } else { missing.append(uuid.sqlValue) }
            }
            try await read("uuid", in: missing)
        } else if !query.taskIDs.isEmpty {
            try await read("id", in: query.taskIDs.map(\.sqlValue))
        } else if !query.taskRemoteIDs.isEmpty {
            try await read("remote_id", in: query.taskRemoteIDs.map(\.sqlValue))
        } else {
            try await read("schedule_start < ?", [interval.end.storeValue.sqlValue])
        }
        var ranges: [(task: UUID, occurrences: ClosedRange<Int>)] = []
        var seen = Set<UUID>()
        for task in tasks where seen.insert(task.uuid).inserted {
            if let occurrences = task.schedule.occurrences(overlapping: interval) { ranges.append((task.uuid, occurrences)) }
        }
        return ranges.isEmpty ? nil : ranges
    }

    /// The ranges as a relation `ranges(task, low, high)` joined to `outcomes` by task version and occurrence (on
    /// SQLite, a `CROSS JOIN`: the ranges are the outer loop).
    static func join(_ ranges: [(task: UUID, occurrences: ClosedRange<Int>)], _ dialect: SQLDialect)
        -> (with: String, leading: String, on: String, arguments: [SQLValue]) {
        var arguments: [SQLValue] = []
        arguments.reserveCapacity(ranges.count * 3)
        for range in ranges {
            arguments += [.uuid(range.task), .integer(Int64(range.occurrences.lowerBound)), .integer(Int64(range.occurrences.upperBound))]
        }
        let rows = Array(repeating: "(?, ?, ?)", count: ranges.count).joined(separator: ", ")
        return ("ranges(task, low, high) AS (VALUES \(rows))", dialect.plannerHints ? "ranges CROSS JOIN" : "ranges JOIN",
                "outcomes.task_uuid = ranges.task AND outcomes.occurrence BETWEEN ranges.low AND ranges.high", arguments)
    }
}
