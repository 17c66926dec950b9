"""Reads (and optionally writes) the NDEF file of a Type 4 tag through PC/SC with pyscard.

Usage: type4_ndef.py READER [--write HEX]

An independent client for the tests: it connects to READER (the exact pcsc-lite name) through pcscd,
reads the ATR, the UID (FF CA 00 00 00) and the ATS (FF CA 01 00 00), then follows the NFC Forum Type 4
NDEF procedure with ISO 7816-4 APDUs: SELECT the NDEF application D2760000850101, SELECT the CC file
E103, READ BINARY the CC, SELECT the NDEF file named there, READ BINARY NLEN and the message in chunks of
at most MLe. With --write, the message HEX is first written the tear-safe way (NLEN 0, the body in chunks
of at most MLc from offset 2, then NLEN). Prints one JSON object on the last line of stdout.
"""

import json
import sys
import time

from pcsc_card import Card, connect, hexstr


def main():
    name = sys.argv[1]
    message = bytes.fromhex(sys.argv[sys.argv.index("--write") + 1]) if "--write" in sys.argv else None
    started = time.monotonic()
    connection = connect(name)
    card = Card(connection)
    result = {"atr": hexstr(connection.getATR())}
    result["uid"] = hexstr(card.send([0xFF, 0xCA, 0x00, 0x00, 0x00])[0])
    ats, status = card.send([0xFF, 0xCA, 0x01, 0x00, 0x00], expect_ok=False)
    result["ats"] = hexstr(ats) if status == 0x9000 else None
    result["storageRead"] = "%04X" % card.send([0xFF, 0xB0, 0x00, 0x04, 0x10], expect_ok=False)[1]
    card.send([0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00])
    result["missingFile"] = "%04X" % card.send([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x0F], expect_ok=False)[1]
    card.send([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03])
    cc = bytes(card.send([0x00, 0xB0, 0x00, 0x00, 0x0F])[0])
    result["cc"] = hexstr(cc)
    mle = min((cc[3] << 8) | cc[4], 255)
    mlc = min((cc[5] << 8) | cc[6], 255)
    if cc[7] != 0x04:
        raise RuntimeError("CC has no NDEF file control TLV: %s" % hexstr(cc))
    card.send([0x00, 0xA4, 0x00, 0x0C, 0x02, cc[9], cc[10]])
    if message is not None:
        card.send([0x00, 0xD6, 0x00, 0x00, 0x02, 0x00, 0x00])
        for start in range(0, len(message), mlc):
            chunk = message[start:start + mlc]
            offset = 2 + start
            card.send([0x00, 0xD6, offset >> 8, offset & 0xFF, len(chunk)] + list(chunk))
        card.send([0x00, 0xD6, 0x00, 0x00, 0x02, len(message) >> 8, len(message) & 0xFF])
    nlen_bytes = bytes(card.send([0x00, 0xB0, 0x00, 0x00, 0x02])[0])
    nlen = (nlen_bytes[0] << 8) | nlen_bytes[1]
    body = b""
    while len(body) < nlen:
        offset = 2 + len(body)
        want = min(mle, nlen - len(body))
        chunk = bytes(card.send([0x00, 0xB0, offset >> 8, offset & 0xFF, want])[0])
        if not chunk:
            raise RuntimeError("READ BINARY at %d returned nothing" % offset)
        body += chunk
    result.update(nlen=nlen, ndef=hexstr(body), mle=mle, mlc=mlc, apdus=card.apdus)
    result["seconds"] = time.monotonic() - started
    connection.disconnect()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
