import NDEF
import Synchronization
import Testing
import TokenKeys

/// What SoftHSM2 cannot produce, through a fake behind the `PKCS11Functions` seam: a token removed mid-run.
@Suite struct FakeTokenTests {
    /// A one-slot, one-key token whose operations return `failure` once `removed` is set.
    final class FakeFunctions: PKCS11Functions {
        let removed = Atomic<Bool>(false)
        let failure: PKCS11Status
        let pins = Mutex<[[UInt8]]>([])

        init(failure: PKCS11Status) { self.failure = failure }

        private func check() throws(PKCS11Status) { if removed.load(ordering: .relaxed) { throw failure } }
        func slotList() throws(PKCS11Status) -> [UInt] { [3] }
        func tokenInfo(slot: UInt) throws(PKCS11Status) -> PKCS11TokenInfo { PKCS11TokenInfo(label: "fake-line") }
        func mechanismList(slot: UInt) throws(PKCS11Status) -> [UInt] { [0x108A, 0x1081] }
        func mechanismInfo(slot: UInt, mechanism: UInt) throws(PKCS11Status) -> PKCS11MechanismInfo {
            PKCS11MechanismInfo(minKeySize: 16, maxKeySize: 32, flags: 1 << 8 | 1 << 11)  // CKF_ENCRYPT | CKF_SIGN
        }
        func openSession(slot: UInt, readWrite: Bool) throws(PKCS11Status) -> UInt { 9 }
        func closeSession(_ session: UInt) throws(PKCS11Status) {}
        func login(session: UInt, pin: [UInt8]) throws(PKCS11Status) {
            pins.withLock { $0.append(pin) }
            try check()
        }
        func findObjects(session: UInt, template: [PKCS11Attribute]) throws(PKCS11Status) -> [UInt] {
            try check()
            return [42]
        }
        func attribute(session: UInt, object: UInt, type: UInt) throws(PKCS11Status) -> [UInt8]? {
            switch type {
            case 0x03: Array("fake-master".utf8)  // CKA_LABEL
            case 0x100: PKCS11Attribute(0, ulong: 0x1F).value  // CKA_KEY_TYPE: CKK_AES
            case 0x161: PKCS11Attribute(0, ulong: 16).value  // CKA_VALUE_LEN
            case 0x104, 0x108: [1]  // CKA_ENCRYPT, CKA_SIGN
            default: nil
            }
        }
        func encrypt(session: UInt, mechanism: PKCS11Mechanism, key: UInt, data: [UInt8]) throws(PKCS11Status)
            -> [UInt8]
        {
            try check()
            return data
        }
        func decrypt(session: UInt, mechanism: PKCS11Mechanism, key: UInt, data: [UInt8]) throws(PKCS11Status)
            -> [UInt8]
        {
            try check()
            return data
        }
        func sign(session: UInt, mechanism: PKCS11Mechanism, key: UInt, data: [UInt8]) throws(PKCS11Status)
            -> [UInt8]
        {
            try check()
            return [UInt8](repeating: 0xAB, count: 16)
        }
        func createObject(session: UInt, template: [PKCS11Attribute]) throws(PKCS11Status) -> UInt {
            try check()
            return 43
        }
        func generateKey(session: UInt, mechanism: PKCS11Mechanism, template: [PKCS11Attribute]) throws(PKCS11Status)
            -> UInt
        {
            try check()
            return 44
        }
    }

    @Test(arguments: [PKCS11Status.deviceRemoved, .tokenNotPresent, .sessionHandleInvalid])
    func removalMidRunIsTokenLost69(status: PKCS11Status) async throws {
        let fake = FakeFunctions(failure: status)
        let session = try await TokenSession.open(
            functions: fake, moduleName: "fake.so", uri: try PKCS11URI("pkcs11:token=fake-line"),
            pin: Array("secret-pin-4711".utf8))
        let master = try await session.findKey(label: "fake-master")
        #expect(
            try await session.an10922(key: master, input: hexBytes("04782E21801D803042F54E585020416275")).count == 16)
        fake.removed.store(true, ordering: .relaxed)
        await #expect {
            try await session.an10922(key: master, input: hexBytes("04782E21801D80"))
        } throws: { error in
            guard let error = error as? TokenError else { return false }
            return error.isTokenLost && error.exitStatus == 69 && error.status == status
                && error.message.contains(status.description) && error.message.contains("key fake-master")
        }
        #expect(fake.pins.withLock { $0 } == [Array("secret-pin-4711".utf8)])
    }

    /// No error text of the layer holds the PIN or key bytes given to it, in hex or as text.
    @Test func errorsNeverHoldThePINOrKeyBytes() async throws {
        let pin = "secret-pin-4711"
        let keyBytes = hexBytes("00112233445566778899AABBCCDDEEFF")
        let fake = FakeFunctions(failure: .pinIncorrect)
        fake.removed.store(true, ordering: .relaxed)
        var messages: [String] = []
        do {
            _ = try await TokenSession.open(
                functions: fake, moduleName: "fake.so", uri: try PKCS11URI("pkcs11:token=fake-line"),
                pin: Array(pin.utf8))
        } catch { messages.append(String(describing: error)) }
        fake.removed.store(false, ordering: .relaxed)
        let session = try await TokenSession.open(
            functions: fake, moduleName: "fake.so", uri: try PKCS11URI("pkcs11:token=fake-line"), pin: Array(pin.utf8))
        let fakeDown = FakeFunctions(failure: .deviceRemoved)
        fakeDown.removed.store(true, ordering: .relaxed)
        let downSession = try await TokenSession.open(
            functions: fakeDown, moduleName: "fake.so", uri: try PKCS11URI("pkcs11:token=fake-line"), pin: nil)
        for attempt in [
            { () async throws -> Void in _ = try await session.importAES(label: "fake-master", bytes: keyBytes) },
            { () async throws -> Void in
                _ = try await session.importAES(label: "odd", bytes: Array(keyBytes.prefix(15)))
            },
            { () async throws -> Void in _ = try await downSession.importAES(label: "new", bytes: keyBytes) },
            { () async throws -> Void in _ = try await downSession.importHMAC(label: "new", bytes: keyBytes) },
        ] {
            do { try await attempt() } catch { messages.append(String(describing: error)) }
        }
        #expect(messages.count == 5)
        let hex = Hex.compact(keyBytes)
        for message in messages {
            #expect(!message.contains(pin) && !message.uppercased().contains(hex), "\(message)")
            #expect(!message.contains(String(decoding: keyBytes, as: UTF8.self)))
        }
    }
}
