/// What a run of tags failing with one class most likely means, for the operator message of a paused reader.
extension FailureClass {
    /// The likely cause of many tags in a row failing with this class, and what to check.
    public var likelyCause: String {
        switch self {
        case .signatureInvalid:
            "the job's signature policy requires a trusted originality signature: check the manifest's trust keys"
        case .wrongChip: "the tags are of another chip than the job takes: load the right reel"
        case .lockUnsupported:
            "the job locks and these tags' chip has no lock provision can make and prove: use another chip, "
                + "or a job that does not lock"
        case .capacity: "the message does not fit these tags: use a larger chip or a shorter template"
        case .readOnly: "the tags are locked or write-protected: a used reel, or the wrong one"
        case .notNDEF: "the tags are not NDEF-formatted: use formatted tags, or set \"format\": true"
        case .duplicateUID: "the tags were provisioned by another job: a used reel"
        case .identityMismatch: "the tags' pages 0–2 disagree with their UID: clones, or a faulty reader"
        case .protectFailed: "password protection cannot be set on these tags: check the chip and the job's key"
        case .tagLost: "tags leave the field before they are done: hold each tag until it is released"
        case .timeout, .nak, .transport: "the reader or its antenna is failing: check the reader and the tag's place"
        case .verifyMismatch: "what is read back differs from what was written: faulty tags or reader"
        case .lockFailed: "the lock does not read back as set: faulty tags, or a chip the job does not suit"
        }
    }
}
