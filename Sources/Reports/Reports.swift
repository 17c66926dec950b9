/// The `Reports` module (filled in by its issue).
public enum ReportsModule {}
