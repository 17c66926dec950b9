import NFCTags

/// libFuzzer entry: any bytes as a Type 2 TLV area; a located message lies inside the area.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let area = Array(UnsafeBufferPointer(start: data, count: size))
    if let range = try? NDEFTLV.locateMessage(inArea: area) {
        precondition(range.lowerBound >= 0 && range.upperBound <= area.count, "message range outside the area")
        _ = try? NDEFTLV.extractMessage(fromArea: area)
    }
    return 0
}
