#!/usr/bin/env bash
# Issue 11's daemon figures, one command: bench/daemon-vs-redis.sh [JAR[,SERVE-OPTION...]...]
# Starts redis-server (no persistence) and one `ddf serve` per jar (default: ingest/target/ddf.jar; pass main's jar
# too to get before and after in the same run), each on its own loopback port and fresh data dir, then runs
# ROUNDS interleaved rounds (a jar may carry extra `serve` options after commas: ddf.jar,--io-threads,1) of redis-benchmark against each server in turn:
#   pipelined:   -n N -P 16 -r 100000000   redis: SADD s __rand_int__      ddf: BF.ADD k __rand_int__
#   unpipelined: -n M -c 50 -r 100000000   (the same commands, one in flight per client)
# and writes bench/results/daemon/DATE-TIME.md: every round's req/s and p50/p99 (redis-benchmark's --csv), the
# medians, and ddf's ratio to SADD. Environment: ROUNDS (3), N (1000000), M (200000), REDIS_PORT (6390),
# DDF_PORT (7391; the next jars take the following ports), DDF_JAVA_OPTS (extra JVM options for every ddf).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${ROUNDS:-3}"
n="${N:-1000000}"
m="${M:-200000}"
redis_port="${REDIS_PORT:-6390}"
ddf_port="${DDF_PORT:-7391}"
# shellcheck source=bench/scripts/daemon-common.sh
source "$root/bench/scripts/daemon-common.sh" "$@"
out="$root/bench/results/daemon/$stamp.md"


redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
  > "$work/redis.log" 2>&1 &
pids+=($!)
wait_port "$redis_port"
names=("redis-server SADD")
ports=("$redis_port")
cmds=("SADD s __rand_int__")
i=0
for spec in "${jars[@]}"; do
  IFS=, read -r -a parts <<< "$spec"
  jar="${parts[0]}"
  port=$((ddf_port + i))
  # shellcheck disable=SC2086
  java ${DDF_JAVA_OPTS:-} -jar "$jar" serve --port "$port" --data-dir "$work/data$i" "${parts[@]:1}" \
    > "$work/ddf$i.log" 2>&1 &
  pids+=($!)
  wait_port "$port"
  names+=("ddf BF.ADD ($jar${parts[1]:+ ${parts[*]:1}})")
  ports+=("$port")
  cmds+=("BF.ADD k __rand_int__")
  i=$((i + 1))
done

# one row per run: mode server round rps p50 p99
bench() { # mode index round
  local mode="$1" k="$2" r="$3" args
  if [ "$mode" = pipelined ]; then args=(-n "$n" -P 16); else args=(-n "$m" -c 50); fi
  # shellcheck disable=SC2086
  redis-benchmark -p "${ports[$k]}" "${args[@]}" -r 100000000 --csv ${cmds[$k]} 2>/dev/null | tail -1 |
    awk -F, -v mode="$mode" -v k="$k" -v r="$r" '{ gsub(/"/, ""); print mode, k, r, $2, $5, $7 }' \
    >> "$work/rows"
}
warm() { # shellcheck disable=SC2086
  redis-benchmark -p "${ports[$1]}" -n 200000 -P 16 -r 100000000 -q ${cmds[$1]} > /dev/null 2>&1; }
# shellcheck source=scripts/rounds.sh
source "$root/bench/scripts/rounds.sh"
run_rounds

mkdir -p "$(dirname "$out")"
{
  echo "# ddf serve against redis-server, $stamp UTC"
  echo
  echo "\`bench/daemon-vs-redis.sh ${jars[*]}\` (ROUNDS=$rounds N=$n M=$m), $(nproc) cores, $(redis-server --version | awk '{print $3}'),"
  echo "redis-benchmark $(redis-benchmark --version | awk '{print $2}'). Rounds interleaved: each round runs every server once per mode."
  echo
  echo "- uptime before: \`$load_before\`"
  echo "- uptime after: \`$load_after\`"
  echo
  for mode in pipelined unpipelined; do
    if [ "$mode" = pipelined ]; then echo "## Pipelined: -n $n -P 16 -r 100000000"; else echo "## Unpipelined: -n $m -c 50 -r 100000000"; fi
    echo
    echo "| server | req/s per round | median req/s | ratio to SADD | median p50 ms | median p99 ms |"
    echo "| --- | --- | --- | --- | --- | --- |"
    base="$(awk -v mode="$mode" '$1 == mode && $2 == 0 { print $4 }' "$work/rows" | median)"
    for k in "${!ports[@]}"; do
      per="$(awk -v mode="$mode" -v k="$k" '$1 == mode && $2 == k { printf "%s%.0f", sep, $4; sep = ", " }' "$work/rows")"
      rps="$(awk -v mode="$mode" -v k="$k" '$1 == mode && $2 == k { print $4 }' "$work/rows" | median)"
      p50="$(awk -v mode="$mode" -v k="$k" '$1 == mode && $2 == k { print $5 }' "$work/rows" | median)"
      p99="$(awk -v mode="$mode" -v k="$k" '$1 == mode && $2 == k { print $6 }' "$work/rows" | median)"
      printf '| %s | %s | %.0f | %.2f | %s | %s |\n' "${names[$k]}" "$per" "$rps" "$(echo "$rps / $base" | bc -l)" "$p50" "$p99"
    done
    echo
  done
} > "$out"
cat "$out"
echo "wrote $out" >&2
