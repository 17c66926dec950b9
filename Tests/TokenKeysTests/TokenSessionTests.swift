import TestSupport
import Testing
import TokenKeys

/// Opening a real SoftHSM2 token, logging in, finding, generating and importing keys, and the failures' codes.
@Suite struct TokenSessionTests {
    @Test func importedKeysAreSensitiveNonExtractablePrivateAndLocked() async throws {
        try await TokenFixture.with { token in
            let master = try await token.session.findKey(label: "master")
            #expect(master.keyType == .aes && master.valueLength == 16 && master.id == [0x01])
            #expect(master.canSign && master.canEncrypt && !master.canDecrypt)
            #expect(try await token.session.findKey(label: nil, id: [0x01]) == master)
            let attributes = try await token.session.attributes(of: master)
            #expect(attributes.sensitive == true)
            #expect(attributes.extractable == false)
            #expect(attributes.copyable == false)
            #expect(attributes.modifiable == false)
            #expect(attributes.isPrivate == true)
            #expect(attributes.alwaysSensitive == false && attributes.neverExtractable == false)  // imported
            #expect(attributes.checkValue == [0xFD, 0xE4, 0xFB])  // ECB(K, 0¹⁶) starts FD E4 FB
        }
    }

    @Test func generatedKeyNeverLeftTheTokenAndHasOnlyItsUses() async throws {
        try await TokenFixture.with(importKeys: false) { token in
            let key = try await token.session.generateAES(label: "fresh", uses: [.sign])
            #expect(key.canSign && !key.canEncrypt && !key.canDecrypt && key.valueLength == 16)
            let attributes = try await token.session.attributes(of: key)
            #expect(attributes.sensitive == true && attributes.extractable == false)
            #expect(attributes.alwaysSensitive == true && attributes.neverExtractable == true)
            #expect(attributes.copyable == false && attributes.modifiable == false && attributes.isPrivate == true)
            #expect(try await token.session.cmacRoute(for: key) == .tokenCMAC)
            #expect(try await token.session.aesCMAC(key: key, []).count == 16)
            // Sign-only: the ECB route (and so AN10922 of a short input) is closed, naming mechanism and key.
            await #expect {
                try await token.session.an10922(key: key, input: [0x04])
            } throws: { error in
                let error = error as? TokenError
                return error?.code == .mechanismNotOffered && error?.exitStatus == 69
                    && error?.message.contains("CKM_AES_ECB") == true && error?.message.contains("key fresh") == true
            }
        }
    }

    @Test func importNeverOverwritesALabel() async throws {
        try await TokenFixture.with { token in
            await #expect(throws: TokenError(.keyExists, "")) {
                try await token.session.importAES(label: "master", bytes: [UInt8](repeating: 7, count: 16))
            }
            await #expect(throws: TokenError(.keyExists, "")) { try await token.session.generateAES(label: "brand") }
            #expect(TokenError(.keyExists, "").exitStatus == 73)
        }
    }

    @Test func missingKeyIs66AndMissingTokenIs66() async throws {
        try await TokenFixture.with { token in
            await #expect {
                try await token.session.findKey(label: "no-such-key")
            } throws: { error in
                let error = error as? TokenError
                return error?.code == .objectNotFound && error?.exitStatus == 66
                    && error?.message.contains("no-such-key") == true
            }
            await #expect(throws: TokenError(.tokenNotFound, "")) {
                try await TokenSession.open(
                    module: token.module, uri: try PKCS11URI("pkcs11:token=other-line"), pin: Array("1234".utf8))
            }
        }
    }

    /// A wrong PIN (and one too short for SoftHSM2) exits 77, and the error text holds neither PIN.
    @Test(arguments: ["98765432", "12"])
    func wrongPINIs77AndNotInTheMessage(pin: String) async throws {
        try await TokenFixture.with(importKeys: false) { token in
            // SoftHSM2's login is per process and token: log the fixture's session out by closing it first.
            await token.session.close()
            await #expect {
                try await TokenSession.open(
                    module: token.module, uri: try PKCS11URI("pkcs11:token=provision-test"), pin: Array(pin.utf8))
            } throws: { error in
                guard let error = error as? TokenError else { return false }
                return error.code == .pinIncorrect && error.exitStatus == 77 && !error.message.contains(pin)
                    && !error.message.contains(token.hsm.userPIN)
            }
        }
    }
}
