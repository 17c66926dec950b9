import JSONReader

extension ManifestDecoder {
    /// Refuses what a Type 3 job cannot do: password protection is an NTAG21x feature and a FeliCa tag has no
    /// originality signature this tool can check (`docs/reference/type3.md` §1; Lite-S authentication is by card key).
    func checkType3(_ root: JSONNode, tag: TagTarget) throws(JobInputError) {
        guard tag.isType3 else { return }
        if let node = root["protect"] {
            throw fail(node, "protect", "applies only to Type 2 tags (NTAG21x, Ultralight EV1), not \(tag)")
        }
        if let node = root["signature"] {
            throw fail(node, "signature", "a FeliCa tag has no originality signature provision can check")
        }
    }
}
