#!/usr/bin/env bash
# The socket transport's streaming at 100 clients (20, 40 and 80 KB), the build before its callers
# read their own answers (bdf2e10, "old") against the one under test ("new"), one repetition per
# run, the two in turns, the order alternating pair by pair. Run from the repository root:
#   OLD=bench.jar of bdf2e10 NEW=bench.jar under test PAIRS="1 2 3 4 5 6 7 8" pairs.sh
# (the second sitting ran PAIRS="9 10 11 12 13 14 15 16")
#   python3 docs/bench/2026-11-26-caller-turns/stream-pairs/pairs.py docs/bench/2026-11-27-socket-stream-pairs
set -euo pipefail
here=docs/bench/2026-11-27-socket-stream-pairs
one() { # jar label pair
  java -jar "$1" transport --methods stream --transports socket --baseline socket --clients 100 --reps 1 \
      --stream-duration 2s --warmup 3s --no-limits --out "/tmp/socket-pairs/p$3-$2" > "/tmp/socket-pairs/p$3-$2.log" 2>&1
  cp "/tmp/socket-pairs/p$3-$2/results.csv" "$here/p$3-$2.csv"
}
mkdir -p /tmp/socket-pairs
for r in ${PAIRS:-1 2 3 4 5 6 7 8}; do
  if [ $((r % 2)) -eq 1 ]; then one "$OLD" old "$r"; one "$NEW" new "$r"; else one "$NEW" new "$r"; one "$OLD" old "$r"; fi
done
