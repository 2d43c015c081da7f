#!/usr/bin/env bash
# Netty's buffer leak detector and the agent's streaming at 100 clients, the same jar both ways:
# "old" runs with the detector at Netty's default (JAVA_TOOL_OPTIONS=-Dio.netty.leakDetection.level=simple,
# which the bench and its agent process both pick up and ProgramDefaults keeps), "new" without
# (the programs' default, off). One repetition per run, the two in turns, the order alternating
# pair by pair. Run from the repository root on an otherwise idle machine:
#   PAIRS="1 2 ... 12" pairs.sh [BENCH_JAR]
#   python3 docs/bench/2026-11-26-caller-turns/stream-pairs/pairs.py docs/bench/2026-11-27-leak-detector-streaming
set -euo pipefail
jar=${1:-bench/target/bench.jar}
here=docs/bench/2026-11-27-leak-detector-streaming
one() { # label pair
  local opts=""
  [ "$1" = old ] && opts="-Dio.netty.leakDetection.level=simple"
  JAVA_TOOL_OPTIONS="$opts" java -jar "$jar" agent --methods async --transports netty --baseline netty \
      --clients "${CLIENTS:-100}" --reps 1 --agent-duration "${DURATION:-6s}" --warmup 3s \
      --out "/tmp/leak-streaming/p$2-$1" > "/tmp/leak-streaming/p$2-$1.log" 2>&1
  cp "/tmp/leak-streaming/p$2-$1/results.csv" "$here/p$2-$1.csv"
}
mkdir -p /tmp/leak-streaming "$here"
for r in ${PAIRS:-1 2 3 4 5 6}; do
  if [ $((r % 2)) -eq 1 ]; then one old "$r"; one new "$r"; else one new "$r"; one old "$r"; fi
done
