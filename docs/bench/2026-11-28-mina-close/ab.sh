#!/usr/bin/env bash
# Two builds in turns (OLD_JAR, NEW_JAR: bench/target/bench.jar of each commit), ROUNDS rounds of
# N TLS then N plain runs of PROGRAM (default CloseTls.java here: connect-and-close; the server's
# stop: ../2026-11-28-mina-server-stop/StopTls.java), each a fresh JVM; prints one line per run.
#   [PROGRAM=...] ab.sh OLD_JAR NEW_JAR N ROUNDS > ab.txt
set -u
old=$1 new=$2 n=$3 rounds=$4
here="$(cd "$(dirname "$0")" && pwd)"
program=${PROGRAM:-$here/CloseTls.java}
for r in $(seq "$rounds"); do
  for v in old new; do
    jar=$old; [ "$v" = new ] && jar=$new
    for m in tls plain; do
      echo "round $r $v $(java -cp "$jar" "$program" "$n" "$m" 2>&1 | grep -v '^\s*at \|^java.nio\|^on ' | tail -1)"
    done
  done
done
