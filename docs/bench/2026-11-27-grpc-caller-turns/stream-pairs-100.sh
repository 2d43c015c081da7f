#!/usr/bin/env bash
# More pairs of gRPC's transport-level streaming at 100 clients (20, 40 and 80 KB), 3a09788 ("old")
# against a25f104 ("new"), after run.sh's six left the 20 KB cell at 0.95, slower in 5 of 6: one
# repetition per run, the two builds in turns, the order alternating. From the repository root:
#   OLD=bench.jar of 3a09788 NEW=bench.jar of a25f104 PAIRS="7 8 9 10 11 12 13 14" stream-pairs-100.sh
#   python3 docs/bench/2026-11-26-caller-turns/stream-pairs/pairs.py docs/bench/2026-11-27-grpc-caller-turns/stream-pairs-100
set -euo pipefail
here=docs/bench/2026-11-27-grpc-caller-turns/stream-pairs-100
one() { # jar label pair
  java -jar "$1" transport --methods stream --transports grpc --baseline grpc --clients 100 --reps 1 \
      --stream-duration 2s --warmup 3s --no-limits --out "/tmp/grpc-pairs-100/p$3-$2" > "/tmp/grpc-pairs-100/p$3-$2.log" 2>&1
  cp "/tmp/grpc-pairs-100/p$3-$2/results.csv" "$here/p$3-$2.csv"
}
mkdir -p /tmp/grpc-pairs-100 "$here"
for r in ${PAIRS:-7 8 9 10 11 12 13 14}; do
  if [ $((r % 2)) -eq 1 ]; then one "$OLD" old "$r"; one "$NEW" new "$r"; else one "$NEW" new "$r"; one "$OLD" old "$r"; fi
done
