#!/usr/bin/env bash
# What survives what, as one command: kill -9 rounds under load (acknowledged adds lost?), a SIGTERM under load,
# then MINUTES of abusive clients (partial frames, disconnects mid-frame, floods of unfinished large commands
# before and after AUTH, AUTH brute force, idle strangers, connection churn) against a daemon on loopback, while
# one well-behaved client checks it is still served. Writes a dated table under bench/results/survival/.
#   bench/survival.sh [--rounds 50] [--minutes 60] [--jar ingest/target/ddf.jar]
# Loopback only; memory use is bounded by the daemon's own limits (the point of the test). Needs python3.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ ! -f "$root/ingest/target/ddf.jar" ]; then
  (cd "$root" && mvn -q -B -ntp -DskipTests -pl ingest -am package)
fi
exec python3 "$root/bench/scripts/survival.py" --root "$root" "$@"
