import NDEF

/// libFuzzer entry: any bytes through the NDEF message decoder and back (a decoded message re-encodes
/// to bytes that decode to the same message).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let message = try? NDEFMessage(bytes: bytes) {
        let again = try? NDEFMessage(bytes: message.bytes)
        precondition(again == message, "decode(encode(m)) != m")
    }
    return 0
}
