#!/usr/bin/env bash
# Where a one-client call's CPU goes: perf samples of a bench server and of the one-connection echo
# loop (../2026-11-25-one-client-trials/EchoLoop.java, 5 passes of 100,000 calls) for 6 s in the
# middle of the loop, with JIT-compiled Java frames named (JDK 17's perf map).
#   profile.sh BENCH_JAR TRANSPORT OUT_DIR
# Then, e.g.: perf report -i OUT_DIR/perf-TRANSPORT.data --no-children -g none --sort comm,dso,sym --stdio
set -euo pipefail
jar=$1 t=$2 out=$3
mkdir -p "$out"
jvm="-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer"
loop="$(cd "$(dirname "$0")/../2026-11-25-one-client-trials" && pwd)/EchoLoop.java"
source "$(dirname "$0")/../bench-server.sh"
port=$(start_bench_server "$jar" "$t" "$out/server-$t.log" $jvm -Dsalgate.bench.profile=1)
java $jvm -cp "$jar" "$loop" "$t" "$port" i 100000 > "$out/client-$t.txt" &
client=$!
sleep 6
perf record -o "$out/perf-$t.data" -F 4999 -a -g sleep 6
wait $client
pkill -f "salgate.bench.profile" || true
sleep 3 # the server writes its perf map as it exits
