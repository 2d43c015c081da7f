#!/usr/bin/env bash
# Starts agent/target/agent.jar as a user would and drives it with client/target/client.jar over
# every transport (protobuf), then over two transport/codec pairs: list (28 sensors), describe (a
# SensorML PhysicalComponent), read once, stream. Last, an agent of agents: an upper agent serving
# a lower agent's sensors (docs/examples/upper-agent.pcml, with the lower agent's port filled in).
# Needs the jars built (mvn package or verify). Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

AGENT_JAR=${AGENT_JAR:-agent/target/agent.jar}
CLIENT_JAR=${CLIENT_JAR:-client/target/client.jar}
PORT=${SMOKE_PORT:-17431}
TRANSPORTS=${SMOKE_TRANSPORTS:-$(java -jar "$AGENT_JAR" --list-transports | awk 'NF {print $1}')}
# transport:codec pairs; every transport with the default codec, and two others
RUNS=${SMOKE_RUNS:-"$(for t in $TRANSPORTS; do printf '%s:protobuf ' "$t"; done) netty:json mina:msgpack+gzip"}
LOG=$(mktemp -d)
agent_pid=

stop_agent() {
  if [ -n "$agent_pid" ] && kill -0 "$agent_pid" 2>/dev/null; then
    kill -TERM "$agent_pid"
    for _ in $(seq 1 50); do kill -0 "$agent_pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$agent_pid" 2>/dev/null; then echo "agent did not stop on SIGTERM"; kill -KILL "$agent_pid"; return 1; fi
  fi
  agent_pid=
}
trap 'stop_agent || true' EXIT

fail() { echo "SMOKE FAILED ($1): $2"; echo "--- agent log"; cat "$LOG/agent-$1.log" || true; exit 1; }

passed=0
for run in $RUNS; do
  t=${run%%:*}
  codec=${run#*:}
  echo "== smoke over $t with codec $codec"
  java -jar "$AGENT_JAR" --transport "$t" --codec "$codec" --host 127.0.0.1 --port "$PORT" > "$LOG/agent-$t.log" 2>&1 &
  agent_pid=$!
  client() { java -jar "$CLIENT_JAR" --transport "$t" --codec "$codec" --port "$PORT" --timeout 20s "$@"; }
  up=
  for _ in $(seq 1 60); do
    if client list > "$LOG/list.txt" 2>/dev/null; then up=1; break; fi
    kill -0 "$agent_pid" 2>/dev/null || fail "$t" "agent exited"
    sleep 0.5
  done
  [ -n "$up" ] || fail "$t" "agent did not answer within 30 s"
  [ "$(tail -n 1 "$LOG/list.txt")" = "28 sensors" ] || fail "$t" "expected 28 sensors, got: $(tail -1 "$LOG/list.txt")"
  client describe DUMMY_0 > "$LOG/describe.xml" || fail "$t" "describe"
  grep -q "<sml:PhysicalComponent" "$LOG/describe.xml" || fail "$t" "describe did not print SensorML"
  client read FREE_MEMORY > "$LOG/read.txt" || fail "$t" "read FREE_MEMORY"
  grep -q " OK " "$LOG/read.txt" || fail "$t" "read FREE_MEMORY printed: $(cat "$LOG/read.txt")"
  client stream DUMMY_0 --interval 10 --count 5 > "$LOG/stream.txt" || fail "$t" "stream"
  n=$(grep -c '^#' "$LOG/stream.txt" || true)
  [ "$n" = 5 ] || fail "$t" "stream printed $n readings, expected 5"
  stop_agent || fail "$t" "shutdown"
  grep -q "stopped" "$LOG/agent-$t.log" || fail "$t" "agent did not log a clean stop"
  passed=$((passed + 1))
done
echo "== smoke of an agent of agents (netty)"
LOWER_PORT=$((PORT + 1))
java -jar "$AGENT_JAR" --host 127.0.0.1 --port "$LOWER_PORT" --dummy-sensors 3 > "$LOG/agent-lower.log" 2>&1 &
lower_pid=$!
trap 'stop_agent || true; kill -TERM "$lower_pid" 2>/dev/null || true' EXIT
client() { java -jar "$CLIENT_JAR" --port "$1" --timeout 20s "${@:2}"; }
for _ in $(seq 1 60); do client "$LOWER_PORT" list > /dev/null 2>&1 && break; sleep 0.5; done
sed "s/127.0.0.1:7432/127.0.0.1:$LOWER_PORT/" docs/examples/upper-agent.pcml > "$LOG/upper.pcml"
java -jar "$AGENT_JAR" --host 127.0.0.1 --port "$PORT" --config "$LOG/upper.pcml" --relay-allow "127.0.0.1:$LOWER_PORT" > "$LOG/agent-upper.log" 2>&1 &
agent_pid=$!
up=
for _ in $(seq 1 60); do
  if client "$PORT" list > "$LOG/list.txt" 2>/dev/null; then up=1; break; fi
  kill -0 "$agent_pid" 2>/dev/null || fail upper "upper agent exited"
  sleep 0.5
done
[ -n "$up" ] || fail upper "upper agent did not answer within 30 s"
# 8 OS sensors of its own, and the lower agent's 3 dummy + 8 OS sensors under lab.
[ "$(tail -n 1 "$LOG/list.txt")" = "19 sensors" ] || fail upper "expected 19 sensors, got: $(tail -1 "$LOG/list.txt")"
client "$PORT" describe lab.DUMMY_0 > "$LOG/describe.xml" || fail upper "describe lab.DUMMY_0"
grep -q 'codeSpace="uniqueID">lab.DUMMY_0<' "$LOG/describe.xml" || fail upper "relayed SensorML lacks the id lab.DUMMY_0"
client "$PORT" read lab.FREE_MEMORY > "$LOG/read.txt" || fail upper "read lab.FREE_MEMORY"
grep -q " OK " "$LOG/read.txt" || fail upper "read lab.FREE_MEMORY printed: $(cat "$LOG/read.txt")"
client "$PORT" stream lab.DUMMY_1 --interval 10 --count 5 > "$LOG/stream.txt" || fail upper "stream lab.DUMMY_1"
n=$(grep -c '^#' "$LOG/stream.txt" || true)
[ "$n" = 5 ] || fail upper "relayed stream printed $n readings, expected 5"
stop_agent || fail upper "shutdown"
kill -TERM "$lower_pid"
passed=$((passed + 1))
echo "smoke: $passed passed, 0 failed"
