import Crypto
import NDEF
import Testing

/// AN10922 diversification with its published vector and the short-input pitfall (`docs/reference/type4.md` §4.2).
@Suite struct KeyDiversificationTests {
    static let master = AES128Tests.hex("00112233445566778899AABBCCDDEEFF")

    @Test func theAN10922VectorWithUIDAIDAndSystemIdentifier() throws {
        let input = AES128Tests.hex("04782E21801D80 3042F5 4E585020416275")
        #expect(try AES128.cmacSubkey2(key: Self.master) == AES128Tests.hex("F793EEB928278083BFDC8A5A7E0E0D25"))
        #expect(
            try KeyDiversification.an10922(masterKey: Self.master, input: input)
                == AES128Tests.hex("A8DD63A3B89D54B37CA802473FDA9175"))
        // 18 bytes of D: the same as a plain CMAC of 01 ‖ M.
        #expect(
            try AES128.cmac(key: Self.master, [0x01] + input) == AES128Tests.hex("A8DD63A3B89D54B37CA802473FDA9175"))
    }

    @Test func aUIDAloneIsPaddedTo32BytesNotCMACedPlainly() throws {
        let uid = AES128Tests.hex("04782E21801D80")
        #expect(
            try KeyDiversification.an10922(masterKey: Self.master, input: uid)
                == AES128Tests.hex("4FD3364753B8142980E8203C75AD83BE"))
        #expect(try AES128.cmac(key: Self.master, [0x01] + uid) == AES128Tests.hex("B3179E2D918AC5190815983B054B63AD"))
    }

    @Test func inputsOutsideOneTo31BytesAreRefused() {
        #expect(throws: AES128Error.blockLength(0)) {
            try KeyDiversification.an10922(masterKey: Self.master, input: [])
        }
        #expect(throws: AES128Error.blockLength(32)) {
            try KeyDiversification.an10922(masterKey: Self.master, input: [UInt8](repeating: 1, count: 32))
        }
    }

    @Test func a31ByteInputIsThePlainCMACOf32Bytes() throws {
        let input = [UInt8](repeating: 0x5A, count: 31)
        #expect(
            try KeyDiversification.an10922(masterKey: Self.master, input: input)
                == (try AES128.cmac(key: Self.master, [0x01] + input)))
    }
}
