import OpenCareKitDirectory
import OpenCareKitStore

/// The database's tables: every care record's store and the directory, in one PostgreSQL database.
///
/// - Schema `opencarekit` holds the tables. Each store table has `record_id` first in every row, key and index, and
///   row-level security (enabled and forced, so it binds the tables' owner too) lets a statement see and write only
///   the rows of the record its transaction set in `opencarekit.record_id`: a statement that forgot its record reads
///   nothing of another's. With no record set, it sees nothing at all.
/// - Schema `opencarekit_record` holds one view per store table, under the names the store's SQL uses, each limited
///   to the transaction's record, with `record_id` filled in on insert: the store's statements are scoped by the view
///   and again by the policy beneath it.
/// - The directory's tables (accounts, records, memberships, invitations, sessions, tokens, the audit chain) are in
///   `opencarekit` too, outside any record.
///
/// Migrations are named and applied in order, each once, at start-up, in one transaction under an advisory lock
/// (`PostgresDatabase.migrate()`), so servers starting together do not race. A database that has a migration this
/// code does not know was written by a newer OpenCareKit and is refused.
enum PostgresSchema {
    static let schema = "opencarekit"
    static let recordSchema = "opencarekit_record"
    /// The setting that names a transaction's record.
    static let recordSetting = "opencarekit.record_id"
    /// The key of the advisory lock migrations hold.
    static let migrationLock: Int64 = 0x4F43_4B00_0001

    /// The migrations, oldest first; each is a list of statements.
    static let migrations: [(name: String, statements: [String])] = [
        ("1: stores and directory", storeTables + directoryTables),
        ("2: surveys in progress", [
            """
            CREATE TABLE \(schema).survey_session (
                id text COLLATE "C" PRIMARY KEY, record text COLLATE "C" NOT NULL REFERENCES \(schema).record(id) ON DELETE CASCADE,
                owner_hash text COLLATE "C" NOT NULL, event text COLLATE "C" NOT NULL, status text NOT NULL, value bytea NOT NULL,
                expiry_date double precision NOT NULL)
            """,
            "CREATE INDEX survey_session_by_owner ON \(schema).survey_session (record, owner_hash, event)",
            "CREATE INDEX survey_session_by_expiry ON \(schema).survey_session (expiry_date)",
        ]),
        ("3: the audit chain appended in the database", [auditAppendFunction]),
        // Survey sessions are written without the directory lock: the index settles two starts racing.
        ("4: one open survey per browser and event", [
            """
            DELETE FROM \(schema).survey_session s WHERE status = 'open' AND EXISTS (
                SELECT 1 FROM \(schema).survey_session t WHERE t.status = 'open' AND t.record = s.record
                AND t.owner_hash = s.owner_hash AND t.event = s.event AND t.id > s.id)
            """,
            "CREATE UNIQUE INDEX survey_session_open ON \(schema).survey_session (record, owner_hash, event) WHERE status = 'open'",
        ]),
        // A saving session holds its place too, so that starting again finds it (and it is reopened without conflict).
        ("5: one open or saving survey per browser and event", [
            """
            DELETE FROM \(schema).survey_session o WHERE status = 'open' AND EXISTS (
                SELECT 1 FROM \(schema).survey_session saving WHERE saving.status = 'saving' AND saving.record = o.record
                AND saving.owner_hash = o.owner_hash AND saving.event = o.event)
            """,
            "DROP INDEX \(schema).survey_session_open",
            """
            CREATE UNIQUE INDEX survey_session_live ON \(schema).survey_session (record, owner_hash, event)
            WHERE status IN ('open', 'saving')
            """,
        ]),
        ("6: sync knowledge", syncTables),
        // Pulls page through a vector's versions in uuid order, resuming after a uuid.
        ("7: sync pages", SyncSchema.firstVersionedTables.flatMap { table in
            [
                "CREATE INDEX \(table)_by_knowledge_uuid ON \(schema).\(table) (record_id, knowledge_id, uuid)",
                "DROP INDEX \(schema).\(table)_by_knowledge",
            ]
        }),
        ("8: HealthKit tasks", healthKitTasks),
        ("9: reminders", DirectorySchema.reminderTables(text: "text COLLATE \"C\"", real: "double precision", integer: "bigint",
                                                       prefix: "\(schema).")),
        ("10: shared values", [DirectorySchema.sharedValueTable(text: "text COLLATE \"C\"", real: "double precision", prefix: "\(schema).")]),
        ("11: two-step codes used once", ["ALTER TABLE \(schema).account ADD COLUMN totp_last_step bigint"]),
        ("12: triage", DirectorySchema.triageTables(text: "text COLLATE \"C\"", real: "double precision", integer: "bigint",
                                                   prefix: "\(schema).")),
        ("13: messages", DirectorySchema.messageTables(text: "text COLLATE \"C\"", real: "double precision", integer: "bigint",
                                                      prefix: "\(schema).")),
        ("14: a record's revision in one statement", [recordRevisionFunction]),
        // Pages of outcome values (FHIR searches) follow creation order (no date first), then the uuid: a page after
        // another starts at its place in this index (`OCKStore.outcomeValuePage`). It replaces the index of creation
        // dates alone, which it serves too.
        ("15: outcomes in creation order", [
            "CREATE INDEX outcomes_by_created_date_uuid ON \(schema).outcomes (record_id, created_date NULLS FIRST, uuid)",
            "DROP INDEX \(schema).outcomes_by_created_date",
        ]),
    ]

    /// A record's commit count (0 before its first write), read in one statement that stands alone: it names the
    /// record for the row-level security of that statement only (`set_config(…, true)` lasts until the statement's
    /// implicit transaction ends). Every request on PostgreSQL asks for it (`OCKStore.catchUp()`), so it is one round
    /// trip, not a transaction's four. Inside a transaction that names another record it refuses (it would change
    /// that transaction's record).
    static var recordRevisionFunction: String {
        """
        CREATE FUNCTION \(schema).record_revision(record text) RETURNS bigint LANGUAGE plpgsql AS $$
        BEGIN
            IF coalesce(current_setting('\(recordSetting)', true), '') NOT IN ('', record) THEN
                RAISE EXCEPTION 'record_revision inside another record''s transaction' USING ERRCODE = 'insufficient_privilege';
            END IF;
            PERFORM set_config('\(recordSetting)', record, true);
            RETURN coalesce((SELECT revision FROM \(schema).record_state WHERE record_id = record), 0);
        END $$
        """
    }

    /// HealthKit tasks from CareKit devices: a task's columns, indexes, policy and view, with the sync column.
    private static var healthKitTasks: [String] {
        versionedTable("healthkit_tasks", """
            care_plan_uuid uuid, title text COLLATE "C", impacts_adherence bigint NOT NULL,
            schedule_start double precision NOT NULL, schedule_end double precision, payload bytea NOT NULL,
            knowledge_id bigint
            """) + [
            "CREATE INDEX healthkit_tasks_by_care_plan ON \(schema).healthkit_tasks (record_id, care_plan_uuid)",
            "CREATE INDEX healthkit_tasks_by_knowledge_uuid ON \(schema).healthkit_tasks (record_id, knowledge_id, uuid)",
        ] + recordPolicy("healthkit_tasks") + [recordView("healthkit_tasks", replacing: false)]
    }

    /// `SyncSchema`'s tables and column, per record: each record's store has its own clock and knowledge.
    private static var syncTables: [String] {
        let versioned = SyncSchema.firstVersionedTables
        var statements = versioned.flatMap { table in
            [
                "ALTER TABLE \(schema).\(table) ADD COLUMN knowledge_id bigint",
                "CREATE INDEX \(table)_by_knowledge ON \(schema).\(table) (record_id, knowledge_id)",
                // `SELECT *` was expanded when the view was made; the new column goes at its end.
                recordView(table, replacing: true),
            ]
        }
        statements += [
            """
            CREATE TABLE \(schema).sync_knowledge (
                record_id text NOT NULL DEFAULT current_setting('\(recordSetting)'),
                id bigint NOT NULL, vector bytea NOT NULL,
                PRIMARY KEY (record_id, id), UNIQUE (record_id, vector))
            """,
            """
            CREATE TABLE \(schema).sync_clock (
                record_id text NOT NULL DEFAULT current_setting('\(recordSetting)'),
                clock_id bigint NOT NULL CHECK (clock_id = 1), process uuid NOT NULL, vector bytea NOT NULL,
                PRIMARY KEY (record_id, clock_id))
            """,
        ]
        for table in ["sync_knowledge", "sync_clock"] {
            statements += recordPolicy(table) + [recordView(table, replacing: false)]
        }
        return statements
    }

    private static let versionColumns = """
        record_id text NOT NULL DEFAULT current_setting('\(recordSetting)'),
        uuid uuid NOT NULL,
        id text COLLATE "C" NOT NULL,
        effective_date double precision NOT NULL,
        deleted_date double precision,
        created_date double precision,
        updated_date double precision,
        previous_uuids bytea NOT NULL DEFAULT '',
        next_uuids bytea NOT NULL DEFAULT '',
        next_effective_date double precision,
        group_identifier text COLLATE "C",
        remote_id text COLLATE "C"
        """

    /// The store's tables (as OCKStore's SQLite schema, with `record_id`), their indexes, policies and views.
    static var storeTables: [String] {
        let versioned: [(String, String)] = [
            ("patients", "given_name text COLLATE \"C\", family_name text COLLATE \"C\", payload bytea NOT NULL"),
            ("care_plans", "patient_uuid uuid, title text COLLATE \"C\" NOT NULL, payload bytea NOT NULL"),
            ("contacts", "care_plan_uuid uuid, given_name text COLLATE \"C\", family_name text COLLATE \"C\", payload bytea NOT NULL"),
            ("tasks", """
                care_plan_uuid uuid, title text COLLATE "C", impacts_adherence bigint NOT NULL,
                schedule_start double precision NOT NULL, schedule_end double precision, payload bytea NOT NULL
                """),
            ("outcomes", """
                task_uuid uuid NOT NULL, occurrence bigint NOT NULL, event_start double precision NOT NULL,
                event_end double precision NOT NULL, source text, asset text, schema_version text, timezone text NOT NULL,
                user_info bytea, notes bytea, tags bytea
                """),
        ]
        var statements: [String] = ["CREATE SCHEMA \(schema)", "CREATE SCHEMA \(recordSchema)"]
        for (table, columns) in versioned {
            statements += versionedTable(table, columns)
        }
        statements += [
            "CREATE INDEX care_plans_by_patient ON \(schema).care_plans (record_id, patient_uuid)",
            "CREATE INDEX contacts_by_care_plan ON \(schema).contacts (record_id, care_plan_uuid)",
            "CREATE INDEX tasks_by_care_plan ON \(schema).tasks (record_id, care_plan_uuid)",
            "CREATE INDEX outcomes_by_task ON \(schema).outcomes (record_id, task_uuid, occurrence)",
            "CREATE INDEX outcomes_by_event_end ON \(schema).outcomes (record_id, event_end, event_start)",
            "CREATE INDEX outcomes_by_task_event_end ON \(schema).outcomes (record_id, task_uuid, event_end)",
            """
            CREATE UNIQUE INDEX outcomes_one_live_per_occurrence ON \(schema).outcomes (record_id, task_uuid, occurrence)
            WHERE next_effective_date IS NULL AND deleted_date IS NULL
            """,
            """
            CREATE TABLE \(schema).outcome_values (
                record_id text NOT NULL DEFAULT current_setting('\(recordSetting)'),
                outcome_uuid uuid NOT NULL, position bigint NOT NULL, type bigint NOT NULL, value bytea,
                kind text, units text, created_date double precision NOT NULL, end_date double precision,
                PRIMARY KEY (record_id, outcome_uuid, position))
            """,
            """
            CREATE TABLE \(schema).entity_tags (
                record_id text NOT NULL DEFAULT current_setting('\(recordSetting)'),
                owner_uuid uuid NOT NULL, tag text COLLATE "C" NOT NULL,
                PRIMARY KEY (record_id, tag, owner_uuid))
            """,
            // One row per record that was ever written: its write lock and its revision (a count of its commits).
            """
            CREATE TABLE \(schema).record_state (
                record_id text PRIMARY KEY DEFAULT current_setting('\(recordSetting)'),
                revision bigint NOT NULL)
            """,
        ]
        let tables = versioned.map(\.0) + ["outcome_values", "entity_tags", "record_state"]
        for table in tables {
            statements += recordPolicy(table)
        }
        for table in versioned.map(\.0) + ["outcome_values", "entity_tags"] {
            statements.append(recordView(table, replacing: false))
        }
        return statements
    }

    /// A table of versions with the shared columns then `columns`, and the indexes every such table has.
    private static func versionedTable(_ table: String, _ columns: String) -> [String] {
        [
            "CREATE TABLE \(schema).\(table) (\(versionColumns), \(columns), PRIMARY KEY (record_id, uuid))",
            "CREATE INDEX \(table)_by_id ON \(schema).\(table) (record_id, id, effective_date)",
            "CREATE INDEX \(table)_by_effective_date ON \(schema).\(table) (record_id, effective_date)",
            "CREATE INDEX \(table)_by_group ON \(schema).\(table) (record_id, group_identifier) WHERE group_identifier IS NOT NULL",
            "CREATE INDEX \(table)_by_remote_id ON \(schema).\(table) (record_id, remote_id) WHERE remote_id IS NOT NULL",
            "CREATE INDEX \(table)_by_created_date ON \(schema).\(table) (record_id, created_date)",
            """
            CREATE INDEX \(table)_deleted_ids ON \(schema).\(table) (record_id, id)
            WHERE deleted_date IS NOT NULL AND next_effective_date IS NULL
            """,
        ]
    }

    /// Row-level security on a store table: a statement sees and writes only the rows of its transaction's record.
    private static func recordPolicy(_ table: String) -> [String] {
        [
            "ALTER TABLE \(schema).\(table) ENABLE ROW LEVEL SECURITY",
            "ALTER TABLE \(schema).\(table) FORCE ROW LEVEL SECURITY",
            """
            CREATE POLICY one_record ON \(schema).\(table)
            USING (record_id = current_setting('\(recordSetting)', true))
            WITH CHECK (record_id = current_setting('\(recordSetting)', true))
            """,
        ]
    }

    /// The view of a store table under the name the store's SQL uses, limited to the transaction's record.
    private static func recordView(_ table: String, replacing: Bool) -> String {
        """
        CREATE \(replacing ? "OR REPLACE " : "")VIEW \(recordSchema).\(table) WITH (security_barrier) AS
        SELECT * FROM \(schema).\(table) WHERE record_id = current_setting('\(recordSetting)', true)
        WITH CASCADED CHECK OPTION
        """
    }

    /// Numbers, chains and appends audit entries (a JSON array of drafts, oldest first) in one statement, under the
    /// directory's write lock, which is held only while the statement runs: no app server's round trip holds it up.
    /// The hash is `AuditEntry.hash`'s: SHA-256 of the fields joined by U+001F, absent ones empty.
    static var auditAppendFunction: String {
        """
        CREATE FUNCTION \(schema).append_audit(entries jsonb) RETURNS bigint LANGUAGE plpgsql AS $$
        DECLARE
            head_sequence bigint;
            head_hash text;
            entry record;
            entry_hash text;
        BEGIN
            PERFORM pg_advisory_xact_lock(\(PostgresTransactions.directoryLock));
            SELECT sequence, hash INTO head_sequence, head_hash FROM \(schema).audit_head WHERE id = 1;
            head_sequence := coalesce(head_sequence, 0);
            head_hash := coalesce(head_hash, repeat('0', 64));
            FOR entry IN
                SELECT fields.* FROM jsonb_array_elements(entries) WITH ORDINALITY AS element(value, position),
                    jsonb_to_record(element.value) AS fields(recorded bigint, account text, token text, record text,
                        resource text, action text, outcome text, address text, detail text)
                ORDER BY element.position
            LOOP
                head_sequence := head_sequence + 1;
                entry_hash := encode(sha256(convert_to(concat_ws(chr(31), head_hash, head_sequence::text, entry.recorded::text,
                    coalesce(entry.account, ''), coalesce(entry.token, ''), coalesce(entry.record, ''), entry.resource,
                    entry.action, entry.outcome, entry.address, entry.detail), 'UTF8')), 'hex');
                INSERT INTO \(schema).audit_entry (sequence, recorded, account, token, record, resource, action, outcome, address,
                    detail, previous_hash, hash)
                VALUES (head_sequence, entry.recorded, entry.account, entry.token, entry.record, entry.resource, entry.action,
                    entry.outcome, entry.address, entry.detail, head_hash, entry_hash);
                head_hash := entry_hash;
            END LOOP;
            INSERT INTO \(schema).audit_head (id, sequence, hash) VALUES (1, head_sequence, head_hash)
            ON CONFLICT (id) DO UPDATE SET sequence = excluded.sequence, hash = excluded.hash;
            RETURN head_sequence;
        END $$
        """
    }

    /// The directory's tables, as SQLiteCareDirectory's schema; the audit log refuses changes and deletions.
    static var directoryTables: [String] {
        [
            """
            CREATE TABLE \(schema).account (
                id text COLLATE "C" PRIMARY KEY, email text COLLATE "C" NOT NULL UNIQUE, name text NOT NULL,
                password_hash text NOT NULL, totp_secret text, recovery_codes text NOT NULL DEFAULT '[]',
                failed_sign_ins bigint NOT NULL DEFAULT 0, locked_until double precision, created_date double precision NOT NULL)
            """,
            """
            CREATE TABLE \(schema).record (
                id text COLLATE "C" PRIMARY KEY, store_name text COLLATE "C" NOT NULL UNIQUE, patient_name text COLLATE "C" NOT NULL,
                time_zone text NOT NULL, care_plan text, patient_edits_plan bigint NOT NULL DEFAULT 1,
                created_date double precision NOT NULL)
            """,
            """
            CREATE TABLE \(schema).membership (
                record text COLLATE "C" NOT NULL REFERENCES \(schema).record(id) ON DELETE CASCADE,
                account text COLLATE "C" NOT NULL REFERENCES \(schema).account(id) ON DELETE CASCADE,
                role text NOT NULL, is_owner bigint NOT NULL, created_date double precision NOT NULL,
                PRIMARY KEY (record, account))
            """,
            "CREATE INDEX membership_by_account ON \(schema).membership (account)",
            """
            CREATE TABLE \(schema).invitation (
                secret_hash text PRIMARY KEY, record text COLLATE "C" NOT NULL REFERENCES \(schema).record(id) ON DELETE CASCADE,
                role text NOT NULL, invited_by text NOT NULL, created_date double precision NOT NULL,
                expiry_date double precision NOT NULL, accepted_date double precision, accepted_by text)
            """,
            "CREATE INDEX invitation_by_record ON \(schema).invitation (record)",
            """
            CREATE TABLE \(schema).session (
                key_hash text PRIMARY KEY, account text, value bytea NOT NULL, expiry_date double precision,
                updated_date double precision NOT NULL)
            """,
            "CREATE INDEX session_by_account ON \(schema).session (account)",
            "CREATE INDEX session_by_expiry ON \(schema).session (expiry_date)",
            """
            CREATE TABLE \(schema).access_token (
                id text COLLATE "C" PRIMARY KEY, secret_hash text NOT NULL UNIQUE,
                account text COLLATE "C" NOT NULL REFERENCES \(schema).account(id) ON DELETE CASCADE,
                record text COLLATE "C" NOT NULL REFERENCES \(schema).record(id) ON DELETE CASCADE,
                scope text NOT NULL, label text NOT NULL, created_date double precision NOT NULL,
                last_used_date double precision, revoked_date double precision)
            """,
            "CREATE INDEX access_token_by_account ON \(schema).access_token (account)",
            """
            CREATE TABLE \(schema).audit_entry (
                sequence bigint PRIMARY KEY, recorded bigint NOT NULL, account text, token text, record text,
                resource text NOT NULL, action text NOT NULL, outcome text NOT NULL, address text NOT NULL,
                detail text NOT NULL, previous_hash text NOT NULL, hash text NOT NULL)
            """,
            "CREATE INDEX audit_entry_by_record ON \(schema).audit_entry (record, sequence)",
            "CREATE INDEX audit_entry_by_record_resource ON \(schema).audit_entry (record, resource, sequence)",
            """
            CREATE TABLE \(schema).audit_head (
                id bigint PRIMARY KEY CHECK (id = 1), sequence bigint NOT NULL, hash text NOT NULL)
            """,
            """
            CREATE FUNCTION \(schema).audit_entry_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$
            """,
            """
            CREATE TRIGGER audit_entry_is_append_only BEFORE UPDATE OR DELETE ON \(schema).audit_entry
            FOR EACH ROW EXECUTE FUNCTION \(schema).audit_entry_is_append_only()
            """,
            """
            CREATE TRIGGER audit_entry_is_never_truncated BEFORE TRUNCATE ON \(schema).audit_entry
            FOR EACH STATEMENT EXECUTE FUNCTION \(schema).audit_entry_is_append_only()
            """,
        ]
    }
}
