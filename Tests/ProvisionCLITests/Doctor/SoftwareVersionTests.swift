import Testing

@testable import ProvisionCLI

/// Version numbers as libnfc, dpkg-query and `pcscd --version` print them.
@Suite struct SoftwareVersionTests {
    @Test(arguments: [
        ("1.8.0", [1, 8, 0]),
        ("1.9.9-2", [1, 9, 9]),
        ("2:1.8.0-2+b1", [1, 8, 0]),
        ("pcsc-lite version 1.9.9.\nCopyright (C) 1999-2002", [1, 9, 9]),
        ("libnfc-1.8.0-rc1", [1, 8, 0]),
        ("  1.10 ", [1, 10]),
        ("7", [7]),
    ])
    func parsesTheFirstDottedNumber(text: String, components: [Int]) {
        #expect(SoftwareVersion(parsing: text)?.components == components)
    }

    @Test(arguments: ["", "version unknown", "abc:def", "-"])
    func textWithoutDigitsIsNoVersion(text: String) {
        #expect(SoftwareVersion(parsing: text) == nil)
    }

    @Test func comparesPartByPartWithMissingPartsAsZero() {
        #expect(SoftwareVersion([1, 7, 1]) < SoftwareVersion([1, 8, 0]))
        #expect(SoftwareVersion([1, 10]) > SoftwareVersion([1, 9, 9]))
        #expect(SoftwareVersion([1, 9]) == SoftwareVersion([1, 9, 0]))
        #expect(!(SoftwareVersion([1, 9]) < SoftwareVersion([1, 9, 0])))
        #expect(Set([SoftwareVersion([1, 9]), SoftwareVersion([1, 9, 0])]).count == 1)
        #expect(SoftwareVersion([1, 9, 9]).description == "1.9.9")
    }
}
