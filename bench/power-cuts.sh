#!/usr/bin/env bash
# Issues 24 and 31's power cuts, longer than CI's: bench/power-cuts.sh [ROUNDS] [LOAD_MS]
# Runs ingest's DaemonPowerCutIT (the daemon under pipelined BF.ADD on the power-cut FUSE file system, cut ROUNDS
# times per policy after LOAD_MS of load each; always must lose no acknowledged item, everysec none acknowledged more
# than 2 s before a cut) and DaemonPowerCutKindsIT (every kind the daemon serves in one daemon: the default chain,
# KIND redisbloom, NONSCALING, bloom, fifo-bloom by count and with a window, CF.* with CF.DEL, qht, qhtd, qqhtd,
# sqf, dsqf, cuckoo, sbf, rsbf, bsbf, bsbfsd, rlbsbf, a2, bdbf, exact-window, shf, cshf; checkpoints every second,
# ROUNDS cuts under load per policy, during a checkpoint and after the chain grew past one, then one after the load)
# and writes their figures to bench/results/power-cut/DATE-TIME.md with the load. Needs
# /dev/fuse, fusermount3 and python3-fusepy (.ci/run installs the last two). Defaults: 10 rounds, 5000 ms.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:-10}"
load_ms="${2:-5000}"
stamp="$(date -u +%F-%H%M)"
out="$root/bench/results/power-cut/$stamp.md"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
load_before="$(uptime)"
(cd "$root" && mvn -B -ntp -pl ingest -am verify -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test='DaemonPowerCutIT,DaemonPowerCutKindsIT' -Dfailsafe.failIfNoSpecifiedTests=false \
  -Dddf.powercut.rounds="$rounds" -Dddf.powercut.loadMs="$load_ms" -Dddf.powercut.kindRounds="$rounds") > "$log" 2>&1 || status=$?
load_after="$(uptime)"
mkdir -p "$(dirname "$out")"
{
  echo "# Power cuts under load, $stamp UTC"
  echo
  echo "\`bench/power-cuts.sh $rounds $load_ms\`: ingest's DaemonPowerCutIT, $rounds cuts per policy after $load_ms ms of"
  echo "pipelined BF.ADD (16 in flight) each, through the power-cut file system; DaemonPowerCutKindsIT, $rounds cuts"
  echo "under load per policy on every kind in one daemon, then one after the load; each line is the check after a cut."
  echo
  echo "- uptime before: \`$load_before\`"
  echo "- uptime after: \`$load_after\`"
  echo
  grep -E "power cut|Tests run:.*DaemonPowerCut|BUILD" "$log" | sed 's/^/    /'
} > "$out"
cat "$out"
exit "${status:-0}"
