import TestSupport
import Testing
import TokenKeys

/// What `provision keys` asks of a session: every secret key of a token, and an HMAC key generated in the token.
@Suite struct TokenSessionKeysTests {
    @Test func secretKeysListsEveryKeyOrThoseALabelOrAnIdSelect() async throws {
        try await TokenFixture.with { token in
            let all = try await token.session.secretKeys()
            #expect(Set(all.map(\.label)) == ["master", "meta", "brand", "brand16"] && all.count == 4)
            #expect(try await token.session.secretKeys(label: "brand").map(\.label) == ["brand"])
            #expect(try await token.session.secretKeys(id: [0x01]).map(\.label) == ["master"])
            #expect(try await token.session.secretKeys(label: "no-such-key").isEmpty)
        }
        try await TokenFixture.with(importKeys: false) { token in
            let none = try await token.session.secretKeys()
            #expect(none.isEmpty)
        }
    }

    @Test func aGeneratedHMACKeyIsASignOnlyGenericSecretThatNeverLeftTheToken() async throws {
        try await TokenFixture.with(importKeys: false) { token in
            let key = try await token.session.generateHMAC(label: "brand", id: [0x02])
            #expect(key.keyType == .genericSecret && key.valueLength == 32 && key.id == [0x02])
            #expect(key.canSign && !key.canEncrypt && !key.canDecrypt)
            let attributes = try await token.session.attributes(of: key)
            #expect(attributes.sensitive == true && attributes.extractable == false && attributes.isPrivate == true)
            #expect(attributes.alwaysSensitive == true && attributes.neverExtractable == true)
            #expect(attributes.copyable == false && attributes.modifiable == false)
            let fingerprint = try await token.session.fingerprint(of: key)
            #expect(fingerprint.hasPrefix("v1:") && fingerprint.count == 19)
            await #expect(throws: TokenError(.keyExists, "")) { try await token.session.generateHMAC(label: "brand") }
        }
    }

    /// A decrypt-only key (the SUN meta-read key) cannot MAC, so it has no fingerprint: `keys list` says why.
    @Test func aDecryptOnlyKeyHasNoFingerprint() async throws {
        try await TokenFixture.with { token in
            let meta = try await token.session.findKey(label: "meta")
            await #expect {
                try await token.session.fingerprint(of: meta)
            } throws: { error in
                (error as? TokenError)?.code == .mechanismNotOffered
            }
        }
    }
}
