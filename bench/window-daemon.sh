#!/usr/bin/env bash
# Issue 29's first target through the daemon: a windowed filter's BF.ADD / BF.MADD / BF.EXISTS at most 1.1x the
# count-based fifo-bloom's, in the same run. One `ddf serve` (the jar given, default ingest/target/ddf.jar, built when
# stale; serve options after commas as in daemon-vs-redisbloom.sh) with three keys of the same capacity and error rate:
#   w: BF.RESERVE w 0.01 CAPACITY WINDOW WINDOW_SECONDS     (a window of time: turns every WINDOW_SECONDS / 2)
#   c: BF.RESERVE c 0.01 CAPACITY KIND fifo-bloom           (turned by count only: what a user gets for the same
#                                                            capacity and error rate, 2 generations, half w's memory)
#   s: w's table turned by count only (KIND fifo-bloom GENERATIONS 4 and w's memory-bits, hash-functions and
#      blocks-per-item, as BF.INFO w gives them): the cost of the time alone, without w's larger table
# then ROUNDS alternated rounds (each workload on every key in every round, the order rotated every round) of
# redis-benchmark:
#   add:     BF.ADD KEY __rand_int__ -P 16 -r 100000000 -n N
#   madd:    BF.MADD KEY + 100 x __rand_int__, -P 4 -n NMADD (items/s = 100 x req/s)
#   exists:  BF.EXISTS KEY __rand_int__ -P 16 -r 100000000 -n N
# Each run's row: requests/s, p50 and p99 (ms), and the daemon's CPU time per request (utime + stime from /proc over
# the run / its requests, which does not depend on how much of the machine redis-benchmark and other processes took).
# The table gives the medians per key, and the daemon CPU of w against c and against s: the median of the rounds'
# ratios (each round's runs are neighbours in time) and the ratio of the medians. Writes
# bench/results/window/daemon-window-vs-count-DATE-TIME.md with the load (uptime) before and after.
#
#   bench/window-daemon.sh [JAR[,SERVE-OPTION...]]
#
# EXCLUDE_JIT=1: the CPU column leaves out the JIT compiler threads' (bench/scripts/daemon-common.sh cpu_ticks; the
# daemon then keeps its compiler threads for its life, -XX:-UseDynamicNumberOfCompilerThreads, so that none leaves
# with its time between two readings).
# Environment: ROUNDS (5), N (1000000), NMADD (50000), CAPACITY (10000000), WINDOW_SECONDS (60: turns by time happen
# during the rounds), WARMUP (4000000 BF.ADDs on each key before the rounds), DDF_PORT (7395), DDF_JAVA_OPTS,
# W_OPTIONS (more words for w's BF.RESERVE, e.g. "KIND aged-cuckoo": another windowed kind against the same c; s,
# a fifo-bloom of w's table, is then left out).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${ROUNDS:-5}"
n="${N:-1000000}"
nmadd="${NMADD:-50000}"
capacity="${CAPACITY:-10000000}"
window="${WINDOW_SECONDS:-60}"
port="${DDF_PORT:-7395}"
# shellcheck source=bench/scripts/daemon-common.sh
source "$root/bench/scripts/daemon-common.sh" "$@"
# shellcheck source=bench/scripts/rounds.sh
source "$root/bench/scripts/rounds.sh"
if [ "${EXCLUDE_JIT:-0}" = 1 ]; then jit_opts="-XX:-UseDynamicNumberOfCompilerThreads"; fi
if [ ${#jars[@]} -ne 1 ]; then
  echo "one jar: both keys live in one daemon" >&2
  exit 2
fi
out="$root/bench/results/window/daemon-window-vs-count-$stamp.md"
mkdir -p "$(dirname "$out")"

# generations, memory-bits, hash-functions, blocks-per-item of a key, as BF.INFO lists them
param_of() { redis-cli -p "$port" BF.INFO "$1" | paste -sd' ' | awk '{ for (i = 1; i < NF; i++) if ($i == "generations" ||
  $i == "memory-bits" || $i == "hash-functions" || $i == "blocks-per-item") printf "%s %s ", $i, $(i + 1) }'; }

IFS=, read -r -a parts <<< "${jars[0]}"
# shellcheck disable=SC2086
java ${jit_opts:-} ${DDF_JAVA_OPTS:-} -jar "${parts[0]}" serve --port "$port" --data-dir "$work/data" "${parts[@]:1}" \
  > "$work/ddf.log" 2>&1 &
pids+=($!)
daemon=$!
wait_port "$port"
w_options="${W_OPTIONS:-}"
# shellcheck disable=SC2086
reply="$(redis-cli -p "$port" BF.RESERVE w 0.01 "$capacity" WINDOW "$window" $w_options)"
if [ "$reply" != "OK" ]; then
  echo "BF.RESERVE w 0.01 $capacity WINDOW $window $w_options: $reply" >&2
  exit 1
fi
redis-cli -p "$port" BF.RESERVE c 0.01 "$capacity" KIND fifo-bloom > /dev/null
param() { redis-cli -p "$port" BF.INFO w | awk -v name="$1" 'found { print; exit } $0 == name { found = 1 }'; }
keys="w c"
same_table="(left out: W_OPTIONS=$w_options)"
if [ -z "$w_options" ]; then
  keys="w c s"
  same_table="KIND fifo-bloom GENERATIONS 4 MEMORY-BITS $(param memory-bits) HASH-FUNCTIONS $(param hash-functions)"
  same_table="$same_table BLOCKS-PER-ITEM $(param blocks-per-item)"
  # shellcheck disable=SC2086
  reply="$(redis-cli -p "$port" BF.RESERVE s 0.01 "$capacity" $same_table)"
  if [ "$reply" != "OK" ]; then
    echo "BF.RESERVE s 0.01 $capacity $same_table: $reply" >&2
    exit 1
  fi
fi
sizes=""
for key in $keys; do
  sizes="$sizes $key $(redis-cli -p "$port" BF.INFO "$key" SIZE | tail -1) bytes, $(param_of "$key")"
done

# one row per run: workload key round seconds rps p50 p99 cpu_us_per_request
bench() { # workload key round redis-benchmark-args...
  local w="$1" key="$2" r="$3"; shift 3
  local t0 t1 c0 c1 row
  c0="$(cpu_ticks "$daemon")"; t0="$(date +%s.%N)"
  row="$(redis-benchmark -p "$port" --csv "$@" 2>/dev/null | tail -1)"
  t1="$(date +%s.%N)"; c1="$(cpu_ticks "$daemon")"
  echo "$row" | awk -F, -v w="$w" -v k="$key" -v r="$r" -v c="$((c1 - c0))" -v t="$(echo "$t1 - $t0" | bc -l)" '
    { gsub(/"/, ""); printf "%s %s %s %.3f %.0f %s %s %.3f\n", w, k, r, t, $2, $5, $7, c * 10000 / ($2 * t) }' \
    >> "$work/rows"
}
workload() { # name key round
  case "$1" in
    add) bench add "$2" "$3" -n "$n" -P 16 -r 100000000 BF.ADD "$2" __rand_int__ ;;
    # shellcheck disable=SC2086
    madd) bench madd "$2" "$3" -n "$nmadd" -P 4 -r 100000000 BF.MADD "$2" $items ;;
    exists) bench exists "$2" "$3" -n "$n" -P 16 -r 100000000 BF.EXISTS "$2" __rand_int__ ;;
  esac
}

for key in $keys; do # warm-up, not recorded: the JIT, the filters' pages
  redis-benchmark -p "$port" -n "${WARMUP:-4000000}" -P 16 -r 100000000 -q BF.ADD "$key" __rand_int__ > /dev/null 2>&1
  # shellcheck disable=SC2086
  redis-benchmark -p "$port" -n 20000 -P 4 -r 100000000 -q BF.MADD "$key" $items > /dev/null 2>&1
  redis-benchmark -p "$port" -n 1000000 -P 16 -r 100000000 -q BF.EXISTS "$key" __rand_int__ > /dev/null 2>&1
done
load_before="$(uptime)"
touch "$work/rows"
for r in $(seq 1 "$rounds"); do
  case $((r % 3)) in
    1) order="w c s" ;;
    2) order="c s w" ;;
    *) order="s w c" ;;
  esac
  for wl in add madd exists; do
    for key in $order; do case " $keys " in *" $key "*) workload "$wl" "$key" "$r" ;; esac; done
  done
done
load_after="$(uptime)"
info_w="$(redis-cli -p "$port" BF.INFO w | paste -sd' ' | sed 's/  */ /g')"

med() { # workload key column
  awk -v w="$1" -v k="$2" -v col="$3" '$1 == w && $2 == k { print $col }' "$work/rows" | median
}
# the median over the rounds of w's CPU per request / the other key's in the same round
paired() { # workload other-key
  awk -v w="$1" -v o="$2" '$1 == w && $2 == "w" { a[$3] = $8 } $1 == w && $2 == o { b[$3] = $8 }
    END { for (r in a) if (r in b) printf "%.4f\n", a[r] / b[r] }' "$work/rows" | median
}
{
  echo "# A window of time against count, through the daemon: BF.ADD, BF.MADD, BF.EXISTS"
  echo
  echo "\`bench/window-daemon.sh ${*:-}\` (ROUNDS=$rounds N=$n NMADD=$nmadd CAPACITY=$capacity WINDOW_SECONDS=$window EXCLUDE_JIT=${EXCLUDE_JIT:-0})," \
    "$(date -u +%FT%TZ), $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) cores."
  echo
  echo "- w: \`BF.RESERVE w 0.01 $capacity WINDOW $window $w_options\` (2 slices, or the kind's: a turn by time every $((window / 2)) s during the" \
    "rounds); c: \`BF.RESERVE c 0.01 $capacity KIND fifo-bloom\` (turned by count only); s: \`BF.RESERVE s 0.01" \
    "$capacity $same_table\` (w's table, turned by count only). Sizes and shapes:$sizes"
  echo "- Load before the rounds: $load_before"
  echo "- Load after: $load_after"
  echo "- w after the rounds: $info_w"
  echo
  echo "Medians of $rounds alternated rounds (the three keys one after another in each round, the order rotated every" \
    "round). CPU: the daemon's utime + stime per request over the run (BF.MADD: per command of 100 items;" \
    "EXCLUDE_JIT=1: without its JIT compiler threads'). w / x:" \
    "the median of the rounds' ratios of w's CPU per request to x's, then the ratio of the medians."
  echo
  echo "| workload | key | req/s | p50 ms | p99 ms | daemon CPU us/req | CPU w / this key: rounds, medians |"
  echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
  for wl in add madd exists; do
    cw="$(med "$wl" w 8)"
    echo "| $wl | w (window) | $(med "$wl" w 5) | $(med "$wl" w 6) | $(med "$wl" w 7) | $cw | |"
    for key in $keys; do
      [ "$key" = w ] && continue
      ck="$(med "$wl" "$key" 8)"
      label="c (count, its own size)"
      [ "$key" = s ] && label="s (w's table, by count)"
      echo "| $wl | $label | $(med "$wl" "$key" 5) | $(med "$wl" "$key" 6) | $(med "$wl" "$key" 7) | $ck |" \
        "$(paired "$wl" "$key"), $(echo "scale=3; $cw / $ck" | bc -l) |"
    done
  done
  echo
  echo "Every run (workload key round seconds req/s p50 p99 cpu-us/req):"
  echo
  echo '```'
  cat "$work/rows"
  echo '```'
} > "$out"
cat "$out"
