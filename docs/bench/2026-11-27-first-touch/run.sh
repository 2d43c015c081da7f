#!/usr/bin/env bash
# What the first touch of a JVM's heap costs on this machine: the JMH decode of the transport
# bench's String answer (CodecBenchmark.decode, protobuf, echo-text: 3,408 characters, about 4 KB
# allocated per operation), one fork of 12 one-second iterations without warm-up, on a 2 GB heap
# touched as it is first used, then pre-touched at start (-XX:+AlwaysPreTouch), in turns; `perf
# stat` counts each run's page faults (the JMH host JVM's included). From the repository root:
#   run.sh bench-jmh/target/benchmarks.jar ROUNDS OUT_DIR ; then python3 summary.py OUT_DIR
set -euo pipefail
jar=$1 rounds=$2 out=$3
mkdir -p "$out"
for r in $(seq "$rounds"); do
  for mode in on-use pre-touched; do
    flags="-Xms2g -Xmx2g"
    if [ "$mode" = pre-touched ]; then flags="$flags -XX:+AlwaysPreTouch"; fi
    perf stat -e page-faults -x, -o "$out/faults-$mode-$r.csv" \
        java -jar "$jar" 'CodecBenchmark.decode' -p codec=protobuf -p message=echo-text -f 1 -wi 0 -i 12 -r 1s \
        -jvmArgsAppend "$flags" > "$out/jmh-$mode-$r.txt" 2>&1
  done
done
