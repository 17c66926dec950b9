/// PostgreSQL 6, the server's part of the outbox (docs/events.md): who may read it and write to it. The station
/// group reads it and records a job's public field names through `provision_set_public_fields` (while the job has
/// none, or the same); the supervisor writes the events of its own outcomes (`release`, `reissue`) and nothing else.
enum PostgresOutbox {
    /// The step's SQL (after the table, `SchemaSteps` SQLite 10 / PostgreSQL 6).
    static let migration = """
        CREATE FUNCTION provision_set_public_fields(p_job text, p_fields text) RETURNS boolean
            LANGUAGE plpgsql SECURITY DEFINER AS $$
        DECLARE
            recorded text;
        BEGIN
            SELECT public_fields INTO recorded FROM jobs WHERE name = p_job FOR UPDATE;
            IF NOT FOUND THEN
                RETURN false;
            END IF;
            IF recorded IS NOT DISTINCT FROM p_fields THEN
                RETURN true;
            END IF;
            IF recorded IS NOT NULL AND NOT (provision_login_is('owner') OR provision_login_is('supervisor')) THEN
                PERFORM provision_refuse('changing the public fields of job ' || p_job, 'supervisor');
            END IF;
            IF NOT (provision_login_is('owner') OR provision_login_is('supervisor')
                    OR provision_login_is('station')) THEN
                PERFORM provision_refuse('recording the public fields of job ' || p_job, 'station');
            END IF;
            UPDATE jobs SET public_fields = p_fields WHERE name = p_job;
            RETURN true;
        END $$;
        DO $$
        DECLARE
            station    text := provision_role('station');
            verifier   text := provision_role('verifier');
            supervisor text := provision_role('supervisor');
        BEGIN
            EXECUTE format('ALTER FUNCTION provision_set_public_fields(text, text) SET search_path = %I, pg_temp',
                           current_schema());
            EXECUTE format($sql$
                REVOKE ALL ON FUNCTION provision_set_public_fields(text, text) FROM PUBLIC;
                GRANT EXECUTE ON FUNCTION provision_set_public_fields(text, text) TO %1$I, %3$I;
                REVOKE ALL ON outbox FROM %1$I, %2$I, %3$I;
                GRANT SELECT ON outbox TO %1$I, %3$I;
                GRANT INSERT (id, job, row, station, outcome, payload, created_at) ON outbox TO %3$I;
                ALTER TABLE outbox ENABLE ROW LEVEL SECURITY;
                CREATE POLICY provision_read ON outbox FOR SELECT TO %1$I, %3$I USING (true);
                CREATE POLICY provision_supervisor_outcomes ON outbox FOR INSERT TO %3$I
                    WITH CHECK (outcome IN ('released', 'reissued'));
            $sql$, station, verifier, supervisor);
        END $$;
        """
}
