#!/usr/bin/env bash
# The sitting behind docs/bench/2026-11-26-caller-turns: MINA's and xSocket's callers doing their
# own I/O, before and after, then every transport against RMI at 1 to 100 clients.
#   OLD=bench.jar of f2ac67f (before), NEW=bench.jar of the commit under test (after)
# Run from the repository root on an otherwise idle machine.
set -euo pipefail
out=docs/bench/2026-11-26-caller-turns
ab=docs/bench/2026-11-26-server-answers/ab.sh
for t in mina xsocket; do
  # six rounds with the old build first in each round, six with the new build first
  bash "$ab" "$t" "$OLD" "$NEW" 6 20000 i > "$out/$t-ab-integer.txt"
  bash "$ab" "$t" "$NEW" "$OLD" 6 20000 i > "$out/$t-ab-integer-reversed.txt"
done
pkill -f "sleep 3600" || true
# streaming, no regression: one repetition per run, the two builds in turns, the order alternating
stream() { # jar label pair
  java -jar "$1" transport --methods stream --transports mina,xsocket --baseline mina --clients 1,100 --reps 1 \
      --stream-duration 2s --warmup 3s --no-limits --out "/tmp/stream-pairs/p$3-$2" > "/tmp/stream-pairs/p$3-$2.log" 2>&1
  mkdir -p "$out/stream-pairs" && cp "/tmp/stream-pairs/p$3-$2/results.csv" "$out/stream-pairs/p$3-$2.csv"
}
mkdir -p /tmp/stream-pairs
for r in 1 2 3 4; do
  if [ $((r % 2)) -eq 1 ]; then stream "$OLD" old $r; stream "$NEW" new $r; else stream "$NEW" new $r; stream "$OLD" old $r; fi
done
docs/bench/sync-against-rmi.sh "$out" "$NEW"
