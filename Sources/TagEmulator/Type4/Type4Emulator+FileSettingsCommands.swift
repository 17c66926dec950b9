import NFCTags

/// File management of the emulated NTAG 424 DNA (NT4H2421Gx §10.7, `docs/reference/type4.md` §2.7, §2.10):
/// GetFileSettings `90 F5`, ChangeFileSettings `90 5F` (SDM included) and GetFileCounters `90 F6`.
extension Type4Emulator {
    /// GetFileSettings `90 F5 00 00 01 FileNo 00` → FileType, FileOption, AccessRights, FileSize and the SDM
    /// block: free; CommMode.MAC when authenticated.
    ///
    /// - Throws: `91 9D` at PICC level, `91 7E` for data other than the file number, `91 F0` for no such file.
    func getFileSettings(_ apdu: ReceivedAPDU) throws(StatusFailure) -> [UInt8] {
        try requireApplication()
        let (header, data) = try unwrapCommand(apdu, headerLength: 1, mode: .mac)
        guard data.isEmpty else { throw StatusFailure(Type4StatusWord.lengthError) }
        let file = application.files[try fileIndex(header[0])]
        return try secureAnswer(file.settings.fileSettingsAnswer(fileSize: file.size), mode: .mac)
    }

    /// ChangeFileSettings `90 5F 00 00 Lc FileNo E(FileOption ‖ AccessRights ‖ [SDM]) MACt 00`: CommMode.Full
    /// under the file's Change key; plain and unauthenticated when the Change right is `E`. Settings that enable
    /// SDM reset SDMReadCtr to 0.
    ///
    /// - Throws: `91 9D` at PICC level, for a Change right `F` or SDM on a file other than 02; `91 AE` without
    ///   the Change key; `91 F0` for no such file; `91 7E`/`91 1E` from secure messaging or the length of the
    ///   settings; `91 9E` for settings the chip refuses (`Type4SDMSettings.validate`).
    func changeFileSettings(_ apdu: ReceivedAPDU) throws(StatusFailure) -> [UInt8] {
        try requireApplication()
        guard let number = apdu.data.first else { throw StatusFailure(Type4StatusWord.lengthError) }
        let index = try fileIndex(number)
        let file = application.files[index]
        let mode: NTAG424CommMode
        switch (file.settings.change, session.authentication?.keyNumber) {
        case (.never, _): throw StatusFailure(Type4StatusWord.permissionDenied)
        case (.free, nil): mode = .plain
        case (.free, _): mode = .full
        case (.key(let key), let authenticated?) where authenticated == key: mode = .full
        default: throw StatusFailure(Type4StatusWord.authenticationError)
        }
        let (_, data) = try unwrapCommand(apdu, headerLength: 1, mode: mode)
        let settings: Type4FileSettings
        do {
            settings = try Type4FileSettings(decoding: data, sdmCapable: file.supportsSDM)
                .validated(fileSize: file.size, currentCounter: file.sdmReadCounter)
        } catch {
            throw StatusFailure(error.status)
        }
        application.files[index].settings = settings
        if settings.sdm != nil { application.files[index].sdmReadCounter = 0 }
        persistNonVolatileState()
        return try secureAnswer([], mode: mode)
    }

    /// GetFileCounters `90 F6 00 00 01 FileNo 00` → SDMReadCtr (3, LE) ‖ `00 00`: under SDMCtrRet, CommMode.Full
    /// with a key, plain when it is `E` (§2.10).
    ///
    /// - Throws: `91 9D` at PICC level, when SDM or its counter is off, or SDMCtrRet is `F`; `91 AE` without
    ///   the SDMCtrRet key; `91 F0` for no such file; `91 7E` for other data.
    func getFileCounters(_ apdu: ReceivedAPDU) throws(StatusFailure) -> [UInt8] {
        try requireApplication()
        guard let number = apdu.data.first else { throw StatusFailure(Type4StatusWord.lengthError) }
        let file = application.files[try fileIndex(number)]
        guard let sdm = file.settings.sdm, sdm.mirrorsReadCounter else {
            throw StatusFailure(Type4StatusWord.permissionDenied)
        }
        let mode: NTAG424CommMode
        switch (sdm.counterRetrieval, session.authentication?.keyNumber) {
        case (.never, _): throw StatusFailure(Type4StatusWord.permissionDenied)
        case (.free, _): mode = .plain
        case (.key(let key), let authenticated?) where authenticated == key: mode = .full
        default: throw StatusFailure(Type4StatusWord.authenticationError)
        }
        let (_, data) = try unwrapCommand(apdu, headerLength: 1, mode: mode)
        guard data.isEmpty else { throw StatusFailure(Type4StatusWord.lengthError) }
        let counter = (0..<3).map { UInt8(truncatingIfNeeded: file.sdmReadCounter >> (8 * UInt32($0))) }
        return try secureAnswer(counter + [0x00, 0x00], mode: mode)
    }

    /// The index of the file with native number `number`.
    ///
    /// - Throws: `91 F0` FILE_NOT_FOUND.
    func fileIndex(_ number: UInt8) throws(StatusFailure) -> Int {
        guard let index = application.index(ofNumber: number) else { throw StatusFailure(Type4StatusWord.fileNotFound) }
        return index
    }
}
