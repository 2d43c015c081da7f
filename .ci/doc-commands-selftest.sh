#!/usr/bin/env bash
# Tests .ci/doc-commands.py on the files in .ci/doc-commands-test: pass.md must pass (and leave no
# server behind), each fail-*.md must fail with its own message, not with a crash of the runner.
set -euo pipefail
cd "$(dirname "$0")"
runner=./doc-commands.py
dir=doc-commands-test
out=$(mktemp)
trap 'rm -f "$out"' EXIT
failed=0

check() {  # check NAME EXPECTED_STATUS TEXT: the runner on $dir/NAME.md exits so and prints TEXT
  local status=0
  DOC_COMMANDS_PORT_TIMEOUT=3 python3 "$runner" "$dir/$1.md" > "$out" 2>&1 || status=$?
  if [ "$status" != "$2" ] || ! grep -qF -- "$3" "$out" || grep -q Traceback "$out"; then
    echo "doc-commands self-test: $1.md: expected status $2 and '$3', got status $status:"
    sed 's/^/    /' "$out"
    failed=$((failed + 1))
  fi
}

check pass 0 "pass.md: 10 blocks run, 1 skipped"
if (exec 3<>/dev/tcp/127.0.0.1/17991) 2>/dev/null; then
  echo "doc-commands self-test: pass.md's background server still listens on 17991 after the run"
  failed=$((failed + 1))
fi
check fail-command 1 "fail-command.md:7: the block exited with status 2"
check fail-expect 1 "does not contain the expected text: 28 sensors"
check fail-port 1 "fail-port.md:4: 127.0.0.1:17992 did not accept within 3 s"
check fail-exits 1 "the background process exited before 127.0.0.1:17993 accepted"
check fail-prompt 1 "fail-prompt.md:4: a '\$ ' prompt in a sh block"
[ "$failed" = 0 ] && echo "doc-commands self-test: 6 files as expected"
exit "$failed"
