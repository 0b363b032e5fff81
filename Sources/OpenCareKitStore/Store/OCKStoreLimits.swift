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

    /// Throws unless the store's current tasks keep `maximumEventsPerDay` (inside a write transaction).
    static func checkEventsPerDay(_ db: any SQLDatabase, cache: DecodedEntityCache) throws {
        var total = 0
        func add<T: StoredEntity & TaskFields>(_ type: T.Type) throws {
            try db.forEachRow("SELECT * FROM \(T.table) WHERE next_effective_date IS NULL AND deleted_date IS NULL", []) { row in
                let count = try T.decode(row, cache: cache).schedule.maximumEventsOnOneDay ?? .max
                total = total > maximumEventsPerDay ? total : total + min(count, maximumEventsPerDay + 1)
            }
        }
        try add(OCKTask.self)
        try add(OCKHealthKitTask.self)
        if total > maximumEventsPerDay { throw OCKStoreError.invalidValue(reason: tooManyEventsPerDay) }
    }

    /// The most sync processes (devices, and the store itself) a store's knowledge holds. Each is kept in every
    /// knowledge vector the store writes from then on, so a store refuses a device beyond it, and a push that claims
    /// more than one process it does not know (`OCKStore.mergeRevisions`).
    public static let maximumSyncProcesses = 200
}
