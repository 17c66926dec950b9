import TagEmulator

/// libFuzzer entry: any bytes fed to the vpcd length-prefixed frame decoder; every frame it yields
/// re-encodes to its own length prefix and payload.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var decoder = VPCDFrameDecoder()
    decoder.append(bytes)
    var frames = 0
    while frames < 10_000, let frame = decoder.nextFrame() {
        if let encoded = VPCDFrameDecoder.encode(frame) {
            var again = VPCDFrameDecoder()
            again.append(encoded)
            precondition(again.nextFrame() == frame, "vpcd frame does not survive encode/decode")
        }
        frames += 1
    }
    return 0
}
