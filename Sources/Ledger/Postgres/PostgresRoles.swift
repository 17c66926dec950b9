/// The least-privilege group roles of a PostgreSQL ledger (docs/stations.md, "Roles"), made by its schema version 4:
/// the roles, their grants, and the checks the server enforces whatever a login sends.
///
/// Roles are server-wide, so their names carry a prefix (`provision` unless `ledger migrate --role-prefix` names
/// another) that `ledger_settings` records for later commands. The step's text is the same for every prefix: the
/// migration passes the prefix in the transaction's `provision.role_prefix` setting, and the step reads it back.
public enum PostgresRoles {
    /// The groups, by the suffix of their names (`provision_station`).
    public enum Group: String, Sendable, CaseIterable, Codable {
        /// What `provision run` needs.
        case station
        /// What `provision verify-url` needs.
        case verifier
        /// What `release`, `reissue`, `report`, `status` and `audit` need.
        case supervisor
        /// What a publisher of the outbox needs: read events, mark them published (`PostgresPublisher`, schema 6).
        case publisher
    }

    /// The prefix when none is given.
    public static let defaultPrefix = "provision"

    /// Whether `prefix` may prefix role names: lower-case letters, digits and `_`, a letter or `_` first, at most 40.
    public static func isValidPrefix(_ prefix: String) -> Bool {
        prefix.wholeMatch(of: #/[a-z_][a-z0-9_]{0,39}/#) != nil
    }

    /// The PostgreSQL schema version that made the roles.
    static let version = 4

    /// The transaction setting that carries `--role-prefix` into the migration.
    static let prefixSetting = "provision.role_prefix"

    /// The event kinds a station records (`run`); the supervisor records `release` and `reissue`.
    static let stationEventKinds = [
        "failed", "burned", "returnToPending", "manifestAccepted", "recordsAccepted", "rowsAppended",
        "insecure-connection",
    ]

    /// PostgreSQL 4: the settings row, the station bindings, the group roles and their grants (what the roles
    /// script of earlier releases granted), a done row that only the owner may change, a key journal that only moves
    /// forward, leases and events under the login's own station names only.
    static let migration = """
        CREATE TABLE ledger_settings (
            only_row    boolean PRIMARY KEY DEFAULT true CHECK (only_row),
            role_prefix text NOT NULL CHECK (role_prefix ~ '^[a-z_][a-z0-9_]{0,39}$')
        );
        INSERT INTO ledger_settings (role_prefix)
            VALUES (coalesce(nullif(current_setting('\(prefixSetting)', true), ''), '\(defaultPrefix)'));
        CREATE TABLE station_logins (
            login   text NOT NULL,
            station text NOT NULL CHECK (station ~ '^[A-Za-z0-9._-]{1,64}$'),
            PRIMARY KEY (login, station)
        );
        CREATE FUNCTION provision_role(kind text) RETURNS text LANGUAGE sql STABLE AS $$
            SELECT role_prefix || '_' || kind FROM ledger_settings
        $$;
        CREATE FUNCTION provision_own_station(name text) RETURNS boolean LANGUAGE sql STABLE AS $$
            SELECT EXISTS (SELECT 1 FROM station_logins WHERE login = current_user AND station = name)
        $$;
        CREATE FUNCTION provision_is_owner(relation oid) RETURNS boolean LANGUAGE sql STABLE AS $$
            SELECT pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = relation), 'USAGE')
        $$;
        CREATE FUNCTION records_done_guard() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF to_jsonb(NEW) - 'attempts' IS DISTINCT FROM to_jsonb(OLD) - 'attempts'
                AND NOT provision_is_owner(TG_RELID) THEN
                RAISE EXCEPTION 'row % of job % is done: only the ledger''s owner may change it', OLD.row, OLD.job
                    USING ERRCODE = '42501';
            END IF;
            RETURN NEW;
        END $$;
        CREATE TRIGGER records_done_guard BEFORE UPDATE ON records FOR EACH ROW WHEN (OLD.state = 'done')
            EXECUTE FUNCTION records_done_guard();
        CREATE FUNCTION events_station_actor() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF NEW.actor IS NULL AND NOT provision_is_owner(TG_RELID)
                AND pg_has_role(current_user, provision_role('station'), 'MEMBER') THEN
                NEW.actor := current_setting('application_name');
            END IF;
            RETURN NEW;
        END $$;
        CREATE TRIGGER events_station_actor BEFORE INSERT ON events FOR EACH ROW
            EXECUTE FUNCTION events_station_actor();
        CREATE FUNCTION key_changes_forward_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF provision_is_owner(TG_RELID) THEN
                RETURN NEW;
            END IF;
            IF TG_OP = 'INSERT' AND (NEW.state <> 'intended' OR NEW.resolved_at IS NOT NULL) THEN
                RAISE EXCEPTION 'a key change of tag % is journalled as intended, not %', NEW.uid, NEW.state
                    USING ERRCODE = '42501';
            END IF;
            IF TG_OP = 'UPDATE' AND (OLD.state <> 'intended' OR NEW.state NOT IN ('done', 'abandoned')
                OR to_jsonb(NEW) - 'state' - 'resolved_at'
                    IS DISTINCT FROM to_jsonb(OLD) - 'state' - 'resolved_at') THEN
                RAISE EXCEPTION 'key change % of tag % is %: only an intended change moves on, once, to done or '
                    'abandoned', OLD.id, OLD.uid, OLD.state USING ERRCODE = '42501';
            END IF;
            RETURN NEW;
        END $$;
        CREATE TRIGGER key_changes_forward_only BEFORE INSERT OR UPDATE ON key_changes FOR EACH ROW
            EXECUTE FUNCTION key_changes_forward_only();
        \(groupsAndGrants)
        ALTER TABLE stations ENABLE ROW LEVEL SECURITY;
        CREATE POLICY provision_read ON stations FOR SELECT USING (true);
        CREATE POLICY provision_own_insert ON stations FOR INSERT WITH CHECK (provision_own_station(name));
        CREATE POLICY provision_own_update ON stations FOR UPDATE USING (provision_own_station(name))
            WITH CHECK (provision_own_station(name));
        """

    /// The groups (created when missing, which needs CREATEROLE), the database's and the tables' grants, and the
    /// events' policies, which name the groups.
    private static let groupsAndGrants = """
        DO $$
        DECLARE
            station    text := provision_role('station');
            verifier   text := provision_role('verifier');
            supervisor text := provision_role('supervisor');
            missing    text[];
            name       text;
        BEGIN
            SELECT array_agg(r ORDER BY r) INTO missing FROM unnest(ARRAY[station, verifier, supervisor]) AS r
                WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r);
            IF missing IS NOT NULL
                AND NOT (SELECT rolcreaterole OR rolsuper FROM pg_roles WHERE rolname = current_user) THEN
                RAISE EXCEPTION 'role % lacks CREATEROLE, which creating the group roles % needs: ALTER ROLE % '
                    'CREATEROLE, or have a superuser run provision ledger migrate', current_user,
                    array_to_string(missing, ', '), current_user USING ERRCODE = '42501';
            END IF;
            FOREACH name IN ARRAY coalesce(missing, '{}') LOOP
                BEGIN
                    EXECUTE format('CREATE ROLE %I NOLOGIN', name);
                EXCEPTION WHEN duplicate_object OR unique_violation THEN
                    NULL;  -- the migration of another ledger on this server made it meanwhile
                END;
            END LOOP;
            IF pg_has_role(current_user, (SELECT datdba FROM pg_database WHERE datname = current_database()),
                           'USAGE') THEN
                EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database());
                EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I, %I, %I', current_database(), station, verifier,
                               supervisor);
            END IF;
            IF pg_has_role(current_user, (SELECT nspowner FROM pg_namespace WHERE nspname = current_schema()),
                           'USAGE') THEN
                EXECUTE format('REVOKE CREATE ON SCHEMA %I FROM PUBLIC', current_schema());
                EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I, %I, %I', current_schema(), station, verifier,
                               supervisor);
            END IF;
            EXECUTE format($sql$
                REVOKE ALL ON ledger_schema, ledger_settings, station_logins, jobs, records, attempts, events,
                    seen_counters, key_changes, sun_counters, job_keys, stations, tags, job_progress
                    FROM %1$I, %2$I, %3$I;
                GRANT SELECT ON ledger_schema, ledger_settings, station_logins TO %1$I, %2$I, %3$I;

                GRANT SELECT, INSERT (name, manifest_sha256, template_sha256, created_at) ON jobs TO %1$I;
                GRANT UPDATE (total_rows, started_at, finished_at, records_sha256, manifest_sha256, template_sha256)
                    ON jobs TO %1$I;
                GRANT SELECT, INSERT (job, row, fields_json, message_sha256, message_length, state, created_at)
                    ON records TO %1$I;
                GRANT UPDATE (state, uid, claimed_by, claimed_at, finished_at, attempts, chip, bytes_sha256,
                    byte_count, locked, signature_status, written_at, recorded_at, key_id, key_fingerprint, family,
                    original_message) ON records TO %1$I;
                GRANT SELECT ON tags TO %1$I;
                GRANT SELECT, INSERT ON attempts TO %1$I;
                GRANT UPDATE (ledger_us, removal_us) ON attempts TO %1$I;
                GRANT SELECT, INSERT ON events TO %1$I;
                GRANT SELECT, INSERT ON key_changes TO %1$I;
                GRANT UPDATE (state, resolved_at) ON key_changes TO %1$I;
                GRANT INSERT ON sun_counters TO %1$I;
                GRANT SELECT, INSERT ON job_keys TO %1$I;
                GRANT SELECT, INSERT (name, instance, lease_expires) ON stations TO %1$I;
                GRANT UPDATE (instance, started_at, heartbeat_at, lease_expires) ON stations TO %1$I;

                GRANT SELECT ON jobs, records, tags, key_changes, job_keys TO %2$I;
                GRANT SELECT, INSERT ON sun_counters TO %2$I;
                GRANT SELECT, INSERT ON seen_counters TO %2$I;
                GRANT UPDATE (counter, seen_at) ON seen_counters TO %2$I;

                GRANT SELECT ON jobs, records, attempts, events, seen_counters, key_changes, sun_counters, job_keys,
                    stations, tags, job_progress TO %3$I;
                GRANT INSERT (job, row, fields_json, message_sha256, message_length, state, created_at, reissue_of)
                    ON records TO %3$I;
                GRANT UPDATE (state, uid, claimed_by, claimed_at, finished_at) ON records TO %3$I;
                GRANT UPDATE (total_rows) ON jobs TO %3$I;
                GRANT INSERT ON events TO %3$I;

                ALTER TABLE events ENABLE ROW LEVEL SECURITY;
                DROP POLICY IF EXISTS provision_read ON events;
                DROP POLICY IF EXISTS provision_station_kinds ON events;
                DROP POLICY IF EXISTS provision_supervisor_kinds ON events;
                CREATE POLICY provision_read ON events FOR SELECT TO %1$I, %3$I USING (true);
                CREATE POLICY provision_station_kinds ON events FOR INSERT TO %1$I
                    WITH CHECK (kind IN (\(stationEventKinds.map { "'\($0)'" }.joined(separator: ", ")))
                                AND provision_own_station(actor));
                CREATE POLICY provision_supervisor_kinds ON events FOR INSERT TO %3$I
                    WITH CHECK (kind IN ('release', 'reissue'));
            $sql$, station, verifier, supervisor);
        END $$;
        """
}
