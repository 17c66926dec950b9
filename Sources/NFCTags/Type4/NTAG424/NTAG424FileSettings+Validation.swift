extension NTAG424FileSettings {
    /// Mirror window lengths in the file, ASCII: UID 14, SDMReadCtr 6, PICCData 32 (AES), SDMMAC 16 (§3.2).
    public static let uidMirrorLength = 14
    /// SDMReadCtr mirror length.
    public static let counterMirrorLength = 6
    /// Encrypted PICCData mirror length.
    public static let piccDataLength = 32
    /// SDMMAC mirror length.
    public static let macLength = 16

    /// Why ChangeFileSettings with these settings would be refused with `91 9E` (parameter error) by a file of
    /// `fileSize` bytes whose SDMReadCtr is `counter`, or `nil` when the chip accepts them (`type4-ntag424.md`
    /// §2.7). The emulator refuses with it, and pre-flight refuses a template layout with it before any tag.
    public func sdmRefusal(fileSize: Int, counter: Int = 0) -> String? {
        guard let sdm else { return nil }
        let mirrorsSomething = sdm.mirrorsUID || sdm.mirrorsCounter
        if sdm.metaRead != Self.never, !mirrorsSomething { return "SDMMetaRead is set but neither UID nor counter" }
        if sdm.metaRead == Self.never, sdm.mirrorsUID { return "the UID mirror needs SDMMetaRead" }
        if sdm.counterRetrieval != Self.never, !sdm.mirrorsCounter { return "SDMCtrRet needs the counter" }
        if sdm.encOffset != nil {
            if !sdm.hasMAC { return "SDMENCFileData needs SDMFileRead" }
            if !(sdm.mirrorsUID && sdm.mirrorsCounter) { return "SDMENCFileData needs both UID and counter" }
            if let length = sdm.encLength, length == 0 || length % 32 != 0 {
                return "SDMENCLength \(length) is not a multiple of 32"
            }
        }
        if let limit = sdm.counterLimit {
            if !sdm.mirrorsCounter { return "SDMReadCtrLimit needs the counter" }
            if limit <= counter { return "SDMReadCtrLimit \(limit) is not above the counter \(counter)" }
        }
        let windows = mirrorWindows
        for window in windows where window.range.upperBound > fileSize {
            return "\(window.name) at \(window.range.lowerBound) runs past the \(fileSize)-byte file"
        }
        for (index, first) in windows.enumerated() {
            for second in windows[(index + 1)...] where first.range.overlaps(second.range) {
                return
                    "\(first.name) at \(first.range.lowerBound) overlaps \(second.name) at \(second.range.lowerBound)"
            }
        }
        if sdm.hasMAC, let input = sdm.macInputOffset, let mac = sdm.macOffset {
            if input > mac { return "SDMMACInputOffset \(input) is after SDMMACOffset \(mac)" }
            if let start = sdm.encOffset, input > start {
                return "the MAC input at \(input) does not cover the SDMENCFileData window at \(start)"
            }
            if let start = sdm.encOffset, let length = sdm.encLength, mac < start + length {
                return "SDMMACOffset \(mac) is inside the SDMENCFileData window"
            }
        }
        return nil
    }

    /// The mirror windows the chip fills on an unauthenticated read: name and file byte range.
    public var mirrorWindows: [(name: String, range: Range<Int>)] {
        guard let sdm else { return [] }
        var windows: [(name: String, range: Range<Int>)] = []
        func add(_ name: String, _ offset: Int?, _ length: Int) {
            guard let offset, offset != 0xFF_FFFF else { return }
            windows.append((name, offset..<(offset + length)))
        }
        if sdm.hasPlainMirrors {
            if sdm.mirrorsUID { add("UID mirror", sdm.uidOffset, Self.uidMirrorLength) }
            if sdm.mirrorsCounter { add("counter mirror", sdm.counterOffset, Self.counterMirrorLength) }
        }
        if sdm.hasPICCData { add("PICCData", sdm.piccDataOffset, Self.piccDataLength) }
        if sdm.hasMAC {
            if sdm.encOffset != nil { add("SDMENCFileData", sdm.encOffset, sdm.encLength ?? 0) }
            add("SDMMAC", sdm.macOffset, Self.macLength)
        }
        return windows
    }
}
