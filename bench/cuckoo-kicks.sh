#!/usr/bin/env bash
# Issue 11's cuckoo goal, one command: bench/cuckoo-kicks.sh [ROUNDS]
# 1. Time per element of a saturated streaming cuckoo filter at 1 Mbit (the defaults b = 4, f = 16, and seed 000's
#    b = 1, f = 3) for several max-kicks bounds, interleaved rounds, medians (bench CuckooKicks).
# 2. Seed 000 Table 2's cuckoo rows (b = 1, f = 3, uniform streams over 2^24 and 2^27 at scale 0.01, 4 memories)
#    with the old bound 500 beside the new default, same streams and seeds, in one accuracy run.
# Writes bench/results/cuckoo-kicks/DATE.md (and the accuracy run's table beside it), with `uptime` beside each part.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:-5}"
date="$(date -u +%F)"
out="$root/bench/results/cuckoo-kicks"
mkdir -p "$out"
md="$out/$date.md"
cd "$root"
"$root/bin/ddf" bench --help > /dev/null # builds bench/target/benchmarks.jar when the sources are newer
kicks() { java $("$root/bin/ddf" jvm-flags) -Dagrona.disable.bounds.checks=true -Xmx2g \
  -cp "$root/bench/target/benchmarks.jar" io.ddf.bench.CuckooKicks "$@"; }
{
  echo "# Saturated streaming cuckoo filter: time per element against max-kicks ($date)"
  echo
  echo "Command: \`bench/cuckoo-kicks.sh $rounds\`"
  echo
  echo "## 1 Mbit, b = 4, f = 16 (the defaults); uptime: $(uptime)"
  echo
  kicks 1048576 4 16 "$rounds" 200000 500 64 32 16 8 | sed -n '/^| /p'
  echo
  echo "## 1 Mbit, b = 1, f = 3 (seed 000's shape); uptime: $(uptime)"
  echo
  kicks 1048576 1 3 "$rounds" 200000 500 64 32 16 8 | sed -n '/^| /p'
  echo
} > "$md.tmp"
for alphabet in 167772 1342177; do
  echo "## Seed 000 Table 2 cuckoo rows, uniform over $alphabet (2^24 or 2^27 x 0.01), 1,500,000 elements, 2 runs; uptime: $(uptime)" >> "$md.tmp"
  echo >> "$md.tmp"
  "$root/bin/ddf" bench accuracy --stream uniform --alphabet "$alphabet" --length 1500000 --runs 2 --seed 2026 \
    --memory-bits 80000,10000,1000,100 --no-progress --no-plots --out "$out/table2-$alphabet" \
    --filter "kicks-500@cuckoo:buckets=1,fingerprint-bits=3,max-kicks=500" \
    --filter "kicks-default@cuckoo:buckets=1,fingerprint-bits=3" > /dev/null
  sed -n '/^## Error rate/,/^## FPR/p' "$out/table2-$alphabet/table.md" | sed '$d' >> "$md.tmp"
done
mv "$md.tmp" "$md"
cat "$md"
