/// An NTAG 424 DNA's native commands are the keyed capability `NTAG424Scheme`'s plan runs on.
extension NTAG424Tag: KeyedTag {}

extension Type4FamilyTag {
    /// The NTAG 424 DNA native commands, once `identify()` named the chip.
    public var keyed: (any KeyedTag)? { ntag424 }
}

extension FamilyTag {
    /// The NTAG 424 DNA native commands of a tag of any family (`keyed`), where the chip is one.
    public var ntag424: NTAG424Tag? { keyed as? NTAG424Tag }
}

extension Type4Family {
    /// NTAG 424 DNA keyed personalisation.
    public var keyedSchemes: [any KeyedScheme] { [NTAG424Scheme()] }
}
