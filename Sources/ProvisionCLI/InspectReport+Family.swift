import NDEF
import NFCTags
import Provisioning

/// Inspection through the tag's family: the family is chosen from the activation data; a family with
/// its own inspection (`Inspectable`, Type 2) shows everything it has, any other shows what the seam
/// gives (chip, NDEF status and capacity, the message).
extension InspectReport {
    /// What was read on the reader's queue; `InspectReport(facts:)` interprets it outside it.
    struct Facts: Sendable {
        /// The family that handled the tag.
        var family: String
        /// What the family read.
        var inspection: TagInspection
        /// The id of the key the password was derived from (`--manifest`), never the key.
        var keyID: String?
    }

    /// Identifies the tag on `transceiver` through its family and reads what `inspect` shows.
    static func gather(
        on transceiver: any Transceiver, detected: DetectedTag, families: TagFamilies, dump: Bool,
        password: (key: String, value: TagPassword)?
    ) throws -> Facts {
        let tag = try families.open(transceiver, activation: detected)
        if let inspectable = tag.inspection {
            let secret = password.map {
                InspectionPassword(password: $0.value.pwd, acknowledge: $0.value.pack, keyID: $0.key)
            }
            let inspection = try inspectable.inspect(anticollisionUID: detected.uid, dump: dump, password: secret)
            return Facts(family: tag.family, inspection: inspection, keyID: password?.key)
        }
        let chip = try tag.identify()
        var inspection = TagInspection(
            identity: TagInspection.Identity(chip: chip, genericName: "generic \(tag.family) tag"))
        inspection.identifyCost = TagOperationCost(name: "identify", exchanges: tag.cost.exchanges)
        do {
            let (status, capacity) = try tag.queryNDEFStatus()
            inspection.status = status
            inspection.capacity = capacity
            if status != .notSupported {
                let message = try tag.readNDEF()
                inspection.message = message
                inspection.messageLength = message.count
            }
        } catch let error as TagError {
            inspection.ndefError = error.message
        }
        if dump {
            inspection.notes.append("--dump needs the family's own inspection; the \(tag.family) family has none")
        }
        inspection.cost = TagOperationCost(
            name: "inspect", exchanges: tag.cost.exchanges - inspection.identifyCost.exchanges)
        return Facts(family: tag.family, inspection: inspection, keyID: password?.key)
    }
}
