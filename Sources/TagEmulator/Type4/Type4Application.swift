/// The NDEF Tag Application (DF) of an emulated Type 4 tag with its StandardData files, in file-number
/// order (`type4-ntag424.md` §1.2, §1.8): the unit that later commands (ReadData, WriteData,
/// Get/ChangeFileSettings, SDM) work on.
///
/// The image `store=DIR` saves is the files' bytes concatenated in file-number order.
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

    /// Creates an application with `files` (sorted here by number).
    public init(files: [Type4File], isInstalled: Bool = true) {
        self.files = files.sorted { $0.number < $1.number }
        self.isInstalled = isInstalled
    }

    /// The index of the file with native number `number`.
    public func index(ofNumber number: UInt8) -> Int? { files.firstIndex { $0.number == number } }

    /// The index of the file with ISO identifier `identifier`.
    public func index(ofIdentifier identifier: UInt16) -> Int? { files.firstIndex { $0.identifier == identifier } }

    /// The non-volatile image: every file's bytes in file-number order.
    public var image: [UInt8] { files.flatMap(\.bytes) }

    /// The image size this application's files need.
    public var imageSize: Int { files.reduce(0) { $0 + $1.size } }

    /// Restores every file's bytes from `image` (the layout of `image`).
    ///
    /// - Throws: `Type4EmulatorError.imageSize` when `image` is not `imageSize` bytes.
    public mutating func restore(image: [UInt8]) throws(Type4EmulatorError) {
        guard image.count == imageSize else { throw .imageSize(expected: imageSize, actual: image.count) }
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
