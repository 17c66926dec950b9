import NFCTags

/// How long one APDU may take through a PN532's ISO-DEP layer, from the tag's ATS (`docs/reference/type4.md`
/// §1.1, §6.3): libnfc's timeout covers the whole InDataExchange, i.e. every I-block of the command and
/// of the answer.
///
/// ```
/// blocks  = command I-blocks at the tag's FSC (INF = FSC − 3) + 2 answer I-blocks
/// budget  = blocks × 2 × FWT          (each block may wait one FWT, and one S(WTX) may double it)
/// timeout = max(budget, requested)
/// ```
///
/// Two answer blocks hold the longest short R-APDU (256 bytes and the status word) in frames of 256
/// bytes; the PN532's own FSD in its RATS is unconfirmed (open question 11), so this is a floor.
/// NTAG 424 DNA (FWI 7, 38.66 ms, FSC 128): a 13-byte SELECT has a 232 ms budget.
enum ISODEPExchangeBudget {
    /// The timeout in milliseconds for a C-APDU of `commandBytes` to a tag with `ats`, at least `requested`.
    static func milliseconds(commandBytes: Int, ats: Type4ATS, requested: Int) -> Int {
        let information = max(1, ats.frameSize - 3)
        let commandBlocks = max(1, (commandBytes + information - 1) / information)
        let microseconds = Double(commandBlocks + 2) * 2 * ats.frameWaitingMicroseconds
        return max(requested, Int((microseconds / 1000).rounded(.up)))
    }
}
