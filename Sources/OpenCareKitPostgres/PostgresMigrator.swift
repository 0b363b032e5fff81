import Logging
import OpenCareKitStore
import PostgresNIO

/// Applies `PostgresSchema.migrations`.
enum PostgresMigrator {
    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        func run(_ sql: String) async throws {
            do {
                _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
            } catch {
                throw PostgresFailures.failure(error)
            }
        }
        // Row-level security does not bind a superuser or a BYPASSRLS role: records would no longer be kept apart.
        for try await (name, bypasses) in try await connection.query(
            "SELECT current_user::text, rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user", logger: logger)
            .decode((String, Bool).self) where bypasses {
            throw SQLFailure(.other, """
                The database role "\(name)" is a superuser or has BYPASSRLS, so row-level security would not keep care \
                records apart; connect as an ordinary role (NOSUPERUSER NOBYPASSRLS) that owns the database
                """)
        }
        try await run("BEGIN")
        do {
            // A migration may wait for another server's, and build indexes on large tables: no session limit applies.
            try await run("""
                SELECT set_config('lock_timeout', '0', true), set_config('statement_timeout', '0', true),
                       set_config('idle_in_transaction_session_timeout', '0', true)
                """)
            // One migrator at a time, whatever the number of servers starting.
            try await run("SELECT pg_advisory_xact_lock(\(PostgresSchema.migrationLock))")
            try await run("CREATE TABLE IF NOT EXISTS public.opencarekit_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
            var applied: Set<String> = []
            for try await name in try await connection.query("SELECT name FROM public.opencarekit_migrations", logger: logger)
                .decode(String.self) {
                applied.insert(name)
            }
            let known = Set(PostgresSchema.migrations.map(\.name))
            if let unknown = applied.subtracting(known).sorted().first {
                throw SQLFailure(.other, """
                    The database was migrated by a newer OpenCareKit (it has migration "\(unknown)", which this version \
                    does not know); update OpenCareKit to use it
                    """)
            }
            for migration in PostgresSchema.migrations where !applied.contains(migration.name) {
                logger.info("Applying database migration", metadata: ["migration": "\(migration.name)"])
                for statement in migration.statements { try await run(statement) }
                _ = try await connection.query("INSERT INTO public.opencarekit_migrations (name) VALUES (\(migration.name))", logger: logger)
                    .collect()
            }
            try await run("COMMIT")
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger).collect()
            throw PostgresFailures.failure(error)
        }
    }
}
