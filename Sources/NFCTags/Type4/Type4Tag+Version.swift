/// NXP's native GetVersion on an ISO-DEP tag (`docs/reference/type4.md` §2.1–§2.3): free without authentication on
/// NTAG 424 DNA and MIFARE DESFire, refused by other T4Ts with an ISO status word.
extension Type4Tag {
    /// GetVersion `90 60 00 00 00`, then `90 AF 00 00 00` while the tag answers `91 AF`, at most three APDUs.
    ///
    /// The command is always driven to its end when the tag takes it: a pending GetVersion would make the
    /// NTAG 424 DNA answer the next ISO command with `69 85` (§5.1). A tag that refuses it (`6E 00` CLA not
    /// supported, `6D 00` INS not supported, `91 1C` illegal command, any other word) keeps no pending state,
    /// so the ISO SELECT that follows is answered normally. A tag that wants a fourth part is left open
    /// (`leftOpen`); `Type4FamilyTag` then repeats its first SELECT once if it is refused with `69 85`/`91 CA`.
    ///
    /// - Throws: `TransportError` only; a refusal is an answer, not an error.
    public func getVersion() throws(TransportError) -> Type4VersionAnswer {
        var parts: [[UInt8]] = []
        var command = CommandAPDU(cla: 0x90, ins: 0x60, p1: 0x00, p2: 0x00, le: 256)
        var status: UInt16 = 0
        for _ in 0..<3 {
            let response = try exchange(command)
            status = response.status
            guard status == 0x91AF || status == 0x9100 else { break }
            parts.append(response.data)
            guard status == 0x91AF else { break }
            command = CommandAPDU(cla: 0x90, ins: 0xAF, p1: 0x00, p2: 0x00, le: 256)
        }
        return Type4VersionAnswer(parts: parts, status: status)
    }
}
