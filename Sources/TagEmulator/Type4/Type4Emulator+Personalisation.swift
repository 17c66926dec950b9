import NFCTags

/// Setters of the emulated NTAG 424 DNA's secure non-volatile state for the simulator side (a tag already
/// personalised, a counter near its limit), checked as the chip's own commands would check them
/// (`docs/reference/type4.md` §2.7, §2.8, §5.1). Each persists like a command would (`secureStateWritten()`).
extension Type4Emulator {
    /// Application key `number` (0–4) with its version.
    ///
    /// - Throws: `Type4EmulatorError.invalidSetting` for a chip without keys.
    public func key(_ number: Int) throws(Type4EmulatorError) -> Type4Key {
        guard application.keys.indices.contains(number) else { throw .invalidSetting("no key \(number)") }
        return application.keys[number]
    }

    /// Sets application key `number` (0–4) to `value` (16 bytes) with `version`, as ChangeKey would.
    ///
    /// - Throws: `Type4EmulatorError.invalidSetting` for another key number or length.
    public func setKey(_ number: Int, to value: [UInt8], version: UInt8) throws(Type4EmulatorError) {
        guard application.keys.indices.contains(number) else { throw .invalidSetting("no key \(number)") }
        guard value.count == 16 else { throw .invalidSetting("an AES-128 key is 16 bytes, got \(value.count)") }
        application.keys[number] = Type4Key(value: value, version: version)
        secureStateWritten()
    }

    /// Sets the settings of file `number` as ChangeFileSettings would (SDM enabled resets SDMReadCtr to 0).
    ///
    /// - Throws: `Type4EmulatorError.invalidSetting` for no such file or settings the chip refuses.
    public func setFileSettings(_ settings: Type4FileSettings, ofFile number: UInt8) throws(Type4EmulatorError) {
        guard let index = application.index(ofNumber: number) else { throw .invalidSetting("no file \(number)") }
        let file = application.files[index]
        do {
            let decoded = try Type4FileSettings(decoding: settings.encoded, sdmCapable: file.supportsSDM)
            application.files[index].settings = try decoded.validated(
                fileSize: file.size, currentCounter: file.sdmReadCounter)
        } catch {
            throw .invalidSetting("file \(number): \(error)")
        }
        if settings.sdm != nil { application.files[index].sdmReadCounter = 0 }
        secureStateWritten()
    }

    /// Sets SDMReadCtr of file `number` (24 bits), e.g. to start a simulated tag near its limit.
    ///
    /// - Throws: `Type4EmulatorError.invalidSetting` for no such file or a value above `FFFFFF`.
    public func setSDMReadCounter(_ value: UInt32, ofFile number: UInt8) throws(Type4EmulatorError) {
        guard let index = application.index(ofNumber: number) else { throw .invalidSetting("no file \(number)") }
        guard value <= 0xFF_FFFF else { throw .invalidSetting("SDMReadCtr is 24 bits, got \(value)") }
        application.files[index].sdmReadCounter = value
        secureStateWritten()
    }
}
