/// The NDEF Tag Application (DF) of an emulated Type 4 tag with its StandardData files, in file-number
/// order, and (NTAG 424 DNA) its five AES keys (`docs/reference/type4.md` §1.2, §1.8, §4.1, §5.1): the
/// non-volatile memory that ReadData, WriteData, Get/ChangeFileSettings, ChangeKey and SDM work on.
///
/// The image `store=DIR` saves is the files' bytes concatenated in file-number order, followed on the
/// NTAG 424 DNA by the secure-state trailer (`Type4Application+Image`).
public struct Type4Application: Sendable, Hashable {
    /// The DF name of the NDEF Tag Application (mapping 2.0/3.0), `D2760000850101`.
    public static let dfName: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    /// The DF name of the PICC level (MF) of the NTAG 424 DNA, `D2760000850100`.
    public static let masterFileName: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x00]
    /// The application's ISO file identifier, `E110`.
    public static let identifier: UInt16 = 0xE110
    /// The PICC level's ISO file identifier, `3F00`.
    public static let masterFileIdentifier: UInt16 = 0x3F00

    /// The files, sorted by file number.
    public internal(set) var files: [Type4File]
    /// Whether the application exists (a tag with the `unformatted` fault has none).
    public var isInstalled: Bool
    /// The application keys K0–K4 (NTAG 424 DNA); empty for a tag without native commands.
    public internal(set) var keys: [Type4Key]

    /// The secure-state trailer of the state the application was created in (its delivery state): an image
    /// whose secure state is still this one is saved without a trailer.
    private var deliveryTrailer: [UInt8] = []

    /// Creates an application in its delivery state: `files` (sorted here by number) and `keys`.
    public init(files: [Type4File], isInstalled: Bool = true, keys: [Type4Key] = []) {
        self.files = files.sorted { $0.number < $1.number }
        self.isInstalled = isInstalled
        self.keys = keys
        deliveryTrailer = keys.isEmpty ? [] : secureStateTrailer
    }

    /// The index of the file with native number `number`.
    public func index(ofNumber number: UInt8) -> Int? { files.firstIndex { $0.number == number } }

    /// The index of the file with ISO identifier `identifier`.
    public func index(ofIdentifier identifier: UInt16) -> Int? { files.firstIndex { $0.identifier == identifier } }

    /// The non-volatile image: every file's bytes in file-number order, then the secure-state trailer once
    /// keys, file settings or SDMReadCtr differ from the delivery state. A tag nobody personalised keeps the
    /// plain files image that readers of older stores expect.
    public var image: [UInt8] {
        let trailer = keys.isEmpty ? [] : secureStateTrailer
        return files.flatMap(\.bytes) + (trailer == deliveryTrailer ? [] : trailer)
    }

    /// The bytes of the files alone: the size of an image without trailer.
    public var imageSize: Int { files.reduce(0) { $0 + $1.size } }

    /// Restores every file's bytes from `image` (the layout of `image`), and the keys, file settings and
    /// SDMReadCtr from its trailer when there is one; without a trailer those keep their current values
    /// (the delivery state for a fresh application).
    ///
    /// - Throws: `Type4EmulatorError.imageSize` when `image` is shorter than `imageSize` bytes, or longer
    ///   on an application without keys; `.imageTrailer` when the trailer is malformed.
    public mutating func restore(image: [UInt8]) throws(Type4EmulatorError) {
        guard image.count == imageSize || (image.count > imageSize && !keys.isEmpty) else {
            throw .imageSize(expected: imageSize, actual: image.count)
        }
        if image.count > imageSize { try restoreSecureState(Array(image[imageSize...])) }
        var offset = 0
        for index in files.indices {
            let size = files[index].size
            files[index].bytes = Array(image[offset..<(offset + size)])
            offset += size
        }
    }

    /// Writes `bytes` into file `index` at `offset` (the caller has checked the bounds).
    mutating func write(_ bytes: ArraySlice<UInt8>, file index: Int, at offset: Int) {
        files[index].bytes.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
    }
}
