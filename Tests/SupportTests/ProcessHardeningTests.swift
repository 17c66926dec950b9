import Support
import Testing

/// Hardens this test process (harmless: it only loses core files) and reads the result back through the kernel.
@Test func disablingCoreDumpsLeavesTheProcessUndumpableWithACoreLimitOfZero() {
    #expect(ProcessHardening.disableCoreDumps() == [])
    #expect(ProcessHardening.coreDumpsDisabled)
    #expect(ProcessHardening.disableCoreDumps() == [], "a second call returns the first outcome")
}
