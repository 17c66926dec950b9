import Foundation
import TagEmulator
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A stand-in for vpcd's listening side: accepts the card's connection and exchanges frames.
private final class FakeVPCD {
    let port: UInt16
    private let listener: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, listen(fd, 1) == 0 else {
            close(fd)
            throw VPCDControlError("fake vpcd cannot listen")
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(listener) }

    /// Waits (up to 5 s) for the card to connect.
    func accept() throws -> Int32 {
        var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 5000) == 1 else { throw VPCDControlError("no connection from the card") }
        let fd = Glibc.accept(listener, nil, nil)
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return fd
    }

    /// Sends one frame and, for an APDU or ATR request, reads the reply frame (byte by byte, to check
    /// the framing under the smallest reads).
    func send(_ fd: Int32, _ payload: [UInt8], expectReply: Bool = true) -> [UInt8]? {
        let frame = VPCDFrameDecoder.encode(payload) ?? []
        _ = frame.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard expectReply else { return nil }
        var decoder = VPCDFrameDecoder()
        var byte: UInt8 = 0
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 5000) == 1, read(fd, &byte, 1) == 1 else { return nil }
            decoder.append([byte])
            if let reply = decoder.nextFrame() { return reply }
        }
    }

    /// Whether the card closed the link (EOF within 5 s).
    func closedByCard(_ fd: Int32) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var byte: UInt8 = 0
        return poll(&poller, 1, 5000) == 1 && read(fd, &byte, 1) == 0
    }
}

private let uids: [[UInt8]] = [[0x04, 1, 2, 3, 4, 5, 6], [0x04, 9, 8, 7, 6, 5, 4]]

@Test(.timeLimit(.minutes(5)))
func lineModeClosesTheLinkAfterUseAndPresentsTheNextTag() async throws {
    let vpcd = try FakeVPCD()
    let card = try VPCDVirtualTag.start(VPCDConfiguration(port: vpcd.port, lineMode: true)) {
        FakeTagSource(uids: uids)
    }
    let first = try vpcd.accept()
    defer { close(first) }
    _ = vpcd.send(first, [0x01], expectReply: false)
    #expect(vpcd.send(first, [0x04]) == VPCDCard.atr)
    #expect(vpcd.send(first, [0xFF, 0xCA, 0x00, 0x00, 0x00]) == uids[0] + [0x90, 0x00])
    _ = vpcd.send(first, [0x00], expectReply: false)  // the host is done: power off
    #expect(vpcd.closedByCard(first))
    let second = try vpcd.accept()
    defer { close(second) }
    #expect(vpcd.send(second, [0xFF, 0xCA, 0x00, 0x00, 0x00]) == uids[1] + [0x90, 0x00])
    let stats = await card.command("stats")
    #expect(stats.contains("connections=2"))
    #expect(stats.contains("tag=04090807060504"))
    await card.stop()
    #expect(vpcd.closedByCard(second))
}

@Test(.timeLimit(.minutes(5)))
func powerOffWithoutAnyAPDUKeepsTheTagAndControlCommandsMoveIt() async throws {
    let vpcd = try FakeVPCD()
    let card = try VPCDVirtualTag.start(VPCDConfiguration(port: vpcd.port, lineMode: true)) {
        FakeTagSource(uids: uids)
    }
    let first = try vpcd.accept()
    defer { close(first) }
    _ = vpcd.send(first, [0x01], expectReply: false)
    _ = vpcd.send(first, [0x00], expectReply: false)  // pcscd's idle power-off: not "done"
    #expect(vpcd.send(first, [0xFF, 0xCA, 0x00, 0x00, 0x00]) == uids[0] + [0x90, 0x00])
    #expect(await card.command("remove") == "ok\n")
    #expect(vpcd.closedByCard(first))
    #expect(await card.command("remove").hasPrefix("error:"))
    #expect(await card.command("insert 04AABBCCDDEEFF") == "inserted 04AABBCCDDEEFF\nok\n")
    let second = try vpcd.accept()
    defer { close(second) }
    #expect(
        vpcd.send(second, [0xFF, 0xCA, 0x00, 0x00, 0x00]) == [0x04, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF, 0x90, 0x00])
    #expect(await card.command("insert 0411").hasPrefix("error: UID must be the UID of these tags, 14 hex digits"))
    #expect(await card.command("frobnicate").hasPrefix("error: unknown command"))
    #expect(await card.command("dump").contains("03: E1 10 12 00"))
    await card.stop()
    #expect(await card.command("stats") == "error: virtual card stopped\n")
}

/// The control socket's `insert UID` takes the population's own form: a FeliCa IDm of 16 digits, not 7 bytes.
@Test func controlInsertTakesThePopulationsUIDForm() async throws {
    let vpcd = try FakeVPCD()
    let population = try SimulationOptions("sim:felica-lite-s?count=0")
    let card = try VPCDVirtualTag.start(VPCDConfiguration(port: vpcd.port)) { VPCDFieldSource(options: population) }
    #expect(await card.command("insert 01273D23BA0BA141") == "inserted 01273D23BA0BA141\nok\n")
    #expect(
        await card.command("insert 04273D23BA0BA1").hasPrefix(
            "error: UID must be the IDm of these tags, 16 hex digits (8 bytes)"))
    await card.stop()
}
