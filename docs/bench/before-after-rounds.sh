#!/usr/bin/env bash
# Two builds of the bench measured in one sitting, their rounds taken in turns: round 1 runs the
# BEFORE jar then the AFTER jar, round 2 the AFTER jar first, and so on (ABBA), so that a drift of
# the machine during the sitting weighs on both alike. Each round is one repetition of
# 'bench transport' with the options given, every transport's server started at once
# (--interleave). Run from the repository root on an otherwise idle machine:
#
#   docs/bench/before-after-rounds.sh OUT_DIR BEFORE_JAR AFTER_JAR ROUNDS [bench transport options...]
#   python3 docs/bench/before-after-table.py OUT_DIR      # the table: medians, ranges, ratios
set -euo pipefail
if [ $# -lt 4 ]; then
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
out=$1 before=$2 after=$3 rounds=$4
shift 4
mkdir -p "$out"
for r in $(seq "$rounds"); do
  if [ $((r % 2)) -eq 1 ]; then order="before after"; else order="after before"; fi
  for side in $order; do
    jar=$before; [ "$side" = after ] && jar=$after
    echo "== round $r: $side ($jar)" >&2
    java -jar "$jar" transport "$@" --reps 1 --interleave --out "$out/$side/round-$r" >&2 || [ $? -eq 3 ]
  done
done
