#!/usr/bin/env bash
# What taking fresh chunks costs in CPU: both JVMs of one streaming repetition under async-profiler's
# CPU sampling (2 ms), then each JVM's share of samples whose stack holds
# PoolArena$DirectArena.newChunk (a fresh 4 MB chunk: the JDK's allocation and zeroing of it,
# and the page faults of that first touch) and, for scale, the socket writes.
# Usage: newchunk-cpu.sh JAR LIBASYNCPROFILER OUT TRANSPORT CLIENTS [more bench options, e.g. --tls]
set -euo pipefail
jar=$1 lib=$2 out=$3 transport=$4 clients=$5; shift 5
mkdir -p "$out"
JAVA_TOOL_OPTIONS="-agentpath:$lib=start,event=cpu,interval=2ms,file=$out/cpu-%p.collapsed,collapsed" \
  java -jar "$jar" transport --transports "$transport" --baseline "$transport" --methods stream \
  --clients "$clients" --reps 1 --no-limits --stream-duration 5s --warmup 2s --out "$out/run" "$@" \
  > "$out/report.txt" 2> "$out/err.txt"
agent=$(grep -o '(pid [0-9]*' "$out/report.txt" | grep -o '[0-9]*' | head -1)
for f in "$out"/cpu-*.collapsed; do
  pid=$(basename "$f" .collapsed); pid=${pid#cpu-}
  [ "$pid" = "$agent" ] && who=agent || who="bench (the clients)"
  python3 - "$f" "$who" <<'PY'
import sys
total = chunk = writes = 0
for line in open(sys.argv[1]):
    stack, n = line.rsplit(' ', 1)
    n = int(n)
    total += n
    if 'PoolArena$DirectArena.newChunk' in stack:
        chunk += n
    if 'writev' in stack or 'sendmsg' in stack or 'writeBytesMultiple' in stack:
        writes += n
print(f"{sys.argv[2]}: {total} samples, {100 * chunk / total:.1f} % under newChunk, "
      f"{100 * writes / total:.1f} % in socket writes")
PY
done | tee "$out/summary.txt"
