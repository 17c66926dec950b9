/// PostgreSQL 6, the publisher's part of the outbox (docs/events.md, docs/stations.md "Roles"): the group role
/// `provision_publisher`, which reads the outbox (and the jobs' names) and marks events published only through
/// `provision_mark_published`, so a publisher's login can neither write an event nor change what one says.
enum PostgresPublisher {
    /// The step's SQL (after `PostgresOutbox.migration`).
    ///
    /// `provision_mark_published` is `SECURITY DEFINER` with its `search_path` pinned and no `EXECUTE` for `PUBLIC`;
    /// it sets `published_at` only where it is `NULL` (the first time stays) and returns how many events it marked.
    /// The owner calls it too (`PostgresLedger.markPublished`), so one statement serves both.
    static let migration =
        markFunction(replacing: false) + """
            DO $$
            DECLARE
                publisher text := provision_role('publisher');
            BEGIN
                IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = publisher) THEN
                    IF NOT (SELECT rolcreaterole OR rolsuper FROM pg_roles WHERE rolname = current_user) THEN
                        RAISE EXCEPTION 'role % lacks CREATEROLE, which creating the group role % needs: ALTER ROLE % '
                            'CREATEROLE, or have a superuser run provision ledger migrate', current_user, publisher,
                            current_user USING ERRCODE = '42501';
                    END IF;
                    BEGIN
                        EXECUTE format('CREATE ROLE %I NOLOGIN', publisher);
                    EXCEPTION WHEN duplicate_object OR unique_violation THEN
                        NULL;  -- the migration of another ledger on this server made it meanwhile
                    END;
                END IF;
                IF pg_has_role(current_user, (SELECT datdba FROM pg_database WHERE datname = current_database()),
                               'USAGE') THEN
                    EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), publisher);
                END IF;
                IF pg_has_role(current_user, (SELECT nspowner FROM pg_namespace WHERE nspname = current_schema()),
                               'USAGE') THEN
                    EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', current_schema(), publisher);
                END IF;
                EXECUTE format('ALTER FUNCTION provision_mark_published(text[], text) SET search_path = %I, pg_temp',
                               current_schema());
                EXECUTE format($sql$
                    REVOKE ALL ON FUNCTION provision_mark_published(text[], text) FROM PUBLIC;
                    GRANT EXECUTE ON FUNCTION provision_mark_published(text[], text) TO %1$I;
                    REVOKE ALL ON ledger_schema, ledger_settings, station_logins, jobs, records, attempts, events,
                        seen_counters, key_changes, sun_counters, job_keys, stations, tags, job_progress, outbox
                        FROM %1$I;
                    GRANT SELECT ON ledger_schema, ledger_settings TO %1$I;
                    GRANT SELECT (name) ON jobs TO %1$I;
                    GRANT SELECT ON outbox TO %1$I;
                    CREATE POLICY provision_publisher_read ON outbox FOR SELECT TO %1$I USING (true);
                $sql$, publisher);
            END $$;
            """

    /// PostgreSQL 7: a station marks its own events published (`run --publish`), so `provision_mark_published`
    /// also admits station logins, for events of the stations their login may act as and events no station wrote
    /// (a supervisor's `released` and `reissued`); any other id refuses the whole call (SQLSTATE 42501).
    ///
    /// `CREATE OR REPLACE` resets the function's settings, so its `search_path` is pinned again.
    static let stationMarking =
        markFunction(replacing: true) + """
            DO $$
            BEGIN
                EXECUTE format('ALTER FUNCTION provision_mark_published(text[], text) SET search_path = %I, pg_temp',
                               current_schema());
                EXECUTE format('GRANT EXECUTE ON FUNCTION provision_mark_published(text[], text) TO %I',
                               provision_role('station'));
            END $$;
            """

    /// `provision_mark_published` as schema 6 made it (the owner and publishers), or as schema 7 replaces it (station
    /// logins too, for the events of their own stations and those no station wrote).
    private static func markFunction(replacing: Bool) -> String {
        let caller =
            replacing
            ? """
                    IF NOT provision_login_is('station') THEN
                        PERFORM provision_refuse('marking events published', 'publisher');
                    END IF;
                    IF EXISTS (SELECT 1 FROM outbox o WHERE o.id = ANY (p_ids) AND o.station IS NOT NULL
                               AND NOT EXISTS (SELECT 1 FROM station_logins s
                                               WHERE s.login = session_user AND s.station = o.station)) THEN
                        RAISE EXCEPTION 'login % may mark only the events of its own stations published', session_user
                            USING ERRCODE = '42501';
                    END IF;
            """
            : """
                    PERFORM provision_refuse('marking events published', 'publisher');
            """
        return """
            \(replacing ? "CREATE OR REPLACE" : "CREATE") FUNCTION provision_mark_published(p_ids text[], p_at text) \
            RETURNS integer
                LANGUAGE plpgsql SECURITY DEFINER AS $$
            DECLARE
                marked integer;
            BEGIN
                IF NOT (provision_login_is('owner') OR provision_login_is('publisher')) THEN
            \(caller)
                END IF;
                UPDATE outbox SET published_at = coalesce(p_at, provision_now())
                    WHERE id = ANY (p_ids) AND published_at IS NULL;
                GET DIAGNOSTICS marked = ROW_COUNT;
                RETURN marked;
            END $$;

            """
    }
}
