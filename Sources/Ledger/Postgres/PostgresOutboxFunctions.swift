/// PostgreSQL 6: the station functions of version 5 write their outcomes' outbox events (docs/events.md) in the same
/// call, as the SQLite store does in the outcome's transaction: `provision_done` (done), `provision_attempt`
/// (quarantined), `provision_finish_claim` (failed, burned) and `provision_resolve_key_change` (keyChangeAbandoned).
///
/// The functions are replaced with the texts version 5 made (`PostgresStationFunctions+Outcomes.swift`) plus one
/// statement; replacing resets a function's `SECURITY DEFINER` and `search_path`, so they are set again. The payload
/// (version 1) is built on the server from the row, the job's public fields and the deciding attempt, with the keys
/// and values `OutboxFacts.payload()` writes; `LedgerOutboxTests` compares the two stores' events. The event's
/// `station` column is the calling station; its id a UUID version 7, as `OutboxEvent.makeID` makes.
enum PostgresOutboxFunctions {
    /// The helpers the functions call, which no login calls itself.
    static let helperFunctions = ["provision_event_id", "provision_outbox_event", "provision_last_failed_attempt"]

    /// The step's SQL.
    static let migration = """
        \(helpers)
        \(PostgresStationFunctions.done(event: done))
        \(PostgresStationFunctions.attempt(event: quarantined))
        \(PostgresStationFunctions.finishClaim(event: failed))
        \(PostgresStationFunctions.resolveKeyChange(event: abandoned))
        \(PostgresStationFunctions.securing(
            ["provision_done", "provision_attempt", "provision_finish_claim", "provision_resolve_key_change"],
            helpers: helperFunctions))
        END $$;
        """

    /// The row's facts as `SQLLedger.outboxRowFacts` reads them, its public fields, and the attempt's timings;
    /// `p_facts` overrides what the outcome knows itself.
    private static let helpers = """
        CREATE FUNCTION provision_event_id() RETURNS text LANGUAGE sql VOLATILE AS $$
            SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                       PLACING substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
                       FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid::text
        $$;
        CREATE FUNCTION provision_last_failed_attempt(p_job text, p_row bigint) RETURNS bigint LANGUAGE sql STABLE AS $$
            SELECT a.id FROM attempts a WHERE a.job = p_job AND a.row = p_row AND a.outcome = 'failed'
            ORDER BY a.id DESC LIMIT 1
        $$;
        CREATE FUNCTION provision_outbox_event(
            p_station text, p_job text, p_row bigint, p_outcome text, p_at text, p_attempt bigint, p_facts jsonb
        ) RETURNS void LANGUAGE sql AS $$
            INSERT INTO outbox (id, job, row, station, outcome, payload, created_at)
            SELECT provision_event_id(), p_job, p_row, p_station, p_outcome, (jsonb_build_object(
                'v', \(OutboxEvent.payloadVersion), 'outcome', p_outcome, 'job', p_job, 'row', p_row,
                'public', CASE WHEN p_row IS NOT NULL THEN coalesce((
                    SELECT jsonb_object_agg(n.name, q.fields_json::jsonb ->> n.name)
                    FROM jobs j JOIN records q ON q.job = j.name AND q.row = p_row,
                         jsonb_array_elements_text(coalesce(j.public_fields, '[]')::jsonb) AS n(name)
                    WHERE j.name = p_job AND q.fields_json::jsonb ? n.name), '{}'::jsonb) END,
                'uid', r.uid, 'chip', r.chip, 'family', r.family, 'station', provision_reader_station(r.claimed_by),
                'reader', r.claimed_by, 'failureClass', NULL::text, 'detail', NULL::text,
                'timings', (SELECT jsonb_build_object(
                                'detectUs', a.detect_us, 'identifyUs', a.identify_us, 'writeUs', a.write_us,
                                'verifyUs', a.verify_us, 'lockUs', a.lock_us, 'ledgerUs', a.ledger_us,
                                'removalUs', a.removal_us, 'exchanges', a.exchanges, 'startedAt', a.started_at,
                                'finishedAt', a.finished_at)
                            FROM attempts a WHERE a.id = p_attempt),
                'keyId', r.key_id, 'keyFingerprint', r.key_fingerprint, 'actor', NULL::text,
                'reissueOf', NULL::integer, 'keyChange', NULL::jsonb, 'at', p_at) || p_facts)::text, p_at
            FROM (SELECT 1) AS one LEFT JOIN records r ON r.job = p_job AND r.row = p_row
        $$;
        """

    /// The attempt `provision_insert_attempt` has just written.
    private static let newAttempt = "currval(pg_get_serial_sequence('attempts', 'id'))"

    /// `provision_done`'s event: the tag as the attempt that committed it read it (`SQLLedger.markDone`).
    private static let done = """

            PERFORM provision_outbox_event(p_station, p_job, p_row, 'done', p_now, \(newAttempt),
                jsonb_build_object('uid', p_uid, 'reader', p_reader, 'station', provision_reader_station(p_reader),
                                   'detail', p_failure_detail));
        """

    /// `provision_attempt`'s event for a tag refused by its originality signature (`SQLLedger.recordAttempt`); its
    /// time is the attempt's end, which the station sends.
    private static let quarantined = """

            IF p_outcome = 'failed' AND p_failure_class = '\(Ledger.quarantineClass)' THEN
                PERFORM provision_outbox_event(p_station, p_job, p_row, 'quarantined', p_finished_at, \(newAttempt),
                    jsonb_build_object('uid', p_uid, 'reader', p_reader, 'station', provision_reader_station(p_reader),
                                       'failureClass', p_failure_class, 'detail', p_failure_detail));
            END IF;
        """

    /// `provision_finish_claim`'s event when the claim ends failed or burned (`SQLLedger.markFailed`), with the
    /// row's last failed attempt.
    private static let failed = """

            IF p_state <> 'pending' THEN
                PERFORM provision_outbox_event(p_station, p_job, p_row, p_state, p_now,
                    provision_last_failed_attempt(p_job, p_row),
                    jsonb_build_object('detail', p_detail, 'failureClass', (SELECT a.failure_class FROM attempts a
                                       WHERE a.id = provision_last_failed_attempt(p_job, p_row))));
            END IF;
        """

    /// `provision_resolve_key_change`'s event when the change is abandoned (`SQLLedger.insertAbandonedKeyChange`):
    /// the tag's live row in the job, if any, and the key it kept.
    private static let abandoned = """

            IF p_state = 'abandoned' THEN
                PERFORM provision_outbox_event(p_station, p_job,
                    (SELECT r.row FROM records r WHERE r.uid = p_uid AND r.\(Ledger.isLive) AND r.job = p_job),
                    'keyChangeAbandoned', p_now, NULL,
                    (SELECT jsonb_build_object('uid', p_uid, 'keyId', k.key_id, 'keyFingerprint', k.old_fingerprint,
                                'keyChange', jsonb_build_object('keyNumber', k.key_number,
                                    'oldVersion', k.old_version, 'newVersion', k.new_version,
                                    'oldFingerprint', k.old_fingerprint, 'newFingerprint', k.new_fingerprint))
                     FROM key_changes k WHERE k.id = open_id));
            END IF;
        """
}
