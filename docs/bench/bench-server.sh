# Sourced by the measuring scripts under docs/bench: one way to start a bench server.
#
#   start_bench_server JAR TRANSPORT LOG [JVM_OPTION...]
# starts the bench's server for TRANSPORT (org.salgate.bench.server.BenchServerMain) in the
# background with its standard input held open for an hour (it stops when that closes, or when
# killed), its output in LOG; waits up to 20 s for its LISTENING line and prints the port. A JVM
# option such as -Dsalgate.bench.cpu=1 marks the process, for bench_server_pid and pkill -f.
#
#   bench_server_pid MARK TRANSPORT
# prints the process id of the bench server for TRANSPORT whose command line has MARK.
start_bench_server() {
  local jar=$1 transport=$2 log=$3
  shift 3
  (sleep 3600 | java "$@" -cp "$jar" org.salgate.bench.server.BenchServerMain transport "$transport" > "$log" 2>&1 &)
  for _ in $(seq 100); do grep -q LISTENING "$log" 2>/dev/null && break; sleep 0.2; done
  grep -o 'LISTENING [0-9]*' "$log" | grep -o '[0-9]*' | head -1
}

bench_server_pid() {
  pgrep -f "$1 .*BenchServerMain transport $2\$" | head -1
}
