import Crypto
import NDEF
import NFCTags
import Testing

/// Per-tag NTAG 424 DNA keys: the AN10922 inputs of docs/authentication.md, checked against the diversified
/// keys `KeyDiversification` gives for inputs built by hand.
@Suite struct NTAG424KeySetTests {
    static let masterBytes = Hex.bytes("00112233445566778899AABBCCDDEEFF") ?? []
    static let master = SecretKey(id: "brand", bytes: masterBytes)
    static let system = Array("acme-2026".utf8)

    @Test func eachKeyIsAN10922OfItsInput() throws {
        let uid = try #require(Hex.bytes("04782E21801D80"))
        let set = try NTAG424KeySet(master: Self.master, uid: uid, systemIdentifier: Self.system)
        for number in 0...4 {
            let input = (number == 1 ? [UInt8](repeating: 0, count: 7) : uid) + [UInt8(number)] + Self.system
            let expected = try KeyDiversification.an10922(masterKey: Self.masterBytes, input: input)
            #expect(set[number].hexForDisplay == Hex.compact(expected), "K\(number)")
            #expect(set[number].id == "brand.K\(number)")
        }
        #expect(Set(set.keys.map(\.fingerprint)).count == 5, "five different keys")
    }

    @Test func k1IsSharedAndTheOthersAreNot() throws {
        let a = try NTAG424KeySet(master: Self.master, uid: [4, 1, 2, 3, 4, 5, 6], systemIdentifier: Self.system)
        let b = try NTAG424KeySet(master: Self.master, uid: [4, 1, 2, 3, 4, 5, 7], systemIdentifier: Self.system)
        #expect(a[1].fingerprint == b[1].fingerprint)
        for number in [0, 2, 3, 4] { #expect(a[number].fingerprint != b[number].fingerprint, "K\(number)") }
        let other = try NTAG424KeySet(master: Self.master, uid: [4, 1, 2, 3, 4, 5, 6], systemIdentifier: [0x41])
        #expect(other[1].fingerprint != a[1].fingerprint, "the system identifier separates jobs")
    }

    @Test func schemeTagKeysDeriveEveryKeyOfTheUID() throws {
        let options = NTAG424JobOptions(master: "brand", systemIdentifier: Self.system)
        let keys = NTAG424Scheme().tagKeys(master: Self.master, options: options)
        let uid: [UInt8] = [4, 1, 2, 3, 4, 5, 6]
        let tag = try NTAG424KeySet(master: Self.master, uid: uid, systemIdentifier: Self.system)
        #expect(try keys(uid).map(\.fingerprint) == tag.keys.map(\.fingerprint))
        #expect(throws: AES128Error.blockLength(4)) { try keys([4, 1, 2, 3]) }
    }

    /// `tagKey` derives one key alone, the same as the set's; K1 (any UID) is derived once and kept.
    @Test func schemeTagKeyDerivesOneKeyAndKeepsK1() throws {
        let options = NTAG424JobOptions(master: "brand", systemIdentifier: Self.system)
        let key = NTAG424Scheme().tagKey(master: Self.master, options: options)
        let uid: [UInt8] = [4, 1, 2, 3, 4, 5, 6]
        let tag = try NTAG424KeySet(master: Self.master, uid: uid, systemIdentifier: Self.system)
        for number in 0...4 {
            #expect(try key(uid, number).fingerprint == tag[number].fingerprint, "K\(number)")
            #expect(try key(uid, number).id == "brand.K\(number)")
            let alone = try NTAG424KeySet.key(
                UInt8(number), master: Self.master, uid: uid, systemIdentifier: Self.system)
            #expect(alone.fingerprint == tag[number].fingerprint)
        }
        #expect(try key([4, 9, 9, 9, 9, 9, 9], 1).fingerprint == tag[1].fingerprint, "K1 is every tag's")
        #expect(throws: AES128Error.blockLength(4)) { try key([4, 1, 2, 3], 2) }
        #expect(throws: AES128Error.blockLength(5)) {
            try NTAG424KeySet.key(5, master: Self.master, uid: uid, systemIdentifier: Self.system)
        }
        #expect(throws: AES128Error.blockLength(-1), "no key number is taken as K0") { try key(uid, -1) }
    }

    @Test func badInputsAreRefused() {
        #expect(throws: AES128Error.blockLength(21)) {
            try NTAG424KeySet(
                master: Self.master, uid: [4, 1, 2, 3, 4, 5, 6], systemIdentifier: [UInt8](repeating: 1, count: 21))
        }
        #expect(throws: AES128Error.blockLength(4)) {
            try NTAG424KeySet(master: Self.master, uid: [4, 1, 2, 3], systemIdentifier: Self.system)
        }
    }
}
