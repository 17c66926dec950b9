/// The ledger's schema, written once for both stores as versioned steps; `SQLDialect` spells what they differ in.
///
/// A step names the version it brings each store to. SQLite numbers its versions by step (`PRAGMA user_version`);
/// PostgreSQL's version 1 holds SQLite's eight versions and the server's own additions (`records_done_uid`: a UID
/// done once in any job; a trigger that keeps a done row's state and UID final; the station of every attempt).
/// Never edit a step that has shipped (existing ledgers hold its result, recorded in Tests/Fixtures/ledger-schema);
/// append a new one.
enum SchemaSteps {
    /// One schema change and the version it belongs to in each store (`nil`: the store skips it).
    struct Step: Sendable {
        let sqlite: Int?
        let postgres: Int?
        let sql: @Sendable (SQLDialect) -> String
    }

    /// The migrations of `dialect`'s store: element *n* − 1 brings a ledger to version *n*.
    static func migrations(_ dialect: SQLDialect) -> [String] {
        var scripts: [String] = []
        for step in all {
            guard let version = dialect == .sqlite ? step.sqlite : step.postgres else { continue }
            if version > scripts.count {
                precondition(version == scripts.count + 1, "schema steps skip version \(scripts.count + 1)")
                scripts.append(step.sql(dialect))
            } else {
                precondition(version == scripts.count, "schema step for version \(version) is out of order")
                scripts[version - 1] += "\n" + step.sql(dialect)
            }
        }
        return scripts
    }

    /// The steps in order.
    static let all: [Step] = [
        // 1: the initial schema (docs/ledger.md).
        Step(sqlite: 1, postgres: 1) { d in
            """
            CREATE TABLE jobs (
                name            TEXT PRIMARY KEY NOT NULL,
                manifest_sha256 TEXT NOT NULL,
                template_sha256 TEXT NOT NULL,
                total_rows      INTEGER NOT NULL DEFAULT 0,
                created_at      TEXT NOT NULL,
                started_at      TEXT,
                finished_at     TEXT
            );
            CREATE TABLE records (
                job            TEXT NOT NULL REFERENCES jobs(name),
                row            INTEGER NOT NULL,
                fields_json    TEXT NOT NULL,
                message_sha256 TEXT NOT NULL,
                message_length INTEGER NOT NULL,
                state          TEXT NOT NULL DEFAULT 'pending'
                               CHECK (state IN ('pending', 'claimed', 'done', 'failed', 'burned')),
                uid            TEXT,
                claimed_by     TEXT,
                attempts       INTEGER NOT NULL DEFAULT 0,
                created_at     TEXT NOT NULL,
                claimed_at     TEXT,
                finished_at    TEXT,
                PRIMARY KEY (job, row),
                CHECK (state = 'pending' OR uid IS NOT NULL)
            );
            CREATE INDEX records_by_state ON records(job, state, row);
            CREATE UNIQUE INDEX records_one_live_row_per_uid ON records(job, uid) WHERE state IN ('claimed', 'done');
            CREATE INDEX records_by_uid ON records(uid) WHERE uid IS NOT NULL;
            CREATE TABLE tags (
                uid              TEXT NOT NULL,
                chip             TEXT NOT NULL,
                job              TEXT NOT NULL REFERENCES jobs(name),
                row              INTEGER NOT NULL,
                bytes_sha256     TEXT NOT NULL,
                byte_count       INTEGER NOT NULL,
                locked           INTEGER NOT NULL CHECK (locked IN (0, 1)),
                signature_status TEXT,
                written_at       TEXT NOT NULL,
                recorded_at      TEXT NOT NULL,
                UNIQUE (job, uid),
                UNIQUE (job, row),
                FOREIGN KEY (job, row) REFERENCES records(job, row)
            );
            CREATE INDEX tags_by_uid ON tags(uid);
            CREATE TABLE attempts (
                id             \(d.rowID),
                job            TEXT NOT NULL REFERENCES jobs(name),
                uid            TEXT NOT NULL,
                row            INTEGER,\(d.attemptsStation)
                reader         TEXT NOT NULL,
                outcome        TEXT NOT NULL,
                failure_class  TEXT,
                failure_detail TEXT,
                phase          TEXT,
                page           INTEGER,
                detect_us      \(d.bigInteger),
                identify_us    \(d.bigInteger),
                write_us       \(d.bigInteger),
                verify_us      \(d.bigInteger),
                lock_us        \(d.bigInteger),
                ledger_us      \(d.bigInteger),
                removal_us     \(d.bigInteger),
                exchanges      INTEGER NOT NULL DEFAULT 0,
                airtime_us     \(d.bigInteger),
                started_at     TEXT NOT NULL,
                finished_at    TEXT NOT NULL
            );
            CREATE INDEX attempts_by_row ON attempts(job, row);
            CREATE INDEX attempts_by_uid ON attempts(uid);
            CREATE TABLE events (
                id     \(d.rowID),
                job    TEXT,
                row    INTEGER,
                kind   TEXT NOT NULL,
                actor  TEXT,
                detail TEXT,
                at     TEXT NOT NULL
            );
            CREATE INDEX events_by_job ON events(job, id);
            CREATE VIEW job_progress AS
                SELECT job,
                       count(*) AS total,
                       \(d.countWhere("state = 'pending'")) AS pending,
                       \(d.countWhere("state = 'claimed'")) AS claimed,
                       \(d.countWhere("state = 'done'")) AS done,
                       \(d.countWhere("state = 'failed'")) AS failed,
                       \(d.countWhere("state = 'burned'")) AS burned
                FROM records GROUP BY job;
            """
        },
        // 2: product authentication (docs/authentication.md): which key programmed a tag (id and
        // fingerprint, never the key), and the last NFC counter `verify-url` accepted per tag.
        Step(sqlite: 2, postgres: 1) { d in
            """
            ALTER TABLE tags ADD COLUMN key_id TEXT;
            ALTER TABLE tags ADD COLUMN key_fingerprint TEXT;
            CREATE TABLE seen_counters (
                job        TEXT NOT NULL,
                uid        TEXT NOT NULL,
                counter    \(d.bigInteger) NOT NULL,
                seen_at    TEXT NOT NULL,
                PRIMARY KEY (job, uid)
            );
            """
        },
        // 3: fewer index pages written a tag (docs/ledger.md, "Indexes and the write path"). Every index
        // a claim or a done commit touches is one more 4 KiB WAL frame to write and sync: the UID-keyed ones
        // land on a random page each. Of the five UID-keyed indexes a tag wrote, two remain (this one on
        // records, and tags' unique (job, uid)); the state index, whose claimed, done and pending entries
        // sit apart, becomes a partial index of the open rows only.
        Step(sqlite: 3, postgres: 1) { _ in
            """
            DROP INDEX records_by_state;
            DROP INDEX records_by_uid;
            DROP INDEX records_one_live_row_per_uid;
            DROP INDEX tags_by_uid;
            DROP INDEX attempts_by_uid;
            CREATE INDEX records_open ON records(job, row, state) WHERE state IN ('pending', 'claimed');
            CREATE UNIQUE INDEX records_live_uid ON records(uid, job) WHERE state IN ('claimed', 'done');
            CREATE INDEX records_closed ON records(job, state) WHERE state IN ('failed', 'burned');
            """
        },
        // 3 (SQLite only): job_progress counts through the partial indexes; the server keeps version 1's view.
        Step(sqlite: 3, postgres: nil) { _ in
            """
            DROP VIEW job_progress;
            CREATE VIEW job_progress AS
                SELECT job, total, pending, claimed, total - pending - claimed - failed - burned AS done, failed, burned
                FROM (
                    SELECT j.name AS job,
                           (SELECT count(*) FROM records r WHERE r.job = j.name) AS total,
                           (SELECT count(*) FROM records r WHERE r.job = j.name
                                AND r.state IN ('pending', 'claimed') AND r.state = 'pending') AS pending,
                           (SELECT count(*) FROM records r WHERE r.job = j.name
                                AND r.state IN ('pending', 'claimed') AND r.state = 'claimed') AS claimed,
                           (SELECT count(*) FROM records r WHERE r.job = j.name
                                AND r.state IN ('failed', 'burned') AND r.state = 'failed') AS failed,
                           (SELECT count(*) FROM records r WHERE r.job = j.name
                                AND r.state IN ('failed', 'burned') AND r.state = 'burned') AS burned
                    FROM jobs j
                )
                WHERE total > 0;
            """
        },
        // 4: a done tag is recorded on its row (docs/ledger.md, "Indexes and the write path"): the tags
        // table cost a done commit four more pages (its own and three index pages); `tags` stays as a view
        // with the same columns, so queries that read it are unchanged. One row per (job, row) and
        // records_live_uid keep both of its unique constraints.
        Step(sqlite: 4, postgres: 1) { _ in
            """
            ALTER TABLE records ADD COLUMN chip TEXT;
            ALTER TABLE records ADD COLUMN bytes_sha256 TEXT;
            ALTER TABLE records ADD COLUMN byte_count INTEGER;
            ALTER TABLE records ADD COLUMN locked INTEGER CHECK (locked IN (0, 1));
            ALTER TABLE records ADD COLUMN signature_status TEXT;
            ALTER TABLE records ADD COLUMN written_at TEXT;
            ALTER TABLE records ADD COLUMN recorded_at TEXT;
            ALTER TABLE records ADD COLUMN key_id TEXT;
            ALTER TABLE records ADD COLUMN key_fingerprint TEXT;
            UPDATE records SET chip = t.chip, bytes_sha256 = t.bytes_sha256, byte_count = t.byte_count,
                               locked = t.locked, signature_status = t.signature_status, written_at = t.written_at,
                               recorded_at = t.recorded_at, key_id = t.key_id, key_fingerprint = t.key_fingerprint
                FROM tags t WHERE t.job = records.job AND t.row = records.row;
            DROP TABLE tags;
            CREATE VIEW tags AS
                SELECT uid, chip, job, row, bytes_sha256, byte_count, locked, signature_status, written_at, recorded_at,
                       key_id, key_fingerprint
                FROM records WHERE state = 'done';
            """
        },
        // 5: the records file's hash (a changed CSV is refused like a changed manifest), reissued rows
        // (`provision reissue`: a new row with a done row's fields, linked to it), and the message an
        // append job found on the row's tag at its first presentation (hex; '' for an empty tag).
        Step(sqlite: 5, postgres: 1) { _ in
            """
            ALTER TABLE jobs ADD COLUMN records_sha256 TEXT;
            ALTER TABLE records ADD COLUMN reissue_of INTEGER;
            ALTER TABLE records ADD COLUMN original_message TEXT;
            """
        },
        // 6: the tag family of a done tag (`type2`, `type4`) beside its chip; tags recorded before Type 4
        // existed are Type 2. The `tags` view gains the column.
        Step(sqlite: 6, postgres: 1) { _ in
            """
            ALTER TABLE records ADD COLUMN family TEXT;
            UPDATE records SET family = 'type2' WHERE chip IS NOT NULL;
            DROP VIEW tags;
            CREATE VIEW tags AS
                SELECT uid, chip, job, row, bytes_sha256, byte_count, locked, signature_status, written_at, recorded_at,
                       key_id, key_fingerprint, family
                FROM records WHERE state = 'done';
            """
        },
        // 7: the key journal of keyed personalisation (docs/ledger.md, "Key journal"): each ChangeKey's
        // intent is durable before the command is sent, and resolved once the tag proves which key it holds.
        // Keys are named by id, version and fingerprint, never by their bytes.
        Step(sqlite: 7, postgres: 1) { d in
            """
            CREATE TABLE key_changes (
                id              \(d.rowID),
                job             TEXT NOT NULL,
                uid             TEXT NOT NULL,
                key_number      INTEGER NOT NULL CHECK (key_number BETWEEN 0 AND 4),
                old_version     INTEGER NOT NULL CHECK (old_version BETWEEN 0 AND 255),
                new_version     INTEGER NOT NULL CHECK (new_version BETWEEN 0 AND 255),
                key_id          TEXT NOT NULL,
                old_fingerprint TEXT NOT NULL,
                new_fingerprint TEXT NOT NULL,
                state           TEXT NOT NULL CHECK (state IN ('intended', 'done', 'abandoned')),
                intended_at     TEXT NOT NULL,
                resolved_at     TEXT
            );
            CREATE UNIQUE INDEX key_changes_one_open ON key_changes(job, uid, key_number) WHERE state = 'intended';
            CREATE INDEX key_changes_by_tag ON key_changes(job, uid);
            """
        },
        // 8: the SUN counters `verify-url` verified on a keyed chip's taps (docs/ledger.md, "sun_counters"): one
        // row per verified counter; the primary key (job, uid, counter) is the index that finds a tag's
        // highest counter, and refuses a counter recorded twice.
        Step(sqlite: 8, postgres: 1) { _ in
            """
            CREATE TABLE sun_counters (
                job         TEXT NOT NULL,
                uid         TEXT NOT NULL,
                counter     INTEGER NOT NULL CHECK (counter BETWEEN 0 AND 16777215),
                verified_at TEXT NOT NULL,
                PRIMARY KEY (job, uid, counter)
            );
            """
        },
        // PostgreSQL's own part of its version 1: its version table, a UID done once in any job, and a done row
        // kept final by a trigger (stations write side by side; SQLite's one writer checks this in `finish`).
        Step(sqlite: nil, postgres: 1) { _ in
            """
            CREATE TABLE ledger_schema (version integer NOT NULL);
            INSERT INTO ledger_schema VALUES (0);
            CREATE UNIQUE INDEX records_done_uid ON records(uid) WHERE state = 'done';
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
            """
        },
        // PostgreSQL 2: station leases (liveness and one live process per station name, behind poolers too).
        Step(sqlite: nil, postgres: 2) { _ in
            """
            CREATE TABLE stations (
                name          text PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9._-]{1,64}$'),
                instance      text NOT NULL,
                started_at    timestamptz NOT NULL DEFAULT now(),
                heartbeat_at  timestamptz NOT NULL DEFAULT now(),
                lease_expires timestamptz NOT NULL
            );
            """
        },
        // SQLite 9, PostgreSQL 3: the keys a job is bound to (docs/ledger.md, "job_keys"): each key id's `v1:`
        // fingerprint as the job first ran with it, so a resumed run, an audit or a verification under another key
        // for the same id is refused. Ids and fingerprints only, never key bytes.
        Step(sqlite: 9, postgres: 3) { _ in
            """
            CREATE TABLE job_keys (
                job         TEXT NOT NULL,
                key_id      TEXT NOT NULL,
                fingerprint TEXT NOT NULL,
                recorded_at TEXT NOT NULL,
                PRIMARY KEY (job, key_id)
            );
            """
        },
        // PostgreSQL 4: least-privilege group roles, their grants, and the checks the server enforces whatever a
        // login sends (`PostgresRoles`). SQLite has one writer and no roles.
        Step(sqlite: nil, postgres: 4) { _ in PostgresRoles.migration },
        // PostgreSQL 5: claims, commits, leases, the key journal, counters and the job record through functions that
        // check the caller's station names and role; no direct writes to what they guard (docs/stations.md).
        Step(sqlite: nil, postgres: 5) { _ in PostgresStationFunctions.migration },
        Step(sqlite: nil, postgres: 5) { _ in PostgresCounterFunctions.migration },
        Step(sqlite: nil, postgres: 5) { _ in PostgresAggregateFunctions.migration },
        // SQLite 10, PostgreSQL 6: the outbox of tag events (docs/events.md), written in the transaction of each
        // outcome; `id` is a time-ordered random UUID (unique across stations and restored copies, appended at the
        // index's right edge), `sequence` the store's order. The job's public field names (a JSON array) go into
        // each event's payload. The partial index holds the unpublished events only: the backlog, and what a
        // publisher sends next.
        Step(sqlite: 10, postgres: 6) { d in
            """
            ALTER TABLE jobs ADD COLUMN public_fields TEXT;
            CREATE TABLE outbox (
                sequence     \(d.rowID),
                id           TEXT NOT NULL UNIQUE,
                job          TEXT,
                row          INTEGER,
                station      TEXT,
                outcome      TEXT NOT NULL,
                payload      TEXT NOT NULL,
                created_at   TEXT NOT NULL,\(d.outboxTransaction)
                published_at TEXT
            );
            CREATE INDEX outbox_unpublished ON outbox(sequence) WHERE published_at IS NULL;
            """
        },
        // PostgreSQL 6, the server's part: who reads the outbox and writes to it (`PostgresOutbox`).
        Step(sqlite: nil, postgres: 6) { _ in PostgresOutbox.migration },
        // PostgreSQL 6: the station functions write their outcomes' events in the same call
        // (`PostgresOutboxFunctions`).
        Step(sqlite: nil, postgres: 6) { _ in PostgresOutboxFunctions.migration },
        // PostgreSQL 6: the publisher's group, which reads the outbox and marks events published only through
        // `provision_mark_published` (`PostgresPublisher`).
        Step(sqlite: nil, postgres: 6) { _ in PostgresPublisher.migration },
        // PostgreSQL 6: a lease taken over after it ran out writes a `leaseLost` event in the takeover's call; an
        // ended lease is marked so that taking it is no loss (`PostgresLeaseEvents`).
        Step(sqlite: nil, postgres: 6) { _ in PostgresLeaseEvents.migration },
        // PostgreSQL 7: a station marks its own events published (`run --publish`) through the same function
        // (`PostgresPublisher.stationMarking`).
        Step(sqlite: nil, postgres: 7) { _ in PostgresPublisher.stationMarking },
    ]
}
