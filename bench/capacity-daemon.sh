#!/usr/bin/env bash
# Issue 11's memory goal through the daemon, one command: bench/capacity-daemon.sh [N] [ERROR]
# Starts `ddf serve` with a 256 MB heap cap and a GC log on a free loopback port, BF.RESERVE k ERROR N (default
# 10^7 at 0.01), adds "x0" ... "x<N-1>" with BF.MADD batches through `redis-cli --pipe`, reads BF.INFO, the
# heap (jcmd GC.heap_info, the GC log's largest heap after a collection) and the file size, stops the daemon with
# SIGTERM, then opens the file and measures the fraction of the N items absent and the false positive rate over
# 10^6 never-added items (ddf bench capacity --check-file). Writes bench/results/capacity/daemon-DATE.md.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-10000000}"
err="${2:-0.01}"
date="$(date -u +%F)"
out="$root/bench/results/capacity/daemon-$date.md"
work="$(mktemp -d)"
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
"$root/bin/ddf" --version >/dev/null
"$root/bin/ddf" bench --help >/dev/null
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
java -Xmx256m "-Xlog:gc:file=$work/gc.log" -jar "$root/ingest/target/ddf.jar" serve --port "$port" \
  --data-dir "$work/data" > "$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do redis-cli -p "$port" PING >/dev/null 2>&1 && break; sleep 0.2; done
redis-cli -p "$port" BF.RESERVE k "$err" "$n" >/dev/null
start=$(date +%s.%N)
awk -v n="$n" 'BEGIN {
  for (i = 0; i < n; i += 1000) {
    m = (n - i < 1000) ? n - i : 1000
    printf "*%d\r\n$7\r\nBF.MADD\r\n$1\r\nk\r\n", m + 2
    for (j = i; j < i + m; j++) { s = "x" j; printf "$%d\r\n%s\r\n", length(s), s }
  }
}' | redis-cli -p "$port" --pipe > "$work/pipe.log"
end=$(date +%s.%N)
info="$(redis-cli -p "$port" BF.INFO k | paste -sd' ')"
heap="$(jcmd "$pid" GC.heap_info 2>/dev/null | head -3 | paste -sd' ' || true)"
rss="$(ps -o rss= -p "$pid")"
kill -TERM "$pid"; wait "$pid" || true; pid=""
maxheap="$(grep -o -- '->[0-9]*M' "$work/gc.log" | tr -dc '0-9\n' | sort -n | tail -1)"
file="$(ls "$work"/data/*.ddf | head -1)"
check="$(java -jar "$root/bench/target/benchmarks.jar" capacity --check-file "$file" --check-items "$n" --probes 1000000)"
mkdir -p "$(dirname "$out")"
{
  echo "# The daemon at BF.RESERVE k $err $n, $date"
  echo
  echo "\`bench/capacity-daemon.sh $n $err\` (daemon heap capped at 256 MB: -Xmx256m; one run)."
  echo
  echo "| figure | value |"
  echo "| --- | --- |"
  echo "| file bytes | $(stat -c %s "$file") |"
  echo "| add time for $n items (BF.MADD x1000 through redis-cli --pipe) | $(echo "$end - $start" | bc) s |"
  echo "| largest heap after a GC (GC log) | ${maxheap:-?} MB |"
  echo "| heap at the end (jcmd GC.heap_info) | $heap |"
  echo "| resident set at the end | $((rss / 1024)) MB |"
  echo "$check" | awk '{ printf "| %s | %s |\n", $1, $2 }'
  echo
  echo "BF.INFO k: \`$info\`"
  echo
  echo "redis-cli --pipe: \`$(tail -1 "$work/pipe.log")\`"
} > "$out"
cat "$out"
