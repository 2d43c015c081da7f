#!/usr/bin/env bash
# Protobuf's encoding of the transport bench's String answer (CodecBenchmark.encode, protobuf,
# echo-text) on two builds of bench-jmh, in turns, each a fork with a 2 GB heap pre-touched at start
# (this machine's first touch of memory is what docs/bench/2026-11-27-first-touch measures):
#   run.sh OLD_BENCHMARKS_JAR NEW_BENCHMARKS_JAR ROUNDS OUT_DIR
# Each jar is bench-jmh/target/benchmarks.jar of its build (mvn -B -q package -DskipTests -pl bench-jmh -am).
set -euo pipefail
old=$1 new=$2 rounds=$3 out=$4
mkdir -p "$out"
for r in $(seq "$rounds"); do
  for j in old new; do
    jar=$old; if [ "$j" = new ]; then jar=$new; fi
    java -jar "$jar" 'CodecBenchmark.encode' -p codec=protobuf -p message=echo-text -f 1 -wi 3 -w 1s -i 5 -r 1s \
        -jvmArgsAppend '-Xms2g -Xmx2g -XX:+AlwaysPreTouch' > "$out/pt-$j-$r.txt" 2>&1
    echo "$j $r ns/op by iteration: $(grep -E '^Iteration' "$out/pt-$j-$r.txt" | awk '{print $3}' | tr '\n' ' ')"
  done
done
