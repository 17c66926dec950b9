import NDEF
import NFCTags
import Testing

/// The ATS decoded (`docs/reference/type4.md` §1.1): the NTAG 424 DNA's, an older revision's and the defaults.
@Suite struct Type4ATSTests {
    private typealias V = Type4Vectors

    @Test func theNTAG424ATS() throws {
        let ats = try #require(Type4ATS(V.ats424))
        #expect(ats.fsci == 7 && ats.frameSize == 128)
        #expect(ats.ta1 == 0x77 && ats.tb1 == 0x71 && ats.tc1 == 0x02)
        #expect(ats.fwi == 7 && abs(ats.frameWaitingMicroseconds - 38_664) < 1)
        #expect(ats.sfgi == 1 && abs(ats.startupGuardMicroseconds - 604) < 1)
        #expect(ats.cidSupported && !ats.nadSupported)
        #expect(ats.historicalBytes == [0x80])
        #expect(ats.bitRates == "tag→reader 106/212/424/848, reader→tag 106/212/424/848 kbit/s, different D allowed")
    }

    @Test func anOlderRevisionHasFSC64AndFWI8() throws {
        let ats = try #require(Type4ATS(V.hex("06 75 77 81 02 80")))
        #expect(ats.frameSize == 64 && ats.fwi == 8 && ats.sfgi == 1)
    }

    @Test func whatTheATSLeavesOutTakesTheDefaults() throws {
        let bare = try #require(Type4ATS([0x01]))
        #expect(bare.frameSize == 32 && bare.fwi == 4 && bare.sfgi == 0 && bare.cidSupported)
        #expect(bare.startupGuardMicroseconds == 0 && bare.bitRates == "106 kbit/s only")
        let onlyTB = try #require(Type4ATS(V.hex("04 28 F0 C1")))
        #expect(onlyTB.ta1 == nil && onlyTB.tb1 == 0xF0 && onlyTB.fwi == 4, "FWI 15 is RFU, read as 4")
        #expect(onlyTB.frameSize == 256 && onlyTB.historicalBytes == [0xC1])
    }

    @Test func aLengthOrInterfaceBytesThatDisagreeAreRefused() {
        #expect(Type4ATS(V.hex("07 77 77 71 02 80")) == nil, "TL says 7")
        #expect(Type4ATS(V.hex("03 70 77")) == nil, "T0 announces TA1 TB1 TC1, one byte follows")
        #expect(Type4ATS([]) == nil)
    }
}
