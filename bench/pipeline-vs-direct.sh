#!/usr/bin/env bash
# Throughput and latency of the Disruptor pipeline beside calling the filter directly, in ONE command, written to
# a dated table: bench/pipeline-vs-direct.sh [LABEL] [ROUNDS]  (env DDF_SKIP_BUILD=1 reuses the last build).
# Rounds are interleaved (1 Mbit, 1 Gbit, latency, then again) so that load from other processes spreads over all
# configurations; `uptime` is recorded beside every figure. Pipeline variants measured in the same JVM as their
# direct baseline (PipelineTiming's optional arguments); PIPELINE_VARIANTS overrides the list (the 'before' run on
# an older tree uses "default" only, since older PipelineTiming takes no producer/batch arguments).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
label="${1:-run}"
rounds="${2:-2}"
variants="${PIPELINE_VARIANTS:-default single:256::hop single:256:prefetch:hop single:256:prefetch:hop:sw single:256::::pack64}"
# elements per run at 1 Gbit (DDF_GBIT_ELEMENTS): fewer than at 1 Mbit so that a loaded machine finishes the set
gbit_elements="${DDF_GBIT_ELEMENTS:-4000000}"
# wait[:producer]; the producer part needs a tree with `bench latency --producer`
latency_variants="${LATENCY_VARIANTS:-busy-spin:single busy-spin:multi phased:single}"
out_dir="$root/bench/results/pipeline"
mkdir -p "$out_dir"
stamp="$(date -u +%Y-%m-%dT%H%MZ)"
out="$out_dir/$stamp-$label.md"
log="$out_dir/$stamp-$label.log"
if [[ "${DDF_SKIP_BUILD:-0}" != 1 || ! -f bench/target/benchmarks.jar ]]; then
  mvn -q -B -ntp -pl bench -am -DskipTests package
fi
mapfile -t flags < <(bin/ddf jvm-flags)
java_run() { java "${flags[@]}" -Dagrona.disable.bounds.checks=true -Xms1g -Xmx4g -cp bench/target/benchmarks.jar "$@"; }

{
  echo "# pipeline vs direct, $label, $stamp"
  echo
  if git rev-parse --git-dir > /dev/null 2>&1; then
    echo "git: $(git rev-parse --short HEAD) ($(git rev-parse --abbrev-ref HEAD))$(git diff --quiet || echo ', dirty')"
  else
    echo "git: ${DDF_GIT_REV:-unknown} (a copy of the tree, not a checkout)"
  fi
  echo "cores: $(nproc); java: $(java -version 2>&1 | head -1)"
  echo "command: bench/pipeline-vs-direct.sh $label $rounds; variants: $variants"
  echo
  echo "Throughput: one producer thread, random 8-byte keys (10^7 at 1 Mbit, $gbit_elements at 1 Gbit), QHT;"
  echo "direct = filter.stream(long) in a loop;"
  echo "pipeline = publish..close (every verdict delivered); best of 2 timed passes after a warm-up pass, M elements/s."
  echo "Variant = producer:batch[:prefetch[:hop[:sw]]] (default = multi-producer sequencer, one publish per element;"
  echo "prefetch = the fused handler touches 8 rows ahead; hop = hashOnPublish, the producer hashes;"
  echo "sw = both filters (direct and piped) built with singleWriter()); packK = longsPerSlot(K): K elements of a"
  echo "publishBatch to a ring slot, judged by the handler with the filter's batch stream(long[], ...))."
  echo
  echo "CPU columns (load-independent): CPU ns per element of the direct loop, of the publishing thread and of the"
  echo "pipeline's handler threads (ThreadMXBean, best timed pass, waits included); cpu ratio = direct / max(producer,"
  echo "handlers), the rate ratio to expect when each thread has a core of its own."
  echo
  echo "| round | size | variant | direct M/s | pipeline M/s | ratio | direct cpu ns | producer cpu ns | handler cpu ns | cpu ratio | uptime |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
} > "$out"
lat_rows=()
pause_rows=()
for ((r = 1; r <= rounds; r++)); do
  for bits in 1048576 1073741824; do
    for v in $variants; do
      IFS=: read -r producer batch pf hop sw pack <<<"$v"
      extra=()
      prefetch=0
      [[ "${pf:-}" == prefetch ]] && prefetch=8
      if [[ "$producer" != default ]]; then
        extra=(1 1 phased "$prefetch" 4096 3 "$producer" "$batch")
        if [[ "${hop:-}" == hop ]]; then extra+=(hash-on-publish); else extra+=(-); fi
        if [[ "${sw:-}" == sw ]]; then extra+=(single-writer); else extra+=(-); fi
        [[ "${pack:-}" == pack* ]] && extra+=("${pack#pack}")
      fi
      up="$(uptime | sed 's/.*load average: /load /')"
      elements=10000000
      [[ $bits == 1073741824 ]] && elements="$gbit_elements"
      res="$(java_run io.ddf.bench.PipelineTiming qht "$bits" "$elements" 8 "${extra[@]}" | tee -a "$log")"
      line="$(grep '^RESULT' <<<"$res")"
      cpu="$(grep '^CPU' <<<"$res" | sed -E 's/CPU direct ([0-9.]+) ns.*producer ([0-9.]+), handlers ([0-9.]+) ns.* = ([0-9.]+)$/\1 | \2 | \3 | \4/')"
      seq="$(sed -E 's/.*sequential ([0-9.]+) M.*/\1/' <<<"$line")"
      pip="$(sed -E 's/.*pipeline ([0-9.]+) M.*/\1/' <<<"$line")"
      ratio="$(sed -E 's/.*\(([0-9.]+)x\).*/\1/' <<<"$line")"
      size=$([[ $bits == 1048576 ]] && echo "1 Mbit" || echo "1 Gbit")
      echo "| $r | $size | $v | $seq | $pip | $ratio | ${cpu:-n/a | n/a | n/a | n/a} | $up |" >> "$out"
    done
  done
  for lv in $latency_variants; do
    IFS=: read -r wait producer <<<"$lv"
    prod=()
    [[ -n "${producer:-}" ]] && prod=(--producer "$producer")
    up="$(uptime | sed 's/.*load average: /load /')"
    res="$(java_run io.ddf.bench.BenchMain latency --kind qht --memory-bits 1048576 --key-bytes 8 --count 100000 \
      --warmup 100000 --rate 10000 --wait-strategy "$wait" "${prod[@]}" | tee -a "$log")"
    direct="$(grep '^  stream() call' <<<"$res" | sed -E 's/.*p50 ([0-9]+)  p99 ([0-9]+)  p99.9 ([0-9]+)  max ([0-9]+).*/\1 | \2 | \3 | \4/')"
    pipe="$(grep '^  pipeline publish-to-verdict' <<<"$res" | sed -E 's/.*p50 ([0-9]+)  p99 ([0-9]+)  p99.9 ([0-9]+)  max ([0-9]+).*/\1 | \2 | \3 | \4/')"
    sched="$(grep '^  pipeline schedule-to-verdict' <<<"$res" | sed -E 's/.*p50 ([0-9]+)  p99 ([0-9]+)  p99.9 ([0-9]+)  max ([0-9]+).*/\1 | \2 | \3 | \4/')"
    pauses="$(grep '^platform:' <<<"$res" | sed -E 's/^platform: //')"
    lat_rows+=("| $r | $lv | direct stream() | $direct | $up |" "| $r | $lv | pipeline publish-to-verdict | $pipe | $up |")
    [[ -n "$sched" ]] && lat_rows+=("| $r | $lv | pipeline schedule-to-verdict (+ producer's lateness) | $sched | $up |")
    [[ -n "$pauses" ]] && pause_rows+=("- round $r, $lv: $pauses")
  done
done
{
  echo
  echo "Latency: \`bin/ddf bench latency --kind qht --memory-bits 1048576 --key-bytes 8 --count 100000 --warmup 100000"
  echo "--rate 10000 --wait-strategy W [--producer P]\` (paced at 10k/s; publish-to-verdict from the publish call,"
  echo "schedule-to-verdict from the scheduled send time; one fused handler), ns:"
  echo
  echo "| round | wait:producer | path | p50 | p99 | p99.9 | max | uptime |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
  printf '%s\n' "${lat_rows[@]}"
  echo
  if [[ ${#pause_rows[@]} -gt 0 ]]; then
    echo "The machine's own pauses, measured just before each latency run (no ddf code: the floor under any tail):"
    echo
    printf '%s\n' "${pause_rows[@]}"
    echo
  fi
  echo "Raw output: $(basename "$log")"
} >> "$out"
echo "wrote $out"
