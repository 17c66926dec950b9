/// The station functions whose outcomes write outbox events from PostgreSQL 6 on (`PostgresOutboxFunctions`): each
/// text serves both versions, so the function a ledger runs is written once.
extension PostgresStationFunctions {
    /// `provision_done`, and with `event` (PostgreSQL 6) the statement that writes its outbox event.
    static func done(event: String = "") -> String {
        """
        \(event.isEmpty ? "CREATE" : "CREATE OR REPLACE") FUNCTION provision_done(
            p_commit text, p_now text, p_chip text, p_bytes_sha256 text, p_byte_count bigint, p_locked bigint,
            p_signature_status text, p_written_at text, p_key_id text, p_key_fingerprint text, p_family text,
            p_sun_counter bigint,
            p_station text, p_job text, p_uid text, p_row bigint, p_reader text, p_outcome text,
            p_failure_class text, p_failure_detail text, p_phase text, p_page bigint, p_detect bigint,
            p_identify bigint, p_write bigint, p_verify bigint, p_lock bigint, p_ledger bigint, p_removal bigint,
            p_exchanges bigint, p_airtime bigint, p_started_at text, p_finished_at text
        ) RETURNS boolean LANGUAGE plpgsql AS $$
        DECLARE
            owner boolean := provision_station_caller(p_station);
        BEGIN
            IF p_commit = 'off' THEN
                PERFORM set_config('synchronous_commit', 'off', true);
            END IF;
            PERFORM provision_held_row(p_station, owner, p_job, p_row, p_uid);
            UPDATE records r SET state = 'done', finished_at = p_now, attempts = r.attempts + 1, chip = p_chip,
                               bytes_sha256 = p_bytes_sha256, byte_count = p_byte_count, locked = p_locked,
                               signature_status = p_signature_status, written_at = p_written_at, recorded_at = p_now,
                               key_id = p_key_id, key_fingerprint = p_key_fingerprint, family = p_family
                WHERE r.job = p_job AND r.row = p_row;
            PERFORM provision_insert_attempt(p_station, p_job, p_uid, p_row, p_reader, 'done', p_failure_class,
                p_failure_detail, p_phase, p_page, p_detect, p_identify, p_write, p_verify, p_lock, p_ledger,
                p_removal, p_exchanges, p_airtime, p_started_at, p_finished_at);
            IF p_sun_counter IS NOT NULL THEN  -- the counter function of this version's second part
                PERFORM provision_advance_sun_counter(p_job, p_uid, p_sun_counter::integer, p_now);
            END IF;\(event)
            RETURN EXISTS (SELECT 1 FROM records r WHERE r.job = p_job AND r.state IN ('pending', 'claimed'));
        END $$;
        """
    }

    /// `provision_attempt`, and with `event` (PostgreSQL 6) the statement that writes its outbox event.
    static func attempt(event: String = "") -> String {
        """
        \(event.isEmpty ? "CREATE" : "CREATE OR REPLACE") FUNCTION provision_attempt(
            p_station text, p_job text, p_uid text, p_row bigint, p_reader text, p_outcome text,
            p_failure_class text, p_failure_detail text, p_phase text, p_page bigint, p_detect bigint,
            p_identify bigint, p_write bigint, p_verify bigint, p_lock bigint, p_ledger bigint, p_removal bigint,
            p_exchanges bigint, p_airtime bigint, p_started_at text, p_finished_at text
        ) RETURNS void LANGUAGE plpgsql AS $$
        DECLARE
            owner boolean := provision_station_caller(p_station);
        BEGIN
            IF NOT EXISTS (SELECT 1 FROM jobs j WHERE j.name = p_job) THEN
                RAISE EXCEPTION 'job % is not registered', p_job USING ERRCODE = 'PV001';
            END IF;
            PERFORM provision_insert_attempt(p_station, p_job, p_uid, p_row, p_reader, p_outcome, p_failure_class,
                p_failure_detail, p_phase, p_page, p_detect, p_identify, p_write, p_verify, p_lock, p_ledger,
                p_removal, p_exchanges, p_airtime, p_started_at, p_finished_at);
            -- A row's attempt count moves for its own station's claim, or a row no station holds.
            UPDATE records r SET attempts = r.attempts + 1
                WHERE r.job = p_job AND r.row = p_row
                  AND (owner OR r.state = 'pending' OR provision_reader_station(r.claimed_by) = p_station);\
        \(event)
        END $$;
        """
    }

    /// `provision_finish_claim`, and with `event` (PostgreSQL 6) the statement that writes its outbox event.
    static func finishClaim(event: String = "") -> String {
        """
        \(event.isEmpty ? "CREATE" : "CREATE OR REPLACE") FUNCTION provision_finish_claim(
            p_station text, p_job text, p_row bigint, p_state text, p_now text, p_detail text
        ) RETURNS void LANGUAGE plpgsql AS $$
        DECLARE
            owner  boolean := provision_station_caller(p_station);
            holder text;
        BEGIN
            IF p_state NOT IN ('failed', 'burned', 'pending') THEN
                RAISE EXCEPTION 'a claim ends failed, burned or pending, not %', p_state USING ERRCODE = '22023';
            END IF;
            holder := provision_held_row(p_station, owner, p_job, p_row, NULL);
            IF p_state = 'pending' THEN
                UPDATE records r SET state = 'pending', uid = NULL, claimed_by = NULL, claimed_at = NULL,
                                     finished_at = NULL
                    WHERE r.job = p_job AND r.row = p_row;
            ELSE
                UPDATE records r SET state = p_state, finished_at = p_now WHERE r.job = p_job AND r.row = p_row;
            END IF;
            INSERT INTO events (job, row, kind, actor, detail, at)
                VALUES (p_job, p_row, CASE p_state WHEN 'pending' THEN 'returnToPending' ELSE p_state END,
                        CASE WHEN owner THEN NULL ELSE p_station END,
                        CASE p_state WHEN 'pending'
                            THEN concat_ws('; ', 'uid ' || coalesce(holder, '-'), p_detail) ELSE p_detail END,
                        p_now);\(event)
        END $$;
        """
    }

    /// `provision_resolve_key_change`, and with `event` (PostgreSQL 6) the statement that writes its outbox event.
    static func resolveKeyChange(event: String = "") -> String {
        """
        \(event.isEmpty ? "CREATE" : "CREATE OR REPLACE") FUNCTION provision_resolve_key_change(
            p_station text, p_job text, p_uid text, p_key_number bigint, p_state text, p_now text
        ) RETURNS boolean LANGUAGE plpgsql AS $$
        DECLARE
            owner   boolean := provision_station_caller(p_station);
            open_id bigint;
            journal text;
        BEGIN
            IF p_state NOT IN ('done', 'abandoned') THEN
                RAISE EXCEPTION 'a key change resolves as done or abandoned, not %', p_state USING ERRCODE = '22023';
            END IF;
            SELECT k.id, k.station INTO open_id, journal FROM key_changes k
                WHERE k.job = p_job AND k.uid = p_uid AND k.key_number = p_key_number AND k.state = 'intended'
                FOR UPDATE;
            IF NOT FOUND THEN
                RETURN false;
            END IF;
            IF NOT owner AND journal IS DISTINCT FROM p_station AND NOT EXISTS (
                SELECT 1 FROM records r WHERE r.job = p_job AND r.uid = p_uid AND r.state IN ('claimed', 'done')
                                          AND provision_reader_station(r.claimed_by) = p_station) THEN
                RAISE EXCEPTION 'key change % of tag % is station %''s, not %', open_id, p_uid,
                    coalesce(journal, '(none)'), p_station USING ERRCODE = '42501';
            END IF;
            UPDATE key_changes k SET state = p_state, resolved_at = p_now WHERE k.id = open_id;\(event)
            RETURN true;
        END $$;
        """
    }
}
