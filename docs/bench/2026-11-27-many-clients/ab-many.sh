#!/usr/bin/env bash
# Before and after at N clients, in one sitting: cpu-per-call.sh with the old build's jar, then the
# new build's, PAIRS times, the order flipping every pair; each run is a fresh server and client JVM.
#   ab-many.sh TRANSPORT OLD_JAR NEW_JAR PAIRS CLIENTS PAYLOAD OUT_DIR    (env WARMUP: seconds, 40)
# Then: python3 ab-many.py OUT_DIR
set -euo pipefail
t=$1 old=$2 new=$3 pairs=$4 n=$5 payload=$6 out=$7
here="$(cd "$(dirname "$0")" && pwd)"
export WARMUP=${WARMUP:-40}
for p in $(seq "$pairs"); do
  if (( p % 2 )); then order="old new"; else order="new old"; fi
  for side in $order; do
    jar=$old; [[ $side == new ]] && jar=$new
    "$here/cpu-per-call.sh" "$jar" "$out/pair-$p-$side" "$n" 4 "$payload" "$t"
  done
done
