import JSONReader
import NFCTags

extension ManifestDecoder {
    /// Refuses what a Type 3 job cannot do: its chips have no password protection, and a FeliCa tag has no
    /// originality signature this tool can check (`docs/reference/type3.md` §1; Lite-S authentication is by card key).
    func checkType3(_ root: JSONNode, tag: TagTarget) throws(JobInputError) {
        guard tag.family == Type3Family.name else { return }
        if let node = root["protect"], !tag.capabilities.passwordProtection {
            throw fail(node, "protect", "applies only to \(TagTarget.passwordProtectionList), not \(tag)")
        }
        if let node = root["signature"] {
            throw fail(node, "signature", "a FeliCa tag has no originality signature provision can check")
        }
    }
}
