#!/usr/bin/env bash
# Run 2: the streaming cells of run 1 in the other order (the new build first), on the jars that
# run 1 built ('WORK=/tmp/ba bench/before-after.sh 684977a 14eda49 ...' leaves each commit's
# worktree and bench.jar under /tmp/ba), then 'bench compare' of the two.
set -e
out=${OUT:-/tmp/ba/rev-$(date -u +%H-%M)}
for pair in "14eda49 /tmp/ba/14eda49/bench/target/bench.jar" "684977a /tmp/ba/684977a/bench/target/bench.jar"; do
  set -- $pair
  java -jar $2 transport --transports mina --baseline mina --no-limits --security plain,tls --methods stream --clients 1,100 --reps 3 --stream-duration 2s --warmup 3s --out $out/$1 > $out-$1.log 2>&1 || [ $? -eq 3 ]
done
java -jar /tmp/ba/14eda49/bench/target/bench.jar compare $out/684977a $out/14eda49 --labels 684977a,14eda49 > $out-compare.md
echo done $out
