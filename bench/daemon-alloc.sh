#!/usr/bin/env bash
# Bytes the daemon allocates per BF.ADD, one command: bench/daemon-alloc.sh [JAR[,SERVE-OPTION...]...]
# For each jar (default ingest/target/ddf.jar): starts `ddf serve` on a loopback port with a fresh data dir, warms
# it up (200,000 pipelined BF.ADDs), starts a JFR recording, runs redis-benchmark -n N -P 16 -r 100000000
# BF.ADD k __rand_int__, stops the recording, and divides each thread's allocated bytes over the run (the JFR
# event jdk.ThreadAllocationStatistics at the recording's start and end, i.e. ThreadMXBean's counters, which JFR
# prints to 2-4 significant digits) by N.
# Prints a markdown table (and writes it to bench/results/daemon/alloc-DATE-TIME.md). N: environment, 1000000.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${N:-1000000}"
port="${DDF_PORT:-7391}"
specs=("$@")
if [ ${#specs[@]} -eq 0 ]; then
  "$root/bin/ddf" --version >/dev/null
  specs=("$root/ingest/target/ddf.jar")
fi
stamp="$(date -u +%F-%H%M)"
out="$root/bench/results/daemon/alloc-$stamp.md"
work="$(mktemp -d)"
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
{
  echo "# Bytes allocated per BF.ADD by ddf serve, $stamp UTC"
  echo
  echo "\`bench/daemon-alloc.sh ${specs[*]}\` (N=$n, redis-benchmark -P 16 -r 100000000 BF.ADD k __rand_int__)"
  echo
  echo "- uptime: \`$(uptime)\`"
  echo
  echo "| server | thread | bytes per BF.ADD |"
  echo "| --- | --- | --- |"
} > "$work/table"
i=0
for spec in "${specs[@]}"; do
  IFS=, read -r -a parts <<< "$spec"
  java -jar "${parts[0]}" serve --port "$port" --data-dir "$work/data$i" "${parts[@]:1}" > "$work/serve$i.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 150); do redis-cli -p "$port" PING >/dev/null 2>&1 && break; sleep 0.2; done
  redis-benchmark -p "$port" -n 200000 -P 16 -r 100000000 -q BF.ADD k __rand_int__ > /dev/null 2>&1
  jcmd "$pid" JFR.start name=alloc settings=profile filename="$work/alloc$i.jfr" > /dev/null
  redis-benchmark -p "$port" -n "$n" -P 16 -r 100000000 -q BF.ADD k __rand_int__ > /dev/null 2>&1
  jcmd "$pid" JFR.stop name=alloc > /dev/null
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
  jfr print --events jdk.ThreadAllocationStatistics "$work/alloc$i.jfr" |
    awk -v n="$n" -v name="${spec//,/ }" '
      /allocated = / { a = $3; gsub(/[^0-9.]/, "", a); unit = $4
        m = (unit ~ /^kB/) ? 1e3 : (unit ~ /^MB/) ? 1e6 : (unit ~ /^GB/) ? 1e9 : 1; v = a * m }
      /thread = "/ { t = $0; sub(/.*thread = "/, "", t); sub(/".*/, "", t); c[t]++
        if (!(t in lo) || v < lo[t]) lo[t] = v; if (!(t in hi) || v > hi[t]) hi[t] = v }
      # a thread seen once was started during the recording: all it allocated counts
      END { for (t in hi) if (t ~ /EventLoop|ddf-pipeline/) { d = c[t] > 1 ? hi[t] - lo[t] : hi[t]; all += d
              printf "| %s | %s | %.0f |\n", name, t, d / n }
            printf "| %s | all of the above | %.0f |\n", name, all / n }' |
    sort >> "$work/table"
  i=$((i + 1))
done
mkdir -p "$(dirname "$out")"
cp "$work/table" "$out"
cat "$out"
echo "wrote $out" >&2
