#!/usr/bin/env bash
# Two builds in turns (OLD_JAR, NEW_JAR: bench/target/bench.jar of each commit), ROUNDS rounds of
# N TLS then N plain connect-and-close with CloseTls.java, each a fresh JVM; prints one line per run.
#   ab.sh OLD_JAR NEW_JAR N ROUNDS > ab.txt
set -u
old=$1 new=$2 n=$3 rounds=$4
here="$(cd "$(dirname "$0")" && pwd)"
for r in $(seq "$rounds"); do
  for v in old new; do
    jar=$old; [ "$v" = new ] && jar=$new
    for m in tls plain; do
      echo "round $r $v $(java -cp "$jar" "$here/CloseTls.java" "$n" "$m" 2>&1 | grep -v '^\s*at \|^java.nio' | tail -1)"
    done
  done
done
