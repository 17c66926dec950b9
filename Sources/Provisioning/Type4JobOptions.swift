/// The manifest's `type4` section: what a Type 4 job assumes of its tags before any tag is seen.
///
/// ```json
/// "tag": "type4",
/// "type4": {"minimumFileSize": 2048, "honoursCCWriteByte": true}
/// ```
///
/// `minimumFileSize` (default 256, `Type4Family.defaultNDEFFileSize`) is the smallest NDEF file the
/// job's tags have; pre-flight sizes every row against it minus the 2-byte NLEN. Each tag's real
/// capacity is still read from its CC. `honoursCCWriteByte` (default false) is the line engineer
/// saying that these tags refuse UPDATE BINARY once the CC's write byte is `FF`: T4T has no generic
/// lock, so without it a job that asks for a lock fails with `lockUnsupported` on a chip `provision`
/// cannot identify. The lock still proves it on every tag (a refused no-change UPDATE).
public struct Type4JobOptions: Sendable, Hashable {
    /// The smallest NDEF file (bytes, NLEN included) the job's tags have.
    public var minimumFileSize = TagTarget.defaultType4FileSize
    /// Whether the job's tags honour the CC write byte (the lock method for chips not known to).
    public var honoursCCWriteByte = false

    /// The keys the section may contain.
    public static let knownKeys = ["minimumFileSize", "honoursCCWriteByte"]

    /// The defaults.
    public init(minimumFileSize: Int = TagTarget.defaultType4FileSize, honoursCCWriteByte: Bool = false) {
        self.minimumFileSize = minimumFileSize
        self.honoursCCWriteByte = honoursCCWriteByte
    }
}
