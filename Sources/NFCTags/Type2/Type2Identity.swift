/// What identification found out about a Type 2 tag (`docs/reference/type2.md` §3.2, §7.4, §11).
public struct Type2Identity: Sendable, Hashable {
    /// The chip from GET_VERSION, or `nil` for a generic Type 2 tag (GET_VERSION refused, silent,
    /// unknown, or not sendable on this reader path).
    public var chip: ChipModel?
    /// The 8-byte GET_VERSION answer, when the tag gave one.
    public var version: [UInt8]?
    /// Why the tag is treated as generic, when it is.
    public var genericReason: String?

    /// Creates an identity.
    public init(chip: ChipModel?, version: [UInt8]? = nil, genericReason: String? = nil) {
        self.chip = chip
        self.version = version
        self.genericReason = genericReason
    }

    /// The vendor byte of GET_VERSION (`04` = NXP).
    public var vendor: UInt8? {
        guard let version, version.count == 8 else { return nil }
        return version[1]
    }

    /// Whether GET_VERSION names a vendor other than NXP, a sign of a clone (`docs/reference/type2.md` §7.4).
    public var isSuspectedClone: Bool {
        guard let vendor else { return false }
        return vendor != 0x04
    }

    /// Whether the tag is handled as a generic Type 2 tag (READ/WRITE only, CC-based layout).
    public var isGeneric: Bool { chip == nil }
}

extension Type2Tag {
    /// Identifies the chip with GET_VERSION `60` (`docs/reference/type2.md` §3.2); never probes with `1A`.
    ///
    /// A NAK or silence re-activates the tag and classes it as generic Type 2 (READ/WRITE only);
    /// so does an unknown or malformed answer (without re-activation: the tag answered). Without a
    /// raw-command path nothing is sent and the tag is generic. A vendor byte other than `04` still
    /// maps to a chip but is flagged (`isSuspectedClone`).
    ///
    /// - Throws: `TransportError.tagLost` (or another transport failure) when the tag is gone.
    @discardableResult
    public func identify() throws -> Type2Identity {
        try measure("identify") {
            let result = try runIdentification()
            identity = result
            return result
        }
    }

    /// Records a chip judged without GET_VERSION — by the data-area size in the CC on a reader path that
    /// cannot send raw commands — so chip-specific steps (the dynamic lock page) apply. Sends nothing.
    public func assume(_ chip: ChipModel) {
        identity = Type2Identity(chip: chip, genericReason: nil)
    }

    private func runIdentification() throws -> Type2Identity {
        guard transceiver.supportsRawCommands else {
            return Type2Identity(chip: nil, genericReason: "reader path cannot send GET_VERSION")
        }
        let answer: [UInt8]
        do {
            answer = try send([0x60], timeoutMilliseconds: 5)
        } catch .nak(let code) {
            // `send` has already re-activated the tag after the NAK.
            return Type2Identity(chip: nil, genericReason: "GET_VERSION answered NAK \(code)")
        } catch .noAnswer {
            try reactivateCounted()
            return Type2Identity(chip: nil, genericReason: "GET_VERSION got no answer")
        }
        guard answer.count == 8 else {
            return Type2Identity(
                chip: nil, version: answer, genericReason: "GET_VERSION answered \(answer.count) bytes")
        }
        guard let chip = ChipModel(version: answer) else {
            return Type2Identity(chip: nil, version: answer, genericReason: "unknown GET_VERSION answer")
        }
        return Type2Identity(chip: chip, version: answer)
    }
}
