#!/usr/bin/env bash
# The agent's small readings streamed over Netty, HTTP and gRPC, before (dc3e2ef, "old": Netty's
# leak detector at Netty's default) and after (33e9cfc, "new": off in the programs): one
# repetition per run, the two builds in turns, the order alternating pair by pair. Run from the
# repository root on an otherwise idle machine:
#   OLD=bench.jar of dc3e2ef NEW=bench.jar of 33e9cfc PAIRS="1 2 3 4 5 6" agent-stream-pairs.sh
#   python3 docs/bench/2026-11-26-caller-turns/stream-pairs/pairs.py docs/bench/2026-11-27-leak-detector/agent-stream-pairs
# The second sitting: TRANSPORTS=netty,grpc DURATION=6s HERE=...-pairs-2 PAIRS="1 2 3 4 5 6 7 8";
# the third: TRANSPORTS=netty CLIENTS=100 DURATION=6s HERE=...-pairs-3 PAIRS="1 2 3 4 5 6 7 8 9 10"
set -euo pipefail
here=${HERE:-docs/bench/2026-11-27-leak-detector/agent-stream-pairs}
one() { # jar label pair
  java -jar "$1" agent --methods async --transports "${TRANSPORTS:-netty,http,grpc}" --baseline netty --clients "${CLIENTS:-1,100}" \
      --reps 1 --agent-duration "${DURATION:-3s}" --warmup 3s --out "/tmp/leak-agent-pairs/p$3-$2" \
      > "/tmp/leak-agent-pairs/p$3-$2.log" 2>&1
  cp "/tmp/leak-agent-pairs/p$3-$2/results.csv" "$here/p$3-$2.csv"
}
mkdir -p /tmp/leak-agent-pairs "$here"
for r in ${PAIRS:-1 2 3 4 5 6}; do
  if [ $((r % 2)) -eq 1 ]; then one "$OLD" old "$r"; one "$NEW" new "$r"; else one "$NEW" new "$r"; one "$OLD" old "$r"; fi
done
