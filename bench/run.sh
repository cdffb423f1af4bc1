#!/usr/bin/env bash
# Runs one of the bench mains: bench/run.sh CLASS [ARGS...], CLASS a simple name in io.ddf.bench
# (QuickTiming, PipelineTiming, CommonStreamFigures). Builds the modules first, then runs the class with the
# JVM flags of bin/ddf jvm-flags and Agrona's bounds checks off. DDF_SKIP_BUILD=1 reuses the last build.
# BENCH_JAVA_OPTS adds JVM options (e.g. -Dfifo.layouts=... for FifoHotPathBench).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
main="$1"
shift
cp_file="$root/bench/target/classpath.txt"
if [[ "${DDF_SKIP_BUILD:-0}" != 1 || ! -f "$cp_file" ]]; then
  mvn -q -B -ntp -pl bench -am -DskipTests package dependency:build-classpath -Dmdep.outputFile="$cp_file"
fi
# the JVM flags from their one list (jvm-flags.properties); help:evaluate of the pom's ddf.jvm.flags printed "null",
# the property being set by a plugin during the build, not in the model
flags="$("$root/bin/ddf" jvm-flags | tr '\n' ' ')"
# shellcheck disable=SC2086
exec java $flags -Dagrona.disable.bounds.checks=true -Xms1g -Xmx4g ${BENCH_JAVA_OPTS:-} \
  -cp "$root/bench/target/classes:$(cat "$cp_file")" "io.ddf.bench.$main" "$@"
