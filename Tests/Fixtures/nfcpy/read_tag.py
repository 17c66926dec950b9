"""Reads the tag in front of a PN532 with nfcpy, the way nfcpy's own tools connect.

Usage: python3 read_tag.py SERIAL_PATH

Prints one JSON line: {"type", "product", "ndef"}; "ndef" is null when nfcpy finds no NDEF, else a
list of {"type", "uri"} per record. nfcpy's "tty:" paths only match /dev/tty* names, so the PN532
driver is started on SERIAL_PATH (a pty) directly; everything after that is nfcpy's normal open.
Exit 2 when no tag is found.
"""
import json
import sys

import nfc
from nfc.clf import pn532, transport


def main(path):
    frontend = nfc.ContactlessFrontend()
    with frontend.lock:
        frontend.device = pn532.init(transport.TTY(path))
    try:
        tag = frontend.connect(rdwr={"on-connect": lambda tag: False})
        if not tag:
            print(json.dumps({"error": "no tag"}))
            return 2
        records = None
        if tag.ndef is not None:
            records = [{"type": r.type, "uri": getattr(r, "uri", None)} for r in tag.ndef.records]
        print(json.dumps({"type": type(tag).__name__, "product": tag.product, "ndef": records}))
        return 0
    finally:
        frontend.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
