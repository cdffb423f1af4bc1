#!/usr/bin/env bash
# Pipeline against sequential throughput: bench/pipeline-timing.sh KIND MEMORY_BITS [ELEMENTS] [ELEMENT_BYTES]
#   [HASHERS] [INSERTERS] [WAIT_STRATEGY] [PREFETCH] [RING_SIZE] [PASSES]
# Builds the modules, then runs io.ddf.bench.PipelineTiming with the JVM flags from the parent pom.
# Set DDF_SKIP_BUILD=1 to reuse the last build (for a series of runs).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
cp_file="$root/bench/target/classpath.txt"
if [[ "${DDF_SKIP_BUILD:-0}" != 1 || ! -f "$cp_file" ]]; then
  mvn -q -B -ntp -pl bench -am -DskipTests package dependency:build-classpath -Dmdep.outputFile="$cp_file"
fi
flags="$(mvn -q -B -ntp -Dstyle.color=never help:evaluate -Dexpression=ddf.jvm.flags -DforceStdout -N | sed "s/\x1b\[[0-9;]*m//g")"
# shellcheck disable=SC2086
exec java $flags -Dagrona.disable.bounds.checks=true -Xms1g -Xmx4g \
  -cp "$root/bench/target/classes:$(cat "$cp_file")" io.ddf.bench.PipelineTiming "$@"
