/// The ChangeFileSettings checks of SDM settings that answer `91 9E` PARAMETER_ERROR (NT4H2421Gx §10.7.1,
/// `docs/reference/type4.md` §2.7, §3.2, §3.6).
extension Type4SDMSettings {
    /// ASCII characters of the plain UID mirror (§3.2).
    public static let uidMirrorLength = 14
    /// ASCII characters of the plain SDMReadCtr mirror.
    public static let counterMirrorLength = 6
    /// ASCII characters of the encrypted PICCData (AES).
    public static let piccDataLength = 32
    /// ASCII characters of the SDMMAC.
    public static let macLength = 16

    /// One mirror window in the file: what it is, where it starts, how many ASCII characters it takes.
    public struct Window: Hashable, Sendable {
        /// The field's name, for messages.
        public let name: String
        /// First byte.
        public let offset: Int
        /// Bytes.
        public let length: Int

        /// Whether the two windows share a byte.
        public func overlaps(_ other: Window) -> Bool {
            offset < other.offset + other.length && other.offset < offset + length
        }
    }

    /// The mirror windows the settings place in the file: plain UID (14), plain SDMReadCtr (6), PICCData (32),
    /// SDMENCFileData (SDMENCLength) and SDMMAC (16).
    public var windows: [Window] {
        var out: [Window] = []
        if hasPlainUID { out.append(Window(name: "UID", offset: uidOffset, length: Self.uidMirrorLength)) }
        if hasPlainCounterField && readCounterOffset != Self.unmirroredOffset {
            out.append(Window(name: "SDMReadCtr", offset: readCounterOffset, length: Self.counterMirrorLength))
        }
        if metaReadKey != nil {
            out.append(Window(name: "PICCData", offset: piccDataOffset, length: Self.piccDataLength))
        }
        if fileReadKey != nil && encryptsFileData {
            out.append(Window(name: "SDMENCFileData", offset: encryptedDataOffset, length: encryptedDataLength))
        }
        if fileReadKey != nil { out.append(Window(name: "SDMMAC", offset: macOffset, length: Self.macLength)) }
        return out
    }

    /// Checks the settings against the chip's rules for a file of `fileSize` bytes whose SDMReadCtr is now
    /// `currentCounter`.
    ///
    /// - Throws: `.parameter` naming the first rule broken.
    public func validate(fileSize: Int, currentCounter: UInt32) throws(Type4FileSettingsError) {
        try validateOptions(currentCounter: currentCounter)
        let windows = windows
        for window in windows where window.offset + window.length > fileSize {
            throw .parameter("the \(window.name) mirror at \(window.offset) ends beyond the file's \(fileSize) bytes")
        }
        for (index, window) in windows.enumerated() {
            for other in windows[(index + 1)...] where window.overlaps(other) {
                throw .parameter("the \(window.name) and \(other.name) mirrors overlap")
            }
        }
        guard fileReadKey != nil else { return }
        guard macInputOffset <= macOffset else {
            throw .parameter("SDMMACInputOffset \(macInputOffset) is beyond SDMMACOffset \(macOffset)")
        }
        guard encryptsFileData else { return }
        guard macInputOffset <= encryptedDataOffset else {
            throw .parameter("the SDMMAC input must cover the encrypted file data")
        }
        guard macOffset >= encryptedDataOffset + encryptedDataLength else {
            throw .parameter("SDMMACOffset is inside the encrypted file data")
        }
    }

    /// The rules between options and access rights.
    private func validateOptions(currentCounter: UInt32) throws(Type4FileSettingsError) {
        if metaRead != .never && !mirrorsUID && !mirrorsReadCounter {
            throw .parameter("SDMMetaRead is set while neither the UID nor SDMReadCtr is mirrored")
        }
        if metaRead == .never && mirrorsUID { throw .parameter("the UID mirror needs SDMMetaRead") }
        if counterRetrieval != .never && !mirrorsReadCounter { throw .parameter("SDMCtrRet needs SDMReadCtr") }
        if fileRead == .free { throw .parameter("SDMFileRead must be a key or F") }
        if encryptsFileData {
            guard fileReadKey != nil else { throw .parameter("SDMENCFileData needs an SDMFileRead key") }
            guard mirrorsUID && mirrorsReadCounter else {
                throw .parameter("SDMENCFileData needs both the UID and SDMReadCtr mirrored")
            }
            guard encryptedDataLength > 0, encryptedDataLength % 32 == 0 else {
                throw .parameter("SDMENCLength \(encryptedDataLength) is not a positive multiple of 32")
            }
        }
        if let readCounterLimit {
            guard mirrorsReadCounter else { throw .parameter("SDMReadCtrLimit needs SDMReadCtr") }
            guard readCounterLimit > currentCounter else {
                throw .parameter("SDMReadCtrLimit \(readCounterLimit) is not above SDMReadCtr \(currentCounter)")
            }
        }
    }
}
