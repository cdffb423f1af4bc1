#!/usr/bin/env bash
# Issue 28 item 2: the classes one BF.ADD on an existing filter of the default kind runs on the event loop, from the
# socket to its reply bytes, counted by CommandPath.java (a JDI debugger attached to the daemon; see its header for
# what is counted). The daemon runs on its defaults in a temporary data directory.
#
#   bench/scripts/command-path.sh [JAR [OUT]]
#
# JAR defaults to ingest/target/ddf.jar (build it with `mvn -q -B -ntp -pl ingest -am -DskipTests package`); OUT to
# bench/results/hotpath/command-path-DATE.txt. VERBOSE=1 lists every method entered too.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
jar="${1:-$root/ingest/target/ddf.jar}"
out="${2:-$root/bench/results/hotpath/command-path-$(date -u +%Y-%m-%d).txt}"
tmp="$(mktemp -d /tmp/ddf-commandpath.XXXXXX)"
port=$((20000 + RANDOM % 20000))
jdwp=$((port + 1))
java -agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:$jdwp -jar "$jar" serve \
  --port "$port" --data-dir "$tmp/data" > "$tmp/daemon.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 1 60); do grep -q serving "$tmp/daemon.log" && break; sleep 1; done
{
  echo "# bench/scripts/command-path.sh $(basename "$jar") at $(git -C "$root" rev-parse --short HEAD), $(date -u +%FT%TZ)"
  java --add-modules jdk.jdi "$root/bench/scripts/CommandPath.java" "$jdwp" "$port" traced ${VERBOSE:+verbose}
} > "$out"
cat "$out"
