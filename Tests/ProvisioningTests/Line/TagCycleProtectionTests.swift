import Foundation
import NDEF
import NFCTags
import Provisioning
import TagEmulator
import Testing

private let key = SecretKey(id: "brand", bytes: Array(repeating: 0x5A, count: 32))
private let uid: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
private let message: [UInt8] = [0xD1, 0x01, 0x05, 0x55, 0x04, 0x61, 0x2E, 0x63, 0x6F]  // https://a.co

private func programmed(
    _ settings: ManifestSecurity.Protection, activation: EmulatorConfiguration.ConfigActivation
) throws -> (NTAGEmulator, TagPipeline.Outcome) {
    var configuration = EmulatorConfiguration()
    configuration.configActivation = activation
    let tag = try NTAGEmulator(chip: .ntag213, uid: uid, configuration: configuration)
    _ = tag.activate()
    let plan = TagPipeline.Plan(
        message: message, acceptedChips: [.ntag213], lock: false, uid: uid,
        protection: try ProtectionPlan(settings, key: key, uid: uid))
    return (tag, TagPipeline.run(plan, on: EmulatorTransceiver(tag: tag)))
}

@Suite struct TagCycleProtectionTests {
    @Test(arguments: [EmulatorConfiguration.ConfigActivation.nextActivation, .immediate])
    func protectionIsSetInTheSafeOrderAndChecked(activation: EmulatorConfiguration.ConfigActivation) throws {
        let settings = ManifestSecurity.Protection(key: "brand", auth0: .ndef, access: .write, authLimit: 2)
        let (tag, outcome) = try programmed(settings, activation: activation)
        #expect(outcome.failure == nil, "\(String(describing: outcome.failure))")
        let password = try TagPassword(key: key, uid: uid)
        // CFG0 AUTH0 = 04, CFG1 ACCESS = AUTHLIM 2, CC untouched (phones still read the NDEF).
        let image: [UInt8] = tag.image
        #expect(image[0x29 * 4 + 3] == 0x04)
        #expect(image[0x2A * 4] == 0x02)
        let cc: [UInt8] = Array(image[12..<16])
        #expect(cc == ChipModel.ntag213.factoryCC)
        let storedPWD: [UInt8] = Array(image[0x2B * 4..<0x2B * 4 + 4])
        #expect(storedPWD == password.pwd)
        let reader = Type2Tag(transceiver: EmulatorTransceiver(tag: tag))
        try reader.reactivate()
        // Reads stay open with prot=write: the message is readable without the password.
        #expect(try reader.readNDEF() == message)
        // An unauthenticated write to a protected page is refused.
        #expect(throws: (any Error).self) { try reader.write(page: 4, data: [0, 0, 0, 0]) }
        // The derived password authenticates and returns the expected PACK; then writes pass.
        try reader.authenticate(password: password.pwd, expectedPACK: password.pack)
        try reader.write(page: 8, data: [1, 2, 3, 4])
        // Wrong passwords NAK and count toward AUTHLIM 2: after two the right one is refused too.
        try reader.reactivate()
        #expect(throws: (any Error).self) {
            try reader.authenticate(password: [1, 2, 3, 4], expectedPACK: password.pack)
        }
        #expect(throws: (any Error).self) {
            try reader.authenticate(password: [1, 2, 3, 5], expectedPACK: password.pack)
        }
        do {
            try reader.authenticate(password: password.pwd, expectedPACK: password.pack)
            Issue.record("AUTHLIM did not block the right password")
        } catch let error as Type2Error {
            #expect(error.cause as? TransportError == .nak(4), "\(error)")
        }
    }

    @Test func readWriteProtectionHidesTheMessageWithoutThePassword() throws {
        let settings = ManifestSecurity.Protection(key: "brand", auth0: .page(4), access: .readwrite)
        let (tag, outcome) = try programmed(settings, activation: .nextActivation)
        #expect(outcome.failure == nil, "\(String(describing: outcome.failure))")
        #expect(tag.image[0x2A * 4] == 0x80)
        let reader = Type2Tag(transceiver: EmulatorTransceiver(tag: tag))
        try reader.reactivate()
        #expect(throws: (any Error).self) { try reader.read(page: 4) }
    }

    @Test func endProtectsOnlyTheConfiguration() throws {
        let settings = ManifestSecurity.Protection(key: "brand", auth0: .end, configLock: true)
        let (tag, outcome) = try programmed(settings, activation: .immediate)
        #expect(outcome.failure == nil, "\(String(describing: outcome.failure))")
        #expect(tag.image[0x29 * 4 + 3] == 0x29)
        #expect(tag.image[0x2A * 4] == 0x40)
        let reader = Type2Tag(transceiver: EmulatorTransceiver(tag: tag))
        try reader.reactivate()
        try reader.write(page: 8, data: [9, 9, 9, 9])
    }
}
