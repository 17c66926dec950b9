import Foundation
import NDEF
import NFCTags
import ReaderPCSC
import TagEmulator
import TestSupport
import Testing

/// A private pcscd plus one vpcd virtual card per requested slot, stopped by `shutdown()`.
///
/// Each card presents the chip model (`NTAGEmulator` in a `TagField`) of a `sim:` spec; images are
/// kept in a store folder so a tag taken out and put back keeps its memory.
struct VirtualReaders {
    let daemon: PCSCDaemon
    let cards: [VPCDVirtualTag]
    let store: URL

    /// Starts pcscd with `specs.count` slots (rounded up to even) and a virtual card on each of the
    /// first `specs.count` slots presenting that spec's population.
    static func start(
        _ specs: [String], style: VPCDReaderStyle = .acr122u, lineMode: Bool = false
    ) async throws -> VirtualReaders {
        let store = try Fixtures.temporaryDirectory("vpcd-store")
        let options = try specs.map { try SimulationOptions($0 + "&store=" + store.path) }
        let daemon = try await PCSCDaemon.start(slots: specs.count) { try PCSCReader.listReaders().count }
        var cards: [VPCDVirtualTag] = []
        do {
            for (slot, population) in options.enumerated() {
                let configuration = VPCDConfiguration(port: daemon.ports[slot], style: style, lineMode: lineMode)
                cards.append(try VPCDVirtualTag.start(configuration) { VPCDFieldSource(options: population) })
            }
        } catch {
            for card in cards { await card.stop() }
            await daemon.stop()
            throw error
        }
        return VirtualReaders(daemon: daemon, cards: cards, store: store)
    }

    /// Stops the virtual cards first, then pcscd.
    func shutdown() async {
        for card in cards { await card.stop() }
        await daemon.stop()
        try? FileManager.default.removeItem(at: store)
    }

    /// Opens the reader of `slot` with `options` (`?style=…`).
    func reader(_ slot: Int, options: String = "") async throws -> PCSCReader {
        let readers = try await PCSCReader.open("pcsc:#\(slot)" + options)
        return try #require(readers.first)
    }
}

/// Runs `body` with fresh virtual readers and always shuts them down; prints pcscd's log on failure.
func withVirtualReaders(
    _ specs: [String], style: VPCDReaderStyle = .acr122u, lineMode: Bool = false,
    _ body: (VirtualReaders) async throws -> Void
) async throws {
    let readers = try await VirtualReaders.start(specs, style: style, lineMode: lineMode)
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

/// An NTAG213 population of `count` tags starting at `uid` (later UIDs count up from it).
func ntag213(_ uid: [UInt8], count: Int = 1) -> String { "sim:ntag213?uid=\(Hex.compact(uid))&count=\(count)" }

/// The tag in `reader`'s field, waiting up to 5 s; records an issue and throws when none came.
func detectTag(_ reader: PCSCReader) async throws -> DetectedTag {
    let state = try await reader.poll(timeoutMilliseconds: 5000)
    guard case .tag(let tag) = state else {
        Issue.record("no tag on \(reader.name): \(state)")
        throw TransportError.noAnswer
    }
    return tag
}

/// One URI record `https://example.com/<folder>/<text>` (each suite writes under its own folder: t3, t4, t5).
func uriMessage(_ folder: String, _ text: String) -> [UInt8] {
    let payload = [0x04] + Array("example.com/\(folder)/\(text)".utf8)
    return [0xD1, 0x01, UInt8(payload.count), 0x55] + payload
}
