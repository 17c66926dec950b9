import NDEF
import NFCTags

/// What an audit read from one tag through its family: the NDEF message (or why it could not be read)
/// and the lock state, gathered without a single WRITE.
public struct TagReadBack: Sendable {
    /// The NDEF message bytes, `nil` when the tag had no readable NDEF message.
    public var message: [UInt8]?
    /// Why the NDEF message could not be read (not formatted, bad CC, NAK), `nil` when it was read.
    public var unreadable: String?
    /// Whether the tag holds no NDEF formatting at all (no CC, no NDEF TLV or file: `TagError.notNDEF`).
    public var notNDEF = false
    /// The permanent-lock state as the family read it, `nil` when nothing of it was read.
    public var lock: LockState?
    /// The chip the family identified, `nil` for a generic tag.
    public var chip: TagChip?
    /// Command exchanges sent to the tag.
    public var exchanges: Int
    /// Whether PWD_AUTH with the job's derived password succeeded (the PACK matched).
    public var authenticated = false
    /// Why the tag refused the derived password (NAK, silence or another PACK); nothing else was read.
    public var authenticationRefused: String?
    /// The chip's configuration as its family read it (Type 2: dynamic lock bytes, CFG0, CFG1) when asked
    /// for and read; passwords (Type 2: PWD and PACK, which read as `00` anyway) are never kept.
    public var configuration: (any ChipConfiguration)?
    /// Why the configuration pages could not be read (NAK, generic tag), when asked for.
    public var configurationUnreadable: String?
    /// The identity anomalies the family refuses, in words, from the units the read brought anyway;
    /// empty when they are consistent or were not read.
    public var identityAnomalies: [String] = []
    /// A keyed tag's settings and key versions (read when `keyedAudit` is given), `nil` otherwise.
    public var keyed: KeyedTagReading?

    /// Creates a read-back result.
    public init(
        message: [UInt8]?, unreadable: String? = nil, lock: LockState? = nil, chip: TagChip? = nil, exchanges: Int = 0
    ) {
        self.message = message
        self.unreadable = unreadable
        self.lock = lock
        self.chip = chip
        self.exchanges = exchanges
    }

    /// Whether the tag was never written: no NDEF formatting, no message, or an empty one (an empty NDEF
    /// TLV as NTAG21x leave the factory, or one empty record, `D0 00 00`).
    public var isBlank: Bool {
        guard let message else { return notNDEF }
        return message.isEmpty || message == [0xD0, 0x00, 0x00]
    }

    /// Whether the tag is permanently read-only as `provision` locks it.
    public var isLockedReadOnly: Bool { lock?.isPermanent ?? false }

    /// Reads the tag selected on `transceiver` through its family with the fewest exchanges and no
    /// WRITE: identify (Type 2: GET_VERSION `60h`, so the message can come by FAST_READ `3Ah`), NDEF
    /// detection (Type 2: READ `30 00`: UID, static locks, CC, and the TLV walk), then the message.
    ///
    /// With `password` (a job with `protect`) on a chip with password protection, the family
    /// authenticates after identify (Type 2: PWD_AUTH `1Bh`), so protected units can be read. A refused
    /// password ends the read there (`authenticationRefused`): each refusal counts toward AUTHLIM.
    ///
    /// With `configuration` (a job that protects tags or mirrors), the family's configuration read-back
    /// follows the message (Type 2: one FAST_READ `3Ah` from the dynamic lock page through CFG1); a
    /// failure, or a family without one, is kept in `configurationUnreadable`.
    ///
    /// With `anticollisionUID`, the units detection read are cross-checked against it at no extra
    /// exchange (Type 2: pages 0–2, both BCCs and INT).
    ///
    /// Tag-level failures (no family, not NDEF formatted, unsupported CC, a NAK) are in `unreadable`.
    ///
    /// - Throws: `TransportError` other than a NAK (silence, tag left the field, reader failure): the
    ///   tag should be presented again.
    public static func read(
        on transceiver: any Transceiver, activation: DetectedTag? = nil, families: TagFamilies = .standard,
        password: TagPassword? = nil, configuration: Bool = false, anticollisionUID: [UInt8]? = nil,
        keyedAudit: KeyedExpectation? = nil
    ) throws(TransportError) -> TagReadBack {
        var result = TagReadBack(message: nil)
        let tag: any FamilyTag
        do {
            tag = try families.open(transceiver, activation: activation)
        } catch {
            result.unreadable = "\(error)"
            return result
        }
        do {
            result.chip = try tag.identify()
            if let password, let protection = tag.passwordProtection {
                do {
                    try protection.authenticate(password: password.pwd, acknowledge: password.pack)
                    result.authenticated = true
                } catch let error as TagError where error.code == .authenticationFailed {
                    result.authenticationRefused = error.message
                    result.exchanges = tag.cost.exchanges
                    return result
                }
            }
            _ = try tag.detectNDEF()
            result.message = try tag.readNDEF()
            if let keyedAudit {
                // After the message was read, so the dynamic message the read produced is the one a phone gets.
                result.keyed = try keyedAudit.scheme.readKeyedState(tag, deepKey: keyedAudit.deepKey)
            }
        } catch let error as TransportError {
            guard case .nak(let code) = error else { throw error }
            result.unreadable = "tag answered NAK \(String(code, radix: 16, uppercase: true))h to a READ"
        } catch let error as TagError {
            result.unreadable = error.message
            result.notNDEF = error.code == .notNDEF
        } catch {
            result.unreadable = "\(error)"
        }
        if configuration, result.unreadable == nil { try result.readConfiguration(of: tag) }
        result.lock = tag.lockState()
        // The units detection read already hold the identity (a lock state means they were read): no exchange.
        if let anticollisionUID, result.lock != nil,
            let found = try? tag.identityAnomalies(anticollisionUID: anticollisionUID)
        {
            result.identityAnomalies = found.descriptions
        }
        result.exchanges = tag.cost.exchanges
        return result
    }

    /// Reads the configuration pages into `configuration`, or says why not in `configurationUnreadable`.
    private mutating func readConfiguration(of tag: any FamilyTag) throws(TransportError) {
        guard let readable = tag.configuration else {
            configurationUnreadable = "the \(tag.family) family has no configuration pages"
            return
        }
        do {
            configuration = try readable.readChipConfiguration()
        } catch let error as TransportError {
            guard case .nak(let code) = error else { throw error }
            let nak = String(code, radix: 16, uppercase: true)
            configurationUnreadable = "tag answered NAK \(nak)h to the read of the configuration pages"
        } catch let error as TagError {
            configurationUnreadable = error.message
        } catch {
            configurationUnreadable = "\(error)"
        }
    }
}
