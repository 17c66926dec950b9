/// The permanent lock of an NTAG 424 DNA without job keys (`provision lock`, a plain `lock: permanent` job):
/// the delivery K0 opens a session that makes the NDEF file refuse every write for good (`docs/reference/type4.md`
/// §1.6, AN12196 §6 step 8).
extension Type4FamilyTag {
    /// The NDEF file's settings once locked: read free, Write, ReadWrite and Change never, plain, no SDM.
    static let lockedNDEFSettings = Type4FileSettings(
        communicationMode: .plain, read: .free, write: .never, readWrite: .never, change: .never)

    /// ```
    /// 90 F5 02                       GetFileSettings (only when the CC already reads FF: a resumed lock)
    /// 90 71 00 00 02 00 00 00, 90 AF AuthenticateEV2First with the delivery K0 (all zero)
    /// 90 5F 02 E(settings) MAC       ChangeFileSettings: Write, ReadWrite and Change never
    /// 90 8D 01 0E00 0100 FF          WriteData of the CC's NDEF write byte, in the same session
    /// (re-activation)                ends the session before the ISO read-back and probe of `writeLock`
    /// ```
    /// Settings already locked (a lock torn after ChangeFileSettings) are not sent again: the chip would refuse
    /// them (Change is never).
    ///
    /// - Throws: `TagError.lockFailed` when the tag refuses the delivery K0 (its keys belong to a keyed job, which
    ///   locks it with its own K0) or a change; transport errors.
    func lockWithDeliveryKey(_ container: Type4CapabilityContainer) throws {
        guard let native = ntag424 else { throw TagError(.lockUnsupported, chipModel.lockRefusal) }
        let settings = Self.lockedNDEFSettings
        let locked = settings.fileSettingsAnswer(fileSize: chipModel.ndefFileSize ?? 256)
        let settingsDone = try container.writeAccess == .denied && native.getFileSettings(0x02) == locked
        if settingsDone { return }  // both changes made (the CC byte is written second)
        do {
            try native.authenticateEV2First(keyNumber: 0, key: [UInt8](repeating: 0, count: 16))
        } catch let error as NTAG424Error where error.kind == .authentication {
            throw TagError(
                .lockFailed,
                "the NTAG 424 DNA refused its delivery K0 (it was personalised with other keys; the keyed job that "
                    + "holds them locks it)", cause: error)
        }
        do {
            if !settingsDone { try native.changeFileSettings(0x02, settings: settings.encoded) }
            if container.writeAccess != .denied {
                try native.writeData(0x01, offset: container.writeAccessOffset, [0xFF], mode: .plain)
            }
        } catch let error as NTAG424Error {
            throw TagError(.lockFailed, "the NTAG 424 DNA refused the lock: \(error)", cause: error)
        }
        try tag.reactivate()
    }
}
