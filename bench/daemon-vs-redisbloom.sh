#!/usr/bin/env bash
# Issue 20's targets, one command: bench/daemon-vs-redisbloom.sh [JAR[,SERVE-OPTION...]...]
# Starts redis-server with RedisBloom (the module from $REDISBLOOM, default /work/shared/redisbloom/redisbloom-2.4.23.so;
# without it the script says so and exits 0) and one `ddf serve` per jar (default ingest/target/ddf.jar; pass main's
# jar too for before and after in one run; a jar may carry serve options after commas: ddf.jar,--io-threads,1), each
# with its raw feed into the 10^9 filter, then:
#   ceiling: PING -P 16 against redis-server, with redis-benchmark's one thread and with --threads 2, and the CPU
#            each process used: whether redis-benchmark itself is the limit on this machine
#   ROUNDS alternated rounds (every server once per workload per round) of redis-benchmark:
#     add:      BF.ADD b __rand_int__ -P 16 -r 100000000 -n N       on BF.RESERVE b 0.01 10000000
#     big:      BF.ADD big __rand_int__ -P 16 -r 2000000000 -n NBIG on BF.RESERVE big 0.01 BIG (RedisBloom:
#               NONSCALING; ddf: DDF_BIG_OPTS after the capacity, e.g. "KIND fifo-bloom")
#     madd:     BF.MADD m + 100 x __rand_int__, -P 4 -n NMADD       on BF.RESERVE m 0.01 10000000 (items/s)
#     mexists:  BF.MEXISTS m + 100 x __rand_int__, the same
#     c50:      BF.ADD b __rand_int__ -c 50, no pipelining, -n M    (req/s, p50, p99)
#     feed:     ddf only: FEED new records through the raw feed into big (bench/run.sh daemon.FeedLoad), against
#               BF.MADD of 100 items on big (-P 4 -n NMADD) in the same round: items/s of each
#   then, per ddf, unless ROTATION=0: fills big through the raw feed to just before its next generation (BF.INFO's
#   Capacity / Number of filters, Number of items inserted) and times every BF.ADD across it (daemon.RotationProbe,
#   -P 16): the largest latency a client saw, over the whole probe and in the window where the boundary falls.
#   ROTATION_FROM (1) skips the ddf jars before that index (the first jar is 1).
# Each row has the server's CPU time per request (utime + stime from /proc over the run / requests), which does not
# depend on how much of the machine redis-benchmark and the other processes took. Writes
# bench/results/daemon/vs-redisbloom-DATE-TIME.md with uptime before and after. Environment: REDISBLOOM, ROUNDS (3),
# N (1000000), NBIG (2000000), NMADD (50000), M (200000), FEED (10000000; 0 skips the feed rows, as for a jar whose
# big is a scaling filter, which the raw feed refuses), BIG (1000000000; 0 skips the 10^9
# filter, its feed and its rotation), DDF_BIG_OPTS, ROTATION (1), WARMUP (6000000 BF.ADDs per server before the
# rounds), REDIS_PORT (6390), DDF_PORT (7391; the next jars
# take the following ports), FEED_PORT (7381, likewise), DDF_JAVA_OPTS (extra JVM options for every ddf).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/scripts/redisbloom-module.sh
source "$root/bench/scripts/redisbloom-module.sh"
if [ ! -f "$module" ]; then
  echo "skipped: no RedisBloom module at $module (set REDISBLOOM to the path of redisbloom.so)"
  exit 0
fi
rounds="${ROUNDS:-3}"
n="${N:-1000000}"
nbig="${NBIG:-2000000}"
nmadd="${NMADD:-50000}"
m="${M:-200000}"
feed="${FEED:-10000000}"
big="${BIG:-1000000000}"
rotation="${ROTATION:-1}"
redis_port="${REDIS_PORT:-6390}"
ddf_port="${DDF_PORT:-7391}"
feed_port="${FEED_PORT:-7381}"
# shellcheck source=bench/scripts/daemon-common.sh
source "$root/bench/scripts/daemon-common.sh" "$@"
out="$root/bench/results/daemon/vs-redisbloom-$stamp.md"
"$root/bench/run.sh" daemon.FeedLoad > /dev/null 2>&1 || true # builds the bench classes once (no arguments: exits)
export DDF_SKIP_BUILD=1

redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
  --loadmodule "$module" > "$work/redis.log" 2>&1 &
pids+=($!)
wait_port "$redis_port"
names=("RedisBloom $(redis-server --version | awk '{print $3}' | tr -d 'v=') + $(basename "$module")")
ports=("$redis_port")
procs=("${pids[0]}")
feeds=("")
i=0
for spec in "${jars[@]}"; do
  IFS=, read -r -a parts <<< "$spec"
  port=$((ddf_port + i))
  fport=$((feed_port + i))
  extra=()
  [ "$big" -gt 0 ] && extra=(--feed-port "$fport" --feed-filter big)
  # shellcheck disable=SC2086
  java ${DDF_JAVA_OPTS:-} -jar "${parts[0]}" serve --port "$port" --data-dir "$work/data$i" "${extra[@]}" \
    "${parts[@]:1}" > "$work/ddf$i.log" 2>&1 &
  pids+=($!)
  procs+=($!)
  wait_port "$port"
  names+=("ddf ($(basename "${parts[0]}")${parts[1]:+ ${parts[*]:1}})")
  ports+=("$port")
  feeds+=("$fport")
  i=$((i + 1))
done

# one row per run: workload server round requests seconds rps p50 p99 cpu_us_per_request
bench() { # workload server-index round redis-benchmark-args...
  local w="$1" k="$2" r="$3"; shift 3
  local t0 t1 c0 c1 row
  c0="$(cpu_ticks "${procs[$k]}")"; t0="$(date +%s.%N)"
  row="$(redis-benchmark -p "${ports[$k]}" --csv "$@" 2>/dev/null | tail -1)"
  t1="$(date +%s.%N)"; c1="$(cpu_ticks "${procs[$k]}")"
  echo "$row" | awk -F, -v w="$w" -v k="$k" -v r="$r" -v c="$((c1 - c0))" -v t="$(echo "$t1 - $t0" | bc -l)" '
    { gsub(/"/, ""); printf "%s %s %s %.3f %.0f %s %s %.3f\n", w, k, r, t, $2, $5, $7, c * 10000 / ($2 * t) }' \
    >> "$work/rows"
}

# Is redis-benchmark the ceiling? PING costs a server least of all commands.
load_start="$(uptime)"
ceiling() { # label server-index redis-benchmark-args...
  local label="$1" k="$2"; shift 2
  local c0 c1 times
  c0="$(cpu_ticks "${procs[$k]}")"
  times="$( { TIMEFORMAT='%U %S %R'; time redis-benchmark -p "${ports[$k]}" -n 2000000 -P 16 -q "$@" PING \
    > "$work/ping.out" 2>&1; } 2>&1 )"
  c1="$(cpu_ticks "${procs[$k]}")"
  echo "$times" | awk -v label="$label" -v name="${names[$k]}" -v c="$((c1 - c0))" \
    -v rps="$(tr '\r' '\n' < "$work/ping.out" | grep -v '^ *$' | tail -1 | sed 's/.*: //; s/ requests per second.*//')" '
    { printf "| %s | %s | %s | %.0f %% | %.0f %% |\n", name, label, rps, 100 * ($1 + $2) / $3, c / $3 }' \
    >> "$work/ceiling"
}
ceiling "PING -P 16, one thread" 0
ceiling "PING -P 16, --threads 2" 0 --threads 2

for k in "${!ports[@]}"; do
  p="${ports[$k]}"
  redis-cli -p "$p" BF.RESERVE b 0.01 10000000 > /dev/null
  redis-cli -p "$p" BF.RESERVE m 0.01 10000000 > /dev/null
  if [ "$big" -gt 0 ]; then
    if [ "$k" -eq 0 ]; then
      redis-cli -p "$p" BF.RESERVE big 0.01 "$big" NONSCALING > /dev/null
    else
      # shellcheck disable=SC2086
      redis-cli -p "$p" BF.RESERVE big 0.01 "$big" ${DDF_BIG_OPTS:-} > /dev/null
    fi
    echo "$k $(redis-cli -p "$p" BF.INFO big SIZE | tail -1)" >> "$work/sizes"
  fi
  # warm-up, not recorded: the filters' pages, and the JIT, which was still compiling and deoptimising through the
  # first ~8,000,000 BF.ADDs (-XX:+PrintCompilation: 1,182 then 160, 115, 56, 29 lines per 2,000,000)
  redis-benchmark -p "$p" -n "${WARMUP:-6000000}" -P 16 -r 100000000 -q BF.ADD b __rand_int__ > /dev/null 2>&1
  # shellcheck disable=SC2086
  redis-benchmark -p "$p" -n 50000 -P 4 -r 100000000 -q BF.MADD m $items > /dev/null 2>&1
  # shellcheck disable=SC2086
  redis-benchmark -p "$p" -n 50000 -P 4 -r 100000000 -q BF.MEXISTS m $items > /dev/null 2>&1
done
for k in "${!ports[@]}"; do
  [ "$k" -gt 0 ] && ceiling "PING -P 16, one thread, warm" "$k"
done
load_before="$(uptime)"
touch "$work/rows"
for r in $(seq 1 "$rounds"); do
  for k in "${!ports[@]}"; do bench add "$k" "$r" -n "$n" -P 16 -r 100000000 BF.ADD b __rand_int__; done
  if [ "$big" -gt 0 ]; then
    for k in "${!ports[@]}"; do bench big "$k" "$r" -n "$nbig" -P 16 -r 2000000000 BF.ADD big __rand_int__; done
  fi
  # shellcheck disable=SC2086
  for k in "${!ports[@]}"; do bench madd "$k" "$r" -n "$nmadd" -P 4 -r 100000000 BF.MADD m $items; done
  # shellcheck disable=SC2086
  for k in "${!ports[@]}"; do bench mexists "$k" "$r" -n "$nmadd" -P 4 -r 100000000 BF.MEXISTS m $items; done
  for k in "${!ports[@]}"; do bench c50 "$k" "$r" -n "$m" -c 50 -r 100000000 BF.ADD b __rand_int__; done
  if [ "$big" -gt 0 ] && [ "$feed" -gt 0 ]; then
    for k in "${!ports[@]}"; do
      [ "$k" -eq 0 ] && continue
      # shellcheck disable=SC2086
      bench maddbig "$k" "$r" -n "$nmadd" -P 4 -r 2000000000 BF.MADD big $items
      c0="$(cpu_ticks "${procs[$k]}")"
      line="$("$root/bench/run.sh" daemon.FeedLoad 127.0.0.1 "${feeds[$k]}" "$feed" "r$r-$k-")"
      c1="$(cpu_ticks "${procs[$k]}")"
      echo "$line" | awk -v k="$k" -v r="$r" -v c="$((c1 - c0))" -v f="$feed" '
        { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
          printf "feed %s %s %s %.0f - - %.3f\n", k, r, v["seconds"], v["items_per_s"], c * 10000 / f }' >> "$work/rows"
    done
  fi
done
load_after="$(uptime)"

if [ "$big" -gt 0 ] && [ "$rotation" = 1 ]; then
  for k in "${!ports[@]}"; do
    [ "$k" -lt "${ROTATION_FROM:-1}" ] && continue
    p="${ports[$k]}"
    info() { redis-cli -p "$p" BF.INFO big | awk -v f="$1" 'found { print; exit } $0 == f { found = 1 }'; }
    capacity="$(info Capacity)"; generations="$(info "Number of filters")"; inserted="$(info "Number of items inserted")"
    gen=$(( (capacity + generations - 1) / generations ))
    remaining=$(( gen - inserted % gen ))
    fill=$(( remaining > 300000 ? remaining - 300000 : 0 ))
    [ "$fill" -gt 0 ] && "$root/bench/run.sh" daemon.FeedLoad 127.0.0.1 "${feeds[$k]}" "$fill" "fill-$k-" > "$work/fill$k"
    inserted="$(info "Number of items inserted")"
    remaining=$(( gen - inserted % gen ))
    probe=$(( remaining * 102 / 100 + 200000 ))
    # the boundary comes ~300,000 commands in; the first 50,000 are the probe's warm-up, not timed
    # the boundary's command: about the remaining count, plus the new items judged duplicate (false positives)
    line="$("$root/bench/run.sh" daemon.RotationProbe 127.0.0.1 "$p" big "$probe" 16 "probe-$k-" 50000 \
      $(( remaining - 1000 )) $(( remaining * 102 / 100 + 1000 )))"
    echo "$k $gen $inserted $line" >> "$work/rotation"
  done
fi

mkdir -p "$(dirname "$out")"
python3 - "$work" "$out" "$rounds" "$n" "$nbig" "$nmadd" "$m" "$feed" "$big" "${DDF_BIG_OPTS:-}" \
  "$load_start" "$load_before" "$load_after" "$*" "${names[@]}" <<'EOF'
import os, statistics, sys
work, out, rounds, n, nbig, nmadd, m, feed, big, bigopts, load_start, load_before, load_after, args = sys.argv[1:15]
names = sys.argv[15:]
rows = [l.split() for l in open(os.path.join(work, "rows"))]
def vals(w, k, col):
    return [float(r[col]) for r in rows if r[0] == w and r[1] == str(k) and r[col] not in ("-", "")]
def med(w, k, col):
    v = vals(w, k, col)
    return statistics.median(v) if v else None
L = []
L.append(f"# ddf serve against redis-server + RedisBloom, issue 20's targets, {os.path.basename(out)[14:-3]} UTC\n")
L.append(f"`bench/daemon-vs-redisbloom.sh {args}` (ROUNDS={rounds} N={n} NBIG={nbig} NMADD={nmadd} M={m} FEED={feed} "
         f"BIG={big} DDF_BIG_OPTS='{bigopts}'), {os.cpu_count()} cores; rounds alternated (every server once per "
         "workload per round); medians over the rounds. CPU µs/req: the server process's CPU time over the run "
         "divided by its requests (items for the feed), which the machine's other load does not change as much as "
         "req/s.\n")
L.append(f"- uptime at the start: `{load_start}`\n- uptime before the rounds: `{load_before}`\n"
         f"- uptime after the rounds: `{load_after}`\n")
L.append("## Is redis-benchmark the ceiling?\n\nPING, the cheapest command, -P 16, -n 2000000; CPU as a share of one "
         "core over the run (100 % = one core busy).\n\n| server | run | req/s | redis-benchmark CPU | server CPU |\n"
         "| --- | --- | --- | --- | --- |")
L.append(open(os.path.join(work, "ceiling")).read().rstrip() + "\n")
def table(title, w, unit, scale=1.0, latency=False):
    if not vals(w, 0, 4):
        return
    L.append(f"## {title}\n")
    head = "| server | " + unit + " per round | median | ÷ RedisBloom | CPU µs/req |"
    if latency:
        head += " p50 ms | p99 ms |"
    L.append(head)
    L.append("| --- " * (head.count("|") - 1) + "|")
    base = med(w, 0, 4)
    for k, name in enumerate(names):
        v = vals(w, k, 4)
        if not v:
            continue
        md = med(w, k, 4) * scale
        ratio = f"{md / (base * scale):.2f}" if base else "-"
        line = (f"| {name} | {', '.join(f'{x * scale:.0f}' for x in v)} | {md:.0f} | {ratio} | "
                f"{med(w, k, 7):.2f} |")
        if latency:
            line += f" {med(w, k, 5):.3f} | {med(w, k, 6):.3f} |"
        L.append(line)
    L.append("")
table("BF.ADD -P 16 on BF.RESERVE b 0.01 10000000 (target: ddf ≥ 1.5×)", "add", "req/s")
if big != "0":
    table(f"BF.ADD -P 16 on a {int(big):,}-item filter (target: ddf ≥ 2.0×)", "big", "req/s")
    sizes = dict(l.split() for l in open(os.path.join(work, "sizes")))
    L.append("BF.INFO big SIZE (target: ddf ≤ 1.1× RedisBloom's): " + ", ".join(
        f"{names[int(k)]} {int(v):,} B ({int(v) / int(sizes['0']):.2f}×)" for k, v in sizes.items()) + "\n")
table("BF.MADD of 100 items, -P 4 (target: ddf ≥ 1.5× items/s)", "madd", "items/s", 100)
table("BF.MEXISTS of 100 items, -P 4 (target: ddf ≥ 1.5× items/s)", "mexists", "items/s", 100)
table("BF.ADD -c 50, no pipelining (target: p50 and p99 at most RedisBloom's)", "c50", "req/s", latency=True)
if big != "0" and vals("feed", 1, 4):
    L.append("## The raw feed against BF.MADD on the same filter (big), ddf only (target: feed ≥ 1.5×)\n")
    L.append("| server | feed items/s per round | median | BF.MADD items/s (median) | feed ÷ MADD | feed CPU µs/item |")
    L.append("| --- | --- | --- | --- | --- | --- |")
    for k, name in enumerate(names):
        v = vals("feed", k, 4)
        if not v:
            continue
        f, mm = med("feed", k, 4), med("maddbig", k, 4) * 100
        L.append(f"| {name} | {', '.join(f'{x:.0f}' for x in v)} | {f:.0f} | {mm:.0f} | {f / mm:.2f} | "
                 f"{med('feed', k, 7):.3f} |")
    L.append("")
if big != "0":
    path = os.path.join(work, "rotation")
    if os.path.exists(path):
        L.append("## The largest BF.ADD latency across a generation's rotation of the big filter (target: ≤ 1 ms)\n")
        L.append("Filled through the raw feed to just before the boundary, then BF.ADD of new items, -P 16, each "
                 "reply timed from its batch's write (daemon.RotationProbe).\n")
        L.append("| server | generation | inserted before the probe | probe |\n| --- | --- | --- | --- |")
        for l in open(path):
            k, gen, ins, rest = l.split(" ", 3)
            L.append(f"| {names[int(k)]} | {int(gen):,} | {int(ins):,} | `{rest.strip()}` |")
        L.append("")
open(out, "w").write("\n".join(L) + "\n")
print("\n".join(L))
EOF
echo "wrote $out" >&2
