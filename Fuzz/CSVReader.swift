import Provisioning

/// libFuzzer entry: any bytes as a CSV file, read row by row with a small chunk size (chunk borders
/// fall inside quotes and UTF-8 sequences); every row has the header's field count.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let reader = try? CSVReader(bytes: bytes, file: "fuzz.csv", chunkSize: 7) else { return 0 }
    var rows = 0
    while rows < 10_000, let row = try? reader.next() {
        precondition(row.fields.count == reader.header.count, "row field count differs from the header")
        rows += 1
    }
    return 0
}
