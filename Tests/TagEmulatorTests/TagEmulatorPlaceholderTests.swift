import TagEmulator
import Testing

@Test func tagEmulatorModuleLinks() {
    #expect(String(describing: TagEmulatorModule.self) == "TagEmulatorModule")
}
