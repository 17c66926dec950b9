import NFCTags
import Testing

/// Which commands the line holds until the claim is durable (`docs/reference/type2.md` §3.1).
@Suite struct Type2CommandEffectTests {
    @Test func readsAndAuthenticationChangeNoPage() {
        for command: [UInt8] in [
            [0x30, 0x04], [0x3A, 0x00, 0x04], [0x60], [0x3C, 0x00], [0x39, 0x02], [0x50, 0x00],
            [0x1B, 0xFF, 0xFF, 0xFF, 0xFF],
        ] {
            #expect(!Type2CommandEffect.mayWrite(command), "\(command)")
        }
    }

    @Test func writesAndUnknownOpcodesCountAsWrites() {
        for command: [UInt8] in [
            [0xA2, 0x04, 0x03, 0x3C, 0xD1, 0x01], [0xA0, 0x04], [0xC2, 0xFF], [0xA6, 0x04, 0x05], [0x00],
        ] {
            #expect(Type2CommandEffect.mayWrite(command), "\(command)")
        }
        #expect(!Type2CommandEffect.mayWrite([]), "no command, nothing sent")
    }
}
