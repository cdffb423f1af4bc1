#!/usr/bin/env bash
# Issue 25's comparison, one command: bench/kafka-vs-rocksdb.sh
# `ddf kafka-dedup` against the dedup a Kafka Streams user writes without ddf (a processor over a logged RocksDB
# key-value store, kafka/src/test/java/io/ddf/kafka/bench/RocksDbDedupApp.java), on one real KRaft 3.8.1 broker that
# the bench starts (Kafka's test kit, in the bench's JVM) and stops. One input topic of RECORDS records keyed by id
# (about IDS distinct), then ROUNDS rounds; in each, for each guarantee, both applications in turn (who goes first
# alternates), each as a child JVM with the same options: records/s, changelog size, peak RSS, state on disk, then
# a new instance restores the changelog, and the output is checked id by id. Prints the table and writes it, with
# `uptime` before and after, to bench/results/kafka/DATE-TIME.md. Everything runs in a temporary directory removed
# at the end.
# Environment: RECORDS (2000000), IDS (1400000), PARTITIONS (4), ROUNDS (2), PORT (19000; the controller takes
# PORT+1), GUARANTEES (exactly_once_v2,at_least_once), APPS (ddf,rocksdb; ddf-words, ddf-blocks: ddf with the
# changelog of changed words or 64-byte blocks instead of hashes), MEMORY_BITS (per partition; default the
# power of two at or above 32 bits per distinct id of a partition), DDF_FILTER (ddf's filter options; default what
# `ddf tune --changelog` picks at MEMORY_BITS for one partition's share of the input), APP_JAVA_OPTS (both
# applications' JVM options, default -Xmx256m: each needs far less, and without a cap G1 grows the heap with the
# allocation rate, so that the faster application looks bigger), ROCKSDB_CACHING (1: the RocksDB store gets Kafka
# Streams' record cache), SEED (42), TIMEOUT_MINUTES (30, per run), DDF_SKIP_BUILD=1 (reuse the last build),
# JCMD=true (with -XX:NativeMemoryTracking=summary in APP_JAVA_OPTS: each application's native memory summary).
# With WINDOW (e.g. 24h; bench/kafka-window.sh sets it): the window columns (issue 29), `ddf kafka-dedup --window` on
# event time against the window-store dedup of Confluent's tutorial (APPS default ddf,windowstore; windowstore-refresh:
# the tutorial's put of a duplicate too; GUARANTEES default exactly_once_v2): the records get timestamps spread over
# WINDOW_SPAN (default 4 windows), WINDOW_LATE of them (0.01) late by up to WINDOW_LATE_MAX (WINDOW/24), then an end
# record per partition; ddf's filter: --window WINDOW --subfilters WINDOW_SLICES (4) --capacity (a partition's records
# of a window + 10 %) --target-fpr WINDOW_FPR (1e-9), unless DDF_FILTER; the output is checked record by record at
# each partition's stream time: ids missing (dropped though not out within W + W/L), ids doubled inside the window.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
cp_file="$root/kafka/target/bench-classpath.txt"
if [[ "${DDF_SKIP_BUILD:-0}" != 1 || ! -f "$cp_file" || ! -f "$root/kafka/target/ddf-kafka.jar" ]]; then
  mvn -q -B -ntp -pl kafka -am -DskipTests package dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$root/kafka/target/classpath-\${project.artifactId}.txt"
  mv "$root/kafka/target/classpath-ddf-kafka.txt" "$cp_file"
  rm -f "$root"/kafka/target/classpath-*.txt
fi
cp="$root/kafka/target/test-classes:$root/kafka/target/classes:$root/ingest/target/classes:$root/engine/target/classes"
cp="$cp:$root/persistence/target/classes:$(cat "$cp_file")"
stamp="$(date -u +%F-%H%M)"
out="$root/bench/results/kafka/$stamp.md"
mkdir -p "$(dirname "$out")"
load_before="$(uptime)"
window="${WINDOW:-}"
if [[ -n "$window" ]]; then
  out="$root/bench/results/kafka/$stamp-window-${RECORDS:-2000000}.md"
  title="ddf kafka-dedup --window $window against the window-store dedup"
  guarantees="${GUARANTEES:-exactly_once_v2}"
  apps="${APPS:-ddf,windowstore}"
else
  title="ddf kafka-dedup against a RocksDB-store dedup"
  guarantees="${GUARANTEES:-exactly_once_v2,at_least_once}"
  apps="${APPS:-ddf,rocksdb}"
fi
props=(-Dbench.records="${RECORDS:-2000000}" -Dbench.ids="${IDS:-1400000}" -Dbench.partitions="${PARTITIONS:-4}"
  -Dbench.rounds="${ROUNDS:-2}" -Dbench.port="${PORT:-19000}"
  -Dbench.guarantees="$guarantees" -Dbench.apps="$apps"
  -Dbench.ddf.jar="$root/kafka/target/ddf-kafka.jar" -Dbench.app.java.opts="${APP_JAVA_OPTS--Xmx256m}"
  -Dbench.rocksdb.caching="$([[ "${ROCKSDB_CACHING:-0}" == 1 ]] && echo true || echo false)"
  -Dbench.seed="${SEED:-42}" -Dbench.timeout.minutes="${TIMEOUT_MINUTES:-30}" -Dbench.jcmd="${JCMD:-false}")
if [[ -n "$window" ]]; then
  props+=(-Dbench.window="$window" -Dbench.window.span="${WINDOW_SPAN:-}" -Dbench.window.slices="${WINDOW_SLICES:-4}"
    -Dbench.window.fpr="${WINDOW_FPR:-1e-9}" -Dbench.window.late="${WINDOW_LATE:-0.01}"
    -Dbench.window.late.max="${WINDOW_LATE_MAX:-}")
fi
if [[ -n "${DDF_FILTER:-}" ]]; then
  props+=(-Dbench.ddf.args="$DDF_FILTER")
fi
if [[ -n "${MEMORY_BITS:-}" ]]; then
  props+=(-Dbench.memory.bits="$MEMORY_BITS")
fi
flags="$("$root/bin/ddf" jvm-flags | tr '\n' ' ')"
table="$(mktemp)"
trap 'rm -f "$table"' EXIT
# shellcheck disable=SC2086
java $flags -Xmx2g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn "${props[@]}" -cp "$cp" \
  io.ddf.kafka.bench.KafkaDedupBench > "$table"
load_after="$(uptime)"
{
  echo "# $title, $stamp UTC"
  echo
  echo "\`${SCRIPT_NAME:-bench/kafka-vs-rocksdb.sh}\` (RECORDS=${RECORDS:-2000000} IDS=${IDS:-1400000} PARTITIONS=${PARTITIONS:-4}" \
    "ROUNDS=${ROUNDS:-2}${window:+ WINDOW=$window}${WINDOW_SPAN:+ WINDOW_SPAN=$WINDOW_SPAN}${WINDOW_SLICES:+ WINDOW_SLICES=$WINDOW_SLICES}" \
    "${WINDOW_FPR:+WINDOW_FPR=$WINDOW_FPR }${WINDOW_LATE:+WINDOW_LATE=$WINDOW_LATE }${WINDOW_LATE_MAX:+WINDOW_LATE_MAX=$WINDOW_LATE_MAX }GUARANTEES=$guarantees APPS=$apps" \
    "${MEMORY_BITS:+ MEMORY_BITS=$MEMORY_BITS}${DDF_FILTER:+ DDF_FILTER='$DDF_FILTER'}" \
    "APP_JAVA_OPTS='${APP_JAVA_OPTS--Xmx256m}'" \
    "${ROCKSDB_CACHING:+ROCKSDB_CACHING=$ROCKSDB_CACHING}), $(nproc) cores, $(java -version 2>&1 | head -1)."
  echo
  echo "- uptime before: \`$load_before\`"
  echo "- uptime after: \`$load_after\`"
  echo
  cat "$table"
} > "$out"
cat "$out"
echo "wrote $out" >&2
