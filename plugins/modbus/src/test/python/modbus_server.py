#!/usr/bin/python3
"""A Modbus device for the driver's tests: pymodbus (Debian python3-pymodbus 3.0) serving known
values as units 1 and 2, over TCP on a loopback port or as RTU on a serial line.

    /usr/bin/python3 modbus_server.py tcp PORT
    /usr/bin/python3 modbus_server.py rtu /dev/pts/N

It prints "ready" once it serves, then one line per request the device sees, "request FUNCTION
ADDRESS COUNT" (before the address is checked, so a refused request is counted too), and one per
write, "set FUNCTION ADDRESS V1,V2...". FUNCTION is the Modbus function code in decimal (3 read
holding registers, 5 write one coil, 6 write one register, 16 write several...). Addresses are
those of the Modbus PDU, 0-based, as on the wire.

Addressing: pymodbus's ModbusSlaveContext adds 1 to every address before it looks in its data
blocks unless zero_mode=True (the data model's numbering, "register 1" for PDU address 0). With a
block starting at 0 and zero_mode off, reading PDU address 0 gives the block's index 1: the
off-by-one the project met, and mbpoll (whose -r is 1-based unless -0) agreed because it sends PDU
address r-1. The test device uses zero_mode=True: block index = PDU address = the channel's
address attribute.
"""
import asyncio
import struct
import sys

from pymodbus.datastore import ModbusServerContext, ModbusSlaveContext, ModbusSparseDataBlock
from pymodbus.framer.rtu_framer import ModbusRtuFramer
from pymodbus.server.async_io import ModbusSerialServer, ModbusSingleRequestHandler, ModbusTcpServer


def words(fmt, value):
    """The 16-bit registers of value packed big-endian with struct format fmt."""
    raw = struct.pack(">" + fmt, value)
    return [int.from_bytes(raw[i:i + 2], "big") for i in range(0, len(raw), 2)]


HOLDING = {}
HOLDING.update(enumerate([1234], 0))                                   # 0 uint16
HOLDING.update(enumerate(words("h", -2), 1))                           # 1 int16
HOLDING.update(enumerate(words("i", -123456), 2))                      # 2-3 int32
HOLDING.update(enumerate(words("I", 4000000000), 4))                   # 4-5 uint32
HOLDING.update(enumerate(words("f", 230.5), 6))                        # 6-7 float32
HOLDING.update(enumerate(words("q", 0x0102030405060708), 8))           # 8-11 int64
HOLDING.update(enumerate(words("d", 1234567.875), 12))                 # 12-15 float64
HOLDING.update(enumerate(list(reversed(words("f", 230.5))), 16))       # 16-17 float32, little word order
HOLDING.update(enumerate(list(reversed(words("i", -123456))), 18))     # 18-19 int32, little word order
HOLDING.update(enumerate([0b1000000000001001], 20))                    # 20 bits 0, 3 and 15
HOLDING.update(enumerate([0] * 10, 30))                                # 30-39 written by the tests
# 40-199: no registers (a read there is refused: illegal data address)
HOLDING.update(enumerate(range(200, 210), 200))                        # 200-209 hold their address

INPUT = {}
INPUT.update(enumerate([2301], 0))                                     # 0 voltage, 0.1 V
INPUT.update(enumerate(words("f", 49.95), 1))                          # 1-2 frequency float32

COILS = {0: True, 1: False, 2: True, 10: False, 11: False}
DISCRETE = {0: False, 1: True}


class Logged(ModbusSlaveContext):
    """The device's unit: prints every request it sees, and every value written."""

    def validate(self, fc_as_hex, address, count=1):
        print(f"request {fc_as_hex} {address} {count}", flush=True)
        return super().validate(fc_as_hex, address, count)

    def setValues(self, fc_as_hex, address, values):
        listed = values if isinstance(values, list) else [values]
        print(f"set {fc_as_hex} {address} {','.join(str(int(v)) for v in listed)}", flush=True)
        super().setValues(fc_as_hex, address, values)


def unit(holding):
    return Logged(co=ModbusSparseDataBlock(dict(COILS)), di=ModbusSparseDataBlock(dict(DISCRETE)),
                  ir=ModbusSparseDataBlock(dict(INPUT)), hr=ModbusSparseDataBlock(dict(holding)), zero_mode=True)


def context():
    """Units 1 and 2 (whose holding register 0 is 4321). Another unit is answered with exception 11,
    "gateway target device failed to respond", as a Modbus TCP gateway answers for a device behind
    it that is silent: pymodbus's framers drop a request for a unit the context does not list
    unless it lists unit 0 (broadcast), so it lists it, as unit 1."""
    one = unit(HOLDING)
    return ModbusServerContext(slaves={0: one, 1: one, 2: unit({**HOLDING, 0: 4321})}, single=False)


async def tcp(port):
    server = ModbusTcpServer(context(), address=("127.0.0.1", port), allow_reuse_address=True)
    task = asyncio.create_task(server.serve_forever())
    await server.serving
    print("ready", flush=True)
    await task


async def rtu(device):
    server = ModbusSerialServer(context(), framer=ModbusRtuFramer, port=device, baudrate=9600,
                                bytesize=8, parity="N", stopbits=1, handler=ModbusSingleRequestHandler)
    await server.start()
    if server.transport is None:
        raise SystemExit(f"cannot open {device}")
    print("ready", flush=True)
    await server.serve_forever()


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("tcp", "rtu"):
        raise SystemExit("usage: modbus_server.py tcp PORT | rtu DEVICE")
    asyncio.run(tcp(int(sys.argv[2])) if sys.argv[1] == "tcp" else rtu(sys.argv[2]))
