import GRDB

/// The store's tables, created and upgraded by versioned migrations.
///
/// Every versioned entity table shares the version columns: `uuid` (the version), `id` (shared by all versions),
/// `effective_date`, `deleted_date` (a tombstone has one), `created_date`, `updated_date`, the packed 16-byte uuids
/// of the previous and next versions, and `next_effective_date`, the earliest effective date of the next versions
/// (NULL for the newest version), which answers CareKit's "version effective during an interval" with one
/// comparison. Dates are seconds since 2001-01-01 (`Date.timeIntervalSinceReferenceDate`).
///
/// Patients, care plans, contacts and tasks keep the entity's CareKit JSON in `payload`, with the fields queries
/// filter and sort on copied into columns. Outcomes, the table that grows, are stored in columns, with their values
/// in `outcome_values`.
enum StoreSchema {
    /// The newest schema this code writes; kept in `PRAGMA user_version`.
    static let version = 8

    /// The columns every table of versions starts with.
    static let versionColumns = """
        uuid BLOB PRIMARY KEY NOT NULL,
        id TEXT NOT NULL,
        effective_date REAL NOT NULL,
        deleted_date REAL,
        created_date REAL,
        updated_date REAL,
        previous_uuids BLOB NOT NULL DEFAULT x'',
        next_uuids BLOB NOT NULL DEFAULT x'',
        next_effective_date REAL,
        group_identifier TEXT,
        remote_id TEXT
        """

    /// The indexes of every table of versions: ids, versions in effect, group and remote identifiers, creation order.
    static func versionIndexes(_ table: String) -> String {
        """
        CREATE INDEX \(table)_by_id ON \(table)(id, effective_date);
        CREATE INDEX \(table)_by_effective_date ON \(table)(effective_date);
        CREATE INDEX \(table)_by_group ON \(table)(group_identifier) WHERE group_identifier IS NOT NULL;
        CREATE INDEX \(table)_by_remote_id ON \(table)(remote_id) WHERE remote_id IS NOT NULL;
        CREATE INDEX \(table)_by_created_date ON \(table)(created_date)
        """
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE patients (\(Self.versionColumns),
                    given_name TEXT, family_name TEXT, payload BLOB NOT NULL);
                CREATE TABLE care_plans (\(Self.versionColumns),
                    patient_uuid BLOB, title TEXT NOT NULL, payload BLOB NOT NULL);
                CREATE TABLE contacts (\(Self.versionColumns),
                    care_plan_uuid BLOB, given_name TEXT, family_name TEXT, payload BLOB NOT NULL);
                CREATE TABLE tasks (\(Self.versionColumns),
                    care_plan_uuid BLOB, title TEXT, impacts_adherence INTEGER NOT NULL,
                    schedule_start REAL NOT NULL, schedule_end REAL, payload BLOB NOT NULL);
                CREATE TABLE outcomes (\(Self.versionColumns),
                    task_uuid BLOB NOT NULL, occurrence INTEGER NOT NULL, event_start REAL NOT NULL, event_end REAL NOT NULL,
                    source TEXT, asset TEXT, schema_version TEXT, timezone TEXT NOT NULL,
                    user_info BLOB, notes BLOB, tags BLOB);
                CREATE TABLE outcome_values (
                    outcome_uuid BLOB NOT NULL, position INTEGER NOT NULL, type INTEGER NOT NULL, value,
                    kind TEXT, units TEXT, created_date REAL NOT NULL, end_date REAL,
                    PRIMARY KEY (outcome_uuid, position)) WITHOUT ROWID;
                CREATE TABLE entity_tags (owner_uuid BLOB NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (tag, owner_uuid))
                    WITHOUT ROWID;
                """)
            // An index for every query path (`versionIndexes`) and the relations (plan → patient, task/contact →
            // plan, outcome → task).
            for table in ["patients", "care_plans", "contacts", "tasks", "outcomes"] {
                try db.execute(sql: Self.versionIndexes(table))
            }
            try db.execute(sql: """
                CREATE INDEX care_plans_by_patient ON care_plans(patient_uuid);
                CREATE INDEX contacts_by_care_plan ON contacts(care_plan_uuid);
                CREATE INDEX tasks_by_care_plan ON tasks(care_plan_uuid);
                CREATE INDEX outcomes_by_task ON outcomes(task_uuid, occurrence);
                CREATE INDEX outcomes_by_event_end ON outcomes(event_end, event_start);
                CREATE UNIQUE INDEX outcomes_one_live_per_occurrence ON outcomes(task_uuid, occurrence)
                    WHERE next_effective_date IS NULL AND deleted_date IS NULL;
                """)
        }
        migrator.registerMigration("v2") { db in
            // Interval-less queries leave out deleted entities by looking up tombstone tips by id.
            for table in ["patients", "care_plans", "contacts", "tasks", "outcomes"] {
                try db.execute(sql: """
                    CREATE INDEX \(table)_deleted_ids ON \(table)(id)
                    WHERE deleted_date IS NOT NULL AND next_effective_date IS NULL
                    """)
            }
            // Outcomes of given task versions in an interval (an event's outcome, a day's events).
            try db.execute(sql: "CREATE INDEX outcomes_by_task_event_end ON outcomes(task_uuid, event_end)")
        }
        migrator.registerMigration("v3") { db in
            for statement in SyncSchema.sqliteStatements { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v4") { db in
            // Pulls page through a vector's versions in uuid order, resuming after a uuid.
            for table in SyncSchema.firstVersionedTables {
                try db.execute(sql: "CREATE INDEX \(table)_by_knowledge_uuid ON \(table)(knowledge_id, uuid)")
                try db.execute(sql: "DROP INDEX \(table)_by_knowledge")
            }
        }
        migrator.registerMigration("v5") { db in
            // HealthKit tasks from CareKit devices: a task's columns and indexes, with the sync columns.
            try db.execute(sql: """
                CREATE TABLE healthkit_tasks (\(Self.versionColumns),
                    care_plan_uuid BLOB, title TEXT, impacts_adherence INTEGER NOT NULL,
                    schedule_start REAL NOT NULL, schedule_end REAL, payload BLOB NOT NULL, knowledge_id INTEGER);
                \(Self.versionIndexes("healthkit_tasks"));
                CREATE INDEX healthkit_tasks_deleted_ids ON healthkit_tasks(id)
                    WHERE deleted_date IS NOT NULL AND next_effective_date IS NULL;
                CREATE INDEX healthkit_tasks_by_care_plan ON healthkit_tasks(care_plan_uuid);
                CREATE INDEX healthkit_tasks_by_knowledge_uuid ON healthkit_tasks(knowledge_id, uuid);
                """)
        }
        migrator.registerMigration("v6") { db in
            // Fewer index entries per written version (`scripts/bench-store`). Outcomes: the task's occurrences are
            // found by `outcomes_by_task_event_end` (task prefix) and the one-live-per-occurrence index, and no query
            // ranges over an outcome's effective date. Every table: versions written here wait unsealed (knowledge
            // NULL) until the next synchronization; they were all filed under NULL in the pull index, in uuid order,
            // and now only sealed versions are there, the unsealed ones in an index of their own in write order.
            try db.execute(sql: "DROP INDEX outcomes_by_task; DROP INDEX outcomes_by_effective_date")
            for table in SyncSchema.versionedTables {
                try db.execute(sql: """
                    DROP INDEX \(table)_by_knowledge_uuid;
                    CREATE INDEX \(table)_by_knowledge_uuid ON \(table)(knowledge_id, uuid) WHERE knowledge_id IS NOT NULL;
                    CREATE INDEX \(table)_unsealed ON \(table)(knowledge_id) WHERE knowledge_id IS NULL
                    """)
            }
        }
        migrator.registerMigration("v7") { db in
            // No index on the outcomes' event times: every insert paid for two (a third of its time, `scripts/bench-store`).
            // An interval's outcomes are found by the occurrences their task versions' schedules have in it, on the
            // one-current-outcome-per-occurrence index (`OCKStore.fetchOutcomes`).
            try db.execute(sql: "DROP INDEX outcomes_by_event_end; DROP INDEX outcomes_by_task_event_end")
        }
        migrator.registerMigration("v8") { db in
            // Pages of outcome values (FHIR searches) follow creation order, then the uuid: the index holds both, so a
            // page after another starts at its place in the index (`OCKStore.outcomeValuePage`). It replaces the index
            // of creation dates alone: an insert pays for one index, as before.
            try db.execute(sql: """
                CREATE INDEX outcomes_by_created_date_uuid ON outcomes(created_date, uuid);
                DROP INDEX outcomes_by_created_date
                """)
        }
        return migrator
    }

    /// Runs the migrations and records the schema version in the file header.
    static func migrate(_ writer: any DatabaseWriter) throws {
        try migrator.migrate(writer)
        // Written only when it differs: opening a store then changes nothing in its file, so the file's signature
        // tells whether anything was written since (the clinician's home remembers summaries by it).
        try writer.write { db in
            if try Int.fetchOne(db, sql: "PRAGMA user_version") != version {
                try db.execute(sql: "PRAGMA user_version = \(version)")
            }
        }
    }
}
