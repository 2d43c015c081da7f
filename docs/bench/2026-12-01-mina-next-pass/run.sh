#!/usr/bin/env bash
# MINA's server writing a stream's next batch at its I/O thread's next pass (26b8431) against the
# code before it (0893d24): bench runs of the two builds' jars, one after the other in the order
# given. Usage, from the repository root: MODE=... run.sh OUT NAME=JAR [NAME=JAR ...]
#   MODE=stream (default): MINA and RMI streaming 20, 40 and 80 KB messages to 1 and 100 clients
#     over plain TCP, in turns with RMI (--interleave), with the framework-free ceiling;
#   MODE=tls: the same over TLS, MINA alone (its TLS cells against each other);
#   MODE=rtt: MINA's round trips at 1, 10 and 100 clients, in turns with RMI's;
#   MODE=one-client: MINA streaming to one client with RMI and the ceiling, as
#     docs/bench/2026-11-29-mina-pool-batches/4-run.sh did (for the code before issue 15, 14ec123).
# The first sitting (stream/) ran docs/bench/2026-11-28-transport-sweep/mina-old-new/run.sh, which
# also streams over Netty. Tables: python3 summary.py OUT/*/ in this folder.
set -euo pipefail
out=$1; shift
mkdir -p "$out"
common=(--transports mina --clients 1,100 --reps 3 --stream-duration 2s --warmup 3s)
case "${MODE:-stream}" in
  stream) args=("${common[@]}" --methods stream --interleave);;
  tls) args=("${common[@]}" --methods stream --baseline mina --no-limits --tls);;
  rtt) args=(--transports mina --clients 1,10,100 --reps 3 --warmup 3s --methods rtt --rtt-calls 2000 --interleave --no-limits);;
  one-client) args=(--transports mina --methods stream --clients 1 --reps 3 --stream-duration 2s --warmup 5s);;
  *) echo "MODE must be stream, tls, rtt or one-client" >&2; exit 2;;
esac
i=0
for named in "$@"; do
  i=$((i+1))
  name=${named%%=*} jar=${named#*=}
  java -jar "$jar" transport "${args[@]}" --out "$out/$i-$name" > "$out/$i-$name.log" 2>&1
done
