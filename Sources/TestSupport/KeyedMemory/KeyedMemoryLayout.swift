import NDEF
import NFCTags

/// A row's KMAC laid out in a KMEM-1's message: the settings the plan makes (`D5`) and the read-back check.
public struct KeyedMemoryLayout: DynamicMessageLayout {
    /// The settings: windows by token and the rights.
    public var settings: KeyedMemorySettings

    /// Creates a layout.
    public init(settings: KeyedMemorySettings) { self.settings = settings }

    public func refusal() -> String? {
        let ends = settings.offsets.map { $0.value + $0.key.token.length }
        return ends.contains { $0 > 256 } ? "a window ends past the 256-byte message memory" : nil
    }

    public var settingsAnswer: [UInt8] { settings.encoded }

    public func checkReadBack(
        _ message: [UInt8], written: [UInt8], uid: [UInt8], keys: [SecretKey], counter: UInt32?
    ) throws(DynamicMessageProblem) -> UInt32? {
        guard message.count == written.count else {
            throw DynamicMessageProblem("the message is \(message.count) bytes, \(written.count) were written")
        }
        let windows = settings.offsets.map { ($0.key, $0.value..<$0.value + $0.key.token.length) }
        for index in message.indices where message[index] != written[index] {
            guard windows.contains(where: { $0.1.contains(index) }) else {
                throw DynamicMessageProblem("byte \(index) reads \(Hex.byte(message[index])), not as written")
            }
        }
        func text(_ token: KeyedMemoryToken) -> String? {
            windows.first { $0.0 == token }.map { String(decoding: message[$0.1], as: UTF8.self) }
        }
        guard let counterText = text(.counter), let shown = UInt32(counterText, radix: 16) else { return nil }
        guard text(.uid) == Hex.compact(uid) else {
            throw DynamicMessageProblem("the uid window reads \(text(.uid) ?? "?"), not \(Hex.compact(uid))")
        }
        if let counter, shown != counter {
            throw DynamicMessageProblem("the counter reads \(shown), not \(counter)")
        }
        guard shown >= 1 else { throw DynamicMessageProblem("the counter reads 0") }
        let mac = KeyedMemoryFamily.mac(key: keys[KeyedMemoryFamily.macKey], uid: uid, counter: shown)
        guard text(.mac) == Hex.compact(mac) else {
            throw DynamicMessageProblem("the MAC at counter \(shown) does not verify under the tag's K1")
        }
        return shown
    }
}
