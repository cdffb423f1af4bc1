#!/usr/bin/env bash
# Times `bin/ddf migrate` moving 10^7 items' worth of filters from a real RedisBloom into a ddf daemon, in one
# command, and writes bench/results/migrate/<date>.md with the machine's load.
#   bench/migrate-from-redisbloom.sh [--items-per-key N] [--bloom-keys B] [--cuckoo-keys C]
# Defaults: 8 Bloom keys and 2 cuckoo keys of 1,000,000 items each (BF.RESERVE 0.01 10^6, CF.RESERVE 10^6).
# RedisBloom: REDISBLOOM (default /work/shared/redisbloom/redisbloom-2.4.23.so; without it the script says so and
# exits 0);
# ports: REDIS_PORT (6601) and DDF_PORT (7601). Needs redis-server and python3 with redis-py (the venv of
# ingest/src/test/clients/setup.sh, or DDF_PYTHON).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=bench/scripts/redisbloom-module.sh
source "$root/bench/scripts/redisbloom-module.sh"
so="$module"
redis_port="${REDIS_PORT:-6601}"
ddf_port="${DDF_PORT:-7601}"
python="${DDF_PYTHON:-$root/ingest/target/clients/venv/bin/python}"
per_key=1000000 bloom_keys=8 cuckoo_keys=2
while [ $# -gt 0 ]; do
  case "$1" in
    --items-per-key) per_key="$2"; shift 2 ;;
    --bloom-keys) bloom_keys="$2"; shift 2 ;;
    --cuckoo-keys) cuckoo_keys="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[ -f "$so" ] || { echo "skipped: no RedisBloom module at $so (set REDISBLOOM to the path of redisbloom.so)"; exit 0; }
work="$(mktemp -d)"
redis_pid="" ddf_pid=""
cleanup() {
  [ -n "$ddf_pid" ] && kill "$ddf_pid" 2>/dev/null && wait "$ddf_pid" 2>/dev/null || true
  [ -n "$redis_pid" ] && kill "$redis_pid" 2>/dev/null && wait "$redis_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --loadmodule "$so" \
  --logfile "$work/redis.log" &
redis_pid=$!
"$root/bin/ddf" jvm-flags >/dev/null
"$root/bin/ddf" serve --port "$ddf_port" --data-dir "$work/data" >"$work/ddf.log" 2>&1 &
ddf_pid=$!
for _ in $(seq 1 200); do
  redis-cli -p "$redis_port" ping >/dev/null 2>&1 && redis-cli -p "$ddf_port" ping >/dev/null 2>&1 && break
  sleep 0.2
done
fill_start=$(date +%s.%N)
"$python" - "$redis_port" "$per_key" "$bloom_keys" "$cuckoo_keys" <<'PY'
import sys
import redis
port, per_key, blooms, cuckoos = (int(a) for a in sys.argv[1:])
r = redis.Redis(port=port, protocol=2)
for k in range(blooms):
    r.execute_command("BF.RESERVE", f"bf:{k}", 0.01, per_key)
for k in range(cuckoos):
    r.execute_command("CF.RESERVE", f"cf:{k}", per_key)
batch = 1000
for start in range(0, per_key, batch):
    p = r.pipeline(transaction=False)
    items = [f"item:{i}" for i in range(start, min(per_key, start + batch))]
    for k in range(blooms):
        p.execute_command("BF.MADD", f"bf:{k}", *[f"{k}:{i}" for i in items])
    for k in range(cuckoos):
        p.execute_command("CF.INSERT", f"cf:{k}", "ITEMS", *[f"{k}:{i}" for i in items])
    p.execute()
PY
fill_end=$(date +%s.%N)
load="$(uptime)"
start=$(date +%s.%N)
"$root/bin/ddf" migrate --from "127.0.0.1:$redis_port" --to "127.0.0.1:$ddf_port" --no-progress | tee "$work/migrate.out"
end=$(date +%s.%N)
items=$(( per_key * (bloom_keys + cuckoo_keys) ))
out="$root/bench/results/migrate/$(date -u +%Y-%m-%d-%H%M).md"
{
  echo "# bin/ddf migrate: $items items' worth of RedisBloom filters into a ddf daemon"
  echo
  echo "Command: \`bench/migrate-from-redisbloom.sh --items-per-key $per_key --bloom-keys $bloom_keys --cuckoo-keys $cuckoo_keys\`"
  echo "(RedisBloom 2.4.23 on redis-server $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/'), ddf daemon with its defaults)."
  echo
  echo "- filling RedisBloom (python, pipelined BF.MADD / CF.INSERT of 1000): $(echo "$fill_end - $fill_start" | bc) s"
  echo "- \`bin/ddf migrate\` (one command: SCAN, SCANDUMP, LOADCHUNK, then each key checked with 10000 probes): $(echo "$end - $start" | bc) s wall clock, JVM start included"
  echo "- its summary: $(tail -1 "$work/migrate.out")"
  echo "- load before the migration: $load"
  echo "- load after: $(uptime)"
} > "$out"
cat "$out"
