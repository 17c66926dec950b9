import NFCTags

/// The tags behind an emulated PN532: a `TagField` of `NTAGEmulator`s with the PN532's release
/// semantics.
///
/// With `store=DIR`, line mode saves each image when its tag leaves; otherwise after every page.
///
/// The first tag of the population is in the field from the start. In line mode the host releasing a
/// tag (InDeselect `44` or InRelease `52`) makes it leave (image saved with `store=DIR`) and the next
/// tag of the population arrive, so an unattended job runs through `count` tags; otherwise a tag stays
/// until the operator removes it. A tag that left on its own (a tear) is cleared when next looked at;
/// in line mode it comes back after `tornReturnDelay` (the operator puts the torn tag back on the
/// antenna, as `TagField` re-presents it), so the host first sees it gone (`tagLost`) and then
/// finishes its row. Outside line mode a torn tag stays away until `insert UID` puts it back.
/// Not `Sendable`: driven from the emulator's I/O thread.
public final class PN532TagPopulation: PN532TagField {
    /// The field and its population.
    public let field: TagField
    /// Whether a released tag leaves and the next one arrives.
    public let lineMode: Bool
    /// The last failure to save a tag image (reported by `stats`).
    public private(set) var storeError: TagStoreError?
    /// How long a torn tag stays out of the field in line mode before it is presented again.
    public static let tornReturnDelay: Duration = .milliseconds(250)
    /// When the current torn tag was first seen gone (line mode).
    private var tornSince: ContinuousClock.Instant?

    /// Creates the population `options` describe, with its first tag in the field.
    public init(options: SimulationOptions, lineMode: Bool = false) {
        field = TagField(options: options)
        self.lineMode = lineMode
        // Line mode saves a tag's image when it leaves (released or torn), not after every page:
        // a disk write per WRITE delayed the answer past libnfc's timeout on a busy machine.
        field.savesEveryWrite = !lineMode
        record { () throws(TagStoreError) in try field.arrive() }
    }

    /// Creates the population of a `sim:` spec; the extra option `line` selects line mode.
    ///
    /// - Throws: `ReaderSpecError` for a spec `SimulationOptions` refuses.
    public convenience init(spec: ReaderSpec) throws(ReaderSpecError) {
        var plain = spec
        plain.options.removeAll { $0.key == "line" }
        let line = spec.option("line").map { $0 != "false" } ?? false
        self.init(options: try SimulationOptions(spec: plain), lineMode: line)
    }

    /// The concrete tag in the field (first of several), after clearing tags that left on their own.
    public var currentTag: (any EmulatedTag)? {
        if lineMode, let tag = field.current, !tag.isPresent, tag.faults.removedAfterExchanges != nil {
            let now = ContinuousClock.now
            let since = tornSince ?? now
            tornSince = since
            guard now - since >= Self.tornReturnDelay else { return nil }
            tornSince = nil
            // TagField saves the torn image and presents the same tag again.
            record { () throws(TagStoreError) in try field.refresh() }
        }
        while let tag = field.current, !tag.isPresent {
            record { () throws(TagStoreError) in try field.remove(uid: tag.uid) }
        }
        return field.current
    }

    public var current: (any TagEndpoint)? { currentTag }

    public func hostReleased() {
        guard lineMode, currentTag != nil else { return }
        record { () throws(TagStoreError) in
            try field.removeCurrent()
            try field.arrive()
        }
    }

    public func insert(uid: [UInt8]?) throws(PN532ControlError) -> [UInt8] {
        do {
            try field.remove()
            if let uid { return try field.insert(uid: uid).uid }
            guard let tag = try field.arrive() else {
                throw PN532ControlError("the population of \(field.options.count ?? 0) tags is used up")
            }
            return tag.uid
        } catch let error as TagStoreError {
            throw PN532ControlError(error.description)
        } catch let error as PN532ControlError {
            throw error
        } catch {
            throw PN532ControlError("\(error)")
        }
    }

    public func remove() {
        record { () throws(TagStoreError) in try field.remove() }
    }

    public func image() -> [UInt8]? { currentTag?.image }

    public var uidForm: UIDForm { field.options.uidForm }

    private func record(_ body: () throws(TagStoreError) -> Void) {
        do { try body() } catch { storeError = error }
    }
}
