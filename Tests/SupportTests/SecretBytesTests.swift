import Support
import Testing

@Test func wipeZeroesAnArrayInPlaceKeepingItsCount() {
    var bytes: [UInt8] = (1...32).map { UInt8($0) }
    let before = bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    SecretBytes.wipe(&bytes)
    #expect(bytes == [UInt8](repeating: 0, count: 32))
    // The same buffer was zeroed, not a fresh copy (the array owned its buffer alone).
    #expect(bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == before)
    var empty: [UInt8] = []
    SecretBytes.wipe(&empty)
    #expect(empty.isEmpty)
}

@Test func wipeZeroesARawBuffer() {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 1)
    defer { buffer.deallocate() }
    buffer.initializeMemory(as: UInt8.self, repeating: 0xA5)
    SecretBytes.wipe(buffer.baseAddress, count: 16)
    #expect(buffer.allSatisfy { $0 == 0 })
    SecretBytes.wipe(nil, count: 0)
}
