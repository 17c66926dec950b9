import Foundation
import ReaderPCSC
import TagEmulator
import TestSupport
import Testing

/// One private pcscd whose first slot gets a fresh line-mode vpcd card per step (`run`, `inspect`, `audit`),
/// each presenting the same population from the same store (the PC/SC `run` tests of every family).
struct PCSCStation {
    let daemon: PCSCDaemon
    let style: VPCDReaderStyle

    /// Runs `body` while a card presents `spec` on slot 0, then stops the card.
    func withCard<T>(_ spec: String, _ body: (VPCDVirtualTag) async throws -> T) async throws -> T {
        let population = try SimulationOptions(spec)
        let configuration = VPCDConfiguration(port: daemon.ports[0], style: style, lineMode: true)
        let card = try VPCDVirtualTag.start(configuration) { VPCDFieldSource(options: population) }
        do {
            let result = try await body(card)
            await card.stop()
            return result
        } catch {
            await card.stop()
            throw error
        }
    }
}

/// Runs `body` with a private pcscd, always stopping it; prints its log on failure.
func withStation(style: VPCDReaderStyle = .acr122u, _ body: (PCSCStation) async throws -> Void)
    async throws
{
    let daemon = try await PCSCDaemon.start(slots: 2) { try PCSCReader.listReaders().count }
    do {
        try await body(PCSCStation(daemon: daemon, style: style))
    } catch {
        print("pcscd log:\n\(daemon.log)")
        await daemon.stop()
        throw error
    }
    await daemon.stop()
}

/// `provision ARGUMENTS` in `folder`; the outcome and its wall seconds.
func provisionTimed(_ folder: JobFolder, _ arguments: [String]) async throws -> (ProvisionProcess.Outcome, Double) {
    let start = ContinuousClock.now
    let outcome = try await onThread { try ProvisionProcess.run(arguments, directory: folder.url) }
    let elapsed = (ContinuousClock.now - start).components
    return (outcome, Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
}

/// `key=value` counters from the card's `stats` answer.
func counters(_ stats: String) -> [String: Int] {
    var result: [String: Int] = [:]
    for word in stats.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
        let parts = word.split(separator: "=")
        if parts.count == 2, let value = Int(parts[1]) { result[String(parts[0])] = value }
    }
    return result
}
