#!/usr/bin/python3
"""Modbus TCP devices for bench devices: pymodbus (Debian python3-pymodbus 3.0) serving one device
per port on 127.0.0.1, each with holding registers 0 to REGISTERS-1 holding their address.

    /usr/bin/python3 modbus_bench_server.py REGISTERS PORT [PORT...]

It prints "ready" once every port serves. It counts the requests the devices see, every port
together (reads and writes alike, before the address is checked), and answers a line "count" on
its standard input with "count N". It ends when its standard input closes.
"""
import asyncio
import sys

from pymodbus.datastore import ModbusServerContext, ModbusSequentialDataBlock, ModbusSlaveContext
from pymodbus.server.async_io import ModbusTcpServer

REQUESTS = [0]


class Counted(ModbusSlaveContext):
    """A device that counts every request it sees."""

    def validate(self, fc_as_hex, address, count=1):
        REQUESTS[0] += 1
        return super().validate(fc_as_hex, address, count)


def device(registers):
    # zero_mode: the block's index is the PDU address, as the agent's channels name it
    unit = Counted(hr=ModbusSequentialDataBlock(0, list(range(registers))), zero_mode=True)
    return ModbusServerContext(slaves=unit, single=True)


async def control():
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            return
        if line.strip() == "count":
            print(f"count {REQUESTS[0]}", flush=True)


async def main(registers, ports):
    servers = [ModbusTcpServer(device(registers), address=("127.0.0.1", p), allow_reuse_address=True)
               for p in ports]
    tasks = [asyncio.create_task(s.serve_forever()) for s in servers]
    for s in servers:
        await s.serving
    print("ready", flush=True)
    await control()
    for t in tasks:
        t.cancel()


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit("usage: modbus_bench_server.py REGISTERS PORT [PORT...]")
    asyncio.run(main(int(sys.argv[1]), [int(p) for p in sys.argv[2:]]))
