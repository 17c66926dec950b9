/// Reads an emulated Type 4 tag's saved image (`store=DIR`: its files' bytes in file-number order) the way the
/// tests check it, without the code under test.
public enum Type4Image {
    /// The NDEF message `image` holds: the CC file (`ccSize` bytes) comes first, then the NDEF file with its
    /// 2-byte NLEN (mapping 2.0) or 4-byte ENLEN (mapping 3.0) and the message.
    public static func message(in image: [UInt8], ccSize: Int, lengthField: Int = 2) -> [UInt8] {
        let length = image[ccSize..<ccSize + lengthField].reduce(0) { $0 << 8 | Int($1) }
        return Array(image[(ccSize + lengthField)...].prefix(length))
    }
}
