#!/usr/bin/env bash
# Profiles `ddf serve` under redis-benchmark with async-profiler 3.0 (the same library profile-hotpath.sh fetches
# from Maven Central), one command:
#   bench/profile-daemon.sh OUT_PREFIX [JAR[,SERVE-OPTION...]] [EVENT]
# EVENT is cpu (default) or alloc. Starts the daemon on a loopback port with a fresh data dir and the agent loaded
# (not started), warms it up with 2,000,000 pipelined BF.ADDs, profiles N (1000000) BF.ADDs with -P 16 and then M
# (200000) with -c 50 and no pipelining, and writes OUT_PREFIX-pipelined.txt / OUT_PREFIX-unpipelined.txt (flat
# profile and hottest traces) and the matching .collapsed stacks. Prints uptime before and after.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="$1"
spec="${2:-$root/ingest/target/ddf.jar}"
event="${3:-cpu}"
n="${N:-1000000}"
m="${M:-200000}"
port="${DDF_PORT:-7395}"
lib="$("$root/bench/scripts/async-profiler-lib.sh")"
IFS=, read -r -a parts <<< "$spec"
work="$(mktemp -d)"
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
java -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -agentpath:"$lib" -jar "${parts[0]}" serve \
  --port "$port" --data-dir "$work/data" "${parts[@]:1}" > "$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 1 150); do redis-cli -p "$port" PING >/dev/null 2>&1 && break; sleep 0.2; done
redis-benchmark -p "$port" -n 2000000 -P 16 -r 100000000 -q BF.ADD k __rand_int__ > /dev/null 2>&1 # warm-up: C2 done before profiling
# The Maven Central jar has no asprof launcher: commands reach the agent loaded at start through jcmd's
# JVMTI.agent_load of the same library. The options are quoted for jcmd, whose parser would otherwise read
# "start,event=cpu,..." as an option named "start,event" and pass the agent nothing.
run() { # mode args...
  local mode="$1"; shift
  jcmd "$pid" JVMTI.agent_load "$lib" "\"start,event=$event,interval=1000000,threads\"" > /dev/null
  echo "$mode: $(redis-benchmark -p "$port" "$@" -r 100000000 -q BF.ADD k __rand_int__ 2>/dev/null | tr '\r' '\n' | tail -1)"
  jcmd "$pid" JVMTI.agent_load "$lib" "\"stop,flat=30,traces=15,file=$prefix-$mode.txt\"" > /dev/null
  jcmd "$pid" JVMTI.agent_load "$lib" "\"dump,collapsed,file=$prefix-$mode.collapsed\"" > /dev/null
}
echo "uptime: $(uptime)"
run pipelined -n "$n" -P 16
run unpipelined -n "$m" -c 50
echo "uptime: $(uptime)"
echo "wrote $prefix-pipelined.txt $prefix-unpipelined.txt"
