import GRDB

/// The directory's tables, created and upgraded by versioned migrations. Dates are seconds since 1970, but for the
/// audit log's `recorded`, whole milliseconds (its hash covers them).
///
/// The audit log is append-only in the file too: triggers refuse to change or delete an entry, and `audit_head`
/// keeps the last entry's number and hash, so an entry removed from the end is detected as well.
package enum DirectorySchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE account (
                    id TEXT PRIMARY KEY NOT NULL,
                    email TEXT NOT NULL UNIQUE,
                    name TEXT NOT NULL,
                    password_hash TEXT NOT NULL,
                    totp_secret TEXT,
                    recovery_codes TEXT NOT NULL DEFAULT '[]',
                    failed_sign_ins INTEGER NOT NULL DEFAULT 0,
                    locked_until REAL,
                    created_date REAL NOT NULL
                );
                CREATE TABLE record (
                    id TEXT PRIMARY KEY NOT NULL,
                    store_name TEXT NOT NULL UNIQUE,
                    patient_name TEXT NOT NULL,
                    time_zone TEXT NOT NULL,
                    care_plan TEXT,
                    created_date REAL NOT NULL
                );
                CREATE TABLE membership (
                    record TEXT NOT NULL REFERENCES record(id) ON DELETE CASCADE,
                    account TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    role TEXT NOT NULL,
                    is_owner INTEGER NOT NULL,
                    created_date REAL NOT NULL,
                    PRIMARY KEY (record, account)
                );
                CREATE INDEX membership_by_account ON membership(account);
                CREATE TABLE invitation (
                    secret_hash TEXT PRIMARY KEY NOT NULL,
                    record TEXT NOT NULL REFERENCES record(id) ON DELETE CASCADE,
                    role TEXT NOT NULL,
                    invited_by TEXT NOT NULL,
                    created_date REAL NOT NULL,
                    expiry_date REAL NOT NULL,
                    accepted_date REAL,
                    accepted_by TEXT
                );
                CREATE INDEX invitation_by_record ON invitation(record);
                CREATE TABLE session (
                    key_hash TEXT PRIMARY KEY NOT NULL,
                    account TEXT,
                    value BLOB NOT NULL,
                    expiry_date REAL,
                    updated_date REAL NOT NULL
                );
                CREATE INDEX session_by_account ON session(account);
                CREATE INDEX session_by_expiry ON session(expiry_date);
                CREATE TABLE access_token (
                    id TEXT PRIMARY KEY NOT NULL,
                    secret_hash TEXT NOT NULL UNIQUE,
                    account TEXT NOT NULL REFERENCES account(id) ON DELETE CASCADE,
                    record TEXT NOT NULL REFERENCES record(id) ON DELETE CASCADE,
                    scope TEXT NOT NULL,
                    label TEXT NOT NULL,
                    created_date REAL NOT NULL,
                    last_used_date REAL,
                    revoked_date REAL
                );
                CREATE INDEX access_token_by_account ON access_token(account);
                CREATE TABLE audit_entry (
                    sequence INTEGER PRIMARY KEY NOT NULL,
                    recorded INTEGER NOT NULL,
                    account TEXT,
                    token TEXT,
                    record TEXT,
                    resource TEXT NOT NULL,
                    action TEXT NOT NULL,
                    outcome TEXT NOT NULL,
                    address TEXT NOT NULL,
                    detail TEXT NOT NULL,
                    previous_hash TEXT NOT NULL,
                    hash TEXT NOT NULL
                );
                CREATE INDEX audit_entry_by_record ON audit_entry(record, sequence);
                CREATE TABLE audit_head (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    sequence INTEGER NOT NULL,
                    hash TEXT NOT NULL
                );
                CREATE TRIGGER audit_entry_is_append_only_update BEFORE UPDATE ON audit_entry
                BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
                CREATE TRIGGER audit_entry_is_append_only_delete BEFORE DELETE ON audit_entry
                BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
                """)
        }
        migrator.registerMigration("v2: plan editing") { db in
            try db.execute(sql: """
                ALTER TABLE record ADD COLUMN patient_edits_plan INTEGER NOT NULL DEFAULT 1;
                CREATE INDEX audit_entry_by_record_resource ON audit_entry(record, resource, sequence);
                """)
        }
        migrator.registerMigration("v3: surveys in progress") { db in
            try db.execute(sql: """
                CREATE TABLE survey_session (
                    id TEXT PRIMARY KEY NOT NULL,
                    record TEXT NOT NULL REFERENCES record(id) ON DELETE CASCADE,
                    owner_hash TEXT NOT NULL,
                    event TEXT NOT NULL,
                    status TEXT NOT NULL,
                    value BLOB NOT NULL,
                    expiry_date REAL NOT NULL
                );
                CREATE INDEX survey_session_by_owner ON survey_session(record, owner_hash, event);
                CREATE INDEX survey_session_by_expiry ON survey_session(expiry_date);
                """)
        }
        migrator.registerMigration("v4: one open survey per browser and event") { db in
            try db.execute(sql: """
                DELETE FROM survey_session WHERE status = 'open' AND rowid NOT IN (
                    SELECT max(rowid) FROM survey_session WHERE status = 'open' GROUP BY record, owner_hash, event);
                CREATE UNIQUE INDEX survey_session_open ON survey_session(record, owner_hash, event) WHERE status = 'open';
                """)
        }
        migrator.registerMigration("v5: one open or saving survey per browser and event") { db in
            try db.execute(sql: """
                DELETE FROM survey_session WHERE status = 'open' AND EXISTS (
                    SELECT 1 FROM survey_session saving WHERE saving.status = 'saving' AND saving.record = survey_session.record
                    AND saving.owner_hash = survey_session.owner_hash AND saving.event = survey_session.event);
                DROP INDEX survey_session_open;
                CREATE UNIQUE INDEX survey_session_live ON survey_session(record, owner_hash, event) WHERE status IN ('open', 'saving');
                """)
        }
        migrator.registerMigration("v6: reminders") { db in
            for statement in DirectorySchema.reminderTables(text: "TEXT", real: "REAL", integer: "INTEGER") { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v7: shared values") { db in
            try db.execute(sql: DirectorySchema.sharedValueTable(text: "TEXT", real: "REAL"))
        }
        migrator.registerMigration("v8: two-step codes used once") { db in
            try db.execute(sql: "ALTER TABLE account ADD COLUMN totp_last_step INTEGER")
        }
        migrator.registerMigration("v9: triage") { db in
            for statement in DirectorySchema.triageTables(text: "TEXT", real: "REAL", integer: "INTEGER") { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v10: messages") { db in
            for statement in DirectorySchema.messageTables(text: "TEXT", real: "REAL", integer: "INTEGER") { try db.execute(sql: statement) }
        }
        return migrator
    }

    /// Values every app server shares (the Web Push signing key), in the column types of an engine.
    package static func sharedValueTable(text: String, real: String, prefix: String = "") -> String {
        "CREATE TABLE \(prefix)shared_value (name \(text) PRIMARY KEY NOT NULL, value \(text) NOT NULL, created_date \(real) NOT NULL)"
    }

    /// The care team's triage items (`CareTriageItem`), in the column types of an engine: one open item per record and
    /// cause, found by record and status.
    package static func triageTables(text: String, real: String, integer: String, prefix: String = "") -> [String] {
        """
        CREATE TABLE \(prefix)triage_item (
            id \(text) PRIMARY KEY NOT NULL,
            record \(text) NOT NULL REFERENCES \(prefix)record(id) ON DELETE CASCADE,
            cause \(text) NOT NULL,
            task_id \(text) NOT NULL,
            task_title \(text),
            rule_id \(text) NOT NULL,
            rule \(text) NOT NULL,
            priority \(text) NOT NULL,
            status \(text) NOT NULL,
            observed \(real) NOT NULL,
            evidence \(text) NOT NULL,
            outcome_ids \(text) NOT NULL,
            latest \(real) NOT NULL,
            raised_date \(real) NOT NULL,
            updated_date \(real) NOT NULL,
            raised_count \(integer) NOT NULL,
            owner \(text) REFERENCES \(prefix)account(id) ON DELETE SET NULL,
            acknowledged_by \(text),
            acknowledged_date \(real),
            resolved_by \(text),
            resolved_date \(real),
            resolution_note \(text)
        );
        CREATE UNIQUE INDEX triage_item_open ON \(prefix)triage_item(record, cause) WHERE status <> 'resolved';
        CREATE INDEX triage_item_by_record ON \(prefix)triage_item(record, status, latest);
        CREATE INDEX triage_item_resolved ON \(prefix)triage_item(record, cause, resolved_date, id) WHERE status = 'resolved'
        """.components(separatedBy: ";\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// Secure messages (`CareThread`, `CareMessage`) and how far each member has read each thread, in the column types
    /// of an engine. A thread keeps the id of the triage item it answers (items are pruned; the thread stays). Messages
    /// are numbered in their thread (`position`), and a member has read a thread through a number: unread is what comes
    /// after it, whatever the clocks of the servers that wrote them said.
    package static func messageTables(text: String, real: String, integer: String, prefix: String = "") -> [String] {
        """
        CREATE TABLE \(prefix)thread (
            id \(text) PRIMARY KEY NOT NULL,
            record \(text) NOT NULL REFERENCES \(prefix)record(id) ON DELETE CASCADE,
            audience \(text) NOT NULL,
            subject \(text) NOT NULL,
            triage_item \(text),
            started_by \(text) REFERENCES \(prefix)account(id) ON DELETE SET NULL,
            started_date \(real) NOT NULL,
            last_message_date \(real) NOT NULL,
            message_count \(integer) NOT NULL
        );
        CREATE INDEX thread_by_record ON \(prefix)thread(record, last_message_date, id);
        CREATE UNIQUE INDEX thread_by_triage_item ON \(prefix)thread(triage_item, audience) WHERE triage_item IS NOT NULL;
        CREATE TABLE \(prefix)message (
            id \(text) PRIMARY KEY NOT NULL,
            thread \(text) NOT NULL REFERENCES \(prefix)thread(id) ON DELETE CASCADE,
            record \(text) NOT NULL REFERENCES \(prefix)record(id) ON DELETE CASCADE,
            author \(text) REFERENCES \(prefix)account(id) ON DELETE SET NULL,
            author_name \(text),
            position \(integer) NOT NULL,
            body \(text) NOT NULL,
            sent_date \(real) NOT NULL
        );
        CREATE UNIQUE INDEX message_by_thread ON \(prefix)message(thread, position);
        CREATE INDEX message_by_record ON \(prefix)message(record);
        CREATE INDEX message_by_author ON \(prefix)message(author, sent_date);
        CREATE TABLE \(prefix)thread_read (
            thread \(text) NOT NULL REFERENCES \(prefix)thread(id) ON DELETE CASCADE,
            account \(text) NOT NULL REFERENCES \(prefix)account(id) ON DELETE CASCADE,
            read_through \(integer) NOT NULL,
            read_date \(real) NOT NULL,
            PRIMARY KEY (thread, account)
        )
        """.components(separatedBy: ";\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// The tables of push subscriptions and reminder settings, in the column types of an engine.
    package static func reminderTables(text: String, real: String, integer: String, prefix: String = "") -> [String] {
        """
        CREATE TABLE \(prefix)push_subscription (
            id \(text) PRIMARY KEY NOT NULL,
            account \(text) NOT NULL REFERENCES \(prefix)account(id) ON DELETE CASCADE,
            endpoint \(text) NOT NULL UNIQUE,
            public_key \(text) NOT NULL,
            auth_secret \(text) NOT NULL,
            created_date \(real) NOT NULL
        );
        CREATE INDEX push_subscription_by_account ON \(prefix)push_subscription(account);
        CREATE TABLE \(prefix)reminder_setting (
            account \(text) NOT NULL REFERENCES \(prefix)account(id) ON DELETE CASCADE,
            record \(text) NOT NULL REFERENCES \(prefix)record(id) ON DELETE CASCADE,
            task_ids \(text) NOT NULL,
            quiet_start \(integer),
            quiet_end \(integer),
            follow_up_minutes \(integer),
            updated_date \(real) NOT NULL,
            PRIMARY KEY (account, record)
        );
        CREATE INDEX reminder_setting_by_record ON \(prefix)reminder_setting(record)
        """.components(separatedBy: ";\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}
