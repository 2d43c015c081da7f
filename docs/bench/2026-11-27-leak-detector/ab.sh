#!/usr/bin/env bash
# Netty's buffer leak detector at Netty's default level (before) and off (after, the programs'
# default since ProgramDefaults), one sitting: the bench's one-client RTT run of each build in
# turns, ROUNDS times each, the order alternating round by round.
#   ab.sh OLD_BENCH_JAR NEW_BENCH_JAR ROUNDS OUT_DIR
# Each run: bench transport, 1 client, 3 interleaved repetitions paired with RMI, 20,000 calls
# after 5,000 warm-up calls per cell, Netty, HTTP, gRPC and MINA (MINA uses no Netty: the control).
# Then: python3 summary.py OUT_DIR
set -euo pipefail
old=$1 new=$2 rounds=$3 out=$4
mkdir -p "$out"
run() { # jar dir
  java -jar "$1" transport --methods rtt --clients 1 --transports netty,http,grpc,mina --no-limits \
      --reps 3 --rtt-calls 20000 --rtt-warmup-calls 5000 --warmup 5s --interleave --out "$2" > "$2.log" 2>&1
}
for r in $(seq "$rounds"); do
  if (( r % 2 )); then
    run "$old" "$out/round-$r-before"; run "$new" "$out/round-$r-after"
  else
    run "$new" "$out/round-$r-after"; run "$old" "$out/round-$r-before"
  fi
done
