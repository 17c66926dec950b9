/// A failure to build an emulated Type 4 tag.
public enum Type4EmulatorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The UID is not 7 bytes.
    case invalidUID([UInt8])
    /// A tag image does not have the `expected` bytes of the chip's files.
    case imageSize(expected: Int, actual: Int)
    /// The generic chip's parameters are out of range (the reason says which).
    case invalidChip(String)
    /// An NTAG 424 DNA image's secure-state trailer is malformed (the reason says where).
    case imageTrailer(String)
    /// A key, file setting or counter given to the emulator is refused (the reason says why).
    case invalidSetting(String)

    public var description: String {
        switch self {
        case .invalidUID(let uid): "UID must be 7 bytes, got \(uid.count)"
        case .imageSize(let expected, let actual): "Type 4 tag image must be \(expected) bytes, got \(actual)"
        case .invalidChip(let reason): "Type 4 chip: \(reason)"
        case .imageTrailer(let reason): "NTAG 424 DNA image trailer: \(reason)"
        case .invalidSetting(let reason): "NTAG 424 DNA setting: \(reason)"
        }
    }
}
