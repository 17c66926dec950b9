import NFCTags

/// A tag of any family that a `TagField` carries: the endpoint plus presence, faults and the stored
/// image, so that the field, the simulated reader and the front ends hold every family the same way.
///
/// `exchange` takes what the reader path carries to the tag: a Type 2 command frame, or a whole
/// ISO 7816-4 APDU for an ISO-DEP tag (the ISO-DEP block layer stays inside the tag, as the PN532
/// firmware and PC/SC readers hide it). `receiveRaw` sees every air frame, blocks included.
public protocol EmulatedTag: TagEndpoint {
    /// The chip as the family-neutral pipeline names it (`type2`/`ntag215`, `type4`/`ntag424`).
    var tagChip: TagChip { get }
    /// Whether the tag is still in the field (a tear or a removal clears it).
    var isPresent: Bool { get }
    /// The faults the tag carries; the field reads `removedAfterExchanges` and `secondTag`.
    var faults: TagFaults { get }
    /// Its non-volatile memory as `store=DIR` saves it.
    var image: [UInt8] { get }
    /// EEPROM programming time of one write, microseconds (an ACK later than the timeout is silence).
    var programmingMicroseconds: Double { get }
    /// Called after each write to non-volatile memory (the field saves the image with `store=DIR`).
    var onMemoryWritten: (() -> Void)? { get set }
    /// Takes the tag out of the field for good (the operator removed it).
    func remove()
    /// Puts a tag that left back into the field: memory kept, power-up state fresh, `faults` from now on.
    func represent(faults: TagFaults)
}
