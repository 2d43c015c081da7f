#!/usr/bin/python3
"""A Modbus TCP energy meter to try docs/examples/modbus-meter.pcml without the hardware: it serves,
as unit 1 on 127.0.0.1, the registers that file maps, with plausible values. Needs pymodbus 3.0
(Debian: apt-get install python3-pymodbus; run it with /usr/bin/python3).

    /usr/bin/python3 docs/examples/modbus-meter-simulator.py [PORT]     (default 5020)

Addresses are those on the wire, 0-based: zero_mode=True keeps pymodbus from shifting them by one.
"""
import asyncio
import struct
import sys

from pymodbus.datastore import ModbusServerContext, ModbusSlaveContext, ModbusSparseDataBlock
from pymodbus.server.async_io import ModbusTcpServer


def registers(fmt, value, little_word_order=False):
    """The 16-bit registers of value packed big-endian with struct format fmt."""
    raw = struct.pack(">" + fmt, value)
    words = [int.from_bytes(raw[i:i + 2], "big") for i in range(0, len(raw), 2)]
    return list(reversed(words)) if little_word_order else words


INPUT = {}
INPUT.update(enumerate([2301], 0))                                      # voltage: 230.1 V (scale 0.1)
INPUT.update(enumerate(registers("I", 5250), 1))                        # current: 5.25 A (scale 0.001)
INPUT.update(enumerate(registers("i", 1208), 3))                        # power: 1208 W
INPUT.update(enumerate(registers("f", 49.98), 5))                       # frequency: 49.98 Hz
INPUT.update(enumerate(registers("d", 1234.5, little_word_order=True), 20))  # energy: 1234.5 kWh
INPUT.update(enumerate([0], 30))                                        # status: no overload
HOLDING = {10: 500}                                                     # power limit: 5.00 kW (scale 0.01)
COILS = {0: True}                                                       # load relay closed


async def serve(port):
    meter = ModbusSlaveContext(ir=ModbusSparseDataBlock(INPUT), hr=ModbusSparseDataBlock(HOLDING),
                               co=ModbusSparseDataBlock(COILS), di=ModbusSparseDataBlock({0: False}),
                               zero_mode=True)
    server = ModbusTcpServer(ModbusServerContext(slaves={1: meter}, single=False),
                             address=("127.0.0.1", port), allow_reuse_address=True)
    task = asyncio.create_task(server.serve_forever())
    await server.serving
    print(f"Modbus meter simulator on 127.0.0.1:{port}, unit 1", flush=True)
    await task


if __name__ == "__main__":
    asyncio.run(serve(int(sys.argv[1]) if len(sys.argv) > 1 else 5020))
