#!/usr/bin/env bash
# Issue 31's raw-feed target, one command: bench/feed-vs-redisbloom.sh [JAR[,SERVE-OPTION...]...]
# The raw feed (lines in, one verdict byte per record out) into a 10^7 fixed-size filter, against RedisBloom's
# BF.MADD of 100 items pipelined 16 deep into a 10^7 NONSCALING filter, with the same promise on both sides: ddf
# `--fsync everysec` (its default, through the change log) and redis-server + RedisBloom (the module from $REDISBLOOM,
# default /work/shared/redisbloom/redisbloom-2.4.23.so; without it the script says so and exits 0) with
# `appendonly yes`, `appendfsync everysec`. One `ddf serve` per jar (default ingest/target/ddf.jar; a jar may carry
# serve options after commas: ddf.jar,--feed-mode,ring), each `--past-capacity forget` (BF.RESERVE makes ddf's
# fixed-size filter, which the feed judges into) with its raw feed into `BF.RESERVE feed 0.01 10000000`.
#   ROUNDS alternated rounds (every server once per round), each:
#     redis: BF.MADD m + 100 x __rand_int__ -P 16 -r 100000000 -n NMADD (items/s = req/s x 100)
#     ddf:   FEED new records through the raw feed, one connection (bench/run.sh daemon.FeedLoad: the first write to
#            the last verdict)
# Each row has the server's CPU time per item (utime + stime from /proc over the run / items), which the machine's
# other load changes less than items/s. Writes bench/results/daemon/feed-vs-redisbloom-DATE-HHMMSS.md with uptime
# before and after. Environment: REDISBLOOM, ROUNDS (4), NMADD (20000 requests: 2,000,000 items), FEED (2000000),
# WARMUP (1000000 items per server before the rounds; rounds x items + WARMUP stays under the filters' 10^7),
# REDIS_PORT (6392), DDF_PORT (7401; the next jars take the following ports), FEED_PORT (7411, likewise),
# DDF_JAVA_OPTS (extra JVM options for every ddf), FEED_RESERVE_OPTIONS (words after ddf's BF.RESERVE of the feed's
# filter, e.g. "KIND bloom": a fixed-size Bloom filter, RedisBloom NONSCALING's kind, instead of the fifo-bloom that
# --past-capacity forget gives by default).
# Per jar, after its commas: serve options (`--past-capacity ...` among them replaces the script's
# `--past-capacity forget`, e.g. `--past-capacity,scale`: serve's default, where BF.RESERVE makes a scaling chain) and
# `reserve:WORD` parts, words added to that server's BF.RESERVE of the feed's filter after FEED_RESERVE_OPTIONS
# (e.g. `reserve:NONSCALING`). The raw feed into RedisBloom's natural fixed-size filter, a NONSCALING chain, against
# the build before it (its fifo-bloom), alternated in one run:
#   bench/feed-vs-redisbloom.sh /tmp/ddf-b001e9e.jar ddf.jar,--past-capacity,scale,reserve:NONSCALING
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/scripts/redisbloom-module.sh
source "$root/bench/scripts/redisbloom-module.sh"
if [ ! -f "$module" ]; then
  echo "skipped: no RedisBloom module at $module (set REDISBLOOM to the path of redisbloom.so)"
  exit 0
fi
rounds="${ROUNDS:-4}"
nmadd="${NMADD:-20000}"
feed="${FEED:-2000000}"
warmup="${WARMUP:-1000000}"
redis_port="${REDIS_PORT:-6392}"
ddf_port="${DDF_PORT:-7401}"
feed_port="${FEED_PORT:-7411}"
# shellcheck source=bench/scripts/daemon-common.sh
source "$root/bench/scripts/daemon-common.sh" "$@"
out="$root/bench/results/daemon/feed-vs-redisbloom-$stamp.md"
"$root/bench/run.sh" daemon.FeedLoad > /dev/null 2>&1 || true # builds the bench classes once (no arguments: exits)
export DDF_SKIP_BUILD=1

mkdir -p "$work/redis"
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --dir "$work/redis" --appendonly yes \
  --appendfsync everysec --daemonize no --loadmodule "$module" > "$work/redis.log" 2>&1 &
pids+=($!)
wait_port "$redis_port"
names=("RedisBloom $(redis-server --version | awk '{print $3}' | tr -d 'v=') + $(basename "$module"), AOF everysec")
ports=("$redis_port")
procs=("${pids[0]}")
feeds=("")
reserves=("")
i=0
for spec in "${jars[@]}"; do
  IFS=, read -r -a words <<< "$spec"
  parts=("${words[0]}")
  reserve="${FEED_RESERVE_OPTIONS:-}"
  past=(--past-capacity forget)
  for word in "${words[@]:1}"; do
    case "$word" in
      reserve:*) reserve="${reserve:+$reserve }${word#reserve:}" ;;
      --past-capacity) past=(); parts+=("$word") ;;
      *) parts+=("$word") ;;
    esac
  done
  port=$((ddf_port + i))
  fport=$((feed_port + i))
  # shellcheck disable=SC2086
  java ${DDF_JAVA_OPTS:-} -jar "${parts[0]}" serve --port "$port" --data-dir "$work/data$i" --fsync everysec \
    "${past[@]}" --feed-port "$fport" --feed-filter feed "${parts[@]:1}" > "$work/ddf$i.log" 2>&1 &
  pids+=($!)
  procs+=($!)
  wait_port "$port"
  serve="${past[*]}${parts[1]:+ ${parts[*]:1}}"
  names+=("ddf ($(basename "${parts[0]}") ${serve# }; BF.RESERVE feed 0.01 10000000${reserve:+ $reserve}), --fsync everysec")
  ports+=("$port")
  feeds+=("$fport")
  reserves+=("$reserve")
  i=$((i + 1))
done

load_start="$(uptime)"
for k in "${!ports[@]}"; do
  p="${ports[$k]}"
  if [ "$k" -eq 0 ]; then
    redis-cli -p "$p" BF.RESERVE m 0.01 10000000 NONSCALING > /dev/null
    # shellcheck disable=SC2086
    redis-benchmark -p "$p" -n $((warmup / 100)) -P 16 -r 100000000 -q BF.MADD m $items > /dev/null 2>&1
  else
    # shellcheck disable=SC2086 # the reserve options are a list of words (e.g. "KIND bloom")
    redis-cli -p "$p" BF.RESERVE feed 0.01 10000000 ${reserves[$k]} > /dev/null
    # the JIT and the filter's pages, not recorded
    "$root/bench/run.sh" daemon.FeedLoad 127.0.0.1 "${feeds[$k]}" "$warmup" "w-$k-" > /dev/null
  fi
done
load_before="$(uptime)"
touch "$work/rows"
# one row per run: server round seconds items/s cpu_us_per_item
for r in $(seq 1 "$rounds"); do
  for k in "${!ports[@]}"; do
    c0="$(cpu_ticks "${procs[$k]}")"
    if [ "$k" -eq 0 ]; then
      t0="$(date +%s.%N)"
      # shellcheck disable=SC2086
      row="$(redis-benchmark -p "${ports[$k]}" --csv -n "$nmadd" -P 16 -r 100000000 BF.MADD m $items 2>/dev/null |
        tail -1)"
      t1="$(date +%s.%N)"
      c1="$(cpu_ticks "${procs[$k]}")"
      echo "$row" | awk -F, -v k="$k" -v r="$r" -v c="$((c1 - c0))" -v t="$(echo "$t1 - $t0" | bc -l)" '
        { gsub(/"/, ""); printf "%s %s %.3f %.0f %.3f %.0f\n", k, r, t, $2 * 100, c * 10000 / ($2 * 100 * t), $2 }' \
        >> "$work/rows"
    else
      line="$("$root/bench/run.sh" daemon.FeedLoad 127.0.0.1 "${feeds[$k]}" "$feed" "r$r-$k-")"
      c1="$(cpu_ticks "${procs[$k]}")"
      echo "$line" | awk -v k="$k" -v r="$r" -v c="$((c1 - c0))" -v f="$feed" '
        { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
          printf "%s %s %s %.0f %.3f -\n", k, r, v["seconds"], v["items_per_s"], c * 10000 / f }' >> "$work/rows"
    fi
  done
done
load_after="$(uptime)"

mkdir -p "$(dirname "$out")"
python3 - "$work" "$out" "$rounds" "$nmadd" "$feed" "$warmup" "$load_start" "$load_before" "$load_after" "$*" \
  "${names[@]}" <<'EOF'
import os, statistics, sys
work, out, rounds, nmadd, feed, warmup, load_start, load_before, load_after, args = sys.argv[1:11]
names = sys.argv[11:]
rows = [l.split() for l in open(os.path.join(work, "rows"))]
def vals(k, col):
    return [float(r[col]) for r in rows if r[0] == str(k) and r[col] != "-"]
L = [f"# The raw feed against RedisBloom's BF.MADD of 100 -P 16, same promise, {os.path.basename(out)[19:-3]} UTC\n",
     f"`bench/feed-vs-redisbloom.sh {args}` (ROUNDS={rounds} NMADD={nmadd} FEED={feed} WARMUP={warmup}), "
     f"{os.cpu_count()} cores; rounds alternated (every server once per round); medians over the rounds. Both "
     "sides everysec: redis-server `appendonly yes appendfsync everysec`, ddf `--fsync everysec` (its change log). "
     "Filters of 10^7 at 1 %: RedisBloom `BF.RESERVE m 0.01 10000000 NONSCALING`, ddf's as each row says "
     "(`--past-capacity forget`: its fixed-size filter, a fifo-bloom by default; `scale`: a scaling chain). "
     "CPU µs/item: the server process's CPU time "
     "over the run divided by its items.\n",
     f"- uptime at the start: `{load_start}`\n- uptime before the rounds: `{load_before}`\n"
     f"- uptime after the rounds: `{load_after}`\n",
     "| server | items/s per round | median items/s | ÷ RedisBloom | CPU µs/item | BF.MADD req/s |",
     "| --- | --- | --- | --- | --- | --- |"]
base = statistics.median(vals(0, 3))
for k, name in enumerate(names):
    v = vals(k, 3)
    if not v:
        continue
    md = statistics.median(v)
    req = f"{statistics.median(vals(k, 5)):.0f}" if vals(k, 5) else "- (feed)"
    L.append(f"| {name} | {', '.join(f'{x:.0f}' for x in v)} | {md:.0f} | {md / base:.2f} | "
             f"{statistics.median(vals(k, 4)):.3f} | {req} |")
L.append("")
open(out, "w").write("\n".join(L) + "\n")
print("\n".join(L))
EOF
echo "wrote $out" >&2
