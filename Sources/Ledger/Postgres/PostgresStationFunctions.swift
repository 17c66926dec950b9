/// PostgreSQL 5, first part: the `SECURITY DEFINER` functions a station claims, commits, releases, renews its lease
/// and journals key changes through, one round trip each (docs/stations.md, "Who may do what").
///
/// Each function checks that the calling login may act as the station it names (`station_logins`; the ledger's
/// owner may act as any), runs as the owner with its `search_path` pinned to the ledger's schema, and may be run by
/// the station group alone. The station group loses its direct INSERT and UPDATE on `records`' claims, `attempts`,
/// `key_changes` and `stations`: what a login sends by hand can no longer change another station's row, lease or
/// key change, nor a pending row. Domain refusals carry SQLSTATEs of class `PV` (`PostgresConnection.error`).
enum PostgresStationFunctions {
    /// The SQLSTATEs of the functions' refusals and the ledger error codes they stand for.
    enum Refusal: String, CaseIterable {
        case unknownJob = "PV001"
        case unknownRow = "PV002"
        case invalidState = "PV003"
        case alreadyProvisioned = "PV004"

        /// The ledger error code the refusal stands for.
        var code: LedgerError.Code {
            switch self {
            case .unknownJob: .unknownJob
            case .unknownRow: .unknownRow
            case .invalidState: .invalidState
            case .alreadyProvisioned: .alreadyProvisioned
            }
        }
    }

    /// The functions a station calls (the grants find their argument types in the catalog).
    static let functions = [
        "provision_claim", "provision_done", "provision_attempt", "provision_finish_claim", "provision_late_timings",
        "provision_original_message", "provision_take_lease", "provision_renew_lease", "provision_end_lease",
        "provision_intend_key_change", "provision_resolve_key_change",
    ]

    /// The helpers the functions call, which no login calls itself.
    static let helperFunctions = [
        "provision_station_caller", "provision_reader_station", "provision_held_row", "provision_insert_attempt",
    ]

    /// The step's SQL (part of version 5, with `PostgresCounterFunctions.migration`).
    static let migration =
        """
        ALTER TABLE key_changes ADD COLUMN station text;
        \(helpers)
        \(claims)
        \(attempts)
        \(leasesAndJournal)
        \(securing(functions, helpers: helperFunctions))
            EXECUTE format('REVOKE UPDATE ON records FROM %I', station);
            EXECUTE format('REVOKE INSERT, UPDATE ON attempts, key_changes, stations FROM %I', station);
        END $$;
        """

    /// The opening of a `DO` block that makes `functions` the station group's, run as the ledger's owner, and keeps
    /// `helpers` from any login; both with their `search_path` pinned (version 5, and what later versions replace).
    static func securing(_ functions: [String], helpers: [String]) -> String {
        """
        DO $$
        DECLARE
            station text := provision_role('station');
            schema  oid := (SELECT oid FROM pg_namespace WHERE nspname = current_schema());
            fn      regprocedure;
        BEGIN
            FOR fn IN SELECT p.oid FROM pg_proc p WHERE p.pronamespace = schema
                        AND p.proname IN ('\(functions.joined(separator: "', '"))') LOOP
                EXECUTE format('ALTER FUNCTION %s SECURITY DEFINER SET search_path = %I, pg_temp', fn,
                               current_schema());
                EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', fn);
                EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO %I', fn, station);
            END LOOP;
            FOR fn IN SELECT p.oid FROM pg_proc p WHERE p.pronamespace = schema
                        AND p.proname IN ('\(helpers.joined(separator: "', '"))') LOOP
                EXECUTE format('ALTER FUNCTION %s SET search_path = %I, pg_temp', fn, current_schema());
                EXECUTE format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', fn);
            END LOOP;
        """
    }

    /// Who the caller acts as, and which station a reader name belongs to.
    private static let helpers = """
        CREATE FUNCTION provision_station_caller(station text) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
        BEGIN
            IF pg_has_role(session_user, (SELECT relowner FROM pg_class WHERE oid = 'records'::regclass), 'USAGE') THEN
                RETURN true;
            END IF;
            IF station IS NULL OR NOT EXISTS (SELECT 1 FROM station_logins s
                                              WHERE s.login = session_user AND s.station = $1) THEN
                RAISE EXCEPTION 'login % may not act as station %', session_user, coalesce(station, '(none)')
                    USING ERRCODE = '42501';
            END IF;
            RETURN false;
        END $$;
        CREATE FUNCTION provision_reader_station(reader text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
            SELECT CASE WHEN position('/' IN reader) > 0 AND position(':' IN split_part(reader, '/', 1)) = 0
                        THEN split_part(reader, '/', 1) END
        $$;
        """

    /// Claim and done (`SQLLedger.claim`, `markDone` in one call each).
    private static let claims = """
        CREATE FUNCTION provision_claim(p_station text, p_job text, p_reader text, p_uid text, p_now text)
            RETURNS TABLE (o_outcome text, o_row integer, o_fields_json text, o_message_sha256 text,
                           o_message_length integer, o_attempts integer, o_claimed_at text, o_reissue_of integer,
                           o_original_message text, o_done_job text)
            LANGUAGE plpgsql AS $$
        DECLARE
            owner boolean := provision_station_caller(p_station);
            held  integer;
        BEGIN
            IF NOT owner AND provision_reader_station(p_reader) IS DISTINCT FROM p_station THEN
                RAISE EXCEPTION 'reader % is not station %''s', p_reader, p_station USING ERRCODE = '42501';
            END IF;
            SELECT r.job, r.row INTO o_done_job, o_row FROM records r
                WHERE r.uid = p_uid AND r.state IN ('claimed', 'done') AND r.state = 'done'
                ORDER BY r.finished_at LIMIT 1;
            IF FOUND THEN
                o_outcome := CASE WHEN EXISTS (SELECT 1 FROM jobs j WHERE j.name = p_job) THEN 'provisioned'
                                ELSE 'unknownJob' END;
                RETURN NEXT;
                RETURN;
            END IF;
            SELECT r.row INTO held FROM records r
                WHERE r.uid = p_uid AND r.state IN ('claimed', 'done') AND r.job = p_job;
            IF FOUND THEN
                RETURN QUERY WITH c AS (UPDATE records r SET claimed_by = p_reader WHERE r.job = p_job AND r.row = held
                                        RETURNING r.*)
                    SELECT 'resumed'::text, c.row, c.fields_json, c.message_sha256, c.message_length, c.attempts,
                           c.claimed_at, c.reissue_of, c.original_message, NULL::text FROM c;
                RETURN;
            END IF;
            RETURN QUERY WITH c AS (
                UPDATE records r SET state = 'claimed', uid = p_uid, claimed_by = p_reader, claimed_at = p_now
                WHERE r.job = p_job AND r.state = 'pending'
                  AND r.row = (SELECT q.row FROM records q WHERE q.job = p_job AND q.state IN ('pending', 'claimed')
                                   AND q.state = 'pending' ORDER BY q.row LIMIT 1 FOR UPDATE SKIP LOCKED)
                RETURNING r.*)
                SELECT 'claimed'::text, c.row, c.fields_json, c.message_sha256, c.message_length, c.attempts,
                       c.claimed_at, c.reissue_of, c.original_message, NULL::text FROM c;
            IF FOUND THEN
                RETURN;
            END IF;
            o_outcome := CASE WHEN EXISTS (SELECT 1 FROM jobs j WHERE j.name = p_job) THEN 'none' ELSE 'unknownJob' END;
            RETURN NEXT;
        END $$;
        CREATE FUNCTION provision_held_row(p_station text, owner boolean, p_job text, p_row bigint, p_uid text)
            RETURNS text LANGUAGE plpgsql AS $$
        DECLARE
            found_state text;
            holder      text;
            reader      text;
        BEGIN
            SELECT r.state, r.uid, r.claimed_by INTO found_state, holder, reader FROM records r
                WHERE r.job = p_job AND r.row = p_row FOR UPDATE;
            IF NOT FOUND THEN
                RAISE EXCEPTION 'job % has no row %', p_job, p_row USING ERRCODE = 'PV002';
            END IF;
            IF found_state <> 'claimed' THEN
                IF p_uid IS NOT NULL AND found_state = 'done' AND holder = p_uid THEN
                    RAISE EXCEPTION 'UID % finished row % of job % in another process', p_uid, p_row, p_job
                        USING ERRCODE = 'PV004';
                END IF;
                RAISE EXCEPTION 'row % of job % is %, not claimed', p_row, p_job, found_state USING ERRCODE = 'PV003';
            END IF;
            IF p_uid IS NOT NULL AND holder IS DISTINCT FROM p_uid THEN
                RAISE EXCEPTION 'row % of job % is claimed by %, not %', p_row, p_job, coalesce(holder, '-'), p_uid
                    USING ERRCODE = 'PV003';
            END IF;
            IF NOT owner AND provision_reader_station(reader) IS DISTINCT FROM p_station THEN
                RAISE EXCEPTION 'row % of job % is claimed by %, not by station %', p_row, p_job, reader, p_station
                    USING ERRCODE = '42501';
            END IF;
            RETURN holder;
        END $$;
        \(done())
        """

    /// Attempts, giving a claim up (failed, burned, back to pending), late timings and an append's original message.
    private static let attempts = """
        CREATE FUNCTION provision_insert_attempt(
            p_station text, p_job text, p_uid text, p_row bigint, p_reader text, p_outcome text,
            p_failure_class text, p_failure_detail text, p_phase text, p_page bigint, p_detect bigint,
            p_identify bigint, p_write bigint, p_verify bigint, p_lock bigint, p_ledger bigint, p_removal bigint,
            p_exchanges bigint, p_airtime bigint, p_started_at text, p_finished_at text
        ) RETURNS void LANGUAGE sql AS $$
            INSERT INTO attempts (job, uid, row, station, reader, outcome, failure_class, failure_detail, phase, page,
                                  detect_us, identify_us, write_us, verify_us, lock_us, ledger_us, removal_us,
                                  exchanges, airtime_us, started_at, finished_at)
            VALUES (p_job, p_uid, p_row, p_station, p_reader, p_outcome, p_failure_class, p_failure_detail, p_phase,
                    p_page, p_detect, p_identify, p_write, p_verify, p_lock, p_ledger, p_removal, p_exchanges,
                    p_airtime, p_started_at, p_finished_at)
        $$;
        \(attempt())
        \(finishClaim())
        CREATE FUNCTION provision_late_timings(
            p_station text, p_job text, p_rows bigint[], p_uids text[], p_ledger bigint[], p_removal bigint[]
        ) RETURNS void LANGUAGE plpgsql AS $$
        DECLARE
            owner boolean := provision_station_caller(p_station);
        BEGIN
            UPDATE attempts a SET ledger_us = t.ledger_us, removal_us = t.removal_us
                FROM unnest(p_rows, p_uids, p_ledger, p_removal) AS t(row, uid, ledger_us, removal_us)
                WHERE a.job = p_job AND a.row = t.row AND a.uid = t.uid AND a.outcome = 'done'
                  AND (owner OR a.station = p_station);
        END $$;
        CREATE FUNCTION provision_original_message(
            p_station text, p_job text, p_row bigint, p_uid text, p_message text
        ) RETURNS text LANGUAGE plpgsql AS $$
        DECLARE
            owner  boolean := provision_station_caller(p_station);
            stored text;
        BEGIN
            UPDATE records r SET original_message = p_message
                WHERE r.job = p_job AND r.row = p_row AND r.uid = p_uid AND r.state = 'claimed'
                  AND r.original_message IS NULL
                  AND (owner OR provision_reader_station(r.claimed_by) = p_station);
            SELECT r.original_message INTO stored FROM records r
                WHERE r.job = p_job AND r.row = p_row AND r.uid = p_uid AND r.state = 'claimed'
                  AND (owner OR provision_reader_station(r.claimed_by) = p_station);
            RETURN stored;
        END $$;
        """

    /// Leases (`PostgresLedger+Stations.swift`) and the key journal (`Ledger+KeyJournal.swift`).
    private static let leasesAndJournal = """
        CREATE FUNCTION provision_take_lease(p_station text, p_instance text, p_seconds double precision)
            RETURNS boolean LANGUAGE plpgsql AS $$
        DECLARE
            taken integer;
        BEGIN
            PERFORM provision_station_caller(p_station);
            INSERT INTO stations AS s (name, instance, lease_expires)
                VALUES (p_station, p_instance, now() + make_interval(secs => p_seconds))
                ON CONFLICT (name) DO UPDATE SET instance = EXCLUDED.instance, started_at = now(),
                    heartbeat_at = now(), lease_expires = EXCLUDED.lease_expires
                WHERE s.lease_expires < now() OR s.instance = EXCLUDED.instance;
            GET DIAGNOSTICS taken = ROW_COUNT;
            RETURN taken = 1;
        END $$;
        CREATE FUNCTION provision_renew_lease(p_station text, p_instance text, p_seconds double precision)
            RETURNS boolean LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM provision_station_caller(p_station);
            UPDATE stations s SET heartbeat_at = now(), lease_expires = now() + make_interval(secs => p_seconds)
                WHERE s.name = p_station AND s.instance = p_instance AND s.lease_expires >= now();
            RETURN FOUND;
        END $$;
        CREATE FUNCTION provision_end_lease(p_station text, p_instance text) RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM provision_station_caller(p_station);
            UPDATE stations s SET lease_expires = now() WHERE s.name = p_station AND s.instance = p_instance;
        END $$;
        CREATE FUNCTION provision_intend_key_change(
            p_station text, p_job text, p_uid text, p_key_number bigint, p_old_version bigint, p_new_version bigint,
            p_key_id text, p_old_fingerprint text, p_new_fingerprint text, p_now text
        ) RETURNS void LANGUAGE plpgsql AS $$
        DECLARE
            open_version integer;
        BEGIN
            PERFORM provision_station_caller(p_station);
            SELECT k.new_version INTO open_version FROM key_changes k
                WHERE k.job = p_job AND k.uid = p_uid AND k.key_number = p_key_number AND k.state = 'intended';
            IF FOUND THEN
                RAISE EXCEPTION 'key % of tag % has an unresolved change to version %', p_key_number, p_uid,
                    open_version USING ERRCODE = 'PV003';
            END IF;
            INSERT INTO key_changes (job, uid, key_number, old_version, new_version, key_id, old_fingerprint,
                                     new_fingerprint, state, intended_at, station)
                VALUES (p_job, p_uid, p_key_number, p_old_version, p_new_version, p_key_id, p_old_fingerprint,
                        p_new_fingerprint, 'intended', p_now, p_station);
        END $$;
        -- The station that journalled a change resolves it, or the station that now holds the tag's claim (a tag
        -- pulled at one station and presented at another is settled there, after its claim moved with it).
        \(resolveKeyChange())
        """
}
