/// One AES-128 application key of the NTAG 424 DNA with its key version (`docs/reference/type4.md` §4.1): five of
/// them (K0 AppMasterKey, K1–K4), all 16×`00` version `00` at delivery.
public struct Type4Key: Sendable, Hashable {
    /// The delivery-state key: 16 zero bytes, version `00`.
    public static let factory = Type4Key(value: [UInt8](repeating: 0, count: 16), version: 0)
    /// The number of application keys (K0–K4).
    public static let count = 5

    /// The 16 key bytes.
    public var value: [UInt8]
    /// The key version GetKeyVersion reports and ChangeKey sets.
    public var version: UInt8
    /// TotFailCtr: failed authentications with this key, less `decrementOnSuccess` per success; at `failureLimit`
    /// the key refuses every authentication until ChangeKey resets it (`docs/reference/type4.md` §2.4).
    public var failures: UInt16

    /// TotFailCtrLimit at delivery.
    public static let failureLimit: UInt16 = 1000
    /// TotFailCtrDecr at delivery.
    public static let decrementOnSuccess: UInt16 = 10

    /// A key; `value` must be 16 bytes (the emulator's setters check it).
    public init(value: [UInt8], version: UInt8, failures: UInt16 = 0) {
        self.value = value
        self.version = version
        self.failures = failures
    }

    /// Whether TotFailCtr has reached its limit (the key is unusable).
    public var isBlocked: Bool { failures >= Self.failureLimit }
}
