import Foundation
import NFCTags
import TagEmulator

/// A `TagReader` over a fixed set of emulated tags presented in a scripted order, with an optional
/// answer-corrupting wrapper around the transceiver (the reliability suites' reader).
///
/// Tags are built inside the actor from Sendable images, so the non-Sendable emulators never leave it.
/// Each `present` puts a tag (memory kept) back into the field with fresh faults; when the script is
/// used up the reader reports `.exhausted`.
actor ScriptedTagReader: TagReader {
    /// One presentation of tag `index` with `faults`, answers mangled by `corruption` if set.
    struct Presentation: Sendable {
        var index: Int
        var faults = TagFaults()
        var corruption: Corruption?
    }

    nonisolated let name: String
    nonisolated let capabilities = ReaderCapabilities(rawCommands: true)
    private let tags: [NTAGEmulator]
    private var script: [Presentation]
    private var current: (tag: NTAGEmulator, corruption: Corruption?)?
    /// A poll error to throw once the script reaches this many presentations (a vanished reader).
    private let disappearsAfter: Int?
    private var presented = 0

    /// Builds tags from `images` (chip each) and the presentation script.
    init(name: String = "scripted", images: [([UInt8], ChipModel)], script: [Presentation], disappearsAfter: Int? = nil)
        throws
    {
        self.name = name
        self.tags = try images.map { image, chip in try NTAGEmulator(image: image, chip: chip) }
        self.script = script
        self.disappearsAfter = disappearsAfter
    }

    func poll(timeoutMilliseconds: Int) async throws(TransportError) -> FieldState {
        if let current, current.tag.isPresent, let detected = current.tag.activate() { return .tag(detected) }
        if let disappearsAfter, presented >= disappearsAfter { throw .transport("reader disconnected (USB gone)") }
        guard !script.isEmpty else { return .exhausted }
        let next = script.removeFirst()
        presented += 1
        let tag = tags[next.index]
        tag.represent(faults: next.faults)
        current = (tag, next.corruption)
        guard let detected = tag.activate() else { return .empty }
        return .tag(detected)
    }

    func withTransceiver<Result: Sendable>(_ body: @Sendable (any Transceiver) throws -> Result) async throws -> Result
    {
        guard let current, current.tag.isPresent else { throw TransportError.tagLost }
        let inner = EmulatorTransceiver(tag: current.tag)
        guard let corruption = current.corruption else { return try body(inner) }
        return try body(CorruptingTransceiver(inner, corruption))
    }

    func release(waitingForRemovalMilliseconds timeoutMilliseconds: Int) async throws(TransportError) -> Bool {
        current?.tag.halt()
        current?.tag.remove()
        current = nil
        return true
    }

    /// The memory image of tag `index`.
    func image(_ index: Int) -> [UInt8] { tags[index].image }

    /// Command exchanges tag `index` has seen since its last presentation.
    func exchanges(_ index: Int) -> Int { tags[index].exchangeCount }
}
