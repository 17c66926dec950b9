/// UID cross-checks of the pipeline's identification rule (`type2-ntag.md` §2.2, §11).
extension Type2Tag {
    /// The 7-byte UID from pages 0–1 (READ `30 00`, reused from the cache when detection ran).
    public func readUID() throws -> [UInt8] {
        try measure("uid") {
            if cache[0] == nil || cache[1] == nil || cache[2] == nil { _ = try read(page: 0) }
            guard let page0 = cache[0], let page1 = cache[1] else {
                throw Type2Error(.invalidResponse, "pages 0–1 could not be read", page: 0)
            }
            return Array(page0[0..<3]) + page1
        }
    }

    /// Anomalies in pages 0–2 that suggest a clone or a misread, empty when all is consistent.
    ///
    /// Checks UID0 = `04` (NXP), BCC0 = 88 ^ UID0 ^ UID1 ^ UID2, BCC1 = UID3 ^ … ^ UID6, INT = `48`,
    /// and, when given, that the UID equals the one from anticollision. Sends READ `30 00` only when
    /// pages 0–2 are not cached.
    public func uidAnomalies(anticollisionUID: [UInt8]? = nil) throws -> [String] {
        let uid = try readUID()
        guard let page0 = cache[0], let page2 = cache[2] else { return ["pages 0–2 unavailable"] }
        var out: [String] = []
        if uid[0] != 0x04 { out.append("UID0 is not 04 (NXP)") }
        if page0[3] != 0x88 ^ uid[0] ^ uid[1] ^ uid[2] { out.append("BCC0 does not match the UID") }
        if page2[0] != uid[3] ^ uid[4] ^ uid[5] ^ uid[6] { out.append("BCC1 does not match the UID") }
        if page2[1] != 0x48 { out.append("internal byte is not 48") }
        if let anticollisionUID, anticollisionUID != uid { out.append("UID differs from anticollision") }
        return out
    }
}
