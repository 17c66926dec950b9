import NFCTags
import Testing

/// Issue 41 item 2: each family describes its own chips (`ChipDescriptor`), and what is listed from them holds
/// together: unique manifest names, accepted chips of the descriptor's own family, Type 2 facts from `ChipModel`,
/// and backends' reach from the families' transports.
@Suite struct ChipDescriptorTests {
    static let descriptors = TagFamilies.standard.descriptors

    @Test func manifestNamesAndAliasesAreUniqueAcrossFamilies() {
        let names = Self.descriptors.flatMap(\.names)
        #expect(Set(names).count == names.count, "\(names)")
        for descriptor in Self.descriptors {
            #expect(TagFamilies.standard.descriptor(named: descriptor.manifestName) == descriptor)
        }
    }

    @Test func everyFamilyPublishesNamedChipsAndOneFamilyWideTarget() throws {
        for family in TagFamilies.standard.families {
            let any = try #require(family.anyChip, "\(family.name)")
            #expect(any.isFamilyWide && any.manifestName == family.name && any.family == family.name)
            #expect(!family.chips.isEmpty && family.chips.allSatisfy { !$0.isFamilyWide })
            for chip in family.chips {
                #expect(chip.family == family.name && chip.accepts.allSatisfy { $0.family == family.name })
            }
        }
    }

    @Test func simulatorNamesAreUniqueAndJobSimulatorsArePublishedNames() {
        let names = Self.descriptors.compactMap(\.simulatorName)
        #expect(Set(names).count == names.count)
        for descriptor in Self.descriptors {
            #expect(names.contains(descriptor.jobSimulatorName), "\(descriptor)")
        }
    }

    @Test(arguments: ChipModel.allCases)
    func type2DescriptorsTakeTheirFactsFromTheChipModel(model: ChipModel) throws {
        let descriptor = try #require(TagFamilies.standard.descriptor(named: model.rawValue))
        #expect(descriptor.accepts == [model.tagChip] && descriptor.userMemory == model.userBytes)
        #expect(descriptor.uidForm == model.uidForm && descriptor.simulatorName == model.rawValue)
        #expect(descriptor.capabilities.mirrors.isEmpty == !model.isNTAG)
        #expect(ChipModel(version: model.version) == model)
    }

    @Test func chipModelFactsAreTheDataSheetTable() {
        #expect(ChipModel.allCases.map(\.pageCount) == [45, 135, 231, 20, 41])
        #expect(ChipModel.allCases.map(\.userBytes) == [144, 504, 888, 48, 128])
        #expect(ChipModel.allCases.map(\.dynamicLockPage) == [0x28, 0x82, 0xE2, nil, 0x24])
        #expect(ChipModel.allCases.map(\.pagesPerDynamicLockBit) == [2, 16, 16, 0, 2])
        #expect(ChipModel.mf0ul21.displayName == "MIFARE Ultralight EV1 MF0UL21")
        #expect(ChipModel(version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x12, 0x03]) == nil)
    }

    @Test func capacitiesFollowTheFactoryLayoutOrTheJobsNDEFFile() throws {
        let expected: [String: Int] = [
            "ntag213": 137, "ntag215": 492, "ntag216": 868, "ultralight-ev1": 46, "mf0ul11": 46, "mf0ul21": 126,
            "type2": 137, "ntag424": 254, "type4": 254, "icode-slix": 102, "icode-slix2": 308, "st25tv02k": 242,
            "type5": 102, "felica-lite-s": 208, "felica-standard": 208, "type3": 208,
        ]
        #expect(Set(Self.descriptors.map(\.manifestName)) == Set(expected.keys))
        for descriptor in Self.descriptors {
            #expect(descriptor.capacity.bytes(fileSize: 256) == expected[descriptor.manifestName], "\(descriptor)")
        }
        let type4 = try #require(TagFamilies.standard.descriptor(named: "type4"))
        #expect(type4.capacity.bytes(fileSize: 2048) == 2046)
    }

    @Test func aBackendReachesTheFamiliesOfItsTransportsInItsOrder() {
        let names = { (transports: [Transport]) in TagFamilies.standard.reached(by: transports).map(\.name) }
        #expect(names([.iso14443A, .isoDEP, .feliCa]) == ["type2", "type4", "type3"])
        #expect(names([.iso14443A, .isoDEP, .feliCa, .iso15693]) == ["type2", "type4", "type3", "type5"])
        #expect(Set(names(Transport.allCases)) == Set(TagFamilies.standard.families.map(\.name)))
        #expect(TagFamilies.standard.families.map(\.transport) == [.iso14443A, .isoDEP, .iso15693, .feliCa])
    }

    @Test func keyedPersonalisationIsTheFamilysSchemes() {
        for family in TagFamilies.standard.families {
            for descriptor in family.descriptors {
                let schemed = family.keyedSchemes.contains { !$0.chips.isDisjoint(with: descriptor.accepts) }
                #expect(family.isKeyed(descriptor) == schemed)
                if descriptor.isFamilyWide { #expect(!family.isKeyed(descriptor)) }
            }
        }
    }
}
