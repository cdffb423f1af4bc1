#!/usr/bin/env bash
# Issue 30: what the close guard (engine/internal/CallGuard) costs QHT's stream(long), by GuardCost.java: the jar
# before issue 30, this tree without the guard's counting ("nocount"), and this tree, two instances each in one JVM,
# alternating chunks.
#
#   bench/scripts/guard-cost.sh [BEFORE_JAR] [JVM_RUNS] [REPEATS ROUNDS_1MBIT ROUNDS_1GBIT [CHUNK [DIR]]]
#
# GUARDCOST_EXTRA="label=jar[,label=jar...]" adds jars between before and nocount (e.g. an earlier guard's build).
# BEFORE_JAR defaults to /work/ddf-83a72da.jar (the fat jar of 83a72da). "nocount" is HEAD exported with
# `git archive` into a temporary directory (no worktree, no change to the repository) and built there, with
# CallGuard.tryEnter returning the thread's stripe (ThreadStripes.mine(): the lookup the counters made themselves
# before issue 30 and now take from the guard) without counting the call in or reading the closing mark, and exit
# returning at once: every other line as in HEAD, so after / nocount is what the guard adds. The tree's own jar is
# ingest/target/ddf.jar. Each JVM run prints its own tables (its own JIT and file placement).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
before="${1:-/work/ddf-83a72da.jar}"
runs="${2:-3}"
shift $(( $# < 2 ? $# : 2 ))
tmp="$(mktemp -d /tmp/ddf-guardcost.XXXXXX)"
trap 'rm -rf "$tmp"' EXIT
echo "uptime: $(uptime)"
(cd "$root" && mvn -q -B -ntp -pl ingest -am -DskipTests package)
mkdir "$tmp/nocount"
git -C "$root" archive HEAD | tar -x -C "$tmp/nocount"
guard="$tmp/nocount/engine/src/main/java/io/ddf/engine/internal/CallGuard.java"
# the "if" keeps javac from calling the rest unreachable (name and stripe are never null)
sed -i -e '/^    Stripe tryEnter()$/,/^    {$/ s|^    {$|    {\n        if (name != null) { return stripes.mine(); } // GuardCost variant: the stripe only, nothing counted|' \
  -e '/^    static void exit(final Stripe stripe)$/,/^    {$/ s|^    {$|    {\n        if (stripe != null) { return; } // GuardCost variant: the guard removed|' "$guard"
[[ "$(grep -c 'GuardCost variant' "$guard")" == 2 ]] || { echo "guard-cost.sh: CallGuard changed, patch failed" >&2; exit 1; }
(cd "$tmp/nocount" && mvn -q -B -ntp -pl ingest -am -DskipTests -Dpmd.skip=true package)
javac -cp "$root/ingest/target/ddf.jar" -d "$tmp/classes" "$root/bench/scripts/GuardCost.java"
flags="$("$root/bin/ddf" jvm-flags | tr '\n' ' ')"
for run in $(seq 1 "$runs"); do
  echo "=== JVM run $run, $(date -u +%H:%M:%S) UTC"
  # shellcheck disable=SC2086
  java $flags -Xms1g -Xmx2g -cp "$tmp/classes" GuardCost \
    "before=$before,${GUARDCOST_EXTRA:+$GUARDCOST_EXTRA,}nocount=$tmp/nocount/ingest/target/ddf.jar,after=$root/ingest/target/ddf.jar" "$@"
done
echo "uptime: $(uptime)"
