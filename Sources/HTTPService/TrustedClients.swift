import Glibc

/// The networks whose clients are not rate-limited and whose `X-Forwarded-For` is believed (`--trusted-clients`):
/// a trusted proxy's request is limited as the last untrusted hop it forwards for.
public struct TrustedClients: Sendable, Equatable {
    /// One network: an address prefix (IPv4 or IPv6 bytes) and its length in bits.
    public struct Network: Sendable, Equatable {
        public let bytes: [UInt8]
        public let prefix: Int

        /// Parses `ADDRESS/BITS` or a bare address (all its bits).
        ///
        /// - Throws: `BadNetwork` naming the text.
        public init(parsing text: String) throws(TrustedClients.BadNetwork) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count <= 2, let bytes = TrustedClients.addressBytes(String(parts[0])) else {
                throw BadNetwork(description: "'\(text)' is not an IP address or ADDRESS/BITS network")
            }
            let bits = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let bits, (0...bytes.count * 8).contains(bits) else {
                throw BadNetwork(description: "'\(text)': the prefix length must be 0...\(bytes.count * 8)")
            }
            self.bytes = bytes
            prefix = bits
        }

        /// Whether `address` (as bytes) lies in this network.
        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            for bit in 0..<prefix where (address[bit / 8] ^ bytes[bit / 8]) & (0x80 >> UInt8(bit % 8)) != 0 {
                return false
            }
            return true
        }
    }

    /// A network text that does not parse: what is wrong, naming the text.
    public struct BadNetwork: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public let networks: [Network]
    /// Whether a Unix-socket peer (a proxy on this machine) is trusted.
    public let unixSockets: Bool

    /// Parses a comma-separated list of networks; `unix` names Unix-socket peers.
    ///
    /// - Throws: `BadNetwork` naming the first item that is neither.
    public init(parsing text: String) throws(TrustedClients.BadNetwork) {
        var networks: [Network] = []
        var unix = false
        for item in text.split(separator: ",").map({ $0.trimmingCharacters(in: " ") }) where !item.isEmpty {
            if item == "unix" { unix = true } else { networks.append(try Network(parsing: item)) }
        }
        self.networks = networks
        unixSockets = unix
    }

    /// Loopback: `127.0.0.0/8`, `::1` and Unix-socket peers.
    public static let loopback = try! TrustedClients(parsing: "127.0.0.0/8,::1,unix")

    /// Whether `address` (`ListenSocket.peerName` form or an `X-Forwarded-For` item) is trusted.
    public func trusts(_ address: String) -> Bool {
        if address == "unix" { return unixSockets }
        guard let bytes = Self.addressBytes(address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// The client a request is limited as: `peer` when it is not trusted; for a trusted peer, the last (rightmost)
    /// `X-Forwarded-For` hop that is not trusted (an unparseable one counts as not trusted); `nil` when every hop
    /// is trusted (the request is not limited). Hops to the left of the first untrusted one are the client's own
    /// claims and are never believed.
    public func limitedClient(peer: String, forwardedFor: [String]) -> String? {
        guard trusts(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: " \t") }
        for hop in hops.reversed() where !trusts(hop) { return Self.canonical(hop) }
        return nil
    }

    /// An address in one spelling (`::FFFF:1.2.3.4` → `1.2.3.4`, `0:0::1` → `::1`), so one client has one bucket.
    static func canonical(_ text: String) -> String {
        guard let bytes = addressBytes(text) else { return text.isEmpty ? "unknown" : String(text.prefix(64)) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        guard inet_ntop(family, bytes, &buffer, socklen_t(buffer.count)) != nil else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The bytes of an IPv4 or IPv6 address (an IPv4-mapped IPv6 one as IPv4); `nil` for anything else.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = [UInt8](repeating: 0, count: 4)
        if inet_pton(AF_INET, text, &v4) == 1 { return v4 }
        var v6 = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        if v6[0..<10].allSatisfy({ $0 == 0 }) && v6[10] == 0xFF && v6[11] == 0xFF { return Array(v6[12...]) }
        return v6
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return String(text)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String { String(self).trimmingCharacters(in: set) }
}
