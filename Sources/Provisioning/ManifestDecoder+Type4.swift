import JSONReader

extension ManifestDecoder {
    /// The `type4` section, allowed only for a Type 4 target; checks the file size against the chip,
    /// and refuses what a Type 4 job cannot do: password protection is an NTAG21x feature (an NTAG 424 DNA lock
    /// needs its keys: `decodeNTAG424`), and of the Type 4 chips only the NTAG 424 DNA has an originality
    /// signature (Read_Sig, `docs/reference/type4.md` §2.9), so `signature` is refused on a generic `type4` job.
    func decodeType4(_ root: JSONNode, tag: TagTarget) throws(JobInputError) -> Type4JobOptions {
        if tag.isType4 || tag.isType5, let node = root["protect"] {
            throw fail(node, "protect", "applies only to \(TagTarget.passwordProtectionList), not \(tag)")
        }
        if tag == .type4, let node = root["signature"] {
            throw fail(
                node, "signature",
                "a generic Type 4 tag has no originality signature provision can check; only NTAG 424 DNA has one "
                    + "(\"tag\": \"ntag424\") among Type 4 tags, NTAG21x and Ultralight EV1 among Type 2 tags")
        }
        if tag.isType5, let node = root["signature"] {
            throw fail(node, "signature", "provision has no originality signature check for Type 5 tags (\(tag))")
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
                    "NTAG 424 DNA's NDEF file holds \(TagTarget.defaultType4FileSize) bytes, "
                        + "not \(options.minimumFileSize)"
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
