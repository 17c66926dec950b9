/// PostgreSQL 5, second part: counters (SUN and NTAG21x) and the job record change only through functions that
/// check the caller's role and move a counter forward (docs/stations.md, "Who may do what").
///
/// The functions are `SECURITY DEFINER` (they run as the ledger's owner) with their `search_path` pinned to the
/// ledger's schema, and `EXECUTE` is revoked from `PUBLIC` and granted to the groups that need them. Inside one, the
/// caller is `session_user` (the login), never `current_user` (the owner). No group keeps `INSERT`, `UPDATE` or
/// `DELETE` on `seen_counters` or `sun_counters`, nor on `jobs` for stations; views read through the caller's own
/// rights (`security_invoker`), so none bypasses row-level security.
enum PostgresCounterFunctions {
    /// The step's SQL (part of version 5, after `PostgresStationFunctions.migration`).
    static let migration = """
        ALTER TABLE sun_counters ADD COLUMN station text;
        CREATE FUNCTION provision_login_is(kind text) RETURNS boolean LANGUAGE sql STABLE AS $$
            SELECT CASE kind
                WHEN 'owner' THEN pg_has_role(session_user,
                                              (SELECT relowner FROM pg_class WHERE oid = 'jobs'::regclass), 'USAGE')
                ELSE pg_has_role(session_user, provision_role(kind), 'MEMBER')
            END
        $$;
        CREATE FUNCTION provision_now() RETURNS text LANGUAGE sql STABLE AS $$
            SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        $$;
        CREATE FUNCTION provision_refuse(what text, kind text) RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION '% is the %''s (group %, provision ledger grant % LOGIN), not login %''s', what, kind,
                provision_role(kind), kind, session_user USING ERRCODE = '42501';
        END $$;
        \(counters)
        \(PostgresJobFunctions.migration)
        \(grants)
        """

    /// The two counter functions and the trigger that names who recorded a SUN counter.
    private static let counters = """
        CREATE FUNCTION sun_counters_station() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            NEW.station := CASE
                WHEN provision_login_is('verifier') AND NOT provision_login_is('owner') THEN session_user::text
                ELSE coalesce((SELECT split_part(claimed_by, '/', 1) FROM records
                               WHERE job = NEW.job AND uid = NEW.uid AND state IN ('claimed', 'done') LIMIT 1),
                              session_user::text)
            END;
            RETURN NEW;
        END $$;
        CREATE TRIGGER sun_counters_station BEFORE INSERT ON sun_counters FOR EACH ROW WHEN (NEW.station IS NULL)
            EXECUTE FUNCTION sun_counters_station();
        CREATE FUNCTION provision_advance_seen_counter(text, text, bigint, text, bigint) RETURNS boolean
            LANGUAGE plpgsql SECURITY DEFINER AS $$
        BEGIN
            IF NOT (provision_login_is('owner') OR provision_login_is('verifier')) THEN
                PERFORM provision_refuse('recording the tap counter of tag ' || $2, 'verifier');
            END IF;
            \(Ledger.advanceCounterSQL.replacing("?", with: "$"));
            RETURN FOUND;
        END $$;
        CREATE FUNCTION provision_advance_sun_counter(text, text, integer, text) RETURNS boolean
            LANGUAGE plpgsql SECURITY DEFINER AS $$
        BEGIN
            IF NOT (provision_login_is('owner') OR provision_login_is('verifier')
                    OR provision_login_is('station') AND EXISTS (
                        SELECT 1 FROM records r JOIN station_logins l ON l.station = split_part(r.claimed_by, '/', 1)
                        WHERE r.job = $1 AND r.uid = $2 AND r.state IN ('claimed', 'done') AND l.login = session_user)
                    AND NOT EXISTS (SELECT 1 FROM sun_counters WHERE job = $1 AND uid = $2))
            THEN
                PERFORM provision_refuse('recording a SUN counter of tag ' || $2 || ' (a station records only the '
                    || 'first counter of a tag its own claim wrote)', 'verifier');
            END IF;
            \(Ledger.recordSUNCounterSQL.replacing("?", with: "$"));
            RETURN FOUND;
        END $$;
        """

    /// Pins every function's `search_path`, gives `EXECUTE` to the groups that need it, takes every direct write
    /// of the counters (and of the job record from stations) away, and makes every view read with its caller's
    /// rights (PostgreSQL 15 and newer; older servers have no `security_invoker`).
    private static let grants = """
        DO $$
        DECLARE
            station    text := provision_role('station');
            verifier   text := provision_role('verifier');
            supervisor text := provision_role('supervisor');
            signature  text;
        BEGIN
            FOREACH signature IN ARRAY ARRAY[\(definerFunctions.map { "'\($0)'" }.joined(separator: ", "))] LOOP
                EXECUTE format('ALTER FUNCTION %s SET search_path = %I, pg_temp', signature, current_schema());
                EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', signature);
            END LOOP;
            EXECUTE format($sql$
                GRANT EXECUTE ON FUNCTION provision_advance_seen_counter(text, text, bigint, text, bigint) TO %2$I;
                GRANT EXECUTE ON FUNCTION provision_advance_sun_counter(text, text, integer, text) TO %1$I, %2$I;
                GRANT EXECUTE ON FUNCTION \(PostgresJobFunctions.stationFunctions.joined(separator: ", ")) TO %1$I;
                GRANT EXECUTE ON FUNCTION \(PostgresJobFunctions.jobRecordFunctions.joined(separator: ", "))
                    TO %1$I, %3$I;
                REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON seen_counters, sun_counters FROM %1$I, %2$I, %3$I;
                REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON jobs FROM %1$I;
                REVOKE INSERT, DELETE, TRUNCATE ON records FROM %1$I;
                DROP POLICY provision_station_kinds ON events;
                CREATE POLICY provision_station_kinds ON events FOR INSERT TO %1$I
                    WITH CHECK (kind IN (\(stationEventKinds)) AND provision_own_station(actor));
            $sql$, station, verifier, supervisor);
            IF current_setting('server_version_num')::integer >= 150000 THEN
                FOR signature IN SELECT format('%I.%I', schemaname, viewname) FROM pg_views
                                 WHERE schemaname = current_schema() LOOP
                    EXECUTE format('ALTER VIEW %s SET (security_invoker = true)', signature);
                END LOOP;
            END IF;
        END $$;
        """

    /// The event kinds a station still records itself, quoted: a change of the job's record is recorded by
    /// `provision_change_job`, for the supervisor.
    private static let stationEventKinds = PostgresRoles.stationEventKinds
        .filter { !PostgresJobFunctions.changeEventKinds.contains($0) }.map { "'\($0)'" }.joined(separator: ", ")

    /// The `SECURITY DEFINER` functions of this step, by signature.
    static let definerFunctions =
        [
            "provision_advance_seen_counter(text, text, bigint, text, bigint)",
            "provision_advance_sun_counter(text, text, integer, text)",
        ] + PostgresJobFunctions.stationFunctions + PostgresJobFunctions.jobRecordFunctions
}
