#!/usr/bin/env bash
# MINA's callers writing and reading their own TLS connection (this stop's change) against the code
# before it: runs of the two builds' bench jars, in rounds whose order alternates (old, new, then
# new, old, ...), each run a fresh bench with fresh server JVMs.
# Usage, from the repository root: [SECURITY=plain] MODE=... run.sh OUT ROUNDS OLD_JAR NEW_JAR
#   MODE=rtt (default): one-client round trips, 20,000 calls after 5,000, MINA in turns with Netty
#     (--interleave; Netty's code is the same in both builds: the run's control);
#   MODE=rtt-many: the same at 10 and 100 clients, 1,000 calls per client after 200;
#   MODE=stream: MINA streaming 20, 40 and 80 KB messages to 1 and 100 clients (CLIENTS), alone, one
#     repetition a run (REPS; a run's first repetition comes before the JIT has settled on its path).
# Over TLS unless SECURITY=plain (the change also touches how a plain connection's writes are let
# through at once, and how frames a caller left are delivered).
# Tables: python3 summary.py OUT (in this folder).
set -euo pipefail
out=$1 rounds=$2 old=$3 new=$4
mkdir -p "$out"
case "${MODE:-rtt}" in
  rtt) args=(--methods rtt --clients 1 --reps 3 --rtt-calls 20000 --rtt-warmup-calls 5000 --transports mina
             --baseline netty --interleave);;
  rtt-many) args=(--methods rtt --clients 10,100 --reps 3 --transports mina --baseline netty --interleave);;
  stream) args=(--methods stream --clients "${CLIENTS:-1,100}" --reps "${REPS:-1}" --stream-duration 2s --transports mina --baseline mina);;
  *) echo "MODE must be rtt, rtt-many or stream" >&2; exit 2;;
esac
for r in $(seq "$rounds"); do
  if (( r % 2 )); then order=(old new); else order=(new old); fi
  for build in "${order[@]}"; do
    jar=$old; [[ $build == new ]] && jar=$new
    java -jar "$jar" transport --security "${SECURITY:-tls}" --no-limits --warmup 5s "${args[@]}" --out "$out/$r-$build" > "$out/$r-$build.log" 2>&1
  done
done
