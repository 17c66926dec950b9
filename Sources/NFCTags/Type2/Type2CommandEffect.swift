/// Which Type 2 / NTAG21x commands can change a page (`docs/reference/type2.md` §3.1): the line holds these
/// until its claim is durable, and lets the rest through at once.
public enum Type2CommandEffect {
    /// Opcodes that change no page: READ `30`, FAST_READ `3A`, GET_VERSION `60`, READ_SIG `3C`,
    /// READ_CNT `39`, HLTA `50`, and PWD_AUTH `1B` (it authenticates; a refused one only counts toward
    /// AUTHLIM). Everything else — WRITE `A2`, COMPATIBILITY_WRITE `A0`, and any opcode not listed —
    /// counts as a write.
    public static let pagePreservingOpcodes: Set<UInt8> = [0x30, 0x3A, 0x60, 0x3C, 0x39, 0x50, 0x1B]

    /// Whether `command` (opcode first, no CRC) may change a page of the tag.
    public static func mayWrite(_ command: [UInt8]) -> Bool {
        guard let opcode = command.first else { return false }
        return !pagePreservingOpcodes.contains(opcode)
    }
}
