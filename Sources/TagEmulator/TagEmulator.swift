/// The `TagEmulator` module (filled in by its issue).
public enum TagEmulatorModule {}
