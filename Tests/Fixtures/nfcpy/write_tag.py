"""Writes one URI record to the tag in front of a PN532 with nfcpy, as nfcpy's own tools connect.

Usage: python3 write_tag.py SERIAL_PATH URI

Sets tag.ndef.records (nfcpy's NDEF update procedure for the tag's type), then prints one JSON line:
{"type", "product", "writeable", "capacity", "ndef"} with "ndef" the records nfcpy reads back afterwards
on the same connection. Exit 2 when no tag is found, 3 when the tag has no writeable NDEF.
"""
import json
import sys

import ndef
import nfc
from nfc.clf import pn532, transport


def main(path, uri):
    frontend = nfc.ContactlessFrontend()
    with frontend.lock:
        frontend.device = pn532.init(transport.TTY(path))
    try:
        tag = frontend.connect(rdwr={"on-connect": lambda tag: False})
        if not tag:
            print(json.dumps({"error": "no tag"}))
            return 2
        if tag.ndef is None or not tag.ndef.is_writeable:
            print(json.dumps({"error": "no writeable NDEF", "type": type(tag).__name__}))
            return 3
        tag.ndef.records = [ndef.UriRecord(uri)]
        records = [{"type": r.type, "uri": getattr(r, "uri", None)} for r in tag.ndef.records]
        print(json.dumps({"type": type(tag).__name__, "product": tag.product, "writeable": tag.ndef.is_writeable,
                          "capacity": tag.ndef.capacity, "ndef": records}))
        return 0
    finally:
        frontend.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
