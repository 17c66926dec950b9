import Provisioning
import Testing

@Test func provisioningModuleLinks() {
    #expect(String(describing: ProvisioningModule.self) == "ProvisioningModule")
}
