import JSONReader

extension ManifestDecoder {
    /// The `ntag424` section, allowed only for an NTAG 424 DNA job, and the lock mode that needs it: `keys` hands
    /// writes to K3 (docs/authentication.md). `permanent` without the section uses the delivery K0.
    func decodeNTAG424(
        _ root: JSONNode, job: String, tag: TagTarget, lock: Manifest.LockMode, keys: [String: KeySource]
    ) throws(JobInputError) -> NTAG424JobOptions? {
        let lockNode = root["lock"]
        guard let node = root["ntag424"] else {
            if lock == .keys, let lockNode {
                throw fail(lockNode, "lock", "\"keys\" applies only to an NTAG 424 DNA job with an \"ntag424\" section")
            }
            return nil
        }
        guard tag == .ntag424 else {
            throw fail(node, "ntag424", "applies only to \"tag\": \"ntag424\", not \(tag)")
        }
        _ = try checkKeys(node, "ntag424", allowed: NTAG424JobOptions.knownKeys)
        let masterNode = try required(node, "master", in: "ntag424")
        let master = try string(masterNode, "ntag424.master")
        guard keys[master] != nil else {
            let known = keys.keys.sorted().map { "'\($0)'" }.joined(separator: ", ")
            throw fail(
                masterNode, "ntag424.master",
                "names key '\(master)', which the \"keys\" section does not define"
                    + (known.isEmpty ? " (it defines none)" : " (it defines \(known))"))
        }
        let limit = NTAG424JobOptions.maximumSystemIdentifier
        let identifier: [UInt8]
        if let field = node["systemIdentifier"] {
            identifier = Array(try string(field, "ntag424.systemIdentifier").utf8)
            guard (1...limit).contains(identifier.count) else {
                throw fail(
                    field, "ntag424.systemIdentifier", "is \(identifier.count) bytes of UTF-8; it must be 1 to \(limit)"
                )
            }
        } else {
            identifier = Array(job.utf8)
            guard identifier.count <= limit else {
                throw fail(
                    node, "ntag424.systemIdentifier",
                    "is missing, and the job name '\(job)' (\(identifier.count) bytes) is longer than the \(limit) "
                        + "bytes it may default to: set \"systemIdentifier\" (UTF-8, 1 to \(limit) bytes)")
            }
        }
        let macInput =
            try node["macInput"].map { field throws(JobInputError) in
                try choice(field, "ntag424.macInput", NTAG424JobOptions.MACInput.self)
            } ?? .picc
        return NTAG424JobOptions(master: master, systemIdentifier: identifier, macInput: macInput)
    }
}
