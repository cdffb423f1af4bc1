#!/usr/bin/env bash
# Issue 29's 1 ms turn at 10^9, with the measuring thread under a real-time policy (SCHED_FIFO), as a latency-bound
# user runs a hot thread: `bin/ddf bench window-rotation ARGS... --await-realtime 60`, and this script gives the thread
# it names `chrt -f -p PRIORITY` (needs root or CAP_SYS_NICE). The filter's own threads (its sweep, its deferred work),
# the JIT and the GC keep the default policy: the run shows what of a turn's wall time the filter's work is once no
# other thread can take the caller's core, beside the default-policy runs of bench/README.md "Window of time".
#   bench/window-rotation-rt.sh --dir DIR --kind aged-cuckoo --capacity 1000000000 --warm --sync no \
#       --per-generation 10 --turns 24 --gap-ms 20
# Environment: PRIORITY (10), DDF (bin/ddf).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
priority="${PRIORITY:-10}"
ddf="${DDF:-$root/bin/ddf}"
command -v chrt > /dev/null || { echo "chrt (util-linux) is needed" >&2; exit 2; }
"$ddf" bench window-rotation "$@" --await-realtime 60 | while IFS= read -r line; do
  printf '%s\n' "$line"
  case "$line" in
    "measuring thread: tid "*)
      tid="${line#measuring thread: tid }"
      tid="${tid%% *}"
      chrt -f -p "$priority" "$tid" || { echo "chrt -f -p $priority $tid failed (root or CAP_SYS_NICE needed)" >&2; }
      ;;
  esac
done
exit "${PIPESTATUS[0]}"
