#!/usr/bin/env bash
# The agent's small readings streamed over gRPC, before (3a09788, "old") and after (a25f104, "new")
# the client's caller-run event loop: one repetition per run, the two builds in turns, the order
# alternating pair by pair. Run from the repository root on an otherwise idle machine:
#   OLD=bench.jar of 3a09788 NEW=bench.jar of a25f104 PAIRS="1 2 3 4 5 6" agent-stream-pairs.sh
#   python3 docs/bench/2026-11-26-caller-turns/stream-pairs/pairs.py docs/bench/2026-11-27-grpc-caller-turns/agent-stream-pairs
set -euo pipefail
here=docs/bench/2026-11-27-grpc-caller-turns/agent-stream-pairs
one() { # jar label pair
  java -jar "$1" agent --methods async --transports grpc --baseline grpc --clients 1,100 --reps 1 \
      --agent-duration 3s --warmup 3s --out "/tmp/grpc-agent-pairs/p$3-$2" > "/tmp/grpc-agent-pairs/p$3-$2.log" 2>&1
  cp "/tmp/grpc-agent-pairs/p$3-$2/results.csv" "$here/p$3-$2.csv"
}
mkdir -p /tmp/grpc-agent-pairs "$here"
for r in ${PAIRS:-1 2 3 4 5 6}; do
  if [ $((r % 2)) -eq 1 ]; then one "$OLD" old "$r"; one "$NEW" new "$r"; else one "$NEW" new "$r"; one "$OLD" old "$r"; fi
done
