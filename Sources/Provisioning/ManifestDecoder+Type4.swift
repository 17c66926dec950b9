import JSONReader
import NFCTags

extension ManifestDecoder {
    /// The `type4` section, allowed only for a Type 4 target; checks the file size against the chip's NDEF file
    /// (`ChipDescriptor.userMemory`), and refuses what a Type 4 job cannot do: password protection is a Type 2
    /// feature (a keyed chip's lock needs its keys: `decodeKeyed`), and a Type 4 target whose chips have no
    /// originality signature (`ChipCapabilities.originalitySignature`; `docs/reference/type4.md` §2.9) may not ask
    /// for one.
    func decodeType4(_ root: JSONNode, tag: TagTarget) throws(JobInputError) -> Type4JobOptions {
        let type4Job = tag.family == Type4Family.name
        if type4Job || tag.family == Type5Family.name, let node = root["protect"] {
            throw fail(node, "protect", "applies only to \(TagTarget.passwordProtectionList), not \(tag)")
        }
        if type4Job, tag.capabilities.originalitySignature == nil, let node = root["signature"] {
            throw fail(
                node, "signature",
                "a generic Type 4 tag has no originality signature provision can check; only \(Self.signedType4) "
                    + "among Type 4 tags, and "
                    + TagTarget.list("tags") {
                        $0.family != Type4Family.name && $0.capabilities.originalitySignature != nil
                    })
        }
        if tag.family == Type5Family.name, let node = root["signature"] {
            throw fail(node, "signature", "provision has no originality signature check for Type 5 tags (\(tag))")
        }
        guard let node = root["type4"] else { return Type4JobOptions() }
        guard type4Job else {
            throw fail(node, "type4", "applies only to a Type 4 tag (\(Self.type4Targets)), not \(tag)")
        }
        _ = try checkKeys(node, "type4", allowed: Type4JobOptions.knownKeys)
        var options = Type4JobOptions()
        if let size = node["minimumFileSize"] {
            // NLEN plus the smallest NDEF message (3 bytes) up to the largest short-offset file (7FFFh).
            options.minimumFileSize = try integer(size, "type4.minimumFileSize", in: 5...0x7FFF)
            if !tag.descriptor.isFamilyWide, let file = tag.descriptor.userMemory, options.minimumFileSize > file {
                throw fail(
                    size, "type4.minimumFileSize",
                    "\(tag.displayName)'s NDEF file holds \(file) bytes, not \(options.minimumFileSize)")
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

    /// The Type 4 family's targets as a manifest writes them (`"tag": "type4" or "…"`), family-wide first.
    static var type4Targets: String {
        let family = TagFamilies.standard.named(Type4Family.name)
        let descriptors = [family?.anyChip].compactMap { $0 } + (family?.chips ?? [])
        return "\"tag\": " + descriptors.map { "\"\($0.manifestName)\"" }.joined(separator: " or ")
    }

    /// The Type 4 chips with an originality signature (`NAME has one ("tag": "name")`).
    static var signedType4: String {
        let signed = (TagFamilies.standard.named(Type4Family.name)?.chips ?? []).filter {
            $0.capabilities.originalitySignature != nil
        }
        let names = signed.map(\.displayName).joined(separator: " and ")
        let tags = signed.map { "\"tag\": \"\($0.manifestName)\"" }.joined(separator: ", ")
        return "\(names) \(signed.count == 1 ? "has" : "have") one (\(tags))"
    }
}
