import Foundation
import ReaderPCSC
import TagEmulator
import TestSupport
import Testing

/// A private pcscd plus one vpcd virtual card per requested slot, stopped by `shutdown()`.
struct VirtualReaders {
    let daemon: PCSCDaemon
    let cards: [VPCDVirtualTag]

    /// Starts pcscd with `uids.count` slots (rounded up to even) and a virtual card on each of the
    /// first `uids.count` slots holding the tags listed for it.
    static func start(
        _ uids: [[[UInt8]]], style: VPCDReaderStyle = .acr122u, lineMode: Bool = false
    ) async throws -> VirtualReaders {
        let daemon = try await PCSCDaemon.start(slots: uids.count) { try PCSCReader.listReaders().count }
        var cards: [VPCDVirtualTag] = []
        for (slot, slotUIDs) in uids.enumerated() {
            let configuration = VPCDConfiguration(port: daemon.ports[slot], style: style, lineMode: lineMode)
            cards.append(try VPCDVirtualTag.start(configuration) { FakeTagSource(uids: slotUIDs) })
        }
        return VirtualReaders(daemon: daemon, cards: cards)
    }

    /// Stops the virtual cards first, then pcscd.
    func shutdown() async {
        for card in cards { await card.stop() }
        await daemon.stop()
    }

    /// Opens the reader of `slot` with `options` (`?style=…`).
    func reader(_ slot: Int, options: String = "") async throws -> PCSCReader {
        let readers = try await PCSCReader.open("pcsc:#\(slot)" + options)
        return try #require(readers.first)
    }
}

/// Runs `body` with fresh virtual readers and always shuts them down; prints pcscd's log on failure.
func withVirtualReaders(
    _ uids: [[[UInt8]]], style: VPCDReaderStyle = .acr122u, lineMode: Bool = false,
    _ body: (VirtualReaders) async throws -> Void
) async throws {
    let readers = try await VirtualReaders.start(uids, style: style, lineMode: lineMode)
    do {
        try await body(readers)
    } catch {
        print("pcscd log:\n\(readers.daemon.log)")
        await readers.shutdown()
        throw error
    }
    await readers.shutdown()
}

let uidA: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
let uidB: [UInt8] = [0x04, 0x51, 0x7C, 0xE1, 0xED, 0x25, 0x80]
let uidC: [UInt8] = [0x04, 0x58, 0x69, 0xD2, 0x9C, 0x39, 0x80]
