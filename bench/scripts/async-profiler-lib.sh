#!/usr/bin/env bash
# Prints the path of async-profiler 3.0's native library (tools.profiler:async-profiler:3.0 from Maven Central,
# extracted from the jar on first use into ${TMPDIR:-/tmp}/ddf-async-profiler-3.0): the one place the profiling
# scripts (profile-hotpath.sh, profile-daemon.sh) get it from.
set -euo pipefail
prof_dir="${TMPDIR:-/tmp}/ddf-async-profiler-3.0"
if [[ ! -f "$prof_dir/linux-x64/libasyncProfiler.so" ]]; then
  mkdir -p "$prof_dir"
  mvn -q -B -ntp dependency:copy -Dartifact=tools.profiler:async-profiler:3.0:jar -DoutputDirectory="$prof_dir" >&2
  (cd "$prof_dir" && unzip -o -q async-profiler-3.0.jar 'linux-x64/*')
fi
echo "$prof_dir/linux-x64/libasyncProfiler.so"
