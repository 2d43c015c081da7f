#!/usr/bin/env bash
# The sitting behind docs/bench/2026-11-27-grpc-caller-turns: the gRPC transport's client on the
# netty transport's event loop that a waiting caller runs itself (grpc-netty on this project's
# Netty, in place of grpc-netty-shaded), before and after, then every transport against RMI.
#   OLD=bench.jar of 3a09788 (before), NEW=bench.jar of the commit under test (after)
# Run from the repository root on an otherwise idle machine.
set -euo pipefail
out=docs/bench/2026-11-27-grpc-caller-turns
ab=docs/bench/2026-11-26-server-answers/ab.sh
# six rounds with the old build first in each round, six with the new build first
bash "$ab" grpc "$OLD" "$NEW" 6 20000 i > "$out/grpc-ab-integer.txt"
bash "$ab" grpc "$NEW" "$OLD" 6 20000 i > "$out/grpc-ab-integer-reversed.txt"
pkill -f "sleep 3600" || true
# streaming, no regression: one repetition per run, the two builds in turns, the order alternating
stream() { # jar label pair
  java -jar "$1" transport --methods stream --transports grpc --baseline grpc --clients 1,100 --reps 1 \
      --stream-duration 2s --warmup 3s --no-limits --out "/tmp/grpc-pairs/p$3-$2" > "/tmp/grpc-pairs/p$3-$2.log" 2>&1
  mkdir -p "$out/stream-pairs" && cp "/tmp/grpc-pairs/p$3-$2/results.csv" "$out/stream-pairs/p$3-$2.csv"
}
mkdir -p /tmp/grpc-pairs
for r in 1 2 3 4 5 6; do
  if [ $((r % 2)) -eq 1 ]; then stream "$OLD" old $r; stream "$NEW" new $r; else stream "$NEW" new $r; stream "$OLD" old $r; fi
done
docs/bench/sync-against-rmi.sh "$out" "$NEW"
