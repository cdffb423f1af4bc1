#!/usr/bin/env bash
# What a flood of TLS handshakes that never finish costs the clients already connected, and what a stalled
# handshake holds, one command: bench/tls-flood.sh [SECONDS]
# 1. Connected clients: redis-benchmark --tls -c 10 (unpipelined BF.ADD) alone, then while
#    bench/scripts/handshake_flood.py keeps 200 unfinished handshakes open and replaces 20 every 10 ms; alternated,
#    ROUNDS times (3): req/s and p50/p99 of the connected clients in each condition.
# 2. Memory: the daemon's heap after a full GC and its RSS, before and with 1000 connections that sent a ClientHello
#    and went silent on the TLS port, against 1000 connections that connected and sent nothing on the plain port
#    (unauthenticated strangers: a password is set), each set closed before the next.
# Writes bench/results/tls/DATE-flood.md with `uptime`. Ports: DDF_PORT (7711), DDF_TLS_PORT (7712). HANDSHAKES sets
# serve's --tls-handshakes-per-second (default: serve's own; 0 is no limit, for the before/after comparison).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-20}"
rounds="${ROUNDS:-3}"
port="${DDF_PORT:-7711}"
tls_port="${DDF_TLS_PORT:-7712}"
"$root/bin/ddf" --version >/dev/null
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
certs="$work/certs"
"$root/bench/scripts/make-certs.sh" "$certs" >/dev/null
printf 'flood-bench-password\n' > "$work/pass"
tls=(--tls --cacert "$certs/ca.crt" --cert "$certs/client.crt" --key "$certs/client.key")
java -Xmx1g -jar "$root/ingest/target/ddf.jar" serve --port "$port" --tls-port "$tls_port" --data-dir "$work/data" \
  --requirepass-file "$work/pass" --tls-cert-file "$certs/server.crt" --tls-key-file "$certs/server.key" \
  --tls-ca-cert-file "$certs/ca.crt" --max-clients 10000 ${HANDSHAKES:+--tls-handshakes-per-second "$HANDSHAKES"} \
  > "$work/ddf.log" 2>&1 &
ddf=$!
pids+=("$ddf")
for _ in $(seq 1 150); do redis-cli -p "$port" PING 2>/dev/null | grep -q NOAUTH && break; sleep 0.2; done
auth=(-a flood-bench-password)
clients() { # label round
  redis-benchmark -p "$tls_port" "${tls[@]}" "${auth[@]}" -c 10 -n 60000 -r 100000000 --csv BF.ADD k __rand_int__ \
    2>/dev/null | tail -1 | awk -F, -v l="$1" -v r="$2" '{ gsub(/"/, ""); print l, r, $2, $5, $7 }' >> "$work/rows"
}
redis-benchmark -p "$tls_port" "${tls[@]}" "${auth[@]}" -n 100000 -P 16 -r 100000000 -q BF.ADD k __rand_int__ \
  > /dev/null 2>&1 # warm-up
load_before="$(uptime)"
for r in $(seq 1 "$rounds"); do
  clients alone "$r"
  python3 "$root/bench/scripts/handshake_flood.py" "$tls_port" "$seconds" 200 > "$work/flood-$r.txt" &
  flood=$!
  sleep 2
  clients flood "$r"
  wait "$flood"
done
load_after="$(uptime)"

# memory: heap after GC (jcmd) and RSS
heap() { jcmd "$ddf" GC.run >/dev/null 2>&1; sleep 1
  jcmd "$ddf" GC.heap_info 2>/dev/null | awk '/used/ { for (i = 1; i <= NF; i++) if ($i == "used") { print $(i+1); exit } }'; }
rss() { awk '/VmRSS/ { print $2 "K" }' "/proc/$ddf/status"; }
hold() { # port tls? count
  python3 - "$1" "$2" "$3" <<'PY' &
import socket, ssl, sys, time
port, tls, n = int(sys.argv[1]), sys.argv[2] == "tls", int(sys.argv[3])
ctx = ssl.create_default_context(); ctx.check_hostname = False; ctx.verify_mode = ssl.CERT_NONE
socks = []
for _ in range(n):
    s = socket.create_connection(("127.0.0.1", port))
    if tls:
        i, o = ssl.MemoryBIO(), ssl.MemoryBIO()
        obj = ctx.wrap_bio(i, o, server_hostname="localhost")
        try: obj.do_handshake()
        except ssl.SSLWantReadError: pass
        s.sendall(o.read())
    socks.append(s)
print("holding", len(socks), flush=True)
time.sleep(8)
PY
}
sleep 12 # the flood's last connections close at --auth-timeout (10 s)
base_heap="$(heap)"; base_rss="$(rss)"
hold "$tls_port" tls 1000 > "$work/hold-tls.txt"; sleep 5; tls_heap="$(heap)"; tls_rss="$(rss)"; wait $!
sleep 2
hold "$port" plain 1000 > "$work/hold-plain.txt"; sleep 5; plain_heap="$(heap)"; plain_rss="$(rss)"; wait $!

# shellcheck source=scripts/rounds.sh
source "$root/bench/scripts/rounds.sh" # median
out="$root/bench/results/tls/$(date -u +%F-%H%M)-flood.md"
{
  echo "# Connected clients during a flood of unfinished TLS handshakes; what a stalled handshake holds"
  echo
  echo "Command: \`${HANDSHAKES:+HANDSHAKES=$HANDSHAKES }bench/tls-flood.sh $seconds\` (ROUNDS=$rounds), $(nproc) cores, ddf with two event loops,"
  echo "\`--requirepass-file\`, TLS (BoringSSL), client certificates required. Flood: bench/scripts/handshake_flood.py"
  echo "(200 open, 20 replaced every 10 ms, each a real ClientHello then silence)."
  echo
  echo "uptime before: $load_before"
  echo "uptime after:  $load_after"
  echo
  echo "| condition | round | req/s | p50 ms | p99 ms |"
  echo "| --- | --- | --- | --- | --- |"
  while read -r l r rps p50 p99; do echo "| $l | $r | $rps | $p50 | $p99 |"; done < "$work/rows"
  echo
  for l in alone flood; do
    echo "- $l: median $(awk -v l="$l" '$1 == l { print $3 }' "$work/rows" | median) req/s, p99 median $(awk -v l="$l" '$1 == l { print $5 }' "$work/rows" | median) ms"
  done
  cat "$work"/flood-*.txt | sed 's/^/- /'
  echo
  echo "| | heap used after GC | RSS |"
  echo "| --- | --- | --- |"
  echo "| idle | $base_heap | $base_rss |"
  echo "| 1000 stalled TLS handshakes | $tls_heap | $tls_rss |"
  echo "| 1000 silent plain connections (strangers) | $plain_heap | $plain_rss |"
} | tee "$out"
echo "written: $out"
