#!/usr/bin/env bash
# The hot path side by side (issue 11), one command: QHT (k=4, s=16) stream(long) single-writer and shared at
# 1 Mbit and 1 Gbit, two threads sharing one filter, Agrona LongHashSet of the same memory and Guava
# BloomFilter.put at the same bits, in one JVM, interleaved rounds, with bytes allocated per op.
# Writes bench/results/hotpath/<UTC date-time>[-REV].md (and prints it).
#
#   bench/hotpath.sh [--rev GIT_REV] [ROUNDS] [ROUND_MS]
#
# --rev measures another revision of ddf (e.g. main's code, "before") with this same harness: the revision is
# exported with `git archive` into a temporary directory (no worktree, no change to the repository), this
# harness copied in, built and run there; rows the revision cannot run (single-writer mode) are marked absent.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rev=""
if [[ "${1:-}" == --rev ]]; then
  rev="$2"
  shift 2
fi
rounds="${1:-7}"
round_ms="${2:-400}"
stamp="$(date -u +%Y-%m-%dT%H%M)"
outdir="$root/bench/results/hotpath"
mkdir -p "$outdir"
src="$root"
tmp=""
if [[ -n "$rev" ]]; then
  tmp="$(mktemp -d /tmp/ddf-hotpath-rev.XXXXXX)"
  trap 'rm -rf "$tmp"' EXIT
  git -C "$root" archive "$rev" | tar -x -C "$tmp"
  cp "$root"/bench/src/main/java/io/ddf/bench/HotPath*.java "$root"/bench/src/main/java/io/ddf/bench/QhtReplica.java \
    "$tmp/bench/src/main/java/io/ddf/bench/"
  src="$tmp"
  out="$outdir/$stamp-$(git -C "$root" rev-parse --short "$rev").md"
else
  out="$outdir/$stamp.md"
fi
revision="$(git -C "$root" rev-parse --short "${rev:-HEAD}")$([[ -z "$rev" && -n "$(git -C "$root" status --porcelain -- engine bench/src)" ]] && echo '+uncommitted' || true)"
echo "uptime: $(uptime)"
cp_file="$src/bench/target/hotpath-classpath.txt"
# not bench/run.sh: its help:evaluate of ddf.jvm.flags prints "null" since the flags are derived during the build
(cd "$src" && mvn -q -B -ntp -pl bench -am -DskipTests package dependency:build-classpath \
  -Dmdep.outputFile="$cp_file")
flags="$("$src/bin/ddf" jvm-flags | tr '\n' ' ')"
echo "uptime: $(uptime)"
# shellcheck disable=SC2086
DDF_BENCH_REVISION="$revision" java $flags -Dagrona.disable.bounds.checks=true -Xms1g -Xmx4g \
  -cp "$src/bench/target/classes:$(cat "$cp_file")" io.ddf.bench.HotPathBench "$out" "$rounds" "$round_ms"
echo "uptime: $(uptime)"
cat "$out"
