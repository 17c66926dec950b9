import NFCTags
import Testing

/// The frame formulas reproduce NXP's printed durations (`docs/reference/rf-timing.md` §1).
@Test func frameDurationsMatchDatasheet() {
    let timing = RFTiming()
    #expect(Int(timing.readerFrame(bytes: 4).rounded()) == 368)  // READ command
    #expect(Int(timing.tagFrame(bytes: 18).rounded()) == 1548)  // READ answer
    #expect(Int(timing.readerFrame(bytes: 8).rounded()) == 708)  // WRITE command
    #expect(Int(timing.readerFrame(bytes: 3).rounded()) == 283)  // GET_VERSION
    #expect(Int(timing.tagFrame(bytes: 10).rounded()) == 868)
    #expect(Int(timing.readerFrame(bytes: 7).rounded()) == 623)  // PWD_AUTH
    #expect(Int(timing.tagFrame(bytes: 34).rounded()) == 2907)  // READ_SIG answer
    #expect(Int(timing.exchange(command: 2, answer: 16).rounded()) == 2094)
    #expect(abs(timing.activation - 4_580) < 20)
}

@Test func specParsesSchemeTargetAndOptions() throws {
    let spec = try ReaderSpec("sim:ntag213?count=50&uid=04A0000000000&timing=datasheet&verbose")
    #expect(spec.scheme == "sim")
    #expect(spec.target == "ntag213")
    #expect(spec.option("count") == "50")
    #expect(spec.option("verbose") == "true")
    #expect(try ReaderSpec("nfc:pn532_uart:/dev/pts/3").target == "pn532_uart:/dev/pts/3")
    #expect(throws: ReaderSpecError.self) { try ReaderSpec("sim:x?a=1&a=2") }
}
