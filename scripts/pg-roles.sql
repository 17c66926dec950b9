-- Least-privilege roles for a PostgreSQL ledger (docs/stations.md, "Roles").
--
-- Run with psql as a superuser (or as the ledger's owner if it also has CREATEROLE), on the ledger's
-- database, after `provision ledger migrate`, and again after every migrate (it is idempotent):
--
--   psql -X -v ON_ERROR_STOP=1 -d provision -f scripts/pg-roles.sql
--   psql -X -v ON_ERROR_STOP=1 -v station=line_station -v supervisor=line_lead -d provision -f scripts/pg-roles.sql
--
-- Variables (optional) name the three group roles, created NOLOGIN when missing:
--   station     what `provision run` needs: register the job, claim rows, record tags and attempts, lease
--   verifier    what `provision verify-url` needs: read rows and tags, record seen and verified SUN counters
--   supervisor  what `release`, `reissue`, `report`, `status` and `audit` need
-- Login roles are made members of one group each (GRANT provision_station TO bench_1).
--
-- The grants are written for ledger schema version 3; on another version the script stops before it grants
-- anything (a newer schema may have tables these grants do not cover). Nobody but the owner gets DELETE,
-- TRUNCATE or DDL: no command needs them at run time.

SET client_min_messages = warning;

\if :{?station}
\else
    \set station provision_station
\endif
\if :{?verifier}
\else
    \set verifier provision_verifier
\endif
\if :{?supervisor}
\else
    \set supervisor provision_supervisor
\endif

BEGIN;

-- The schema these grants were written for.
DO $$
BEGIN
    IF to_regclass('ledger_schema') IS NULL THEN
        RAISE EXCEPTION 'no ledger schema in database %: run provision ledger migrate first', current_database();
    END IF;
    IF (SELECT version FROM ledger_schema) <> 3 THEN
        RAISE EXCEPTION 'ledger schema version % in database %, but scripts/pg-roles.sql grants for version 3: '
            'use the pg-roles.sql of the provision that migrated it', (SELECT version FROM ledger_schema),
            current_database();
    END IF;
END $$;

-- The group roles (NOLOGIN), created once.
SELECT format('CREATE ROLE %I NOLOGIN', name)
FROM unnest(ARRAY[:'station', :'verifier', :'supervisor']) AS name
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = name)
\gexec

-- Only the groups (and the owner) connect; nobody creates objects in the ledger's schema.
SELECT format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database())
\gexec
SELECT format('GRANT CONNECT ON DATABASE %I TO %I, %I, %I', current_database(), :'station', :'verifier',
              :'supervisor')
\gexec
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO :"station", :"verifier", :"supervisor";

-- Start from nothing, so a re-run after a narrower edit of this file takes grants away too.
REVOKE ALL ON ledger_schema, jobs, records, attempts, events, seen_counters, key_changes, sun_counters, job_keys,
    stations, tags, job_progress FROM :"station", :"verifier", :"supervisor";

-- Everyone checks the schema version when it connects.
GRANT SELECT ON ledger_schema TO :"station", :"verifier", :"supervisor";

-- station: `provision run`. It registers the job and adds its rows on first start (stations starting together
-- take turns on an advisory lock), claims (SELECT … FOR UPDATE SKIP LOCKED, then UPDATE), records done tags and
-- attempts, gives a claimed row back under onFailure reuse, journals NTAG 424 key changes, keeps its lease, and
-- records the job's key bindings (the fingerprint of each key id, at the job's start).
GRANT SELECT, INSERT (name, manifest_sha256, template_sha256, created_at) ON jobs TO :"station";
GRANT UPDATE (total_rows, started_at, finished_at, records_sha256, manifest_sha256, template_sha256)
    ON jobs TO :"station";
GRANT SELECT, INSERT (job, row, fields_json, message_sha256, message_length, state, created_at) ON records
    TO :"station";
GRANT UPDATE (state, uid, claimed_by, claimed_at, finished_at, attempts, chip, bytes_sha256, byte_count, locked,
    signature_status, written_at, recorded_at, key_id, key_fingerprint, family, original_message)
    ON records TO :"station";
GRANT SELECT ON tags TO :"station";
GRANT SELECT, INSERT ON attempts TO :"station";
GRANT UPDATE (ledger_us, removal_us) ON attempts TO :"station";
GRANT SELECT, INSERT ON events TO :"station";
GRANT SELECT, INSERT ON key_changes TO :"station";
GRANT UPDATE (state, resolved_at) ON key_changes TO :"station";
GRANT INSERT ON sun_counters TO :"station";
GRANT SELECT, INSERT ON job_keys TO :"station";
GRANT SELECT, INSERT (name, instance, lease_expires) ON stations TO :"station";
GRANT UPDATE (instance, started_at, heartbeat_at, lease_expires) ON stations TO :"station";

-- verifier: `provision verify-url`. Reads the tag and its row, the key journal and the job's key bindings, and
-- records counters.
GRANT SELECT ON jobs, records, tags, key_changes, job_keys TO :"verifier";
GRANT SELECT, INSERT ON sun_counters TO :"verifier";
GRANT SELECT, INSERT ON seen_counters TO :"verifier";
GRANT UPDATE (counter, seen_at) ON seen_counters TO :"verifier";

-- supervisor: `status`, `report`, `audit` read everything; `release` gives a claimed, failed or burned row back
-- (SELECT … FOR UPDATE, then UPDATE); `reissue` appends a new row linked to a done one. Both record an event.
GRANT SELECT ON jobs, records, attempts, events, seen_counters, key_changes, sun_counters, job_keys, stations,
    tags, job_progress TO :"supervisor";
GRANT INSERT (job, row, fields_json, message_sha256, message_length, state, created_at, reissue_of)
    ON records TO :"supervisor";
GRANT UPDATE (state, uid, claimed_by, claimed_at, finished_at) ON records TO :"supervisor";
GRANT UPDATE (total_rows) ON jobs TO :"supervisor";
GRANT INSERT ON events TO :"supervisor";

-- A station's UPDATE of a claimed row back to pending is the same statement whether `run` returns the row
-- (onFailure reuse) or `release` does; what tells them apart is the event recorded in the same transaction.
-- Row-level security on `events` lets a station record only the events `run` records, so `provision release`
-- and `provision reissue` with a station's login fail and roll back (SQLSTATE 42501). The owner (ledger
-- migrate, ledger copy) and superusers bypass it.
ALTER TABLE events ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS provision_read ON events;
DROP POLICY IF EXISTS provision_station_kinds ON events;
DROP POLICY IF EXISTS provision_supervisor_kinds ON events;
CREATE POLICY provision_read ON events FOR SELECT TO :"station", :"supervisor" USING (true);
CREATE POLICY provision_station_kinds ON events FOR INSERT TO :"station"
    WITH CHECK (kind IN ('failed', 'burned', 'returnToPending', 'manifestAccepted', 'recordsAccepted',
                         'rowsAppended'));
CREATE POLICY provision_supervisor_kinds ON events FOR INSERT TO :"supervisor"
    WITH CHECK (kind IN ('release', 'reissue'));

COMMIT;
