#!/usr/bin/env bash
# Every transport against RMI, synchronous calls, rounds taken in turns (--interleave): the
# transport level's RTT at 1, 10, 100, 30 and 70 clients and the agent's sensor list at 1, 10 and
# 100, as README's "Latest results: synchronous calls" gives them. Run from the repository root on
# an otherwise idle machine:
#   sync-against-rmi.sh OUT_DIR [BENCH_JAR]   (BENCH_JAR defaults to bench/target/bench.jar)
set -euo pipefail
out=$1 jar=${2:-bench/target/bench.jar}
java -jar "$jar" transport --methods rtt --clients 1 --reps 5 --rtt-calls 20000 \
    --rtt-warmup-calls 5000 --warmup 5s --interleave --out "$out/transport-1-client"
java -jar "$jar" transport --methods rtt --clients 10,100 --reps 5 --warmup 5s --interleave \
    --out "$out/transport-10-100-clients"
java -jar "$jar" agent --methods sync --transports netty,mina,xsocket,socket,http,grpc \
    --clients 1,10,100 --reps 3 --agent-duration 5s --warmup 5s --interleave --out "$out/agent"
java -jar "$jar" transport --methods rtt --clients 30,70 --reps 5 --warmup 5s --interleave \
    --out "$out/transport-30-70-clients"
