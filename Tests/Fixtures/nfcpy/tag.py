"""Reads (and with a URI first writes) the tag in front of a PN532 with nfcpy, the way nfcpy's own tools connect.

Usage: python3 tag.py SERIAL_PATH [URI]

With URI, sets tag.ndef.records to one URI record (nfcpy's NDEF update procedure for the tag's type). Prints
one JSON line: {"type", "product", "writeable", "capacity", "ndef"}; "ndef" is null when nfcpy finds no NDEF,
else a list of {"type", "uri"} per record, read on the same connection after any write. nfcpy's "tty:" paths
only match /dev/tty* names, so the PN532 driver is started on SERIAL_PATH (a pty) directly; everything after
that is nfcpy's normal open. Exit 2 when no tag is found, 3 when a write was asked and the tag has no
writeable NDEF.
"""
import json
import sys

import ndef
import nfc
from nfc.clf import pn532, transport


def main(path, uri=None):
    frontend = nfc.ContactlessFrontend()
    with frontend.lock:
        frontend.device = pn532.init(transport.TTY(path))
    try:
        tag = frontend.connect(rdwr={"on-connect": lambda tag: False})
        if not tag:
            print(json.dumps({"error": "no tag"}))
            return 2
        if uri is not None:
            if tag.ndef is None or not tag.ndef.is_writeable:
                print(json.dumps({"error": "no writeable NDEF", "type": type(tag).__name__}))
                return 3
            tag.ndef.records = [ndef.UriRecord(uri)]
        records, writeable, capacity = None, None, None
        if tag.ndef is not None:
            records = [{"type": r.type, "uri": getattr(r, "uri", None)} for r in tag.ndef.records]
            writeable, capacity = tag.ndef.is_writeable, tag.ndef.capacity
        print(json.dumps({"type": type(tag).__name__, "product": tag.product, "writeable": writeable,
                          "capacity": capacity, "ndef": records}))
        return 0
    finally:
        frontend.close()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
