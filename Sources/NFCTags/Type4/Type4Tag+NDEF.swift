/// The NFC Forum T4T NDEF procedures (`docs/reference/type4.md` §1.2–§1.6): detection from the CC, reading
/// NLEN and the message in MLe pieces, the tear-safe update, read-back, and the CC's read-only byte.
extension Type4Tag {
    /// The largest READ BINARY answer used: MLe, at most 255 (some tags mis-handle Le `00`, §1.4).
    var readPiece: Int { min(capabilityContainer?.maxResponseData ?? 15, 255) }
    /// The largest UPDATE BINARY data used: MLc, at most 255.
    var writePiece: Int { min(capabilityContainer?.maxCommandData ?? 1, 255) }

    /// Selects the NDEF Tag Application (`00 A4 04 00 07 D2760000850101 00`), then the mapping 1.0
    /// name without Le when the first is not found (§1.2).
    ///
    /// - Throws: `StatusWordError` `.notFound` when neither application exists.
    public func selectNDEFApplication() throws {
        do {
            try selectApplication(Type4CapabilityContainer.applicationName)
            legacyMapping = false
        } catch let error as StatusWordError where error.kind == .notFound {
            try selectApplication(Type4CapabilityContainer.legacyApplicationName, expectingAnswer: false)
            legacyMapping = true
        }
        applicationSelected = true
    }

    /// Selects the NDEF Tag Application unless it is selected: after a re-activation, by the name the tag
    /// answered to before (one SELECT), else as `selectNDEFApplication`.
    func enterNDEFApplication() throws {
        guard !applicationSelected else { return }
        guard capabilityContainer != nil, legacyMapping else { return try selectNDEFApplication() }
        try selectApplication(Type4CapabilityContainer.legacyApplicationName, expectingAnswer: false)
        applicationSelected = true
    }

    /// Selects and reads the CC file (`00 A4 00 0C 02 E103`, then `00 B0 00 00 0F`) and parses it; the NDEF Tag
    /// Application is selected first when it is not.
    ///
    /// The NDEF procedures need only the first 15 bytes (2 more for a mapping 3.0 ENDEF TLV, read when the
    /// first 15 announce one): proprietary TLVs after them are not read. `whole` reads up to CCLEN (for
    /// `inspect`), in one READ BINARY of `fileSize` bytes when the chip model knows the file's size.
    ///
    /// - Throws: `TagError` `.notNDEF` / `.unsupportedCC` for a CC this reader cannot use.
    @discardableResult
    public func readCapabilityContainer(whole: Bool = false, fileSize: Int? = nil) throws -> Type4CapabilityContainer {
        try enterNDEFApplication()
        try selectFile(Type4CapabilityContainer.fileIdentifier)
        var bytes = try readBinary(offset: 0, count: whole ? min(max(fileSize ?? 15, 15), 255) : 15)
        let length = bytes.count >= 2 ? Int(bytes[0]) << 8 | Int(bytes[1]) : 0
        let needed = whole ? min(length, 0x7FFF) : bytes.count >= 8 && bytes[7] == 0x06 ? min(length, 17) : 15
        while bytes.count < needed, bytes.count >= 15 {
            let piece = try readBinary(offset: bytes.count, count: min(needed - bytes.count, 255))
            guard !piece.isEmpty else { break }
            bytes += piece
        }
        let container = try Type4CapabilityContainer(bytes)
        capabilityContainer = container
        return container
    }

    /// queryNDEFStatus: the application, the CC and the NDEF file's length field.
    ///
    /// Status `readWrite` when the CC grants writing, `readOnly` when it denies it or asks for a
    /// proprietary procedure this tag object does not know, `notSupported` when the application or the
    /// CC is absent. Capacity is the file size less the length field. Known bytes of the NDEF file are
    /// forgotten first: detection starts from what the tag holds now.
    ///
    /// - Parameters:
    ///   - wholeCC: read the CC to CCLEN, proprietary TLVs included (`readCapabilityContainer`).
    ///   - ccFileSize: the CC file's size when the chip model knows it.
    public func detectNDEF(wholeCC: Bool = false, ccFileSize: Int? = nil) throws -> (status: NDEFStatus, capacity: Int)
    {
        let container: Type4CapabilityContainer
        knownFile = []
        do {
            try selectNDEFApplication()
            container = try readCapabilityContainer(whole: wholeCC, fileSize: ccFileSize)
        } catch let error as StatusWordError where error.kind == .notFound {
            return (.notSupported, 0)
        }
        guard container.readAccess == .granted else {
            throw TagError(
                .unsupportedCC, "the NDEF file's read access is \(container.readAccess): not readable freely")
        }
        _ = try readNDEFFile(atLeast: container.lengthFieldSize)
        let status: NDEFStatus = container.writeAccess == .granted ? .readWrite : .readOnly
        return (status, container.capacity)
    }

    /// The NDEF message (NLEN bytes after the length field), read in MLe pieces after the length field.
    ///
    /// - Throws: `TagError.notNDEF` for NLEN 0 or beyond the file.
    public func readNDEF() throws -> [UInt8] {
        let container = try capabilityContainer ?? readCapabilityContainer()
        let length = try messageLength(container)
        guard length > 0 else { throw TagError(.notNDEF, "the NDEF file is empty (NLEN 0)") }
        let file = try readNDEFFile(atLeast: container.lengthFieldSize + length)
        return Array(file[container.lengthFieldSize..<(container.lengthFieldSize + length)])
    }

    /// The NDEF file's first `count` bytes read again from the tag as a phone reads them, nothing taken from
    /// what was read or written before: SELECT `00 A4 00 0C` of the NDEF file, then READ BINARY `00 B0` in MLe
    /// pieces (an NTAG 424 DNA fills its SUN mirrors into exactly these unauthenticated reads).
    public func rereadNDEFFile(count: Int) throws -> [UInt8] {
        knownFile = []
        selectedFile = nil
        return Array(try readNDEFFile(atLeast: count).prefix(count))
    }

    /// The NDEF file's length field as last read or written here (`nil`: not known).
    public var knownLengthField: [UInt8]? {
        guard let size = capabilityContainer?.lengthFieldSize, knownFile.count >= size else { return nil }
        return Array(knownFile.prefix(size))
    }

    /// NLEN (or ENLEN) as the file holds it.
    func messageLength(_ container: Type4CapabilityContainer) throws -> Int {
        let field = try readNDEFFile(atLeast: container.lengthFieldSize).prefix(container.lengthFieldSize)
        let length = field.reduce(0) { $0 << 8 | Int($1) }
        guard length <= container.capacity else {
            throw TagError(.notNDEF, "NLEN \(length) is beyond the file's \(container.capacity) bytes of capacity")
        }
        return length
    }

    /// The NDEF file's first `count` bytes (or more), reading only the bytes not yet known, in MLe pieces.
    func readNDEFFile(atLeast count: Int) throws -> [UInt8] {
        guard let container = capabilityContainer else { throw TagError(.notNDEF, "the CC was not read") }
        try enterNDEFApplication()
        try selectFile(container.ndefFile)
        while knownFile.count < count {
            let wanted = min(readPiece, count - knownFile.count, container.ndefFileSize - knownFile.count)
            guard wanted > 0 else { break }
            let piece = try readBinary(offset: knownFile.count, count: wanted)
            guard !piece.isEmpty else { throw TagError(.notNDEF, "the NDEF file ends at \(knownFile.count) bytes") }
            knownFile += piece
        }
        return knownFile
    }
}
