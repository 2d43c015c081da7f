#!/usr/bin/env python3
"""A salgate client in Python over the agent's gRPC service (salgate_service.proto).

Lists the agent's sensors, then streams a few readings of one sensor. The Python stubs are
generated at run time from the .proto files next to this script (or --proto-dir) into a temporary
directory, so nothing but the two packages is needed:

    pip install grpcio==1.84.0 grpcio-tools==1.84.0
    java -jar agent/target/agent.jar --transport grpc &
    python3 docs/grpc/salgate_client.py --port 7431 --sensor DUMMY_0 --count 5

Credentials, when the agent asks for them, go in the call metadata: --token T sends
"authorization: Bearer T".
"""
import argparse
import importlib
import pathlib
import sys
import tempfile

import grpc
from grpc_tools import protoc

try:
    from importlib.resources import files as _resource_files
except ImportError:  # Python < 3.9
    _resource_files = None

PROTOS = ("salgate.proto", "salgate_service.proto")


def load_stubs(proto_dir, out_dir):
    """Generates the message and service modules from the .proto files and imports them."""
    well_known = str(_resource_files("grpc_tools") / "_proto") if _resource_files else ""
    args = ["grpc_tools.protoc", "-I" + str(proto_dir), "--python_out=" + out_dir, "--grpc_python_out=" + out_dir]
    if well_known:
        args.append("-I" + well_known)
    if protoc.main(args + list(PROTOS)) != 0:
        sys.exit("protoc could not compile " + ", ".join(PROTOS) + " in " + str(proto_dir))
    sys.path.insert(0, out_dir)
    return importlib.import_module("salgate_pb2"), importlib.import_module("salgate_service_pb2_grpc")


def value_text(value):
    kind = value.WhichOneof("kind")
    if kind is None or kind == "absent":
        return "-"
    if kind == "bytes":
        return "%d bytes" % len(value.bytes)
    return str(getattr(value, kind))


def main():
    parser = argparse.ArgumentParser(description="List a salgate agent's sensors and stream a few readings over gRPC.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=7431)
    parser.add_argument("--sensor", default="DUMMY_0", help="sensor to stream (default: DUMMY_0)")
    parser.add_argument("--command", default="read", help="command to stream (default: read)")
    parser.add_argument("--count", type=int, default=5, help="readings to print (default: 5)")
    parser.add_argument("--interval-ms", type=int, default=10, help="stream interval (default: 10)")
    parser.add_argument("--shared", action="store_true",
                        help="join the agent's shared stream of the command and interval (interval above 0)")
    parser.add_argument("--token", default="", help="bearer token sent as the call's credentials")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per call (default: 20)")
    parser.add_argument("--proto-dir", default=str(pathlib.Path(__file__).resolve().parent))
    options = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="salgate-stubs-") as out_dir:
        wire, service = load_stubs(options.proto_dir, out_dir)
        metadata = [("authorization", "Bearer " + options.token)] if options.token else None
        with grpc.insecure_channel("%s:%d" % (options.host, options.port)) as channel:
            sal = service.SalStub(channel)
            try:
                sensors = sal.ListSensors(wire.ListSensors(), timeout=options.timeout, metadata=metadata).sensors
                for s in sensors:
                    print("%-20s %-8s %s" % (s.id, s.protocol, wire.SensorState.Name(s.state).replace("SENSOR_STATE_", "")))
                print("%d sensors" % len(sensors))

                stream = sal.StreamSensor(wire.SetupStream(sensor_id=options.sensor, command_id=options.command,
                                                           interval_ms=options.interval_ms, shared=options.shared),
                                          timeout=options.timeout, metadata=metadata)
                printed = 0
                for reading in stream:
                    print("%s #%d %s %s" % (reading.sensor_id, reading.sequence, value_text(reading.value),
                                            wire.ReadingStatus.Name(reading.status).replace("READING_STATUS_", "")))
                    printed += 1
                    if printed >= options.count:
                        stream.cancel()
                        break
            except grpc.RpcError as e:
                sys.exit("%s: %s" % (e.code().name, e.details()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
