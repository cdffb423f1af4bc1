#!/usr/bin/env bash
# A fifo-bloom with a window of time (issue 29): what the window costs its calls, and the largest call across its
# turns by time at 10^9. Writes bench/results/window/window-overhead-<UTC date-time>.md (chunks of calls alternating
# between the two filters of a pair, the median ratio of their CPU times: window against the same table turned by
# count, against the default count filter, and the wall clock read per call against the coarse clock) and
# window-rotation-<UTC date-time>.txt (ddf bench window-rotation, an injected clock: steady traffic, 10 new items a
# slice, 1000 a slice, a day's jump; sync no, so that no background msync stalls the calls it times).
#
#   bench/window.sh [SECONDS] [CAPACITY...]     (defaults 6 s per pair and call; 10^6 and 10^7)
#
# Needs about 7 GB free in $DDF_BENCH_DIR (default /tmp) for the 10^9 filter (a sparse file of 3.4 GB).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-6}"
shift $(( $# > 0 ? 1 : 0 ))
capacities=("$@")
if (( ${#capacities[@]} == 0 )); then capacities=(1000000 10000000); fi
stamp="$(date -u +%Y-%m-%dT%H%M)"
outdir="$root/bench/results/window"
mkdir -p "$outdir"
work="$(mktemp -d "${DDF_BENCH_DIR:-/tmp}/ddf-window.XXXXXX")"
trap 'rm -rf "$work"' EXIT
echo "uptime: $(uptime)"
"$root/bench/run.sh" WindowOverheadBench "$outdir/window-overhead-$stamp.md" "$work" "$seconds" "${capacities[@]}"
rotation="$outdir/window-rotation-$stamp.txt"
: > "$rotation"
for args in "--per-generation 250000 --turns 10" "--per-generation 10 --turns 24" "--per-generation 1000 --turns 24" \
  "--per-generation 10 --turns 12 --jump"; do
  echo "== bench/run.sh BenchMain window-rotation --capacity 1000000000 --dir DIR --warm --sync no $args" >> "$rotation"
  echo "uptime: $(uptime)" >> "$rotation"
  # shellcheck disable=SC2086
  DDF_SKIP_BUILD=1 "$root/bench/run.sh" BenchMain window-rotation --capacity 1000000000 --dir "$work" --warm \
    --sync no $args >> "$rotation" 2>&1
done
echo "uptime: $(uptime)" >> "$rotation"
cat "$rotation"
