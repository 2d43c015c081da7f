#!/usr/bin/env bash
# System calls and context switches per call at N clients (30 unless CLIENTS says): a bench server
# and ManyEchoLoop.java (N connections, 5 rounds of 4 s after WARMUP_SECONDS; PAYLOAD i, o or s,
# Integer by default), and `perf stat` on both processes for 4 s from 8 s into the measured rounds.
# Run from the repository root on an otherwise idle machine:
#   run.sh TRANSPORT WARMUP_SECONDS OUT_DIR      (this folder's files: grpc 40, netty 20)
# Calls in the window: the loop's calls per second in that round times 4 s, or the client's send
# count where it makes one per call (writev for gRPC, sendto for Netty).
set -euo pipefail
t=$1 warm=$2 out=$3
jar=bench/target/bench.jar
mkdir -p "$out"
source docs/bench/bench-server.sh
port=$(start_bench_server $jar "$t" "$out/server-$t.log" -Dsalgate.bench.cpu=1)
spid=$(bench_server_pid salgate.bench.cpu=1 "$t")
java -Dwarmup.seconds="$warm" -Dloop.mark=1 -cp $jar docs/bench/2026-11-27-many-clients/ManyEchoLoop.java \
    "$t" "$port" "${PAYLOAD:-i}" "${CLIENTS:-30}" 4 "$spid" > "$out/sc-loop-$t.txt" 2>&1 &
sleep $((warm + 8))
cpid=$(pgrep -f "loop.mark=1" | head -1)
ev=syscalls:sys_enter_epoll_pwait2,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_futex,syscalls:sys_enter_write
ev=$ev,syscalls:sys_enter_writev,syscalls:sys_enter_sendto,syscalls:sys_enter_read,syscalls:sys_enter_recvfrom
ev=$ev,syscalls:sys_enter_readv,syscalls:sys_enter_poll,syscalls:sys_enter_ppoll,syscalls:sys_enter_sendmsg
ev=$ev,syscalls:sys_enter_recvmsg,raw_syscalls:sys_enter,context-switches
perf stat -e "$ev" -p "$spid" -o "$out/sc-perf-server-$t.txt" sleep 4 &
perf stat -e "$ev" -p "$cpid" -o "$out/sc-perf-client-$t.txt" sleep 4
wait
sleep 12
kill "$spid"
