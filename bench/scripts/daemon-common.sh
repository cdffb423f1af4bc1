# Sourced by the daemon benchmarks (daemon-vs-redis.sh, daemon-vs-redisbloom.sh, feed-vs-redisbloom.sh,
# window-daemon.sh) with the script's arguments and $root set: the jars to run (the arguments, each
# JAR[,SERVE-OPTION...]; by default ingest/target/ddf.jar, built when stale), the run's time stamp, a work directory
# and the processes started ($pids), all cleaned up on exit, wait_port PORT, which returns once a server answers PING
# there, cpu_ticks PID (the process's utime + stime so far, in clock ticks; with EXCLUDE_JIT=1 less its JIT compiler
# threads', HotSpot's "C1/C2 CompilerThread": a warm-up cost that lands on whichever run is under way when the JIT
# compiles, about a tenth of a 60 s window-daemon.sh run's CPU) and $items, 100 x __rand_int__ (the arguments of
# BF.MADD / BF.MEXISTS of 100 in redis-benchmark).
jars=("$@")
if [ ${#jars[@]} -eq 0 ]; then
  "$root/bin/ddf" --version >/dev/null # builds the jar when stale
  jars=("$root/ingest/target/ddf.jar")
fi
stamp="$(date -u +%F-%H%M%S)" # to the second: two runs started in one minute each keep their own result file
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
wait_port() { for _ in $(seq 1 300); do redis-cli -p "$1" PING >/dev/null 2>&1 && return 0; sleep 0.2; done
  echo "server on port $1 did not start" >&2; exit 1; }
cpu_ticks() {
  local all jit=0 t
  all="$(awk '{ print $14 + $15 }' "/proc/$1/stat")"
  if [ "${EXCLUDE_JIT:-0}" = 1 ]; then
    for t in /proc/"$1"/task/*; do
      case "$(cat "$t/comm" 2>/dev/null)" in
        C1\ CompilerThre*|C2\ CompilerThre*) jit=$((jit + $(sed 's/.*) //' "$t/stat" | awk '{ print $12 + $13 }'))) ;;
      esac
    done
  fi
  echo $((all - jit))
}
items="$(a=(); for _ in $(seq 1 100); do a+=(__rand_int__); done; echo "${a[*]}")"
