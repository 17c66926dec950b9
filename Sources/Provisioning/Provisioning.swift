/// The `Provisioning` module (filled in by its issue).
public enum ProvisioningModule {}
