import Crypto
import NFCTags
import TagEmulator
import Testing

/// TotFailCtr per key (`docs/reference/type4.md` §2.4): up one per failed authentication, down ten per success, the key
/// blocked at the limit until ChangeKey, kept in NVM.
@Suite struct Type4EmulatorFailureCounterTests {
    static let wrongKey = [UInt8](repeating: 0x5A, count: 16)
    static let zeroKey = [UInt8](repeating: 0, count: 16)

    @Test func failuresCountUpSuccessesCountDownAndTheImageKeepsThem() throws {
        let tag = try activeNTAG424()
        for _ in 0..<12 {
            #expect(throws: NTAG424Error.self) {
                try hostNTAG424(tag).authenticateEV2First(keyNumber: 2, key: Self.wrongKey)
            }
        }
        #expect(try tag.key(2).failures == 12 && tag.key(0).failures == 0)
        let reloaded = try Type4Emulator(image: tag.image, chip: .ntag424, uid: type4UID)
        #expect(try reloaded.key(2).failures == 12, "TotFailCtr is non-volatile")
        try hostNTAG424(tag).authenticateEV2First(keyNumber: 2, key: Self.zeroKey)
        #expect(try tag.key(2).failures == 2)
        try hostNTAG424(tag).authenticateEV2First(keyNumber: 2, key: Self.zeroKey)
        #expect(try tag.key(2).failures == 0, "never below zero")
    }

    @Test func aKeyAtTheLimitRefusesEvenItsRightValueUntilChangeKey() throws {
        let tag = try activeNTAG424()
        // Drive it to the limit through the command face, the way a guessing host would.
        for _ in 0..<Int(Type4Key.failureLimit) {
            _ = try? hostNTAG424(tag).authenticateEV2First(keyNumber: 3, key: Self.wrongKey)
        }
        #expect(try tag.key(3).isBlocked)
        #expect(throws: NTAG424Error.self) {
            try hostNTAG424(tag).authenticateEV2First(keyNumber: 3, key: Self.zeroKey)
        }
        let host = try hostNTAG424(tag)
        try host.authenticateEV2First(keyNumber: 0, key: Self.zeroKey)
        try host.changeKey(3, to: Self.wrongKey, from: Self.zeroKey, version: 1)
        #expect(try tag.key(3).failures == 0, "ChangeKey resets the key's counter")
        try hostNTAG424(tag).authenticateEV2First(keyNumber: 3, key: Self.wrongKey)
    }
}
