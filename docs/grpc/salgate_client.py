#!/usr/bin/env python3
"""A salgate client in Python over the agent's gRPC service (salgate_service.proto).

Lists the agent's sensors, then streams a few readings of one sensor. The Python stubs are
generated at run time into a temporary directory from the schema, salgate.proto and
salgate_service.proto: by default the repository's sources (wire/src/main/proto and
transports/grpc-service/src/main/proto, found from this script's place in a checkout), or with
--protos the agent's jar, which carries both, or a directory holding them. So nothing but the two
packages is needed:

    pip install grpcio==1.84.0 grpcio-tools==1.84.0
    java -jar agent/target/agent.jar --transport grpc &
    python3 docs/grpc/salgate_client.py --port 7431 --sensor DUMMY_0 --count 5
    python3 salgate_client.py --protos agent.jar --port 7431    # a copy of the script, outside a checkout

An agent served with TLS (--tls-cert/--tls-key or --tls-self-signed) is reached with one of

    --tls-ca FILE     trust the CA certificates in this PEM file (or the agent's own certificate),
                      and check that the agent's certificate names --host
    --tls-pin SHA256  accept only the certificate with this SHA-256 fingerprint (as the agent prints
                      with --tls-self-signed, or openssl x509 -fingerprint -sha256); a self-signed
                      certificate only

and an agent started with --tokens takes the token of --token or, better (other users of the
machine can see command lines), of the SALGATE_TOKEN environment variable, sent as the calls'
"authorization: Bearer TOKEN" metadata, as the Java client sends it.
"""
import argparse
import hashlib
import hmac
import importlib
import ipaddress
import os
import pathlib
import re
import socket
import ssl
import sys
import tempfile
import zipfile

os.environ.setdefault("GRPC_VERBOSITY", "ERROR")  # a failure is reported once, below, not logged by gRPC too

import grpc  # noqa: E402 (after GRPC_VERBOSITY)
from grpc_tools import protoc  # noqa: E402

try:
    from importlib.resources import files as _resource_files
except ImportError:  # Python < 3.9
    _resource_files = None

PROTOS = ("salgate.proto", "salgate_service.proto")
# where each of PROTOS is in the repository, from its root
SOURCES = ("wire/src/main/proto", "transports/grpc-service/src/main/proto")
TOKEN_ENV = "SALGATE_TOKEN"
# OpenSSL's verify codes for a certificate that a CA issued: its issuer not found (2, 20, 21), or
# a self-signed certificate in its chain (19)
NOT_SELF_SIGNED = (2, 19, 20, 21)


def proto_dirs(protos, out_dir):
    """The directories holding PROTOS: the repository's sources, a directory given, or a jar's, extracted into out_dir."""
    if protos is None:
        repo = pathlib.Path(__file__).resolve().parent.parent.parent
        dirs = [repo / source for source in SOURCES]
        if all((d / name).is_file() for d, name in zip(dirs, PROTOS)):
            return dirs
        sys.exit("this script is not in a salgate checkout, so it cannot find the schema (%s): give --protos the"
                 " agent's jar, which carries both, or a directory holding them" % ", ".join(PROTOS))
    path = pathlib.Path(protos)
    if path.is_dir():
        missing = [name for name in PROTOS if not (path / name).is_file()]
        if missing:
            sys.exit("--protos %s holds no %s; give the agent's jar, which carries the schema, or a directory"
                     " holding %s" % (path, " or ".join(missing), " and ".join(PROTOS)))
        return [path]
    if not zipfile.is_zipfile(path):
        sys.exit("--protos %s is neither a directory nor a jar; give the agent's jar (agent.jar) or a directory"
                 " holding %s" % (path, " and ".join(PROTOS)))
    target = pathlib.Path(out_dir) / "protos"
    target.mkdir()
    with zipfile.ZipFile(path) as jar:
        for name in PROTOS:
            try:
                (target / name).write_bytes(jar.read(name))
            except KeyError:
                sys.exit("--protos %s does not carry %s; give the agent's jar (agent.jar), which carries the schema"
                         % (path, name))
    return [target]


def load_stubs(protos, out_dir):
    """Generates the message and service modules from the .proto files and imports them."""
    dirs = proto_dirs(protos, out_dir)
    well_known = str(_resource_files("grpc_tools") / "_proto") if _resource_files else ""
    args = ["grpc_tools.protoc"] + ["-I" + str(d) for d in dirs] + ["--python_out=" + out_dir,
                                                                    "--grpc_python_out=" + out_dir]
    if well_known:
        args.append("-I" + well_known)
    if protoc.main(args + list(PROTOS)) != 0:
        sys.exit("protoc could not compile " + ", ".join(PROTOS) + " in " + ", ".join(str(d) for d in dirs))
    sys.path.insert(0, out_dir)
    return importlib.import_module("salgate_pb2"), importlib.import_module("salgate_service_pb2_grpc")


def value_text(value):
    kind = value.WhichOneof("kind")
    if kind is None or kind == "absent":
        return "-"
    if kind == "bytes":
        return "%d bytes" % len(value.bytes)
    return str(getattr(value, kind))


def parse_pin(text):
    """A SHA-256 fingerprint of 64 hex digits, colons and a 'sha256:' prefix allowed, as bytes."""
    hex_digits = re.sub(r"^sha256:", "", text.strip(), flags=re.I).replace(":", "")
    if not re.fullmatch(r"[0-9A-Fa-f]{64}", hex_digits):
        sys.exit("--tls-pin takes a SHA-256 fingerprint, 64 hex digits with or without colons"
                 " (as the agent prints with --tls-self-signed), not '%s'" % text)
    return bytes.fromhex(hex_digits)


def colons(digest):
    return ":".join("%02X" % b for b in digest)


def tls_context(root_pem=None):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.set_alpn_protocols(["h2"])
    context.check_hostname = False  # a pin trusts one certificate whatever names it has
    if root_pem is None:
        context.verify_mode = ssl.CERT_NONE  # only to read the certificate and compare it to the pin
    else:
        context.load_verify_locations(cadata=root_pem)
    return context


def handshake(host, port, context, timeout):
    """A TLS handshake with the agent; the certificate it presents, in DER and as ssl decodes a verified one."""
    with socket.create_connection((host, port), timeout=timeout) as raw:
        with context.wrap_socket(raw, server_hostname=None if is_ip(host) else host) as tls:
            return tls.getpeercert(binary_form=True), tls.getpeercert()


def is_ip(host):
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


def pinned_root(host, port, pin, timeout):
    """The agent's certificate when its SHA-256 fingerprint is the pin, as PEM, and the name gRPC must check.

    gRPC's TLS has no pins. Here the certificate the agent presents is read without trusting it,
    only to compare its fingerprint to the pin; that very certificate then becomes the only root
    the channel trusts, so gRPC's own handshake succeeds only with a server holding its key. gRPC
    also checks the host name against the certificate; a pin trusts the certificate whatever names
    it has (as the Java client's does), so the name checked is --host when the certificate names it,
    else one it names.
    """
    target = "%s:%d" % (host, port)
    try:
        der, _ = handshake(host, port, tls_context(), timeout)
    except (OSError, ssl.SSLError) as e:
        sys.exit("cannot fetch the TLS certificate of %s to check the pin (%s); check that an agent listens there"
                 " with TLS" % (target, e))
    actual = hashlib.sha256(der).digest()
    if not hmac.compare_digest(actual, pin):
        sys.exit("the agent at %s presented a certificate with SHA-256 fingerprint %s, not the pinned %s; check"
                 " --tls-pin against what the agent printed at start" % (target, colons(actual), colons(pin)))
    pem = ssl.DER_cert_to_PEM_cert(der)
    try:  # again, trusting only the pinned certificate: its dates checked, and its names read
        _, info = handshake(host, port, tls_context(pem), timeout)
    except ssl.SSLCertVerificationError as e:
        if e.verify_code in NOT_SELF_SIGNED:
            sys.exit("the pinned certificate of %s is not self-signed, and gRPC's TLS can pin only a self-signed"
                     " one; connect with --tls-ca and the CA that issued it" % target)
        sys.exit("the pinned certificate of %s is not valid (%s)" % (target, e.verify_message))
    except (OSError, ssl.SSLError) as e:
        sys.exit("TLS with the agent at %s failed (%s)" % (target, e))
    names = [value for kind, value in info.get("subjectAltName", ()) if kind in ("DNS", "IP Address")]
    if not names:
        names = [value for rdn in info.get("subject", ()) for key, value in rdn if key == "commonName"]
    if not names:
        sys.exit("the pinned certificate of %s names no host, which gRPC's TLS requires" % target)
    return pem.encode("ascii"), (None if host in names else names[0])


def channel_for(options):
    """A channel to the agent: plain, or with TLS trusting --tls-ca or the --tls-pin certificate."""
    target = "%s:%d" % (options.host, options.port)
    if options.tls_ca and options.tls_pin:
        sys.exit("give one of --tls-ca and --tls-pin")
    if options.tls_ca:
        try:
            roots = pathlib.Path(options.tls_ca).read_bytes()
        except OSError as e:
            sys.exit("cannot read --tls-ca %s: %s" % (options.tls_ca, e.strerror))
        if b"-----BEGIN CERTIFICATE-----" not in roots:
            sys.exit("--tls-ca %s holds no PEM certificate (-----BEGIN CERTIFICATE-----)" % options.tls_ca)
        return grpc.secure_channel(target, grpc.ssl_channel_credentials(root_certificates=roots))
    if options.tls_pin:
        root, name = pinned_root(options.host, options.port, parse_pin(options.tls_pin), options.timeout)
        channel_options = [("grpc.ssl_target_name_override", name)] if name else []
        return grpc.secure_channel(target, grpc.ssl_channel_credentials(root_certificates=root), channel_options)
    return grpc.insecure_channel(target)


def failure(e, options):
    """What to tell the user about a failed call, in one sentence."""
    target = "%s:%d" % (options.host, options.port)
    code, details = e.code(), e.details() or ""
    tls = bool(options.tls_ca or options.tls_pin)
    if code == grpc.StatusCode.UNAUTHENTICATED:
        if not options.token:
            return ("the agent at %s requires a token (UNAUTHENTICATED: %s); give one of its --tokens file in the"
                    " %s environment variable or with --token" % (target, details, TOKEN_ENV))
        return "the agent at %s refused the token (UNAUTHENTICATED: %s)" % (target, details)
    if code == grpc.StatusCode.PERMISSION_DENIED:
        return "the agent at %s does not allow this token's role that call (PERMISSION_DENIED: %s)" % (target, details)
    if code == grpc.StatusCode.UNAVAILABLE:
        if tls and re.search(r"ssl|tls|handshake|certificate|verif", details, re.I):
            return ("TLS with the agent at %s failed (%s); check that the agent serves TLS, that --tls-ca holds the"
                    " CA that issued its certificate (or that certificate) and that the certificate names %s"
                    % (target, details, options.host))
        return ("cannot reach an agent at %s (UNAVAILABLE: %s); check that an agent listens there with the grpc"
                " transport, and whether it runs with TLS (then connect with --tls-ca or --tls-pin)"
                % (target, details))
    return "%s: %s" % (code.name, details)


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
    parser.add_argument("--tls-ca", metavar="PEM_FILE",
                        help="connect with TLS, trusting only the CA certificates in this file (or the agent's own"
                             " certificate), and checking that the agent's certificate names --host")
    parser.add_argument("--tls-pin", metavar="SHA256",
                        help="connect with TLS, accepting only the (self-signed) certificate with this SHA-256"
                             " fingerprint, as the agent prints with --tls-self-signed")
    parser.add_argument("--token", default=os.environ.get(TOKEN_ENV, ""),
                        help="the token for an agent started with --tokens, sent as 'authorization: Bearer'"
                             " (default: the %s environment variable, which is better: other users of this"
                             " machine can see command lines)" % TOKEN_ENV)
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per call (default: 20)")
    parser.add_argument("--protos", metavar="JAR_OR_DIR",
                        help="the schema (%s): the agent's jar, which carries both, or a directory holding them"
                             " (default: the sources of the salgate checkout this script is in)" % ", ".join(PROTOS))
    options = parser.parse_args()
    options.token = options.token.strip()

    with tempfile.TemporaryDirectory(prefix="salgate-stubs-") as out_dir:
        wire, service = load_stubs(options.protos, out_dir)
        metadata = [("authorization", "Bearer " + options.token)] if options.token else None
        with channel_for(options) as channel:
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
                sys.exit(failure(e, options))
    return 0


if __name__ == "__main__":
    sys.exit(main())
