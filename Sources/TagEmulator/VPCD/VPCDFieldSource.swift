import NDEF
import NFCTags

/// The chip-model population (`TagField`, parsed from a `sim:` spec) as seen by a vpcd virtual card.
///
/// The first tag of the population arrives at once. `advance()` is the host releasing a tag in line
/// mode (it leaves, its image is saved with `store=DIR`, the next one arrives); a tag that tore (left
/// mid-exchange) is presented again before the next new one, as `TagField` does for the simulated
/// reader, so the host sees the tag lost and then finishes its row. A tag re-inserted by
/// UID is built again from the store, so use `store=DIR` when a removed tag must keep its memory.
/// Store errors cannot stop the card; the last one is kept in `lastStoreError`.
///
/// Not `Sendable`: owned by the virtual card's thread, like the field it wraps.
public final class VPCDFieldSource: VPCDTagSource {
    /// The population.
    public let field: TagField
    /// The last failure to load or save a tag image.
    public private(set) var lastStoreError: TagStoreError?

    /// Wraps `field` and brings its first tag in.
    public init(field: TagField) {
        self.field = field
        record { () throws(TagStoreError) in _ = try field.refresh() }
    }

    /// Builds the population from `options` (a parsed `sim:` spec).
    public convenience init(options: SimulationOptions) {
        self.init(field: TagField(options: options))
    }

    public var current: (any TagEndpoint)? { field.current }

    public var currentHasLeft: Bool { field.current.map { !$0.isPresent } ?? false }

    public var uidForm: UIDForm { field.options.uidForm }

    public func advance() -> (any TagEndpoint)? {
        record { () throws(TagStoreError) in
            // A torn tag is cleared by `refresh` (kept for re-presentation), a released one leaves here.
            if !currentHasLeft { try field.removeCurrent() }
            _ = try field.refresh()
        }
        return field.current
    }

    public func insert(uid: [UInt8]?) throws -> any TagEndpoint {
        try field.remove()
        if let uid { return try field.insert(uid: uid) }
        guard let tag = try field.arrive() else { throw VPCDControlError("the population is used up") }
        return tag
    }

    public func remove() {
        record { () throws(TagStoreError) in try field.remove() }
    }

    public func dump() -> String {
        guard let current = field.current else { return "" }
        guard let tag = current as? NTAGEmulator else {
            // Other families: the stored image in 16-byte rows, offsets in hex.
            return current.image.chunked(16).enumerated().map { row, bytes in
                String(row * 16, radix: 16, uppercase: true) + ": " + Hex.string(bytes)
            }.joined(separator: "\n")
        }
        return (0..<tag.chip.pageCount).map { page in
            let label = String(page, radix: 16, uppercase: true)
            return (label.count < 2 ? "0" + label : label) + ": " + Hex.string(tag.storedPage(page))
        }.joined(separator: "\n")
    }

    private func record(_ body: () throws(TagStoreError) -> Void) {
        do throws(TagStoreError) {
            try body()
        } catch {
            lastStoreError = error
        }
    }
}
