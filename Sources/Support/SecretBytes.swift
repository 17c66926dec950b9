internal import CSystem

/// Zeroes buffers that held key material or a PIN once they are no longer needed, with a store the compiler may
/// not drop (`explicit_bzero`): the one wiping helper of the package.
///
/// It wipes the buffer the array owns when called. A copy made earlier (an array shares its buffer until one side
/// is written, then the writer copies), a `String` or `Data` made from the bytes, or a buffer already freed is not
/// reached: docs/keys.md ("Hardening") says where the package cannot promise zeroing.
public enum SecretBytes {
    /// Overwrites every byte of `bytes` with zero, keeping its count.
    public static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { csystem_wipe($0.baseAddress, $0.count) }
    }

    /// Overwrites `count` bytes at `pointer` with zero (a C buffer or one lent by `withUnsafeMutableBytes`).
    public static func wipe(_ pointer: UnsafeMutableRawPointer?, count: Int) {
        csystem_wipe(pointer, count)
    }
}
