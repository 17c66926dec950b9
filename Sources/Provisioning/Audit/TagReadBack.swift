import NDEF
import NFCTags

/// What an audit read from one tag: the NDEF message (or why it could not be read) and the lock
/// state, gathered without a single WRITE.
public struct TagReadBack: Sendable, Hashable {
    /// The NDEF message bytes, `nil` when the tag had no readable NDEF message.
    public var message: [UInt8]?
    /// Why the NDEF message could not be read (not formatted, bad CC, NAK), `nil` when it was read.
    public var unreadable: String?
    /// CC3 (access byte): high nibble read access, low nibble write access; `nil` when page 3 was not read.
    public var cc3: UInt8?
    /// The static lock bytes LOCK0, LOCK1 (page 2 bytes 2–3); `nil` when page 2 was not read.
    public var staticLock: [UInt8]?
    /// The chip from GET_VERSION, `nil` for a generic Type 2 tag.
    public var chip: ChipModel?
    /// Command exchanges sent to the tag.
    public var exchanges: Int
    /// Whether PWD_AUTH with the job's derived password succeeded (the PACK matched).
    public var authenticated = false
    /// Why the tag refused the derived password (NAK, silence or another PACK); nothing else was read.
    public var authenticationRefused: String?
    /// The dynamic lock bytes, CFG0 and CFG1, when asked for (`configuration: true`) and read; PWD and
    /// PACK (which read as `00` anyway) are never kept.
    public var configuration: Type2Configuration?
    /// Why the configuration pages could not be read (NAK, generic tag), when asked for.
    public var configurationUnreadable: String?
    /// The anomalies of pages 0–2 the line refuses (`IdentityCheck.refusable`), from the pages the read
    /// brought anyway (READ `30 00`); empty when they are consistent or were not read.
    public var identityAnomalies: [UIDAnomaly] = []

    /// Creates a read-back result.
    public init(
        message: [UInt8]?, unreadable: String? = nil, cc3: UInt8?, staticLock: [UInt8]?, chip: ChipModel? = nil,
        exchanges: Int = 0
    ) {
        self.message = message
        self.unreadable = unreadable
        self.cc3 = cc3
        self.staticLock = staticLock
        self.chip = chip
        self.exchanges = exchanges
    }

    /// Whether the tag is permanently read-only as `provision` locks it: CC3 write nibble `F` and
    /// static lock bytes `FF FF` (`type2-ntag.md` §5.7).
    public var isLockedReadOnly: Bool {
        guard let cc3, let staticLock, staticLock.count == 2 else { return false }
        return cc3 & 0x0F == 0x0F && staticLock == [0xFF, 0xFF]
    }

    /// Reads the tag selected on `transceiver` with the fewest exchanges and no WRITE: GET_VERSION
    /// `60h` (so the message can come by FAST_READ `3Ah`), READ `30 00` (UID, static locks, CC) and
    /// the TLV walk, then FAST_READ `3Ah` / READ `30h` of the message pages not read yet
    /// (`type2-ntag.md` §3.2, §5.3, §5.5).
    ///
    /// With `password` (a job with `protect`) on an NTAG21x, PWD_AUTH `1Bh` follows GET_VERSION, so
    /// pages behind AUTH0 with PROT can be read (`type2-ntag.md` §3.6). A refused password ends the
    /// read there (`authenticationRefused`): each refusal counts toward the tag's AUTHLIM.
    ///
    /// With `configuration` (a job that protects tags or mirrors), one FAST_READ `3Ah` of the dynamic
    /// lock page through CFG1 follows the message (PWD and PACK are not even read; READ `30h` on a
    /// reader without raw commands): FAST_READ does not roll over, so a read-protected configuration
    /// NAKs instead of answering pages from 0 (`type2-ntag.md` §3.3, §3.4). A failure is kept in
    /// `configurationUnreadable`.
    ///
    /// With `anticollisionUID` (the UID the reader selected), pages 0–2 from NDEF detection's READ
    /// `30 00` are cross-checked against it, both BCCs and INT (`identityAnomalies`), at no extra exchange.
    ///
    /// Tag-level failures (not NDEF formatted, unsupported CC, a NAK) are returned in `unreadable`.
    ///
    /// - Throws: `TransportError` other than a NAK (silence, tag left the field, reader failure): the
    ///   tag should be presented again.
    public static func read(
        on transceiver: any Transceiver, password: TagPassword? = nil, configuration: Bool = false,
        anticollisionUID: [UInt8]? = nil
    ) throws(TransportError) -> TagReadBack {
        let tag = Type2Tag(transceiver: transceiver)
        var result = TagReadBack(message: nil, cc3: nil, staticLock: nil)
        do {
            result.chip = try tag.identify().chip
            if let password, result.chip?.isNTAG == true {
                do {
                    try tag.authenticate(password: password.pwd, expectedPACK: password.pack)
                    result.authenticated = true
                } catch let error as Type2Error where error.code == .authenticationFailed {
                    result.authenticationRefused = error.message
                    result.exchanges = tag.total.exchanges
                    return result
                }
            }
            let area = try tag.detectNDEF()
            result.cc3 = area.cc.bytes[3]
            result.staticLock = area.staticLock
            result.message = try tag.readNDEF()
        } catch let error as TransportError {
            guard case .nak(let code) = error else { throw error }
            result.unreadable = "tag answered NAK \(String(code, radix: 16, uppercase: true))h to a READ"
        } catch let error as Type2Error {
            result.unreadable = error.message
        } catch {
            result.unreadable = "\(error)"
        }
        if configuration, result.unreadable == nil { try result.readConfiguration(of: tag) }
        if result.cc3 == nil, let page3 = tag.cachedPage(3) { result.cc3 = page3[3] }
        if result.staticLock == nil, let page2 = tag.cachedPage(2) { result.staticLock = Array(page2[2..<4]) }
        if let anticollisionUID, let page0 = tag.cachedPage(0), tag.cachedPage(1) != nil, tag.cachedPage(2) != nil,
            let found = try? tag.identityAnomalies(anticollisionUID: anticollisionUID)  // cached: sends nothing
        {
            result.identityAnomalies = Type2FamilyTag.refusable(found, chip: result.chip, uid0: page0.first)
        }
        result.exchanges = tag.total.exchanges
        return result
    }

    /// Reads the configuration pages into `configuration`, or says why not in `configurationUnreadable`.
    private mutating func readConfiguration(of tag: Type2Tag) throws(TransportError) {
        do {
            if let chip = tag.chip { _ = try tag.readPages((chip.dynamicLockPage ?? chip.cfg0Page)...chip.cfg1Page) }
            configuration = try tag.readConfiguration()
        } catch let error as TransportError {
            guard case .nak(let code) = error else { throw error }
            let nak = String(code, radix: 16, uppercase: true)
            configurationUnreadable = "tag answered NAK \(nak)h to the read of the configuration pages"
        } catch let error as Type2Error {
            configurationUnreadable = error.message
        } catch {
            configurationUnreadable = "\(error)"
        }
    }
}
