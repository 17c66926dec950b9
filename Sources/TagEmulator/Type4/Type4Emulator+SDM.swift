import Crypto
import NFCTags

/// Secure Dynamic Messaging on the emulated NTAG 424 DNA's reads (NT4H2421Gx §9.3, `docs/reference/type4.md` §3.1,
/// §5.3): SDMReadCtr and the read sequence that shares one output.
///
/// The first successful unauthenticated read of an SDM file (ISOReadBinary or ReadData) increments
/// SDMReadCtr, draws PICCData's random padding and builds the whole output (`Type4SDMSettings.mirrored`);
/// further reads of the same kind, each the very next command, slice the same output, so chunked reads stay
/// consistent. Any other command in between, or the other read command, starts a new sequence. The output is
/// never written back: the file keeps its placeholders.
extension Type4Emulator {
    /// The bytes an unauthenticated read of kind `kind` returns from file `index`: its SDM output.
    ///
    /// - Throws: once SDMReadCtr is at `FFFFFF` or at SDMReadCtrLimit, `69 82` for ISOReadBinary and `91 9D`
    ///   for ReadData.
    func sdmOutput(file index: Int, kind: Type4SDMReadSequence.Kind) throws(StatusFailure) -> [UInt8] {
        let file = application.files[index]
        guard let sdm = file.settings.sdm else { return file.bytes }
        let command = session.commandNumber
        if var sequence = session.sdmRead, sequence.kind == kind, sequence.file == file.number,
            sequence.commandNumber == command - 1
        {
            sequence.commandNumber = command
            session.sdmRead = sequence
            return sequence.bytes
        }
        var counter = file.sdmReadCounter
        if sdm.mirrorsReadCounter {
            guard counter < min(sdm.readCounterLimit ?? 0xFF_FFFF, 0xFF_FFFF) else {
                throw StatusFailure(
                    kind == .readData ? Type4StatusWord.permissionDenied : Type4StatusWord.securityStatus)
            }
            counter += 1
            application.files[index].sdmReadCounter = counter
            persistNonVolatileState()
        }
        let padding = sdm.metaReadKey == nil ? [] : drawn(.sdmPadding, count: sdm.piccDataPaddingLength)
        let keys = application.keys
        let bytes = try crypt { () throws(AES128Error) in
            try sdm.mirrored(file.bytes, uid: uid, counter: counter, padding: padding) { keys[Int($0)].value }
        }
        session.sdmRead = Type4SDMReadSequence(
            kind: kind, file: file.number, commandNumber: command, bytes: bytes)
        return bytes
    }
}
