#!/usr/bin/env bash
# Issue 30: what the close guard (engine/internal/CallGuard) costs QHT's stream(long), by GuardCost.java: the jar
# before issue 30, this tree without the guard ("noguard") and without its counting ("nocount"), and this tree, two
# instances each in one JVM, alternating chunks.
#
#   bench/scripts/guard-cost.sh [BEFORE_JAR] [JVM_RUNS] [REPEATS ROUNDS_1MBIT ROUNDS_1GBIT [CHUNK [DIR]]]
#
# GUARDCOST_EXTRA="label=jar[,label=jar...]" adds jars between before and noguard (e.g. an earlier guard's build).
# BEFORE_JAR defaults to /work/ddf-83a72da.jar (the fat jar of 83a72da). Two variants of HEAD, each exported with
# `git archive` into a temporary directory (no worktree, no change to the repository) and built there, differ from
# HEAD in two lines of CallGuard: exit returns at once, and tryEnter returns at once
# - "nocount": the thread's stripe (ThreadStripes.mine(): the lookup HEAD's guard makes, which the counters need for
#   their stripe and made themselves before issue 30) without counting the call in or reading the closing mark, so
#   after / nocount is what the guard's count adds;
# - "noguard": the first stripe, whoever calls (no lookup, nothing counted: a single-thread measurement only), so
#   after / noguard is the whole guard, its lookup included.
# The tree's own jar is ingest/target/ddf.jar. Each JVM run prints its own tables (its own JIT and file placement).
# ROUNDS_1GBIT 0 runs the 1 Mbit configurations only.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
before="${1:-/work/ddf-83a72da.jar}"
runs="${2:-3}"
shift $(( $# < 2 ? $# : 2 ))
tmp="$(mktemp -d /tmp/ddf-guardcost.XXXXXX)"
trap 'rm -rf "$tmp"' EXIT
echo "uptime: $(uptime)"
(cd "$root" && mvn -q -B -ntp -pl ingest -am -DskipTests package)
# variant NAME BODY: HEAD exported into $tmp/NAME, CallGuard.tryEnter returning BODY at once and exit returning at once
variant() {
  mkdir "$tmp/$1"
  git -C "$root" archive HEAD | tar -x -C "$tmp/$1"
  local guard="$tmp/$1/engine/src/main/java/io/ddf/engine/internal/CallGuard.java"
  # the "if" keeps javac from calling the rest unreachable (name and stripe are never null)
  sed -i -e '/^    Stripe tryEnter()$/,/^    {$/ s|^    {$|    {\n        if (name != null) { return '"$2"'; } // GuardCost variant: nothing counted|' \
    -e '/^    static void exit(final Stripe stripe)$/,/^    {$/ s|^    {$|    {\n        if (stripe != null) { return; } // GuardCost variant: the guard removed|' "$guard"
  [[ "$(grep -c 'GuardCost variant' "$guard")" == 2 ]] || { echo "guard-cost.sh: CallGuard changed, patch failed" >&2; exit 1; }
  (cd "$tmp/$1" && mvn -q -B -ntp -pl ingest -am -DskipTests -Dpmd.skip=true package)
}
variant noguard first
variant nocount 'stripes.mine()'
javac -cp "$root/ingest/target/ddf.jar" -d "$tmp/classes" "$root/bench/scripts/GuardCost.java"
flags="$("$root/bin/ddf" jvm-flags | tr '\n' ' ')"
for run in $(seq 1 "$runs"); do
  echo "=== JVM run $run, $(date -u +%H:%M:%S) UTC"
  # shellcheck disable=SC2086
  java $flags -Xms1g -Xmx2g -cp "$tmp/classes" GuardCost \
    "before=$before,${GUARDCOST_EXTRA:+$GUARDCOST_EXTRA,}noguard=$tmp/noguard/ingest/target/ddf.jar,nocount=$tmp/nocount/ingest/target/ddf.jar,after=$root/ingest/target/ddf.jar" "$@"
done
echo "uptime: $(uptime)"
