#!/usr/bin/env bash
# The distribution as a user installs it (run as root, after mvn verify built dist/target):
# the .deb installed with dpkg, its user, owners and modes checked, the installed agent run as
# the salgate user with the packaged configuration and reached with the installed client; the
# systemd unit verified and scored offline (no systemd runs here); lintian with no error; an
# upgrade that keeps an edited configuration; remove and purge. Then the tarball, unpacked in a
# directory whose path has spaces, started from there and reached with its client.
# Leaves the machine as it found it: the package purged, the salgate user removed, temp dirs gone.
set -euo pipefail
cd "$(dirname "$0")/.."

UNIT=/lib/systemd/system/salgate-agent.service
PORT=${PACKAGE_TEST_PORT:-17451}
WORK=$(mktemp -d)
agent_pid=
had_user=$(getent passwd salgate >/dev/null && echo yes || echo no)

stop_agent() {
  if [ -n "$agent_pid" ] && kill -0 "$agent_pid" 2>/dev/null; then
    kill -TERM "$agent_pid"
    for _ in $(seq 1 50); do kill -0 "$agent_pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$agent_pid" 2>/dev/null; then kill -KILL "$agent_pid"; fi
  fi
  agent_pid=
}
cleanup() {
  stop_agent || true
  if dpkg-query -W -f='${Status}' salgate 2>/dev/null | grep -q 'installed\|config-files'; then dpkg_ --purge salgate >/dev/null || true; fi
  if [ "$had_user" = no ] && getent passwd salgate >/dev/null; then deluser --system --quiet salgate || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# dpkg, waiting while another dpkg or apt holds its lock (on a shared machine)
dpkg_() {
  local out
  for _ in $(seq 1 120); do
    if out=$(dpkg "$@" 2>&1); then echo "$out"; return 0; fi
    echo "$out"
    grep -q 'lock' <<< "$out" || return 1
    sleep 1
  done
  return 1
}
fail() { echo "PACKAGE TEST FAILED: $*"; [ -f "$WORK/agent.log" ] && { echo "--- agent log"; cat "$WORK/agent.log"; }; exit 1; }
checks=0
check() { checks=$((checks + 1)); }
# owner:group mode of a path
expect_stat() {
  local got; got=$(stat -c '%U:%G %a' "$1")
  [ "$got" = "$2" ] || fail "$1 is $got, expected $2"; check
}
# waits until the client CLI ($1...) lists the agent's 28 default sensors
wait_for_agent() {
  for _ in $(seq 1 90); do
    if "$@" > "$WORK/list.txt" 2>&1; then break; fi
    kill -0 "$agent_pid" 2>/dev/null || fail "the agent exited"
    sleep 0.5
  done
  [ "$(tail -n 1 "$WORK/list.txt")" = "28 sensors" ] || fail "the client listed: $(cat "$WORK/list.txt")"; check
}

for tool in lintian systemd-analyze dpkg-deb runuser; do
  command -v "$tool" >/dev/null || fail "$tool is missing: .ci/run installs it (lintian, systemd)"
done
DEB=$(ls dist/target/salgate_*_amd64.deb 2>/dev/null | grep -v '+' | head -n 1) || true
TARBALL=$(ls dist/target/salgate-*.tar.gz 2>/dev/null | head -n 1) || true
[ -n "$DEB" ] && [ -n "$TARBALL" ] || fail "dist/target has no .deb or tarball: run mvn -B verify first"
cp "$DEB" "$WORK/"
DEB=$WORK/$(basename "$DEB")
dpkg-query -W salgate >/dev/null 2>&1 && fail "a salgate package is installed already; purge it first (dpkg --purge salgate)"

echo "== lintian $(basename "$DEB")"
lintian --fail-on error --suppress-tags-from-file dist/src/deb/lintian-overrides.txt "$DEB" || fail "lintian found errors"
check

echo "== dpkg -i $(basename "$DEB")"
dpkg_ -i "$DEB" || DEBIAN_FRONTEND=noninteractive apt-get install -f -y
VERSION_N=$(dpkg-query -W -f='${Version}' salgate)
IFS=: read -r _ _ uid _ _ home shell < <(getent passwd salgate) || fail "no salgate user after install"
[ "$uid" -lt 1000 ] || fail "salgate is not a system user (uid $uid)"; check
[ "$home" = /var/lib/salgate ] || fail "salgate's home is $home"; check
case $shell in */nologin|/bin/false) check ;; *) fail "salgate has the login shell $shell" ;; esac
expect_stat /etc/salgate "root:salgate 750"
expect_stat /etc/salgate/conf.d "root:salgate 750"
expect_stat /etc/salgate/agent.yaml "root:salgate 640"
expect_stat /var/lib/salgate "salgate:salgate 750"
expect_stat /usr/lib/salgate/runtime/bin/java "root:root 755"
expect_stat "$UNIT" "root:root 644"
[ "$(readlink -f /usr/bin/salgate-agent)" = /usr/share/salgate/bin/salgate-agent ] || fail "/usr/bin/salgate-agent"; check
grep -qx 'state-dir: /var/lib/salgate' /etc/salgate/agent.yaml || fail "the packaged configuration does not set state-dir"; check

echo "== the installed agent as the salgate user, with the packaged configuration"
runuser -u salgate -- /usr/bin/salgate-agent --config-file /etc/salgate/agent.yaml --check || fail "--check refused the packaged configuration"
check
# --port only so as not to take 7431 from whatever else runs on this machine; all else from the file
runuser -u salgate -- /usr/bin/salgate-agent --config-file /etc/salgate/agent.yaml --port "$PORT" --tls-self-signed > "$WORK/agent.log" 2>&1 &
runuser_pid=$!
for _ in $(seq 1 20); do agent_pid=$(pgrep -P "$runuser_pid" || true); [ -n "$agent_pid" ] && break; sleep 0.2; done
[ -n "$agent_pid" ] || fail "the launcher did not start java"
# the launcher (sh) execs java: wait for the exec
for _ in $(seq 1 20); do [ "$(readlink "/proc/$agent_pid/exe")" = /usr/lib/salgate/runtime/bin/java ] && break; sleep 0.2; done
[ "$(readlink "/proc/$agent_pid/exe")" = /usr/lib/salgate/runtime/bin/java ] || fail "the agent runs $(readlink "/proc/$agent_pid/exe"), not the packaged runtime"; check
[ "$(stat -c %U "/proc/$agent_pid")" = salgate ] || fail "the agent does not run as salgate"; check
for _ in $(seq 1 60); do grep -q 'tls-pin' "$WORK/agent.log" && break; sleep 0.5; done
PIN=$(grep -o 'tls-pin [0-9A-F:]*' "$WORK/agent.log" | cut -d' ' -f2)
[ -n "$PIN" ] || fail "the agent printed no certificate pin"
wait_for_agent /usr/bin/salgate --port "$PORT" --tls-pin "$PIN" --timeout 20s list
grep -q "listening on 127.0.0.1:$PORT" "$WORK/agent.log" || fail "the agent does not listen on loopback only"; check
# the self-signed certificate is state: kept in /var/lib/salgate, owned by the service's user
[ -n "$(find /var/lib/salgate -user salgate -type f)" ] || fail "nothing written to /var/lib/salgate"; check
stop_agent
wait "$runuser_pid" 2>/dev/null || true

echo "== the systemd unit"
systemd-analyze verify "$UNIT" || fail "systemd-analyze verify $UNIT"
check
systemd-analyze security --offline=true "$UNIT" | tee "$WORK/security.txt"
score=$(sed -n 's/.*Overall exposure level for .*: \([0-9.]*\).*/\1/p' "$WORK/security.txt")
echo "systemd-analyze security: $score"
# the figure docs/install.md gives; a change to the unit that raises it must update the docs
awk -v s="$score" 'BEGIN { exit !(s != "" && s <= 1.9) }' || fail "exposure $score, above docs/install.md's 1.9"; check

echo "== upgrade keeps an edited configuration"
sed -i 's/^#log-level: info$/log-level: warn/' /etc/salgate/agent.yaml
grep -qx 'log-level: warn' /etc/salgate/agent.yaml || fail "could not edit the configuration"
mvn -B -q -pl dist -am -DskipTests -Dsalgate.deb.suffix=+1 package
NEXT=$(ls dist/target/salgate_*+1_amd64.deb)
DEBIAN_FRONTEND=noninteractive dpkg_ -i --force-confdef --force-confold "$NEXT"
[ "$(dpkg-query -W -f='${Version}' salgate)" = "$VERSION_N+1" ] || fail "the upgrade did not install $VERSION_N+1"; check
grep -qx 'log-level: warn' /etc/salgate/agent.yaml || fail "the upgrade lost the edit of /etc/salgate/agent.yaml"; check
expect_stat /etc/salgate/agent.yaml "root:salgate 640"
rm -f "$NEXT"

echo "== remove keeps the configuration and the state, purge removes them"
dpkg_ --remove salgate
[ ! -e /usr/bin/salgate-agent ] && [ ! -e "$UNIT" ] || fail "remove left the program"; check
[ -f /etc/salgate/agent.yaml ] && [ -d /var/lib/salgate ] || fail "remove took the configuration or the state"; check
dpkg_ --purge salgate
[ ! -e /etc/salgate ] && [ ! -e /var/lib/salgate ] || fail "purge left /etc/salgate or /var/lib/salgate"; check

echo "== the tarball, from a directory whose path has spaces"
mkdir -p "$WORK/a dir with spaces"
tar -xzf "$TARBALL" -C "$WORK/a dir with spaces"
HOME_DIR=$(echo "$WORK/a dir with spaces"/salgate-*)
for f in bin/salgate-agent bin/salgate conf/agent.yaml lib/agent.jar lib/client.jar LICENSE; do
  [ -e "$HOME_DIR/$f" ] || fail "the tarball has no $f"
done
check
(cd / && "$HOME_DIR/bin/salgate-agent" --config-file "$HOME_DIR/conf/agent.yaml" --check) || fail "--check refused conf/agent.yaml"
check
(cd / && exec "$HOME_DIR/bin/salgate-agent" --config-file "$HOME_DIR/conf/agent.yaml" --port "$PORT" --state-dir "$WORK/a dir with spaces/state") > "$WORK/agent.log" 2>&1 &
agent_pid=$!
wait_for_agent "$HOME_DIR/bin/salgate" --port "$PORT" --timeout 20s list
stop_agent

echo "package-test: $checks passed, 0 failed"
