#!/usr/bin/env bash
# One bench command on each of the bench jars given, one run after the other in the order given,
# each run's output in OUT/<n>-<name>. MODE (an environment variable) picks the command:
#   stream (default)  the http and netty transports streaming 20, 40 and 80 KB messages to 1, 30
#                     and 100 clients, RMI the baseline
#   tls-stream        the same over TLS
#   rtt               round trips on http and netty at 1, 10 and 100 clients, RMI the baseline
#   idle              10,000 idle sessions on the netty transport (bench scale --mode idle)
#   stream-30         http and netty streaming to 30 clients, 5 rounds in turns with RMI (--interleave)
#   tls-stream-1      http and netty streaming to 1 client over TLS, 5 rounds in turns with RMI
#   http-stream       http streaming to 1, 30 and 100 clients, 3 rounds in turns with RMI
#   http-tls-stream   the same over TLS
#   http-stream-30-100  http streaming to 30 and 100 clients, 5 rounds in turns with RMI
#   tls-stream-turns  http and netty streaming to 1, 30 and 100 clients over TLS, 3 rounds in turns with RMI
#   http-turns  http round trips and streams, plain and over TLS, at 1, 30 and 100 clients, 3 rounds
#               in turns with RMI (300 round trips per client and cell)
#   http-tls-1  http streaming to 1 client over TLS, 5 rounds in turns with RMI
# Usage: [MODE=...] run.sh OUT NAME=JAR [NAME=JAR ...]
#   e.g. MODE=rtt run.sh /tmp/rtt old=/tmp/ab/old/bench.jar new=/tmp/ab/new/bench.jar new=... old=...
set -euo pipefail
out=$1; shift
mode=${MODE:-stream}
case $mode in
  stream)     args=(transport --transports http,netty --methods stream --clients 1,30,100 --reps 3
                    --no-limits --stream-duration 2s --warmup 5s) ;;
  tls-stream) args=(transport --transports http,netty --methods stream --clients 1,30,100 --reps 3
                    --no-limits --stream-duration 2s --warmup 5s --tls) ;;
  rtt)        args=(transport --transports http,netty --methods rtt --clients 1,10,100 --reps 3
                    --no-limits --warmup 5s) ;;
  idle)       args=(scale --mode idle --transports netty --clients 10000) ;;
  stream-30)  args=(transport --transports http,netty --methods stream --clients 30 --reps 5 --interleave
                    --no-limits --stream-duration 2s --warmup 5s) ;;
  tls-stream-1) args=(transport --transports http,netty --methods stream --clients 1 --reps 5 --interleave
                    --no-limits --stream-duration 2s --warmup 5s --tls) ;;
  http-stream) args=(transport --transports http --methods stream --clients 1,30,100 --reps 3 --interleave
                    --no-limits --stream-duration 2s --warmup 5s) ;;
  http-tls-stream) args=(transport --transports http --methods stream --clients 1,30,100 --reps 3 --interleave
                    --no-limits --stream-duration 2s --warmup 5s --tls) ;;
  http-stream-30-100) args=(transport --transports http --methods stream --clients 30,100 --reps 5 --interleave
                    --no-limits --stream-duration 2s --warmup 5s) ;;
  tls-stream-turns) args=(transport --transports http,netty --methods stream --clients 1,30,100 --reps 3 --interleave
                    --no-limits --stream-duration 2s --warmup 5s --tls) ;;
  http-turns) args=(transport --transports http --methods rtt,stream --clients 1,30,100 --reps 3 --interleave
                    --rtt-calls 300 --security plain,tls --no-limits --stream-duration 2s --warmup 5s) ;;
  http-tls-1) args=(transport --transports http --methods stream --clients 1 --reps 5 --interleave
                    --security tls --no-limits --stream-duration 2s --warmup 5s) ;;
  *) echo "unknown MODE $mode" >&2; exit 2 ;;
esac
mkdir -p "$out"
i=0
for named in "$@"; do
  i=$((i+1))
  name=${named%%=*} jar=${named#*=}
  java -jar "$jar" "${args[@]}" --out "$out/$i-$name" > "$out/$i-$name.log" 2>&1
done
