/// PostgreSQL 5: the job record (`jobs`, and the rows a job starts with) changes only through functions. A station
/// registers a job at its first start, adds its rows and its records file's first hash until it starts, and marks
/// it started and, once every row is done, finished; any other change (`run --accept-changed-manifest`,
/// `--accept-new-rows`) is the supervisor's, refused to a station with SQLSTATE 42501 naming the role
/// (`PostgresCounterFunctions` pins, grants and revokes; docs/stations.md, "Who may do what").
enum PostgresJobFunctions {
    /// The functions only a station (and the owner) calls, by signature.
    static let stationFunctions = ["provision_register_job(text, text, text)"]

    /// The functions a station and the supervisor call; each checks what the caller may change.
    static let jobRecordFunctions = [
        "provision_add_rows(text, jsonb)", "provision_change_job(text, text, text, text, text, text)",
        "provision_mark_job(text, boolean)",
    ]

    /// The event kinds that record a change of a job's record (`provision_change_job`).
    static let changeEventKinds = ["manifestAccepted", "recordsAccepted", "rowsAppended"]

    /// The functions' SQL.
    static let migration = """
        CREATE FUNCTION provision_may_change_jobs() RETURNS boolean LANGUAGE sql STABLE AS $$
            SELECT provision_login_is('owner') OR provision_login_is('supervisor')
        $$;
        CREATE FUNCTION provision_register_job(text, text, text) RETURNS void LANGUAGE plpgsql SECURITY DEFINER AS $$
        BEGIN
            IF NOT (provision_login_is('owner') OR provision_login_is('station')) THEN
                PERFORM provision_refuse('registering job ' || $1, 'station');
            END IF;
            INSERT INTO jobs (name, manifest_sha256, template_sha256, created_at) VALUES ($1, $2, $3, provision_now())
                ON CONFLICT (name) DO NOTHING;
        END $$;
        CREATE FUNCTION provision_add_rows(text, jsonb) RETURNS integer LANGUAGE plpgsql SECURITY DEFINER AS $$
        DECLARE
            started boolean;
            added   integer;
        BEGIN
            SELECT started_at IS NOT NULL AND total_rows > 0 INTO started FROM jobs WHERE name = $1 FOR UPDATE;
            IF NOT FOUND THEN
                RETURN -1;
            END IF;
            IF started AND NOT provision_may_change_jobs() THEN
                PERFORM provision_refuse('adding rows to job ' || $1 || ', which has started,', 'supervisor');
            END IF;
            INSERT INTO records (job, row, fields_json, message_sha256, message_length, state, created_at)
                SELECT $1, r."row", r.fields_json, r.message_sha256, r.message_length, 'pending', provision_now()
                FROM jsonb_to_recordset($2) AS r("row" integer, fields_json text, message_sha256 text,
                                                 message_length integer)
                ON CONFLICT (job, row) DO NOTHING;
            GET DIAGNOSTICS added = ROW_COUNT;
            UPDATE jobs SET total_rows = (SELECT count(*) FROM records WHERE job = $1) WHERE name = $1;
            RETURN added;
        END $$;
        CREATE FUNCTION provision_change_job(text, text, text, text, text, text) RETURNS integer
            LANGUAGE plpgsql SECURITY DEFINER AS $$
        DECLARE
            recorded text;
        BEGIN
            SELECT records_sha256 INTO recorded FROM jobs WHERE name = $1 FOR UPDATE;
            IF NOT FOUND THEN
                RETURN 0;
            END IF;
            IF NOT provision_may_change_jobs() AND NOT (provision_login_is('station') AND $2 IS NULL AND $3 IS NULL
                                                        AND $5 IS NULL AND recorded IS NULL) THEN
                PERFORM provision_refuse('changing the record of job ' || $1 || ' (' || coalesce($6, 'its hashes')
                    || ')', 'supervisor');
            END IF;
            IF $5 IS NOT NULL AND $5 <> ALL (ARRAY[\(changeEventKinds.map { "'\($0)'" }.joined(separator: ", "))]) THEN
                RAISE EXCEPTION 'a change of job % is recorded as one of %, not %', $1,
                    '\(changeEventKinds.joined(separator: ", "))', $5 USING ERRCODE = '22023';
            END IF;
            UPDATE jobs SET manifest_sha256 = coalesce($2, manifest_sha256),
                            template_sha256 = coalesce($3, template_sha256),
                            records_sha256 = coalesce($4, records_sha256)
                WHERE name = $1;
            IF $5 IS NOT NULL THEN
                INSERT INTO events (job, row, kind, actor, detail, at)
                    VALUES ($1, NULL, $5, session_user, $6, provision_now());
            END IF;
            RETURN 1;
        END $$;
        CREATE FUNCTION provision_mark_job(text, boolean) RETURNS integer LANGUAGE plpgsql SECURITY DEFINER AS $$
        DECLARE
            changed integer;
        BEGIN
            IF NOT (provision_may_change_jobs() OR provision_login_is('station')) THEN
                PERFORM provision_refuse('marking job ' || $1 || ' started or finished', 'station');
            END IF;
            IF $2 THEN
                IF NOT provision_may_change_jobs() AND EXISTS (SELECT 1 FROM records WHERE job = $1 AND state <> 'done')
                THEN
                    PERFORM provision_refuse('marking job ' || $1 || ' finished while rows are not done', 'supervisor');
                END IF;
                UPDATE jobs SET finished_at = provision_now() WHERE name = $1;
            ELSE
                UPDATE jobs SET started_at = coalesce(started_at, provision_now()), finished_at = NULL WHERE name = $1;
            END IF;
            GET DIAGNOSTICS changed = ROW_COUNT;
            RETURN changed;
        END $$;
        """
}
