#!/usr/bin/env bash
# The agent's streaming of small readings (Table V's asynchronous part) on xSocket, three builds in
# one sitting: before the delivery turns (f2ac67f), with them (21e8799), and with the delivery
# thread woken once per wait (dee94ae). One repetition per run; each round runs
# the three builds once, the order rotating round by round. Run from the repository root:
#   OLD=bench.jar of f2ac67f TURNS=bench.jar of 21e8799 NEW=bench.jar under test ROUNDS=9 triples.sh
set -euo pipefail
here=docs/bench/2026-11-26-xsocket-delivery-wakes
one() { # jar label round
  java -jar "$1" agent --methods async --transports xsocket --baseline xsocket --clients 1,100 --reps 1 \
      --agent-duration 3s --warmup 3s --out "/tmp/xsocket-triples/r$3-$2" > "/tmp/xsocket-triples/r$3-$2.log" 2>&1
  cp "/tmp/xsocket-triples/r$3-$2/results.csv" "$here/r$3-$2.csv"
}
mkdir -p /tmp/xsocket-triples
builds=("$OLD old" "$TURNS turns" "$NEW new")
for r in $(seq "${ROUNDS:-9}"); do
  for i in 0 1 2; do
    read -r jar label <<< "${builds[$(( (i + r) % 3 ))]}"
    one "$jar" "$label" "$r"
  done
done
