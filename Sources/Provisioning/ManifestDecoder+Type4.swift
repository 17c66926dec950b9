import JSONReader

extension ManifestDecoder {
    /// The `type4` section, allowed only for a Type 4 target; checks the file size against the chip,
    /// and refuses what a Type 4 job cannot do yet: password protection and originality signatures
    /// are NTAG21x features (an NTAG 424 DNA lock needs its keys: `decodeNTAG424`).
    func decodeType4(_ root: JSONNode, tag: TagTarget) throws(JobInputError) -> Type4JobOptions {
        if tag.isType4 {
            for key in ["protect", "signature"] {
                if let node = root[key] {
                    throw fail(node, key, "applies only to Type 2 tags (NTAG21x, Ultralight EV1), not \(tag)")
                }
            }
        }
        guard let node = root["type4"] else { return Type4JobOptions() }
        guard tag.isType4 else {
            throw fail(node, "type4", "applies only to a Type 4 tag (\"tag\": \"type4\" or \"ntag424\"), not \(tag)")
        }
        _ = try checkKeys(node, "type4", allowed: Type4JobOptions.knownKeys)
        var options = Type4JobOptions()
        if let size = node["minimumFileSize"] {
            // NLEN plus the smallest NDEF message (3 bytes) up to the largest short-offset file (7FFFh).
            options.minimumFileSize = try integer(size, "type4.minimumFileSize", in: 5...0x7FFF)
            if tag == .ntag424, options.minimumFileSize > TagTarget.defaultType4FileSize {
                throw fail(
                    size, "type4.minimumFileSize",
                    "NTAG 424 DNA's NDEF file holds \(TagTarget.defaultType4FileSize) bytes, not \(options.minimumFileSize)"
                )
            }
        }
        if let honours = node["honoursCCWriteByte"] {
            guard case .bool(let value) = honours.kind else {
                throw fail(honours, "type4.honoursCCWriteByte", "must be true or false, found \(honours.kindName)")
            }
            options.honoursCCWriteByte = value
        }
        return options
    }
}
