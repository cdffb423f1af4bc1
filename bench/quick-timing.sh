#!/usr/bin/env bash
# Quick single-thread timing of stream(long) on a mapped file: bench/quick-timing.sh KIND MEMORY_BITS [ELEMENTS] [DIR]
# Builds the modules, then runs io.ddf.bench.QuickTiming with the JVM flags from the parent pom.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
cp_file="$root/bench/target/classpath.txt"
mvn -q -B -ntp -pl bench -am -DskipTests package dependency:build-classpath -Dmdep.outputFile="$cp_file"
flags="$(mvn -q -B -ntp -Dstyle.color=never help:evaluate -Dexpression=ddf.jvm.flags -DforceStdout -N | sed "s/\x1b\[[0-9;]*m//g")"
# shellcheck disable=SC2086
exec java $flags -Dagrona.disable.bounds.checks=true -Xms1g -Xmx4g \
  -cp "$root/bench/target/classes:$(cat "$cp_file")" io.ddf.bench.QuickTiming "$@"
