#!/usr/bin/env bash
# What a client's connect, hello and close cost the agent, plain and over TLS, on netty and MINA:
# TlsConnects.java against a fresh bench agent for each, BLOCKS blocks of N connects one after the
# other; per block, wall time, the agent's CPU and the connecting JVM's CPU per connect.
#   run.sh BENCH_JAR BLOCKS N > connects.txt
set -euo pipefail
jar=$1 blocks=$2 n=$3
src="$(cd "$(dirname "$0")" && pwd)/TlsConnects.java"
for t in netty mina; do
  for mode in plain tls; do
    java -cp "$jar" "$src" "$t" "$mode" "$blocks" "$n" | grep ' block '
  done
done
