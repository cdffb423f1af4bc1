#!/usr/bin/env bash
# The largest stream() call across turns by time at 10^9, before and after a change, alternated in one run (issue
# 29's target: no call stalled by more than 1 ms): `ddf bench window-rotation` from BEFORE (the root of a built copy
# of the tree before the change, with this WindowRotationCommand: `git archive BASE | tar -x -C DIR`, copy the
# command in, `mvn -pl bench -am -DskipTests package dependency:build-classpath -Dmdep.outputFile=DIR/bench/target/
# classpath.txt`) and from this tree, ROUNDS times each in turn, every ARGS set of the list below per round.
#
#   bench/window-rotation-ab.sh BEFORE OUT [ROUNDS]      (default 3 rounds)
#
# Needs about 7 GB free in $DDF_BENCH_DIR (default /tmp) for the 10^9 filter (a file of 3.4 GB).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
before="$(cd "$1" && pwd)"
out="$2"
rounds="${3:-3}"
cp_file="$root/bench/target/classpath.txt"
if [[ "${DDF_SKIP_BUILD:-0}" != 1 || ! -f "$cp_file" ]]; then
  (cd "$root" && mvn -q -B -ntp -pl bench -am -DskipTests package dependency:build-classpath -Dmdep.outputFile="$cp_file")
fi
flags="$("$root/bin/ddf" jvm-flags | tr '\n' ' ')"
work="$(mktemp -d "${DDF_BENCH_DIR:-/tmp}/ddf-window-ab.XXXXXX")"
trap 'rm -rf "$work"' EXIT
sets=("--per-generation 10 --turns 24 --gap-ms 20" "--per-generation 10 --turns 24")
if [[ -n "${AB_SETS:-}" ]]; then IFS=';' read -r -a sets <<< "$AB_SETS"; fi
: > "$out"
for ((r = 1; r <= rounds; r++)); do
  for args in "${sets[@]}"; do
    for side in before after; do
      if [[ $side == before ]]; then tree="$before"; else tree="$root"; fi
      echo "== round $r, $side: window-rotation --capacity 1000000000 --warm --sync no $args" >> "$out"
      echo "uptime: $(uptime)" >> "$out"
      # shellcheck disable=SC2086
      java $flags -Dagrona.disable.bounds.checks=true -Xms1g -Xmx4g \
        -cp "$tree/bench/target/classes:$(cat "$tree/bench/target/classpath.txt")" io.ddf.bench.BenchMain \
        window-rotation --capacity 1000000000 --dir "$work" --warm --sync no $args >> "$out" 2>&1
    done
  done
done
echo "uptime: $(uptime)" >> "$out"
grep -E "^== |^all calls|^other calls" "$out"
