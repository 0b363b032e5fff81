/// What remote synchronization keeps in a store, on every engine (SQLite's migrations "v3" and "v4", PostgreSQL's "6"
/// and "7"; "v5" and "8" add HealthKit tasks with these columns):
///
/// - `sync_clock`: one row, the store's own process (a uuid, its id in knowledge vectors) and its knowledge vector,
///   created by the first synchronization.
/// - `sync_knowledge`: each knowledge vector versions were written under, once (`vector` packed by `SyncKnowledge`).
/// - `knowledge_id` on every versioned table (indexed with `uuid`, the order pulls page in): the vector the version
///   was written under. A version written here is
///   NULL until the next synchronization seals it with the vector of the moment (the vector changes only while
///   synchronizing, so that is the vector it was written under); a version merged from a remote has the vector of
///   the revision it came in.
///
/// The copy to PostgreSQL carries the versions' knowledge but not the clock (`StoredTable.syncKnowledge`): the copy is
/// a new process. `reset()` empties both with the entities, so a reset store synchronizes again as a new process that
/// knows nothing.
package enum SyncSchema {
    /// Every table of versions, in the order kinds depend on each other (and pulls send them).
    package static let versionedTables = ["patients", "care_plans", "contacts", "tasks", "healthkit_tasks", "outcomes"]
    /// Those that existed when sync came (schema 3; HealthKit tasks came with 5): the migrations of then change these.
    package static let firstVersionedTables = ["patients", "care_plans", "contacts", "tasks", "outcomes"]

    /// SQLite's statements that add them to a store of schema 2 (PostgreSQL's are `PostgresSchema`'s, with the
    /// record column, policies and views).
    static let sqliteStatements: [String] = firstVersionedTables.flatMap { table in
        [
            "ALTER TABLE \(table) ADD COLUMN knowledge_id INTEGER",
            "CREATE INDEX \(table)_by_knowledge ON \(table)(knowledge_id)",
        ]
    } + [
        "CREATE TABLE sync_knowledge (id INTEGER PRIMARY KEY NOT NULL, vector BLOB NOT NULL UNIQUE)",
        "CREATE TABLE sync_clock (clock_id INTEGER PRIMARY KEY NOT NULL CHECK (clock_id = 1), process BLOB NOT NULL, vector BLOB NOT NULL)",
    ]
}
