#!/usr/bin/env bash
# The agent's streaming of small readings (Table V's asynchronous part) on MINA and xSocket, before
# and after the caller turns: one repetition per run, the two builds in turns, the order alternating.
#   OLD=bench.jar of f2ac67f, NEW=bench.jar of the commit under test; run from the repository root.
#   PAIRS: which pairs to run (default "1 2 3 4"; the second sitting ran "5 6 7 8").
set -euo pipefail
here=docs/bench/2026-11-26-caller-turns/agent-stream-pairs
one() { # jar label pair
  java -jar "$1" agent --methods async --transports mina,xsocket --baseline mina --clients 1,100 --reps 1 \
      --agent-duration 3s --warmup 3s --out "/tmp/agent-pairs/p$3-$2" > "/tmp/agent-pairs/p$3-$2.log" 2>&1
  cp "/tmp/agent-pairs/p$3-$2/results.csv" "$here/p$3-$2.csv"
}
mkdir -p /tmp/agent-pairs
for r in ${PAIRS:-1 2 3 4}; do
  if [ $((r % 2)) -eq 1 ]; then one "$OLD" old $r; one "$NEW" new $r; else one "$NEW" new $r; one "$OLD" old $r; fi
done
