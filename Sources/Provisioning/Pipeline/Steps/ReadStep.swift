import NFCTags

/// Read: the pipeline's read-only steps for `append`, `audit` and `inspect`: the family from the
/// activation data, identify (Type 2: GET_VERSION `60`), NFC Forum detection and the message bytes.
///
/// Failure classes: `notNDEF` (nothing to read), `wrongChip` (no family), and the transport classes.
extension TagPipeline {
    /// What the read-only steps found.
    public struct Reading: Sendable {
        /// The chip identified (`nil`: a generic tag of its family).
        public var chip: TagChip?
        /// The NDEF status and capacity.
        public var status: NDEFStatus
        /// The capacity NDEF detection found.
        public var capacity: Int
        /// The NDEF message bytes (`[]` when empty).
        public var message: [UInt8]
    }

    /// Identifies the tag on `transceiver` and reads its NDEF message. Never throws: a tag without NDEF
    /// is `notNDEF`, any other failure its class.
    public static func read(
        on transceiver: any Transceiver, activation: DetectedTag? = nil, families: TagFamilies = .standard
    ) -> Result<Reading, CycleFailure> {
        do {
            let tag = try families.open(transceiver, activation: activation)
            let chip = try tag.identify()
            let (status, capacity) = try tag.queryNDEFStatus()
            guard status != .notSupported else {
                return .failure(
                    CycleFailure(.notNDEF, phase: .identify, "the tag is not NDEF formatted: nothing to read"))
            }
            return .success(Reading(chip: chip, status: status, capacity: capacity, message: try tag.readNDEF()))
        } catch {
            return .failure(CycleFailure(classifying: error, phase: .identify))
        }
    }
}
