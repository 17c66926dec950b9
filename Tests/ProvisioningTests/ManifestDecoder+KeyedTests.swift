import JSONReader
import NFCTags
import TestSupport
import Testing

@testable import Provisioning

/// A keyed scheme this build cannot run (no dynamic message) is refused by the manifest, not run unkeyed.
@Suite struct ManifestDecoderKeyedTests {
    /// The test family's scheme with its dynamic message taken away.
    struct WithoutDynamicMessage: KeyedScheme {
        let base = KeyedMemoryScheme()
        var section: String { base.section }
        var chips: Set<TagChip> { base.chips }
        var dynamicMessage: (any DynamicMessageScheme)? { nil }
        var displayName: String { base.displayName }
        var publicKeys: [PublicKeyMaterial] { base.publicKeys }
        var diversificationInput: String { base.diversificationInput }
        func decodeSection(_ node: JSONNode, reader: any KeyedSectionReader) throws -> any KeyedJobOptions {
            try base.decodeSection(node, reader: reader)
        }
        func tagKeys(master: SecretKey, options: any KeyedJobOptions) -> TagKeys {
            base.tagKeys(master: master, options: options)
        }
        func plan(_ request: KeyedPlanRequest) throws -> any KeyedPlan { try base.plan(request) }
        func diversify(master: SecretKey, input: [UInt8]) throws -> SecretKey {
            try base.diversify(master: master, input: input)
        }
    }

    @Test func aSchemeWithoutADynamicMessageIsRefusedNamingIt() {
        let why = ManifestDecoder.unsupported(WithoutDynamicMessage())
        #expect(why == "KMEM-1 personalisation renders no dynamic message, which this build's keyed jobs need")
        #expect(ManifestDecoder.unsupported(KeyedMemoryScheme()) == nil)
        #expect(TagFamilies.standard.keyedSchemes.allSatisfy { ManifestDecoder.unsupported($0) == nil })
    }
}
