import NFCTags

/// The secure-state trailer of an NTAG 424 DNA image: what the chip keeps in NVM besides the files' bytes
/// (keys, key versions, file settings with SDM, SDMReadCtr; `docs/reference/type4.md` §5.1), so that `store=DIR`
/// reloads a personalised tag as it left.
///
/// ```
/// image    = file 01 ‖ file 02 ‖ file 03 [‖ trailer]        (no trailer: delivery keys and settings)
/// trailer  = "N424" (4E 34 32 34) ‖ version 02 ‖ body length (2, big-endian) ‖ body
/// body v2  = 5 × (key (16) ‖ key version (1) ‖ TotFailCtr (2, big-endian))      (v1: without TotFailCtr)
///            ‖ file count (1)
///            ‖ per file: FileNo (1) ‖ SDMReadCtr (3, LE) ‖ n (1) ‖ ChangeFileSettings data (n)
/// ```
///
/// The trailer is written only once the secure state has left the delivery state (a ChangeKey, a
/// ChangeFileSettings, a counted SUN read), so an untouched tag's image stays the files alone.
///
/// The settings use the chip's own ChangeFileSettings encoding (FileOption ‖ AccessRights ‖ SDM block), so
/// one decoder serves the command and the store. A later version adds fields after these; a reader refuses
/// versions it does not know rather than guess.
extension Type4Application {
    /// The trailer's magic, ASCII `N424`.
    static let trailerMagic: [UInt8] = [0x4E, 0x34, 0x32, 0x34]
    /// The trailer version this code writes and reads.
    static let trailerVersion: UInt8 = 0x02

    /// The trailer for the current keys, settings and counters.
    var secureStateTrailer: [UInt8] {
        var body: [UInt8] = keys.flatMap {
            $0.value + [$0.version, UInt8($0.failures >> 8), UInt8($0.failures & 0xFF)]
        }
        body.append(UInt8(files.count))
        for file in files {
            let settings = file.settings.encoded
            body.append(file.number)
            body += (0..<3).map { UInt8(truncatingIfNeeded: file.sdmReadCounter >> (8 * UInt32($0))) }
            body.append(UInt8(settings.count))
            body += settings
        }
        return Self.trailerMagic + [Self.trailerVersion, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    }

    /// Restores keys, settings and counters from `trailer` (everything after the files' bytes).
    ///
    /// - Throws: `Type4EmulatorError.imageTrailer` for a wrong magic, an unknown version, a length that does
    ///   not match, an unknown file or settings the chip would refuse.
    mutating func restoreSecureState(_ trailer: [UInt8]) throws(Type4EmulatorError) {
        guard trailer.count >= 7, Array(trailer.prefix(4)) == Self.trailerMagic else {
            throw .imageTrailer("no N424 trailer after the files")
        }
        guard (1...Self.trailerVersion).contains(trailer[4]) else {
            throw .imageTrailer("unknown version \(trailer[4])")
        }
        let keyEntry = trailer[4] == 1 ? 17 : 19
        let length = Int(trailer[5]) << 8 | Int(trailer[6])
        guard trailer.count == 7 + length else {
            throw .imageTrailer("body of \(trailer.count - 7) bytes, \(length) announced")
        }
        var cursor = trailer[7...]
        func take(_ count: Int) throws(Type4EmulatorError) -> [UInt8] {
            guard cursor.count >= count else { throw .imageTrailer("body ends early") }
            defer { cursor = cursor.dropFirst(count) }
            return Array(cursor.prefix(count))
        }
        var restoredKeys: [Type4Key] = []
        for _ in keys.indices {
            let entry = try take(keyEntry)
            let failures = keyEntry == 19 ? UInt16(entry[17]) << 8 | UInt16(entry[18]) : 0
            restoredKeys.append(Type4Key(value: Array(entry.prefix(16)), version: entry[16], failures: failures))
        }
        var restoredFiles = files
        guard try take(1)[0] == files.count else { throw .imageTrailer("file count differs from the chip's") }
        for _ in files.indices {
            let head = try take(5)
            guard let index = index(ofNumber: head[0]) else { throw .imageTrailer("no file \(head[0])") }
            let file = files[index]
            let encoded = try take(Int(head[4]))
            do {
                restoredFiles[index].settings = try Type4FileSettings(decoding: encoded, sdmCapable: file.supportsSDM)
                    .validated(fileSize: file.size, currentCounter: 0)
            } catch {
                throw .imageTrailer("file \(file.number) settings: \(error)")
            }
            restoredFiles[index].sdmReadCounter = head[1...3].reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }
        guard cursor.isEmpty else { throw .imageTrailer("\(cursor.count) bytes after the last file") }
        keys = restoredKeys
        for index in files.indices {
            files[index].settings = restoredFiles[index].settings
            files[index].sdmReadCounter = restoredFiles[index].sdmReadCounter
        }
    }
}
