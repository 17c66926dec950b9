import Provisioning

/// libFuzzer entry: any bytes as a template file; parsing either succeeds or throws a JobInputError.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? Template(parsing: bytes, file: "fuzz.json", job: "fuzz", serial: SerialNumbering())
    return 0
}
