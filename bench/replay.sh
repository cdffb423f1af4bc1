#!/usr/bin/env bash
# Change-log replay speed of the daemon's default filter (issue 31): a ddf scaling chain written through a change log
# gets RECORDS adds after an empty checkpoint; a power cut is played (the file as checkpointed, the log as forced,
# another boot id) and the open replays every record. With KIND (a FilterKind name: QHT, FIFO_BLOOM, ...) a fixed-size
# filter of that kind and INITIAL_CAPACITY memory bits, written through a change log as the daemon's are, instead.
# Reports the replay's wall time and the replaying thread's CPU time (on a shared machine the wall time says the share
# of a core the round got). Writes bench/results/changelog/replay-<UTC date-time>.md.
#
#   bench/replay.sh [ROUNDS] [RECORDS] [INITIAL_CAPACITY|MEMORY_BITS] [KIND]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:-3}"
records="${2:-5000000}"
capacity="${3:-1000000}"
kind="${4:-}"
stamp="$(date -u +%Y-%m-%dT%H%M)"
outdir="$root/bench/results/changelog"
mkdir -p "$outdir"
work="$(mktemp -d "${DDF_BENCH_DIR:-/tmp}/ddf-replay.XXXXXX")"
trap 'rm -rf "$work"' EXIT
out="$outdir/replay-$stamp.md"
echo "uptime: $(uptime)"
"$root/bench/run.sh" ReplayBench "$out" "$work" "$rounds" "$records" "$capacity" ${kind:+"$kind"}
echo "uptime: $(uptime)"
