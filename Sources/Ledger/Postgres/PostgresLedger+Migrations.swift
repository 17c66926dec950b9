/// PostgreSQL schema migrations, explicit and versioned: `provision ledger migrate` runs them, a station only
/// checks the version (`ledger_schema.version`; migration *n* brings the database to version *n*).
extension PostgresLedger {
    /// The migrations in order; never edit one that has shipped, append a new one.
    ///
    /// Version 1 holds what SQLite's versions 1–8 built (same tables, columns and text formats, so one set of
    /// statements serves both stores), plus what several stations need: `records_done_uid` (a UID done once in
    /// any job), a trigger that keeps a done row's state and UID final, and the station of every attempt.
    static let migrations: [String] = [
        """
        CREATE TABLE ledger_schema (version integer NOT NULL);
        INSERT INTO ledger_schema VALUES (0);
        CREATE TABLE jobs (
            name            text PRIMARY KEY,
            manifest_sha256 text NOT NULL,
            template_sha256 text NOT NULL,
            total_rows      integer NOT NULL DEFAULT 0,
            created_at      text NOT NULL,
            started_at      text,
            finished_at     text,
            records_sha256  text
        );
        CREATE TABLE records (
            job              text NOT NULL REFERENCES jobs(name),
            row              integer NOT NULL,
            fields_json      text NOT NULL,
            message_sha256   text NOT NULL,
            message_length   integer NOT NULL,
            state            text NOT NULL DEFAULT 'pending'
                             CHECK (state IN ('pending', 'claimed', 'done', 'failed', 'burned')),
            uid              text,
            claimed_by       text,
            attempts         integer NOT NULL DEFAULT 0,
            created_at       text NOT NULL,
            claimed_at       text,
            finished_at      text,
            chip             text,
            bytes_sha256     text,
            byte_count       integer,
            locked           integer CHECK (locked IN (0, 1)),
            signature_status text,
            written_at       text,
            recorded_at      text,
            key_id           text,
            key_fingerprint  text,
            reissue_of       integer,
            original_message text,
            family           text,
            PRIMARY KEY (job, row),
            CHECK (state = 'pending' OR uid IS NOT NULL)
        );
        CREATE INDEX records_open ON records(job, row, state) WHERE state IN ('pending', 'claimed');
        CREATE UNIQUE INDEX records_live_uid ON records(uid, job) WHERE state IN ('claimed', 'done');
        CREATE UNIQUE INDEX records_done_uid ON records(uid) WHERE state = 'done';
        CREATE INDEX records_closed ON records(job, state) WHERE state IN ('failed', 'burned');
        CREATE FUNCTION records_done_is_final() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'row % of job % is done, and a done row stays final', OLD.row, OLD.job
                USING ERRCODE = 'P0003';
        END $$;
        CREATE TRIGGER records_done_is_final BEFORE UPDATE OF state, uid ON records FOR EACH ROW
            WHEN (OLD.state = 'done' AND (NEW.state IS DISTINCT FROM OLD.state OR NEW.uid IS DISTINCT FROM OLD.uid))
            EXECUTE FUNCTION records_done_is_final();
        CREATE TRIGGER records_done_not_deleted BEFORE DELETE ON records FOR EACH ROW
            WHEN (OLD.state = 'done') EXECUTE FUNCTION records_done_is_final();
        CREATE VIEW tags AS
            SELECT uid, chip, job, row, bytes_sha256, byte_count, locked, signature_status, written_at, recorded_at,
                   key_id, key_fingerprint, family
            FROM records WHERE state = 'done';
        CREATE VIEW job_progress AS
            SELECT job, count(*) AS total,
                   count(*) FILTER (WHERE state = 'pending') AS pending,
                   count(*) FILTER (WHERE state = 'claimed') AS claimed,
                   count(*) FILTER (WHERE state = 'done') AS done,
                   count(*) FILTER (WHERE state = 'failed') AS failed,
                   count(*) FILTER (WHERE state = 'burned') AS burned
            FROM records GROUP BY job;
        CREATE TABLE attempts (
            id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            job            text NOT NULL REFERENCES jobs(name),
            uid            text NOT NULL,
            row            integer,
            station        text NOT NULL DEFAULT current_setting('application_name'),
            reader         text NOT NULL,
            outcome        text NOT NULL,
            failure_class  text,
            failure_detail text,
            phase          text,
            page           integer,
            detect_us      bigint,
            identify_us    bigint,
            write_us       bigint,
            verify_us      bigint,
            lock_us        bigint,
            ledger_us      bigint,
            removal_us     bigint,
            exchanges      integer NOT NULL DEFAULT 0,
            airtime_us     bigint,
            started_at     text NOT NULL,
            finished_at    text NOT NULL
        );
        CREATE INDEX attempts_by_row ON attempts(job, row);
        CREATE TABLE events (
            id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            job    text,
            row    integer,
            kind   text NOT NULL,
            actor  text,
            detail text,
            at     text NOT NULL
        );
        CREATE INDEX events_by_job ON events(job, id);
        CREATE TABLE seen_counters (
            job     text NOT NULL,
            uid     text NOT NULL,
            counter bigint NOT NULL,
            seen_at text NOT NULL,
            PRIMARY KEY (job, uid)
        );
        CREATE TABLE key_changes (
            id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            job             text NOT NULL,
            uid             text NOT NULL,
            key_number      integer NOT NULL CHECK (key_number BETWEEN 0 AND 4),
            old_version     integer NOT NULL CHECK (old_version BETWEEN 0 AND 255),
            new_version     integer NOT NULL CHECK (new_version BETWEEN 0 AND 255),
            key_id          text NOT NULL,
            old_fingerprint text NOT NULL,
            new_fingerprint text NOT NULL,
            state           text NOT NULL CHECK (state IN ('intended', 'done', 'abandoned')),
            intended_at     text NOT NULL,
            resolved_at     text
        );
        CREATE UNIQUE INDEX key_changes_one_open ON key_changes(job, uid, key_number) WHERE state = 'intended';
        CREATE INDEX key_changes_by_tag ON key_changes(job, uid);
        CREATE TABLE sun_counters (
            job         text NOT NULL,
            uid         text NOT NULL,
            counter     integer NOT NULL CHECK (counter BETWEEN 0 AND 16777215),
            verified_at text NOT NULL,
            PRIMARY KEY (job, uid, counter)
        );
        """,
        // Version 2: station leases (liveness and one live process per station name, behind poolers too).
        """
        CREATE TABLE stations (
            name          text PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9._-]{1,64}$'),
            instance      text NOT NULL,
            started_at    timestamptz NOT NULL DEFAULT now(),
            heartbeat_at  timestamptz NOT NULL DEFAULT now(),
            lease_expires timestamptz NOT NULL
        );
        """,
    ]

    /// The schema version this build reads and writes.
    public static var schemaVersion: Int { migrations.count }

    /// Brings the database at `conninfo` to this build's schema version, in one transaction that holds an
    /// advisory lock (two migrations at once run one after the other).
    ///
    /// - Returns: the versions before and after.
    /// - Throws: `.schemaTooNew` for a database newer than this build; connection errors as `open`.
    public static func migrate(conninfo: String) async throws(LedgerError) -> (from: Int, to: Int) {
        let connection = try PostgresConnection(
            conninfo: try PostgresConnInfo(conninfo).text, applicationName: "provision ledger migrate",
            location: conninfo)
        return try connection.transaction(.immediate) { () throws(LedgerError) -> (from: Int, to: Int) in
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext('provision ledger migrate'))")
            let stored = try storedVersion(connection)
            guard stored <= schemaVersion else { throw tooNew(stored, location: conninfo) }
            for version in stored..<schemaVersion {
                try connection.execute(migrations[version])
                try connection.run("UPDATE ledger_schema SET version = ?", [.int(version + 1)])
            }
            return (stored, schemaVersion)
        }
    }

    /// The stored schema version, 0 for a database without the ledger's tables.
    static func storedVersion(_ connection: PostgresConnection) throws(LedgerError) -> Int {
        let exists = try connection.queryFirst("SELECT to_regclass('ledger_schema') IS NOT NULL", []) { $0.int(0) }
        guard exists == 1 else { return 0 }
        return try connection.queryFirst("SELECT version FROM ledger_schema", []) { $0.int(0) } ?? 0
    }

    /// Refuses a database not at this build's version.
    func checkVersion() throws(LedgerError) {
        let stored = try Self.storedVersion(connection)
        guard stored <= Self.schemaVersion else { throw Self.tooNew(stored, location: location) }
        guard stored == Self.schemaVersion else {
            throw LedgerError(
                .schemaTooOld,
                "ledger \(location) has schema version \(stored), older than \(Self.schemaVersion) that this "
                    + "provision knows: run provision ledger migrate --ledger '\(location)' (stations never "
                    + "migrate a shared ledger themselves)")
        }
    }

    private static func tooNew(_ stored: Int, location: String) -> LedgerError {
        LedgerError(
            .schemaTooNew,
            "ledger \(location) has schema version \(stored), newer than \(schemaVersion) that this provision "
                + "knows: use a newer provision on this station")
    }
}
