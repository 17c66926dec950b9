import TagEmulator
import Testing

struct PN532RegistersTests {
    @Test func resetStateIsWhatLibnfcExpects() {
        let registers = PN532Registers()
        #expect(registers[PN532Registers.txMode] == 0x80)
        #expect(registers[PN532Registers.rxMode] == 0x80)
        #expect(registers[PN532Registers.manualRCV] == 0x00)
        #expect(registers.transmitCRC && registers.receiveCRC && !registers.parityOff)
        #expect(registers.transmitLastBits == 0)
        #expect(registers[0x6313] == 0x00)
    }

    @Test func bitsFollowWrites() {
        var registers = PN532Registers()
        registers[PN532Registers.txMode] = 0x00
        registers[PN532Registers.manualRCV] = 0x10
        registers[PN532Registers.bitFraming] = 0x07
        registers[PN532Registers.control] = 0x10
        registers.setReceiveLastBits(4)
        #expect(!registers.transmitCRC && registers.receiveCRC && registers.parityOff)
        #expect(registers.transmitLastBits == 7)
        #expect(registers[PN532Registers.control] == 0x14)
    }
}
