import Foundation

extension OCKStore: OCKTaskStore {
    /// The store's task type: ``OCKTask``.
    public typealias Task = OCKTask

    public func tasks(matching query: OCKTaskQuery) -> some AsyncSequence<[OCKTask], any Error> & Sendable {
        liveQuery(.tasks) { try await self.fetchTasks(query: query) }
    }

    /// The matching task versions. With a date interval: the version of each task in effect at the interval's end,
    /// and (CareKit's rule) only tasks whose schedule has not ended before the interval; with
    /// `excludesTasksWithNoEvents`, only tasks with events in it. Limit and offset apply before that filter, as in
    /// CareKit.
    public func fetchTasks(query: OCKTaskQuery) async throws -> [OCKTask] {
        try await fetchTaskVersions(OCKTask.self, query: query)
    }

    /// The versions of tasks of one kind that `query` matches (`fetchTasks(query:)`'s rules).
    func fetchTaskVersions<T: StoredEntity & TaskFields>(_ type: T.Type, query: OCKTaskQuery) async throws -> [T] {
        let tasks = try await fetchVersions(T.self) { dialect in
            var sql = QuerySQL(query, dialect)
            sql.matchRelated("care_plan_uuid", table: "care_plans", ids: query.carePlanIDs, uuids: query.carePlanUUIDs,
                             remoteIDs: query.carePlanRemoteIDs)
            sql.order = query.sortDescriptors.map {
                switch $0 {
                case let .effectiveDate(ascending): ("effective_date", ascending)
                case let .groupIdentifier(ascending): ("group_identifier", ascending)
                case let .title(ascending): ("title", ascending)
                }
            }
            return sql
        }
        return tasks.filter { query.lists($0) }
    }

    /// Adds tasks. An id that was deleted can be used again (CareKit refuses; issue #379): the new task starts after
    /// the tombstone, as a task of its own — its days before show nothing of the deleted task, whose versions and
    /// outcomes stay in the store.
    @discardableResult
    public func addTasks(_ tasks: [OCKTask]) async throws -> [OCKTask] {
        let (rules, cache) = (self.rules, self.cache)
        return try await addVersions(tasks, .tasks, reusingDeletedIDs: true, after: { db, now, added in
            try await rules.check(added.map { .addTask($0) }, db, now: now, cache: cache)
        })
    }

    /// Appends new task versions. Fails (CareKit's data-loss guard) when an outcome exists for an event of the task
    /// that starts on or after the new version's effective date: delete those outcomes first, or make the new version
    /// effective after them.
    @discardableResult
    public func updateTasks(_ tasks: [OCKTask]) async throws -> [OCKTask] {
        try await updateTasks(tasks, onlyIfNewest: false)
    }

    /// Appends new task versions as `updateTasks(_:)` does; with `onlyIfNewest`, only if each task's newest version
    /// is still the one it was read as (the task's `uuid`): an editor's optimistic lock. Otherwise nothing is written
    /// and it throws `OCKStoreError.updateFailed` with `OCKStore.changedMeanwhile` as the reason.
    @discardableResult
    public func updateTasks(_ tasks: [OCKTask], onlyIfNewest: Bool) async throws -> [OCKTask] {
        let (rules, cache) = (self.rules, self.cache)
        return try await updateVersions(tasks, .tasks, check: { db, current, proposed in
            try Self.checkNewest(onlyIfNewest, current: current, proposed: proposed)
            let latest = try await db.scalar(Self.latestOutcomeSQL, [current.id]).double
            if let latest, proposed.effectiveDate.storeValue <= latest {
                throw OCKStoreError.updateFailed(reason: """
                    Updating the task failed. The new version takes effect before an outcome recorded for a \
                    previous version. To prevent implicit data loss, delete the outcomes that exist after the new \
                    version's effectiveDate before applying the update, or move the new version's effectiveDate \
                    past the latest outcome's date.
                    """)
            }
        }, after: { db, now, changes in
            try await rules.check(changes.map { .updateTask(current: $0.current, proposed: $0.proposed) }, db, now: now, cache: cache)
        })
    }

    /// The start of the latest event of any version of task `id` with an outcome, or nil if none has one. An update
    /// of the task must take effect after it (the data-loss guard of `updateTasks`).
    public func latestOutcomeEventStart(ofTaskWithID id: String) async throws -> Date? {
        try await read { db in
            try await db.scalar(Self.latestOutcomeSQL, [id]).double.map(Date.init(storeValue:))
        }
    }

    static let latestOutcomeSQL = """
        SELECT max(event_start) FROM outcomes
        WHERE task_uuid IN (SELECT uuid FROM tasks WHERE id = ?)
          AND deleted_date IS NULL AND next_effective_date IS NULL
        """

    /// Deletes tasks by id: each gets a tombstone, a copy of its newest version with `deletedDate` set to now (the
    /// other fields of `tasks` are not read). The task's versions and outcomes stay in the store, and its id can be
    /// added again.
    @discardableResult
    public func deleteTasks(_ tasks: [OCKTask]) async throws -> [OCKTask] {
        let (rules, cache) = (self.rules, self.cache)
        return try await deleteVersions(tasks, .tasks) { db, now, deleted in
            try await rules.check(deleted.map { .deleteTask($0) }, db, now: now, cache: cache)
        }
    }
}

extension OCKStore: OCKEventStore {}
