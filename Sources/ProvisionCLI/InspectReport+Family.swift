import NDEF
import NFCTags
import Provisioning

/// Inspection through the tag's family: the family is chosen from the activation data, the tag is
/// identified once, and a Type 2 tag gets its page-level facets (locks, configuration, signature, dump).
extension InspectReport {
    /// Identifies the tag on `transceiver` through its family and reads what `inspect` shows. A family
    /// other than Type 2 shows what the seam gives: chip, NDEF status and capacity, the message.
    static func gather(
        on transceiver: any Transceiver, detected: DetectedTag, families: TagFamilies, dump: Bool,
        password: (key: String, value: TagPassword)?
    ) throws -> Facts {
        let tag = try families.open(transceiver, activation: detected)
        if let type2 = tag as? Type2FamilyTag {
            let meter = PhaseMeter(type2.tag)
            _ = try meter.run("identify") { try type2.tag.identify() }
            var facts = try gather(type2.tag, anticollisionUID: detected.uid, dump: dump, password: password)
            facts.identifyCost = meter.phases.last ?? PhaseCost(name: "identify")
            return facts
        }
        var facts = Facts(identity: Type2Identity(chip: nil, genericReason: nil))
        facts.family = tag.family
        facts.familyChip = try tag.identify()
        facts.identifyCost = PhaseCost(name: "identify", exchanges: tag.cost.exchanges)
        do {
            let (status, capacity) = try tag.queryNDEFStatus()
            facts.status = status
            facts.capacity = capacity
            if status != .notSupported {
                let message = try tag.readNDEF()
                facts.message = message
                facts.messageLength = message.count
            }
        } catch let error as TagError {
            facts.ndefError = error.message
        }
        if dump { facts.notes.append("--dump shows Type 2 pages; the \(tag.family) family has none") }
        facts.cost = PhaseCost(name: "inspect", exchanges: tag.cost.exchanges - facts.identifyCost.exchanges)
        return facts
    }
}
