/// PostgreSQL 5, third part: the aggregates a login reads without the rights to their tables (issue 43: "stations
/// and the verifier read aggregates through functions"). `provision_line_figures` answers `serve`'s line metrics
/// (each reader's attempts and done tags, the first-pass yield) for a verifier, which may not read `attempts`.
///
/// The function is `SECURITY DEFINER` (it reads as the ledger's owner) with its `search_path` pinned to the
/// ledger's schema; `EXECUTE` is revoked from `PUBLIC` and granted to the three groups (the supervisor could read the
/// tables itself, but `serve` calls the function whatever its login). It returns counts only, never a row of
/// `attempts`. Its body is `Ledger.lineFiguresSQL`, the statement a SQLite ledger runs for the same figures. The
/// stations' progress line reads `records` (`counts`), which the station group may still read.
enum PostgresAggregateFunctions {
    /// The function's signature, for grants and tests.
    static let lineFigures = "provision_line_figures(text, text)"

    /// The step's SQL (part of version 5, after `PostgresCounterFunctions.migration`).
    static let migration = """
        CREATE FUNCTION provision_line_figures(text, text)
            RETURNS TABLE (reader text, attempts bigint, done bigint, first_at text, last_at text, recent_done bigint)
            LANGUAGE sql STABLE SECURITY DEFINER AS $$
        \(Ledger.lineFiguresSQL.replacing("?", with: "$"))
        $$;
        DO $$
        BEGIN
            EXECUTE format('ALTER FUNCTION \(lineFigures) SET search_path = %I, pg_temp', current_schema());
            REVOKE ALL ON FUNCTION \(lineFigures) FROM PUBLIC;
            EXECUTE format('GRANT EXECUTE ON FUNCTION \(lineFigures) TO %I, %I, %I', provision_role('station'),
                           provision_role('verifier'), provision_role('supervisor'));
        END $$;
        """
}
