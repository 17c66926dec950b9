/// `provision inspect` on a Type 4 tag: the ATS from the activation, GetVersion, the NTAG 424 DNA's originality
/// signature, the CC, NLEN and the message, and with `dump` the NDEF file, as family-neutral values
/// (`TagInspection`).
extension Type4FamilyTag: Inspectable {
    public var inspection: (any Inspectable)? { self }

    /// Identifies with GetVersion `90 60` (three APDUs at most); on an NTAG 424 DNA sends Read_Sig `90 3C`; then
    /// runs NDEF detection (SELECT `00 A4`, READ BINARY `00 B0` of the CC and NLEN) and reads the message in MLe
    /// pieces; with `dump`, the rest of the NDEF file. The ATS costs nothing: the reader
    /// reported it with the activation. A Type 4 tag has no password (keys are personalisation's), so a
    /// `password` is noted as not sent.
    public func inspect(
        anticollisionUID: [UInt8], dump: Bool, password: InspectionPassword?
    ) throws -> TagInspection {
        try identify()
        let version = versionAnswer?.version
        var result = TagInspection(
            identity: TagInspection.Identity(
                chip: chip, genericName: Type4ChipModel.generic.chip.displayName,
                version: versionAnswer.flatMap { $0.parts.isEmpty ? nil : $0.bytes }, vendor: version?.hardware.vendor,
                genericReason: genericReason))
        result.identifyCost = tag.total
        result.anomalies = try identityAnomalies(anticollisionUID: anticollisionUID).descriptions
        if password != nil {
            result.authentication = .init(
                status: "notSent", detail: "a Type 4 tag has no password; NTAG 424 DNA keys come with personalisation")
        }
        result.protection = Type4ChipSection(ats: activation?.ats ?? [], version: version)
        try readSignature(into: &result)
        readsWholeCC = true
        try readNDEF(into: &result)
        if let container = tag.capabilityContainer {
            result.locks = Type4FileSection(container, nlen: result.messageLength)
            if let reason = statusReason { result.notes.append(reason) }
            if dump {
                do {
                    result.dump = try tag.readNDEFFile(atLeast: container.ndefFileSize).chunked(16)
                    result.notes.append(
                        "dump: NDEF file \(Type4FileSection(container, nlen: nil).ndefFile.file) "
                            + "in 16-byte rows")
                } catch let error as StatusWordError {
                    result.notes.append("the NDEF file could not be read to its end: \(error)")
                }
            }
        }
        result.cost = tag.total
        result.cost.subtract(result.identifyCost)
        return result
    }

    /// The NTAG 424 DNA's originality signature (Read_Sig `90 3C`) and the key it is checked against, or why it
    /// could not be read; nothing for other chips.
    private func readSignature(into result: inout TagInspection) throws {
        guard let originality else { return }
        result.signatureKeys = [.ntag424]
        do {
            result.signature = try originality.readSignature()
        } catch let error as TransportError where error == .tagLost {
            throw error
        } catch let error as TagError {
            result.signatureError = error.message
        } catch let error as TransportError {
            result.signatureError = "Read_Sig failed: \(error)"
            if error == .noAnswer { try reactivate() }  // a new RATS resets whatever block state silence left
        } catch {
            result.signatureError = "Read_Sig refused: \(error)"
        }
    }

    /// NDEF detection and the message, or why they could not be read.
    private func readNDEF(into result: inout TagInspection) throws {
        do {
            let (status, capacity) = try queryNDEFStatus()
            (result.status, result.capacity) = (status, capacity)
            guard status != .notSupported, let container = tag.capabilityContainer else { return }
            result.messageLength = try tag.messageLength(container)
            result.message = try readNDEF()
        } catch let error as TagError {
            result.ndefError = error.message
        } catch let error as StatusWordError {
            result.ndefError = "the tag refused: \(error)"
        }
    }
}
