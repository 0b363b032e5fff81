/// Limits every store backend keeps, whoever writes (the app, the JSON API, the command line tool, sync): what a
/// record holds is listed on its pages and walked by its queries, so it is bounded.
public enum OCKStoreLimits {
    /// The most patients, care plans, contacts or tasks of one kind a store holds that are not deleted (their
    /// versions are not counted). Adding more fails with `OCKStoreError.addFailed` (`tooMany(_:)`) and adds nothing;
    /// deleting one makes room.
    public static let maximumEntitiesOfAKind = 1_000

    /// The reason of the failure to add a `kind` ("task") beyond the limit.
    public static func tooMany(_ kind: String) -> String {
        "A store holds at most \(maximumEntitiesOfAKind) \(kind)s that are not deleted: delete one first"
    }

    /// The most events a record's tasks may have on one day together: the sum, over the newest version of every
    /// task that is not deleted (HealthKit tasks included), of the most events its schedule has on a day
    /// (`OCKSchedule.maximumEventsOnOneDay`). A day's page lists them all, so a plan is refused where its tasks are
    /// written — by any writer — before a day could hold more. Adding or updating tasks beyond it fails with
    /// `OCKStoreError.invalidValue` (`tooManyEventsPerDay`) and writes nothing.
    public static let maximumEventsPerDay = 2_000

    /// The reason of the refusal of tasks whose schedules would pass `maximumEventsPerDay` together.
    public static let tooManyEventsPerDay = """
        A care plan has at most \(maximumEventsPerDay) events a day over all its tasks: shorten a schedule or delete a task first
        """

    /// Throws unless the store's current tasks keep `maximumEventsPerDay` (inside a write transaction). `including`
    /// counts other versions the write brings, by table and id (a merge's versions between the current ones, each
    /// in effect for a while): a task counts with the most events of its versions there.
    static func checkEventsPerDay(_ db: any SQLDatabase, cache: DecodedEntityCache, including: [TaskKey: Int] = [:]) async throws {
        var total = 0
        var others = including
        func count(_ events: Int) {
            total = total > maximumEventsPerDay ? total : total + min(events, maximumEventsPerDay + 1)
        }
        func add<T: StoredEntity & TaskFields>(_ type: T.Type) async throws {
            try await db.forEachRow("SELECT * FROM \(T.table) WHERE next_effective_date IS NULL AND deleted_date IS NULL", []) { row in
                let task = try T.decode(row, cache: cache)
                let other = others.removeValue(forKey: TaskKey(table: T.table, id: task.id)) ?? 0
                count(max(task.schedule.maximumEventsOnOneDay ?? .max, other))
            }
            // A task deleted now counts no more, whatever versions came before its tombstone.
            let rest = others.keys.filter { $0.table == T.table }.map(\.id)
            for chunk in stride(from: 0, to: rest.count, by: 500).map({ rest[$0..<min($0 + 500, rest.count)] }) {
                try await db.forEachRow("""
                    SELECT id FROM \(T.table) WHERE next_effective_date IS NULL AND deleted_date IS NOT NULL
                    AND id IN (\(QuerySQL.placeholders(chunk.count)))
                    """, chunk.map(\.sqlValue)) { row in others[TaskKey(table: T.table, id: try row.string("id"))] = nil }
            }
        }
        try await add(OCKTask.self)
        try await add(OCKHealthKitTask.self)
        for events in others.values { count(events) }
        if total > maximumEventsPerDay { throw OCKStoreError.invalidValue(reason: tooManyEventsPerDay) }
    }

    /// A task of a kind (its table), by id.
    struct TaskKey: Hashable {
        var table: String
        var id: String
    }

    /// The most sync processes (devices, and the store itself) a store's knowledge holds. Each is kept in every
    /// knowledge vector the store writes from then on, so a store refuses a device beyond it, and a push that claims
    /// more than one process it does not know (`OCKStore.mergeRevisions`).
    public static let maximumSyncProcesses = 200
}
