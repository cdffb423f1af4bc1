#!/usr/bin/env bash
# Issue 29's Kafka comparison, one command: bench/kafka-window.sh
# `ddf kafka-dedup --window` (a fifo-bloom with a window of time on the records' timestamps, its changelog of calls)
# against the window-store dedup of Confluent's tutorial (kafka/src/test/java/io/ddf/kafka/bench/WindowStoreDedupApp.java:
# a logged RocksDB WindowStore whose retention and window size are the window), under exactly_once_v2: records/s, CPU per
# record, changelog bytes, restore time, RSS, ids missing or doubled inside the window. bench/kafka-vs-rocksdb.sh with
# WINDOW set (its header lists the settings: RECORDS, IDS, PARTITIONS, ROUNDS, PORT, WINDOW, WINDOW_SPAN,
# WINDOW_SLICES, WINDOW_FPR, WINDOW_LATE, WINDOW_LATE_MAX, APPS, APP_JAVA_OPTS, DDF_FILTER, ...); the result goes to
# bench/results/kafka/DATE-TIME-window-RECORDS.md with the command and `uptime` before and after.
# Defaults: WINDOW=24h, RECORDS=2000000, IDS=RECORDS/2 (each id about twice over four windows).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
records="${RECORDS:-2000000}"
WINDOW="${WINDOW:-24h}" RECORDS="$records" IDS="${IDS:-$((records / 2))}" SCRIPT_NAME=bench/kafka-window.sh \
  exec "$here/kafka-vs-rocksdb.sh"
