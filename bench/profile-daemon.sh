#!/usr/bin/env bash
# Profiles `ddf serve` under redis-benchmark with async-profiler 3.0 (the same library profile-hotpath.sh fetches
# from Maven Central), one command:
#   bench/profile-daemon.sh OUT_PREFIX [JAR[,SERVE-OPTION...]] [EVENT]
# EVENT is cpu (default) or alloc. Starts the daemon on a loopback port with a fresh data dir and the agent loaded
# (not started), reserves k (BF.RESERVE k 0.01 CAPACITY [RESERVE_OPTIONS], default 10^7, the filter of daemon-vs-redisbloom.sh's rows),
# warms it up with 2,000,000 pipelined BF.ADDs, profiles N (1000000) BF.ADDs with -P 16, M (200000) with -c 50 and
# no pipelining, then NMADD (50000) BF.MADD and BF.MEXISTS of 100 items each with -P 4 on the same filter; writes
# OUT_PREFIX-pipelined.txt / -unpipelined.txt / -madd.txt / -mexists.txt (flat profile and hottest traces) and the
# matching .collapsed stacks. MODES (default "pipelined unpipelined madd mexists") picks which; "feed" (not in
# the default) serves a raw feed on FEED_PORT (7396) into f, with --past-capacity forget so that BF.RESERVE f 0.01
# CAPACITY makes the fixed-size filter the feed judges into, warms it with 2,000,000 records and profiles FEED
# (4000000) more through one connection (bench/run.sh daemon.FeedLoad): OUT_PREFIX-feed.txt; FEED_RESERVE_OPTIONS
# (words after f's BF.RESERVE, e.g. "KIND bloom", as in feed-vs-redisbloom.sh) picks another kind. Prints uptime
# before and after. FEED_PAST_CAPACITY (default forget) replaces the feed's --past-capacity: `scale` (serve's
# default) with FEED_RESERVE_OPTIONS=NONSCALING profiles the feed into a NONSCALING scaling chain.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="$1"
spec="${2:-$root/ingest/target/ddf.jar}"
event="${3:-cpu}"
n="${N:-1000000}"
m="${M:-200000}"
nmadd="${NMADD:-50000}"
modes="${MODES:-pipelined unpipelined madd mexists}"
port="${DDF_PORT:-7395}"
feed_port="${FEED_PORT:-7396}"
feed_opts=()
case " $modes " in *" feed "*) feed_opts=(--past-capacity "${FEED_PAST_CAPACITY:-forget}" --feed-port "$feed_port" --feed-filter f) ;; esac
lib="$("$root/bench/scripts/async-profiler-lib.sh")"
IFS=, read -r -a parts <<< "$spec"
work="$(mktemp -d)"
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
java -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -agentpath:"$lib" -jar "${parts[0]}" serve \
  --port "$port" --data-dir "$work/data" "${feed_opts[@]}" "${parts[@]:1}" > "$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 1 150); do redis-cli -p "$port" PING >/dev/null 2>&1 && break; sleep 0.2; done
# shellcheck disable=SC2086 # RESERVE_OPTIONS: words after k's BF.RESERVE (e.g. "WINDOW 60 KIND aged-cuckoo")
redis-cli -p "$port" BF.RESERVE k 0.01 "${CAPACITY:-10000000}" ${RESERVE_OPTIONS:-} > /dev/null
redis-benchmark -p "$port" -n 2000000 -P 16 -r 100000000 -q BF.ADD k __rand_int__ > /dev/null 2>&1 # warm-up: C2 done before profiling
# The Maven Central jar has no asprof launcher: commands reach the agent loaded at start through jcmd's
# JVMTI.agent_load of the same library. The options are quoted for jcmd, whose parser would otherwise read
# "start,event=cpu,..." as an option named "start,event" and pass the agent nothing.
items=(); for _ in $(seq 1 100); do items+=(__rand_int__); done
run() { # mode args... (the redis-benchmark options, then the command; for feed, FeedLoad's count and prefix)
  local mode="$1"; shift
  case " $modes " in *" $mode "*) ;; *) return 0 ;; esac
  jcmd "$pid" JVMTI.agent_load "$lib" "\"start,event=$event,interval=1000000,threads\"" > /dev/null
  if [ "$mode" = feed ]; then
    echo "$mode: $(DDF_SKIP_BUILD=1 "$root/bench/run.sh" daemon.FeedLoad 127.0.0.1 "$feed_port" "$@")"
  else
    echo "$mode: $(redis-benchmark -p "$port" -r 100000000 -q "$@" 2>/dev/null | tr '\r' '\n' | tail -1 | sed 's/.*: //')"
  fi
  jcmd "$pid" JVMTI.agent_load "$lib" "\"stop,flat=30,traces=15,file=$prefix-$mode.txt\"" > /dev/null
  jcmd "$pid" JVMTI.agent_load "$lib" "\"dump,collapsed,file=$prefix-$mode.collapsed\"" > /dev/null
}
echo "uptime: $(uptime)"
run pipelined -n "$n" -P 16 BF.ADD k __rand_int__
run unpipelined -n "$m" -c 50 BF.ADD k __rand_int__
run madd -n "$nmadd" -P 4 BF.MADD k "${items[@]}"
run mexists -n "$nmadd" -P 4 BF.MEXISTS k "${items[@]}"
if [ ${#feed_opts[@]} -gt 0 ]; then
  # shellcheck disable=SC2086 # FEED_RESERVE_OPTIONS is a list of words (e.g. "KIND bloom")
  redis-cli -p "$port" BF.RESERVE f 0.01 "${CAPACITY:-10000000}" ${FEED_RESERVE_OPTIONS:-} > /dev/null
  "$root/bench/run.sh" daemon.FeedLoad 127.0.0.1 "$feed_port" 2000000 warm- > /dev/null # warm-up, not profiled
  run feed "${FEED:-4000000}" run-
fi
echo "uptime: $(uptime)"
echo "wrote $prefix-{$(echo $modes | tr ' ' ,)}.txt"
