import Foundation
import Glibc
import Testing

@testable import TagEmulator

@Suite struct PrecisePollTests {
    @Test func ppollIsFoundAndATimeoutIsNotCutShort() throws {
        #expect(PrecisePoll.isPrecise, "glibc exports ppoll")
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        var descriptors = [pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)]
        let start = AirtimeWait.now()
        #expect(PrecisePoll.wait(&descriptors, nanoseconds: 300_000) == 0, "nothing to read: a timeout")
        #expect(AirtimeWait.now() - start >= 300_000, "a sub-millisecond timeout is waited out in full")
        var byte: UInt8 = 7
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(PrecisePoll.wait(&descriptors, nanoseconds: 5_000_000_000) == 1, "a readable pipe ends the wait")
        #expect(descriptors[0].revents & Int16(POLLIN) != 0)
    }
}
