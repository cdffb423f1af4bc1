#!/usr/bin/env bash
# The ceiling of bench/fsync-vs-redis.sh's pipelined rows on this machine, one command: bench/client-ceiling.sh
# Builds scripts/null-resp-server.c (a RESP server that parses each request and answers ":1", no state, one thread)
# and runs the rows' own client against it, ROUNDS times per client thread count: redis-benchmark -n N -P 16
# -r RANGE BF.ADD k __rand_int__ (its 50 clients), with --threads T for each T in THREADS. No server can answer
# faster than one that does nothing, so a target above these req/s cannot be shown here by any server with this
# client. Each row: req/s per round and their median, the client's and the null server's CPU µs per request.
# Environment: ROUNDS (3), N (2000000), RANGE (2000000000), THREADS ("1 2"), PORT (6399), OUT (the result file,
# default bench/results/fsync/client-ceiling-DATE-TIME.md). Needs cc, redis-benchmark and GNU time.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${ROUNDS:-3}"
n="${N:-2000000}"
range="${RANGE:-2000000000}"
port="${PORT:-6399}"
stamp="$(date -u +%F-%H%M)"
out="${OUT:-$root/bench/results/fsync/client-ceiling-$stamp.md}"
mkdir -p "$root/target"
server="$root/target/null-resp-server"
cc -O2 -Wall -o "$server" "$root/bench/scripts/null-resp-server.c"
"$server" "$port" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
# shellcheck source=scripts/servers.sh
source "$root/bench/scripts/servers.sh" # wait_port, median
wait_port "$port"
hz="$(getconf CLK_TCK)"
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
load_before="$(uptime)"
rows=()
for t in ${THREADS:-1 2}; do
  rates=(); clients=(); servers=()
  for ((r = 1; r <= rounds; r++)); do
    threads=(); [ "$t" != 1 ] && threads=(--threads "$t")
    s0="$(ticks "$pid")"
    rate="$(/usr/bin/time -f "%U %S" -o "$root/target/ceiling-client-cpu" redis-benchmark -p "$port" -n "$n" -P 16 \
      "${threads[@]}" -r "$range" --csv BF.ADD k __rand_int__ 2>/dev/null | tail -1 | awk -F, '{ gsub(/"/, ""); print int($2) }')"
    s1="$(ticks "$pid")"
    rates+=("$rate")
    clients+=("$(awk -v n="$n" '{ printf "%.2f", ($1 + $2) * 1e6 / n }' "$root/target/ceiling-client-cpu")")
    servers+=("$(awk -v d="$((s1 - s0))" -v hz="$hz" -v n="$n" 'BEGIN { printf "%.2f", d / hz * 1e6 / n }')")
  done
  rows+=("| $t | $(IFS=,; echo "${rates[*]}" | sed 's/,/, /g') | $(printf "%s\n" "${rates[@]}" | median) | $(printf "%s\n" "${clients[@]}" | median) | $(printf "%s\n" "${servers[@]}" | median) |")
done
load_after="$(uptime)"
mkdir -p "$(dirname "$out")"
{
  echo "# The client's ceiling: redis-benchmark BF.ADD -P 16 against a server that does nothing, $stamp UTC"
  echo
  echo "\`bench/client-ceiling.sh\` (ROUNDS=$rounds N=$n RANGE=$range THREADS=\"${THREADS:-1 2}\"), $(nproc) cores, $(redis-benchmark --version | awk '{print $2}'),"
  echo "server: bench/scripts/null-resp-server.c (parses each request, answers :1, one thread, epoll)."
  echo
  echo "- uptime before: \`$load_before\`"
  echo "- uptime after: \`$load_after\`"
  echo
  echo "| client threads | req/s per round | median req/s | median client CPU µs/req | median server CPU µs/req |"
  echo "| --- | --- | --- | --- | --- |"
  printf '%s\n' "${rows[@]}"
} > "$out"
cat "$out"
echo "wrote $out"
