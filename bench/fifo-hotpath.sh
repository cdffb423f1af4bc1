#!/usr/bin/env bash
# The capacity filter's hot path, blocked 2.0 layout vs the 1.0 layout, one command (issue 20): stream(long) and
# stream(long[256]) of new items, single-writer and shared, on fifo-bloom filters of capacity 10^7 and 10^9 at 1 %
# filled to capacity; then the largest stream latency across a rotation (first recycling) of a 10^9 filter in each
# layout. Writes bench/results/capacity/fifo-hotpath-<UTC date-time>.md (and prints it).
#
#   bench/fifo-hotpath.sh [ROUNDS] [ROUND_MS] [CAPACITY...]
#
# Needs about 3 GB free in $DDF_BENCH_DIR (default /tmp) per 10^9 capacity and 5 GB of memory; a 10^9 filter
# takes a few minutes to fill.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:-7}"
round_ms="${2:-400}"
shift $(( $# > 2 ? 2 : $# ))
capacities=("$@")
stamp="$(date -u +%Y-%m-%dT%H%M)"
outdir="$root/bench/results/capacity"
mkdir -p "$outdir"
work="$(mktemp -d "${DDF_BENCH_DIR:-/tmp}/ddf-fifo-hotpath.XXXXXX")"
trap 'rm -rf "$work"' EXIT
out="$outdir/fifo-hotpath-$stamp.md"
echo "uptime: $(uptime)"
"$root/bench/run.sh" FifoHotPathBench "$out" "$work" "$rounds" "$round_ms" "${capacities[@]}"
echo "uptime: $(uptime)"
