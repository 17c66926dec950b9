import Foundation
import NDEF
import NFCTags

/// A failure of the tag store (`store=DIR`).
public struct TagStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file concerned.
    public var path: String
    /// What went wrong.
    public var reason: String

    /// Creates an error for `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "tag store \(path): \(reason)" }
}

/// The RF field of a simulated reader and the population of tags that pass through it.
///
/// Line mode: tags of the population arrive one at a time (`arrive()`, or automatically on `poll()`);
/// when the host releases a tag (`removeCurrent()`) it leaves and the next one arrives at the next poll,
/// until `count` is exhausted. Control sockets place and take tags with `insert(uid:chip:)` and
/// `remove(uid:)`. With `store=DIR` each tag's image is loaded from `DIR/<UID>.bin` when it arrives
/// and saved when it changed: after every programmed page (`savesEveryWrite`, for front ends whose host never
/// says when it is done with a tag), or once at the end of each host session (`saveChanges()`), and when it
/// leaves; the NFC counter, EV1 counters and the AUTHLIM failure count go to `DIR/<UID>.state.json` beside it
/// (optional when loading). Each file is written to a temporary file and renamed, so a killed process leaves
/// the old image or the new one, never a mix.
///
/// Not `Sendable` and free of Swift concurrency: it is owned by exactly one front end (the
/// `SimulatedReader` actor, a PN532 pty loop or a vpcd connection) and used from its thread only.
public final class TagField {
    /// What the field holds right now.
    public enum Presence: Sendable, Hashable {
        /// No tag.
        case empty
        /// Exactly one tag.
        case one
        /// Several tags (a `multi` fault or `insert` with a tag already present).
        case several(Int)
    }

    /// The population's settings.
    public let options: SimulationOptions
    /// Tags in the field, in arrival order.
    public private(set) var tags: [any EmulatedTag] = []
    /// Population tags brought in so far (the next arrival's index).
    public private(set) var arrivals = 0
    /// Tags that have left the field (released, torn or removed).
    public private(set) var departures = 0
    /// Airtime of tags that have left, microseconds.
    private var departedAirtime = 0.0
    /// Phantom second tags from `multi` faults, seen by the next poll only.
    public private(set) var extraTags = 0
    /// Tags that tore (left mid-cycle on their own), re-presented before the next new arrival, as an
    /// operator puts a torn tag back on the antenna so its claimed row can finish.
    private var torn: [any EmulatedTag] = []
    /// The last failure to save an image after a page write (saving is retried on removal).
    public private(set) var storeError: TagStoreError?
    /// Whether an image is saved after every write to its tag's memory (default); `false`: only by
    /// `saveChanges()` and when the tag leaves (one store write per tag cycle instead of one per page).
    public var savesEveryWrite = true
    /// Store writes so far: an image (with its state file) counts once; a save of unchanged bytes is skipped.
    public private(set) var imagesSaved = 0
    /// What each UID's store files hold, as this field loaded or last wrote them (tags in the field only).
    private var savedBytes: [[UInt8]: StoredBytes] = [:]
    /// The UIDs of tags whose memory was written since their image was last saved.
    private var changed: Set<[UInt8]> = []

    /// Creates an empty field for `options`' population.
    public init(options: SimulationOptions = .init()) { self.options = options }

    /// The selected tag: the first tag in the field.
    public var current: (any EmulatedTag)? { tags.first }

    /// Whether the population has no more tags to bring in.
    ///
    /// `count=0` is a population fed only by `insert(uid:)` (control sockets): never exhausted.
    public var isExhausted: Bool {
        if options.storedPopulation { return torn.isEmpty && arrivals >= storedUIDs.count }
        guard torn.isEmpty, let count = options.count, count > 0 else { return false }
        return arrivals >= count
    }

    /// The UIDs with an image in the store, in order (`population=stored`), read once: 7-byte UIDs, or the
    /// 8-byte IDms of a Type 3 population.
    private lazy var storedUIDs: [[UInt8]] = {
        guard let directory = options.storeDirectory,
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory)
        else { return [] }
        let digits = options.type3 != nil || options.type5 != nil ? 16 : 14  // a FeliCa IDm or ISO 15693 UID
        return names.filter { $0.hasSuffix(".bin") && $0.count == digits + 4 }.sorted()
            .compactMap { Hex.bytes($0.prefix(digits)) }.filter { $0.count == digits / 2 }
    }()

    /// What the field holds.
    public var presence: Presence {
        let n = tags.count + extraTags
        return n == 0 ? .empty : n == 1 ? .one : .several(n)
    }

    /// Modelled airtime of every tag that has been in the field, microseconds.
    public var airtimeMicroseconds: Double { departedAirtime + tags.reduce(0) { $0 + $1.airtimeMicroseconds } }

    /// Brings the next tag of the population into the field (its faults drawn from the seed).
    ///
    /// - Returns: the tag, or `nil` when the population is exhausted.
    @discardableResult
    public func arrive() throws(TagStoreError) -> (any EmulatedTag)? {
        if !torn.isEmpty {
            let tag = torn.removeFirst()
            tag.represent(faults: TagFaults())
            watch(tag)
            tags.append(tag)
            return tag
        }
        if options.storedPopulation {
            guard arrivals < storedUIDs.count else { return nil }
            let tag = try makeTag(uid: storedUIDs[arrivals], chip: nil, faults: TagFaults())
            arrivals += 1
            tags.append(tag)
            return tag
        }
        if let count = options.count, arrivals >= count { return nil }
        let index = arrivals
        let faults = options.faults(forTagAt: index)
        let tag = try makeTag(uid: options.uid(at: index), chip: faults.wrongChip, faults: faults)
        arrivals += 1
        tags.append(tag)
        if faults.secondTag { extraTags += 1 }
        return tag
    }

    /// Places a tag with `uid` in the field (loaded from the store when it has an image there).
    @discardableResult
    public func insert(uid: [UInt8], chip: ChipModel? = nil) throws(TagStoreError) -> any EmulatedTag {
        let tag = try makeTag(uid: uid, chip: chip, faults: TagFaults())
        tags.append(tag)
        return tag
    }

    /// Takes the tag with `uid` (or every tag and phantom when `nil`) out of the field, saving images.
    public func remove(uid: [UInt8]? = nil) throws(TagStoreError) {
        if uid == nil { extraTags = 0 }
        for tag in tags where uid == nil || tag.uid == uid { try depart(tag) }
    }

    /// The host is done with the current tag: it leaves (image saved); the next arrives at the next poll.
    public func removeCurrent() throws(TagStoreError) {
        guard let tag = current else { return }
        try depart(tag)
    }

    /// One poll of the field: clears tags that left (tears), brings the next tag in when the field is
    /// empty, and activates the current tag (WUPA, anticollision, SELECT).
    ///
    /// A `multi` phantom makes this poll report two tags; the operator then takes it away, so the next
    /// poll sees one.
    public func poll() throws(TagStoreError) -> FieldState {
        try refresh()
        if tags.count + extraTags > 1 {
            let n = tags.count + extraTags
            extraTags = 0
            return .multipleTags(count: n)
        }
        guard let tag = current else { return isExhausted ? .exhausted : .empty }
        guard let detected = tag.activate() else {
            try depart(tag)
            return .empty
        }
        return .tag(detected)
    }

    /// Clears tags that left on their own (tears) and, in line mode, brings the next tag in when the
    /// field is empty; no activation. Front ends that activate through `receiveRaw` call this before
    /// answering a poll.
    ///
    /// - Returns: what the field holds afterwards.
    @discardableResult
    public func refresh() throws(TagStoreError) -> Presence {
        for tag in tags where !tag.isPresent {
            let tore = tag.faults.removedAfterExchanges != nil
            try depart(tag)
            if tore { torn.append(tag) }
        }
        if tags.isEmpty { try arrive() }
        return presence
    }

    /// Saves `tag`'s image to the store, unless its files hold these bytes already (no-op without `store=DIR`).
    public func save(_ tag: any EmulatedTag) throws(TagStoreError) {
        guard let url = storeURL(for: tag.uid) else { return }
        do {
            let bytes = try StoredBytes(tag)
            guard savedBytes[tag.uid] != bytes else { return }
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes.image).write(to: url, options: .atomic)
            if let state = bytes.state {
                try state.write(to: url.deletingPathExtension().appendingPathExtension("state.json"), options: .atomic)
            }
            savedBytes[tag.uid] = bytes
            changed.remove(tag.uid)
            imagesSaved += 1
        } catch {
            throw TagStoreError(path: url.path, reason: "cannot write image (\(error.localizedDescription))")
        }
    }

    /// Saves every tag in the field whose memory was written since it was last saved: the end of a host
    /// session with the tag, so programming many pages costs one store write. A failure is kept in `storeError`
    /// and the save retried when the tag leaves, as after a page write.
    public func saveChanges() {
        for tag in tags where changed.contains(tag.uid) {
            do throws(TagStoreError) { try save(tag) } catch { storeError = error }
        }
    }

    /// The store file of `uid`, when `store=DIR` is set.
    public func storeURL(for uid: [UInt8]) -> URL? {
        options.storeDirectory.map {
            URL(fileURLWithPath: $0).appendingPathComponent("\(Hex.compact(uid)).bin")
        }
    }

    private func depart(_ tag: any EmulatedTag) throws(TagStoreError) {
        guard let index = tags.firstIndex(where: { $0 === tag }) else { return }
        tags.remove(at: index)
        departures += 1
        departedAirtime += tag.airtimeMicroseconds
        tag.onMemoryWritten = nil
        (tag as? Type4Emulator)?.onSecureStateWritten = nil
        tag.remove()
        try save(tag)
        savedBytes[tag.uid] = nil
        changed.remove(tag.uid)
    }

    /// A tag of `chip`, or of the population's chip when `nil` (a Type 4 chip with `sim:ntag424`/`type4`),
    /// loaded from the store when it has an image there.
    private func makeTag(uid: [UInt8], chip: ChipModel?, faults: TagFaults) throws(TagStoreError) -> any EmulatedTag {
        let type3 = chip == nil && options.type3 != nil
        // A wrong-chip NTAG21x among FeliCa IDms takes NXP's 04 and the IDm's last six bytes.
        let uid = type3 ? FeliCaEmulator.idm(from: uid) : chip != nil && uid.count == 8 ? [0x04] + uid.suffix(6) : uid
        let tag: any EmulatedTag
        do {
            let stored = try storeURL(for: uid).flatMap { url in
                FileManager.default.fileExists(atPath: url.path) ? (url, try [UInt8](Data(contentsOf: url))) : nil
            }
            if type3 {
                let configuration = options.type3Configuration
                let standard = options.type3 == "felica-standard"
                tag =
                    try stored.map {
                        try FeliCaEmulator(
                            image: $1, idm: uid, standard: standard, configuration: configuration, faults: faults)
                    } ?? FeliCaEmulator(idm: uid, standard: standard, configuration: configuration, faults: faults)
            } else if let type5 = options.type5 {
                let made =
                    stored.map { Type5Emulator(image: $0.1, chip: type5, uid: uid, faults: faults) }
                    ?? Type5Emulator(chip: type5, uid: uid, faults: faults)
                made.silentToUnknownCommands = options.type5SilentToUnknown
                tag = made
            } else if chip == nil, let type4 = options.type4, stored.map({ isType4Image($0.1, type4) }) ?? true {
                tag =
                    try stored.map { _, bytes in
                        try Type4Emulator(
                            image: bytes, chip: type4, uid: uid, configuration: options.type4Configuration,
                            faults: faults)
                    }
                    ?? Type4Emulator(chip: type4, uid: uid, configuration: options.type4Configuration, faults: faults)
            } else if let (url, bytes) = stored {
                tag = try loadNTAG(url: url, bytes: bytes, uid: uid, chip: chip ?? options.chip, faults: faults)
            } else {
                tag = try NTAGEmulator(
                    chip: chip ?? options.chip, uid: uid, configuration: options.configuration, faults: faults,
                    signingKey: options.signingKey)
            }
            if stored != nil { savedBytes[uid] = try StoredBytes(tag) }
        } catch let error as TagStoreError {
            throw error
        } catch {
            throw TagStoreError(path: storeURL(for: uid)?.path ?? Hex.compact(uid), reason: "\(error)")
        }
        watch(tag)
        return tag
    }

    /// Saves `tag`'s writes to the store (`store=DIR`): marks it changed after each write, and saves it then when
    /// `savesEveryWrite`; a secure-state write (keys, settings) a host may journal mid-session is saved at once.
    private func watch(_ tag: any EmulatedTag) {
        guard options.storeDirectory != nil else { return }
        tag.onMemoryWritten = { [weak self, unowned tag] in
            guard let self else { return }
            changed.insert(tag.uid)
            guard savesEveryWrite else { return }
            do throws(TagStoreError) { try save(tag) } catch { storeError = error }
        }
        (tag as? Type4Emulator)?.onSecureStateWritten = { [weak self, unowned tag] in
            guard let self else { return }
            changed.insert(tag.uid)
            do throws(TagStoreError) { try save(tag) } catch { storeError = error }
        }
    }

    /// Whether a stored image is a `type4` tag's rather than an NTAG21x's (a `wrongchip` tag of a Type 4
    /// population is stored beside the others): the Type 4 chip accepts it (its files, with or without the
    /// NTAG 424 DNA's secure-state trailer), or its size is no NTAG21x's.
    private func isType4Image(_ bytes: [UInt8], _ type4: Type4EmulatedChip) -> Bool {
        type4.accepts(image: bytes) || !ChipModel.allCases.contains { $0.pageCount * 4 == bytes.count }
    }

    /// An NTAG21x from its stored image (the chip from the image's size) and its hidden state, if saved.
    private func loadNTAG(
        url: URL, bytes: [UInt8], uid: [UInt8], chip: ChipModel, faults: TagFaults
    ) throws -> NTAGEmulator {
        let stored = ChipModel.allCases.first { $0.pageCount * 4 == bytes.count } ?? chip
        // The file is named by the anticollision UID, which a clone's pages 0–1 need not hold.
        let tag = try NTAGEmulator(
            image: bytes, chip: stored, configuration: options.configuration, faults: faults,
            signingKey: options.signingKey, anticollisionUID: uid)
        let state = url.deletingPathExtension().appendingPathExtension("state.json")
        if FileManager.default.fileExists(atPath: state.path) {
            tag.hiddenState = try JSONDecoder().decode(NTAGEmulator.HiddenState.self, from: Data(contentsOf: state))
        }
        return tag
    }
}

/// The bytes a tag's store files hold: its image and, for an NTAG21x, its hidden state's JSON.
private struct StoredBytes: Equatable {
    var image: [UInt8]
    var state: Data?

    init(_ tag: any EmulatedTag) throws {
        image = tag.image
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys  // the same state, the same bytes: compared to skip a write
        state = try (tag as? NTAGEmulator).map { try encoder.encode($0.hiddenState) }
    }
}
