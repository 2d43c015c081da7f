#!/usr/bin/env bash
# 10,000 idle sessions on the netty transport (bench scale --mode idle) with the JVM's native memory
# tracking on, the agent's summary (jcmd VM.native_memory summary) taken every 4 s while the cell
# runs; then one line per sample: the agent's committed total and its "Other" (the direct buffers).
# Usage: idle-nmt.sh JAR OUT
set -euo pipefail
jar=$1 out=$2
mkdir -p "$out"
JAVA_TOOL_OPTIONS="-XX:NativeMemoryTracking=summary" java -jar "$jar" scale --mode idle --transports netty \
    --clients 10000 --out "$out/run" > "$out/run.log" 2>&1 &
bench=$!
n=0
while kill -0 "$bench" 2>/dev/null; do
  agent=$(pgrep -f BenchServerMain | head -1 || true)
  if [ -n "$agent" ]; then
    n=$((n+1))
    jcmd "$agent" VM.native_memory summary > "$out/nmt-$(printf %03d $n).txt" 2>/dev/null || true
  fi
  sleep 4
done
for f in "$out"/nmt-*.txt; do
  total=$(grep -m1 'Total:' "$f" | sed -n 's/.*committed=\([0-9]*KB\).*/\1/p')
  other=$(grep -m1 -- '- *Other' "$f" | sed -n 's/.*committed=\([0-9]*KB\).*/\1/p')
  [ -n "$total" ] && echo "$(basename "$f") committed $total, direct buffers (Other) $other"
done | tee "$out/summary.txt"
