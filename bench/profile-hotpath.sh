#!/usr/bin/env bash
# Profiles contenders of HotPathBench with async-profiler (tools.profiler:async-profiler 3.0 from Maven Central,
# its native library extracted from the jar):
#   bench/profile-hotpath.sh REGEX OUT_PREFIX [ROUNDS] [ROUND_MS]
# REGEX selects contenders by "size name" (e.g. '1 Mbit QHT.*shared'); writes OUT_PREFIX.txt (flat profile and
# hottest traces, Java frames with line numbers) and OUT_PREFIX.collapsed (collapsed stacks).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
regex="$1"; prefix="$2"; rounds="${3:-4}"; round_ms="${4:-1500}"
lib="$("$root/bench/scripts/async-profiler-lib.sh")"
cp_file="$root/bench/target/hotpath-classpath.txt"
(cd "$root" && mvn -q -B -ntp -pl bench -am -DskipTests package dependency:build-classpath \
  -Dmdep.outputFile="$cp_file")
flags="$("$root/bin/ddf" jvm-flags | tr '\n' ' ')"
echo "uptime: $(uptime)"
for fmt in "flat=25,traces=12,file=$prefix.txt" "collapsed,file=$prefix.collapsed"; do
  # shellcheck disable=SC2086
  java $flags -Dagrona.disable.bounds.checks=true -Xms1g -Xmx4g -XX:+UnlockDiagnosticVMOptions \
    -XX:+DebugNonSafepoints -agentpath:"$lib=start,event=cpu,interval=100000,$fmt" -Dhotpath.only="$regex" \
    -cp "$root/bench/target/classes:$(cat "$cp_file")" io.ddf.bench.HotPathBench /dev/null "$rounds" "$round_ms"
done
echo "uptime: $(uptime)"
