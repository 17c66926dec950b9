/// PostgreSQL 6: a station's lease taken over after it ran out writes a `leaseLost` event (docs/events.md) in the
/// takeover's own call, naming the instance that lost the lease and the one that took it.
///
/// The takeover is where a loss becomes a fact: a frozen or killed process may never call again, and a refused
/// renewal changes nothing. A lease its process ended (`provision_end_lease`, a station that stopped normally) is
/// marked `ended`, so taking it over is no loss; rows from before this version count as ended (their losses, if
/// any, predate the outbox). The same instance taking its own lease again (a retry) writes nothing either.
enum PostgresLeaseEvents {
    /// A server time in the ledger's format (ISO 8601 UTC, milliseconds).
    private static func time(_ value: String) -> String {
        "to_char(\(value) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
    }

    /// The step's SQL.
    static let migration = """
        ALTER TABLE stations ADD COLUMN ended boolean NOT NULL DEFAULT true;
        ALTER TABLE stations ALTER COLUMN ended SET DEFAULT false;
        CREATE OR REPLACE FUNCTION provision_take_lease(p_station text, p_instance text, p_seconds double precision)
            RETURNS boolean LANGUAGE plpgsql AS $$
        DECLARE
            taken integer;
            held  stations%ROWTYPE;
        BEGIN
            PERFORM provision_station_caller(p_station);
            SELECT * INTO held FROM stations s WHERE s.name = p_station FOR UPDATE;
            INSERT INTO stations AS s (name, instance, lease_expires)
                VALUES (p_station, p_instance, now() + make_interval(secs => p_seconds))
                ON CONFLICT (name) DO UPDATE SET instance = EXCLUDED.instance, started_at = now(),
                    heartbeat_at = now(), lease_expires = EXCLUDED.lease_expires, ended = false
                WHERE s.lease_expires < now() OR s.instance = EXCLUDED.instance;
            GET DIAGNOSTICS taken = ROW_COUNT;
            -- Taken from another instance whose lease ran out without being ended: that instance lost it.
            IF taken = 1 AND NOT held.ended AND held.instance <> p_instance THEN
                PERFORM provision_outbox_event(p_station, NULL, NULL, 'leaseLost', provision_now(), NULL,
                    jsonb_build_object('station', p_station, 'detail', format(
                        'instance %s lost the lease of station %s: it ran out at %s (last heartbeat %s); '
                        'instance %s took the station', held.instance, p_station, \(time("held.lease_expires")),
                        \(time("held.heartbeat_at")), p_instance)));
            END IF;
            RETURN taken = 1;
        END $$;
        CREATE OR REPLACE FUNCTION provision_end_lease(p_station text, p_instance text)
            RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM provision_station_caller(p_station);
            UPDATE stations s SET lease_expires = now(), ended = true
                WHERE s.name = p_station AND s.instance = p_instance;
        END $$;
        \(PostgresStationFunctions.securing(["provision_take_lease", "provision_end_lease"], helpers: []))
        END $$;
        """
}
