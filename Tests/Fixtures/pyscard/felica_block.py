"""Reads the IDm and block 0 of a FeliCa (Type 3) card through an ACR122U-style PC/SC reader with pyscard.

Usage: felica_block.py READER

An independent client for the tests: it connects to READER (the exact pcsc-lite name) through pcscd, reads
the ATR and the IDm (FF CA 00 00 00), then reads block 0 of service 000B with Read Without Encryption carried
by the ACR122U's direct transmit to its PN532 (InDataExchange: FF 00 00 00 Lc D4 40 01 <frame>, answer
D5 41 00 <frame> 90 00). Prints one JSON object on the last line of stdout: atr, idm, block0, apdus.
"""

import json
import sys

from pcsc_card import Card, connect, hexstr


def main():
    connection = connect(sys.argv[1])
    card = Card(connection)
    result = {"atr": hexstr(connection.getATR())}
    idm = list(card.send([0xFF, 0xCA, 0x00, 0x00, 0x00])[0])
    result["idm"] = hexstr(idm)
    frame = [0x06] + idm + [0x01, 0x0B, 0x00, 0x01, 0x80, 0x00]
    frame = [len(frame) + 1] + frame
    pn532 = [0xD4, 0x40, 0x01] + frame
    answer = list(card.send([0xFF, 0x00, 0x00, 0x00, len(pn532)] + pn532)[0])
    if answer[:3] != [0xD5, 0x41, 0x00]:
        raise RuntimeError("InDataExchange answered %s" % hexstr(answer))
    response = answer[3:]
    if response[0] != len(response) or response[1] != 0x07 or response[2:10] != idm or response[10:12] != [0, 0]:
        raise RuntimeError("Read Without Encryption answered %s" % hexstr(response))
    result.update(block0=hexstr(response[13:29]), apdus=card.apdus)
    connection.disconnect()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
