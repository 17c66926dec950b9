"""Reads the CC and NDEF blocks of a Type 5 (ISO 15693) tag through PC/SC with pyscard.

Usage: type5_blocks.py READER --p1|--p2 [--blocks N]

An independent client for the tests: it connects to READER (the exact pcsc-lite name) through pcscd, reads
the ATR and the UID (FF CA 00 00 00), then reads blocks with the storage-card pseudo-APDU READ BINARY, one
block each (FF B0 00 <block> 00 with --p2, the ACS convention; FF B0 <block> 00 00 with --p1). Without
--blocks it reads block 0 (the CC) and then as many blocks as the NDEF TLV after a 4-byte CC needs. Prints
one JSON object on the last line of stdout: atr, uid, blockSize, blocks (hex, concatenated), apdus.
"""

import json
import sys

from pcsc_card import Card, connect, hexstr


def main():
    name = sys.argv[1]
    in_p1 = "--p1" in sys.argv
    count = int(sys.argv[sys.argv.index("--blocks") + 1]) if "--blocks" in sys.argv else None
    connection = connect(name)
    card = Card(connection)

    def read(block):
        return bytes(card.send([0xFF, 0xB0, block, 0x00, 0x00] if in_p1 else [0xFF, 0xB0, 0x00, block, 0x00])[0])

    result = {"atr": hexstr(connection.getATR()), "uid": hexstr(card.send([0xFF, 0xCA, 0x00, 0x00, 0x00])[0])}
    data = read(0)
    size = len(data)
    if count is None:
        data += read(1)
        if data[4] != 0x03:
            raise RuntimeError("no NDEF TLV after the CC: %s" % hexstr(data))
        length = data[5] if data[5] != 0xFF else (data[6] << 8) | data[7]
        header = 2 if data[5] != 0xFF else 4
        count = (4 + header + length + size - 1) // size
    for block in range(len(data) // size, count):
        data += read(block)
    result.update(blockSize=size, blocks=hexstr(data), apdus=card.apdus)
    connection.disconnect()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
