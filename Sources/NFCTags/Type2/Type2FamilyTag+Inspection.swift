/// `provision inspect` on a Type 2 tag: GET_VERSION, pages 0–3, the configuration pages, the NDEF
/// area, READ_SIG and an optional dump, as family-neutral values (`TagInspection`).
extension Type2FamilyTag: Inspectable {
    public var inspection: (any Inspectable)? { self }

    /// Identifies with GET_VERSION `60` only (an unidentified tag stays generic, with its reason), then
    /// reads with the fewest exchanges: READ `30 00` (UID, locks, CC), one READ of the dynamic lock /
    /// configuration pages, the NDEF TLV walk and message (FAST_READ), READ_SIG `3C 00`, and with `dump`
    /// the remaining readable pages. With `password`, PWD_AUTH `1Bh` comes first, so read-protected
    /// pages can be read.
    public func inspect(
        anticollisionUID: [UInt8], dump: Bool, password: InspectionPassword?
    ) throws -> TagInspection {
        let identity = try tag.identify()
        var result = TagInspection(
            identity: TagInspection.Identity(
                chip: identity.chip?.tagChip, genericName: "generic Type 2", version: identity.version,
                vendor: identity.vendor, suspectedClone: identity.isSuspectedClone,
                genericReason: identity.genericReason))
        result.identifyCost = tag.total
        result.signatureKeys = identity.chip?.originalityKeys ?? [.ntag21x, .ultralightEV1]
        if let password { result.authentication = try authenticate(with: password) }
        result.anomalies = try tag.uidAnomalies(anticollisionUID: anticollisionUID)
        var configuration: Type2Configuration?
        if tag.chip != nil {
            do {
                configuration = try tag.readConfiguration()
            } catch let error as TagError {
                result.notes.append("configuration pages not readable: \(error.message)")
            } catch let error as TransportError where error != .tagLost {
                result.notes.append("configuration pages not readable (\(error)): " + Self.protectedHint(result))
            }
        }
        result.locks = Type2LockSection(
            pages: (0..<4).compactMap { tag.cachedPage($0) }, configuration: configuration, chip: identity.chip)
        if let configuration, let chip = identity.chip {
            result.protection = Type2ProtectionSection(configuration, chip: chip)
        }
        try readNDEF(into: &result)
        if tag.transceiver.supportsRawCommands {
            do {
                result.signature = try tag.readSignature()
            } catch let error as TransportError where error != .tagLost {
                result.notes.append("READ_SIG refused: \(error)")
            } catch let error as TagError {
                result.notes.append("READ_SIG failed: \(error.message)")
            }
        }
        if dump {
            let authenticated = result.authentication?.status == "accepted"
            result.dump = try dumpPages(
                configuration: configuration, authenticated: authenticated, notes: &result.notes)
        }
        result.cost = tag.total
        result.cost.subtract(result.identifyCost)
        return result
    }

    /// NDEF detection and the message, or why they could not be read.
    private func readNDEF(into result: inout TagInspection) throws {
        do {
            let (status, capacity) = try tag.queryNDEFStatus()
            result.status = status
            result.capacity = capacity
            if status != .notSupported {
                result.messageLength = tag.area?.messageLength
                result.message = try tag.readNDEF()
            }
        } catch let error as TagError {
            result.ndefError = error.message
        } catch let error as TransportError where error != .tagLost {
            result.ndefError = "the tag refused to read the NDEF area (\(error)): " + Self.protectedHint(result)
        }
    }

    /// PWD_AUTH with the derived password; the outcome in words (never the password).
    private func authenticate(with password: InspectionPassword) throws -> TagInspection.Authentication {
        let key = password.keyID
        guard tag.chip?.isNTAG == true else {
            return .init(status: "notSent", detail: "not an NTAG21x: no PWD_AUTH sent")
        }
        do {
            try tag.authenticate(password: password.password, expectedPACK: password.acknowledge)
            return .init(
                status: "accepted",
                detail: "PWD_AUTH with the password derived from key \(key) for this UID; the PACK matched")
        } catch let error as TagError where error.code == .authenticationFailed {
            return .init(
                status: "refused",
                detail: "the password derived from key \(key) was refused (\(error.message)); "
                    + "each refusal counts toward AUTHLIM")
        }
    }

    /// Why a READ was refused, when the tag is read-protected.
    private static func protectedHint(_ result: TagInspection) -> String {
        switch result.authentication?.status {
        case "accepted": "refused although authenticated"
        case "refused": "read-protected (PROT), and the password was refused"
        default: "read-protected (PROT)? use --manifest with the job that protected it"
        }
    }

    /// Every page the tag lets us read: all pages of a known chip (up to AUTH0 when PROT is set and the
    /// tag is not authenticated), or pages 0 to the end of the CC's data area on a generic tag.
    private func dumpPages(
        configuration: Type2Configuration?, authenticated: Bool, notes: inout [String]
    ) throws -> [[UInt8]] {
        var last: Int
        if let chip = tag.chip {
            last = chip.lastPage
            if let configuration, configuration.readProtected, !authenticated, Int(configuration.auth0) <= last {
                last = Int(configuration.auth0) - 1
                notes.append("dump stops before page \(configuration.auth0) (AUTH0 with PROT: reads need the password)")
            }
        } else {
            let cc = tag.cachedPage(3).flatMap(CapabilityContainer.init)
            last = (cc?.hasNDEFMagic ?? false) ? (cc?.dataAreaEnd ?? 64) / 4 - 1 : 15
            notes.append("generic Type 2 tag: dump limited to pages 0–\(last) (the size is unknown)")
        }
        let bytes = try tag.readPages(0...last)
        return bytes.chunked(4)
    }
}

extension ChipModel {
    /// The published originality-signature key of the chip's product line.
    public var originalityKeys: [OriginalityKey] {
        switch self {
        case .mf0ul11, .mf0ul21: [.ultralightEV1]
        case .ntag213, .ntag215, .ntag216: [.ntag21x]
        }
    }
}

extension TagOperationCost {
    /// Takes away what `earlier` had already counted (airtime `nil` when either is unknown).
    mutating func subtract(_ earlier: TagOperationCost) {
        exchanges -= earlier.exchanges
        reactivations -= earlier.reactivations
        writes -= earlier.writes
        if let airtime = airtimeMicroseconds, let before = earlier.airtimeMicroseconds {
            airtimeMicroseconds = airtime - before
        }
    }
}
