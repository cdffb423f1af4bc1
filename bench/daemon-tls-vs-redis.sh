#!/usr/bin/env bash
# BF.ADD -P 16 over TLS, one command: bench/daemon-tls-vs-redis.sh
# Makes a CA, a server and a client certificate (bench/scripts/make-certs.sh), starts redis-server with RedisBloom
# over TLS and `ddf serve` with the same certificates on a TLS port and a plain port, then runs ROUNDS alternated
# rounds of redis-benchmark (--tls --cacert --cert --key, client certificates required on both servers):
#   redis-server + RedisBloom over TLS, ddf over TLS, ddf on its plain port
# for BF.ADD k __rand_int__ -P 16 (-n N) and unpipelined (-c 50, -n M); writes bench/results/tls/DATE-daemon.md with
# every round's req/s and p50/p99, the medians, ddf-over-TLS / redis-over-TLS and ddf-over-TLS / ddf-plain.
# Environment: REDISBLOOM (default /work/shared/redisbloom/redisbloom-2.4.23.so,
# /work/shared/redisbloom/redisbloom-2.4.23.so; without it redis-server is skipped,
# saying so), ROUNDS (3), N (1000000), M (200000), REDIS_TLS_PORT (6701), DDF_PORT (7701), DDF_TLS_PORT (7702),
# DDF_TLS_ENGINE (serve's --tls-engine, default its own choice).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${ROUNDS:-3}"
n="${N:-1000000}"
m="${M:-200000}"
redis_port="${REDIS_TLS_PORT:-6701}"
ddf_port="${DDF_PORT:-7701}"
ddf_tls_port="${DDF_TLS_PORT:-7702}"
# shellcheck source=bench/scripts/redisbloom-module.sh
source "$root/bench/scripts/redisbloom-module.sh"
"$root/bin/ddf" --version >/dev/null # builds the jar when stale
jar="$root/ingest/target/ddf.jar"
stamp="$(date -u +%F-%H%M)"
out="$root/bench/results/tls/$stamp-daemon.md"
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
certs="$work/certs"
"$root/bench/scripts/make-certs.sh" "$certs" >/dev/null
tls=(--tls --cacert "$certs/ca.crt" --cert "$certs/client.crt" --key "$certs/client.key")
wait_port() { # port tls?
  local extra=(); [ "$2" = tls ] && extra=("${tls[@]}")
  for _ in $(seq 1 150); do redis-cli -p "$1" "${extra[@]}" PING >/dev/null 2>&1 && return 0; sleep 0.2; done
  echo "server on port $1 did not start" >&2; exit 1; }

names=(); ports=(); modes=()
if [ -f "$module" ]; then
  redis-server --port 0 --tls-port "$redis_port" --bind 127.0.0.1 --tls-cert-file "$certs/server.crt" \
    --tls-key-file "$certs/server.key" --tls-ca-cert-file "$certs/ca.crt" --tls-auth-clients yes \
    --save '' --appendonly no --loadmodule "$module" > "$work/redis.log" 2>&1 &
  pids+=($!)
  wait_port "$redis_port" tls
  names+=("redis-server 7 + RedisBloom 2.4.23, TLS"); ports+=("$redis_port"); modes+=(tls)
else
  echo "!!! RedisBloom not found at $module (set REDISBLOOM): redis-server is left out of this run" >&2
fi
engine=(); [ -n "${DDF_TLS_ENGINE:-}" ] && engine=(--tls-engine "$DDF_TLS_ENGINE")
java -jar "$jar" serve --port "$ddf_port" --tls-port "$ddf_tls_port" --data-dir "$work/data" \
  --tls-cert-file "$certs/server.crt" --tls-key-file "$certs/server.key" --tls-ca-cert-file "$certs/ca.crt" \
  --tls-auth-clients yes "${engine[@]}" > "$work/ddf.log" 2>&1 &
pids+=($!)
wait_port "$ddf_tls_port" tls
names+=("ddf, TLS" "ddf, plain port"); ports+=("$ddf_tls_port" "$ddf_port"); modes+=(tls plain)

bench() { # pipelined|unpipelined index round
  local mode="$1" k="$2" r="$3" args extra=()
  if [ "$mode" = pipelined ]; then args=(-n "$n" -P 16); else args=(-n "$m" -c 50); fi
  [ "${modes[$k]}" = tls ] && extra=("${tls[@]}")
  redis-benchmark -p "${ports[$k]}" "${extra[@]}" "${args[@]}" -r 100000000 --csv BF.ADD k __rand_int__ \
    2>/dev/null | tail -1 | awk -F, -v mode="$mode" -v k="$k" -v r="$r" \
    '{ gsub(/"/, ""); print mode, k, r, $2, $5, $7 }' >> "$work/rows"
}
warm() {
  local extra=(); [ "${modes[$1]}" = tls ] && extra=("${tls[@]}")
  redis-benchmark -p "${ports[$1]}" "${extra[@]}" -n 200000 -P 16 -r 100000000 -q BF.ADD k __rand_int__ \
    > /dev/null 2>&1; }
# shellcheck source=scripts/rounds.sh
source "$root/bench/scripts/rounds.sh"
run_rounds
mkdir -p "$(dirname "$out")"
{
  echo "# BF.ADD over TLS: ddf against redis-server + RedisBloom, and ddf's plain port ($stamp)"
  echo
  echo "Command: \`${DDF_TLS_ENGINE:+DDF_TLS_ENGINE=$DDF_TLS_ENGINE }bench/daemon-tls-vs-redis.sh\` (ROUNDS=$rounds N=$n M=$m), loopback,"
  echo "P-256 certificates, TLS 1.3, client certificates required; $(nproc) cores; ddf's $(grep -o 'TLS engine [a-z]*' "$work/ddf.log" | head -1)."
  echo
  echo "uptime before: $load_before"
  echo "uptime after:  $load_after"
  echo
  echo "| mode | server | round | req/s | p50 ms | p99 ms |"
  echo "| --- | --- | --- | --- | --- | --- |"
  while read -r mode k r rps p50 p99; do echo "| $mode | ${names[$k]} | $r | $rps | $p50 | $p99 |"; done < "$work/rows"
  echo
  echo "| mode | server | median req/s |"
  echo "| --- | --- | --- |"
  for mode in pipelined unpipelined; do
    for k in "${!ports[@]}"; do
      med="$(awk -v m="$mode" -v k="$k" '$1 == m && $2 == k { print $4 }' "$work/rows" | median)"
      echo "$mode $k $med" >> "$work/medians"
      echo "| $mode | ${names[$k]} | $med |"
    done
  done
  echo
  for mode in pipelined unpipelined; do
    get() { awk -v m="$mode" -v n="$1" '$1 == m && $2 == n { print $3 }' "$work/medians"; }
    last=$(( ${#ports[@]} - 1 )); tlsk=$(( last - 1 ))
    echo "- $mode: ddf TLS / ddf plain = $(echo "scale=3; $(get "$tlsk") / $(get "$last")" | bc)"
    if [ "${#ports[@]}" -eq 3 ]; then
      echo "- $mode: ddf TLS / redis-server TLS = $(echo "scale=3; $(get 1) / $(get 0)" | bc)"
    fi
  done
} | tee "$out"
echo "written: $out"
