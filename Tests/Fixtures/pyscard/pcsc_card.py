"""What the pyscard test clients share: connecting to a reader by its exact name, and APDUs counted."""

import time

from smartcard.CardConnection import CardConnection
from smartcard.Exceptions import CardConnectionException, NoCardException
from smartcard.System import readers


def hexstr(data):
    return "".join("%02X" % b for b in data)


class Card:
    def __init__(self, connection):
        self.connection = connection
        self.apdus = 0

    def send(self, apdu, expect_ok=True):
        self.apdus += 1
        data, sw1, sw2 = self.connection.transmit(list(apdu))
        if expect_ok and (sw1, sw2) != (0x90, 0x00):
            raise RuntimeError("%s answered %02X%02X" % (hexstr(apdu), sw1, sw2))
        return data, (sw1 << 8) | sw2


def connect(name, seconds=10.0):
    reader = next((r for r in readers() if str(r) == name), None)
    if reader is None:
        raise RuntimeError("no reader named %r in %s" % (name, [str(r) for r in readers()]))
    deadline = time.monotonic() + seconds
    while True:
        connection = reader.createConnection()
        try:
            connection.connect(CardConnection.T1_protocol)
            return connection
        except (NoCardException, CardConnectionException):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
