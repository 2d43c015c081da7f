#!/usr/bin/env bash
# When the JIT settles under load: a bench server and ManyEchoLoop.java (30 connections, 30 s warm-up,
# 5 rounds of 6 s), both with -XX:+PrintCompilation; then the client's compilations per 5 s of its life.
# Run from the repository root on an otherwise idle machine:
#   run.sh TRANSPORT OUT_DIR
set -euo pipefail
t=$1 out=$2
jar=bench/target/bench.jar
mkdir -p "$out"
source docs/bench/bench-server.sh
port=$(start_bench_server $jar "$t" "$out/server-$t.txt" -Dsalgate.bench.cpu=1 -XX:+PrintCompilation)
spid=$(bench_server_pid salgate.bench.cpu=1 "$t")
java -Dwarmup.seconds=30 -XX:+PrintCompilation -cp $jar docs/bench/2026-11-27-many-clients/ManyEchoLoop.java \
    "$t" "$port" i 30 6 "$spid" > "$out/client-$t.txt" 2>&1
kill "$spid"
awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ {c[int($1 / 5000)]++} END {for (k in c) print k * 5 "-" k * 5 + 5 " s", c[k]}' \
    "$out/client-$t.txt" | sort -n > "$out/client-$t-per-5s.txt"
