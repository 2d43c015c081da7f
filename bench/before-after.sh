#!/usr/bin/env bash
# Measures two commits in one sitting and sets them side by side, cell by cell.
#
#   bench/before-after.sh OLD_REV NEW_REV [--level agent|transport] [--before-transports LIST] [bench options...]
#
# Builds each commit in its own git worktree under ${WORK:-/tmp/salgate-before-after}, runs
# 'bench agent' (or 'bench transport' with --level transport) with the same options on the old
# build and then on the new one (each run writes its own results folder), and prints 'bench
# compare' of the two. A difference counts only where the [min-max] ranges of the repetitions do
# not overlap. Example (issue 9's check):
#
#   bench/before-after.sh 54366d5 HEAD --transports netty,mina,xsocket,socket --clients 1,100 --reps 3
#
# --before-transports gives the old run its own --transports, for transports the old commit does
# not have: the new run measures them too (its report scores them), the table leaves them out.
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
old=$1 new=$2; shift 2
before_transports= level=agent
while [ "${1:-}" = "--before-transports" ] || [ "${1:-}" = "--level" ]; do
  case "$1" in
    --before-transports) before_transports=$2;;
    --level) level=$2;;
  esac
  shift 2
done
case "$level" in
  agent|transport) ;;
  *) echo "--level must be agent or transport, got '$level'" >&2; exit 2;;
esac
after_args=("$@") before_args=()
while [ $# -gt 0 ]; do # the old run: the same options, its own --transports if given
  case "$1" in
    --transports) [ -n "$before_transports" ] && before_args+=(--transports "$before_transports") || before_args+=("$1" "$2"); shift 2;;
    --transports=*) [ -n "$before_transports" ] && before_args+=(--transports "$before_transports") || before_args+=("$1"); shift;;
    *) before_args+=("$1"); shift;;
  esac
done
repo=$(git rev-parse --show-toplevel)
work=${WORK:-/tmp/salgate-before-after}
mkdir -p "$work"
stamp=$(date -u +%Y-%m-%dT%H-%M-%SZ)

build() { # rev -> prints the path of its bench.jar
  local rev sha dir
  rev=$1
  sha=$(git -C "$repo" rev-parse --short "$rev")
  dir=$work/$sha
  if [ ! -f "$dir/bench/target/bench.jar" ]; then
    rm -rf "$dir"
    git -C "$repo" worktree add --detach "$dir" "$sha" >&2
    (cd "$dir" && mvn -B -q package -DskipTests >&2)
  fi
  echo "$dir/bench/target/bench.jar"
}

old_sha=$(git -C "$repo" rev-parse --short "$old")
new_sha=$(git -C "$repo" rev-parse --short "$new")
old_jar=$(build "$old")
new_jar=$(build "$new")
out=$work/runs-$stamp
echo "== $old_sha (before)" >&2
java -jar "$old_jar" "$level" "${before_args[@]}" --out "$out/$old_sha" >&2 || [ $? -eq 3 ]
echo "== $new_sha (after)" >&2
java -jar "$new_jar" "$level" "${after_args[@]}" --out "$out/$new_sha" >&2 || [ $? -eq 3 ]
echo "Runs: $out/$old_sha and $out/$new_sha"
java -jar "$new_jar" compare "$out/$old_sha" "$out/$new_sha" --labels "$old_sha,$new_sha"
