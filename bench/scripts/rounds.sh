# Sourced by the daemon comparison scripts (daemon-vs-redis.sh, daemon-tls-vs-redis.sh, fsync-vs-redis.sh): the warm-up, the
# alternated rounds and the median, so that every comparison measures the same way. The caller defines
#   warm K        one unrecorded run against server K (JIT, filter creation)
#   bench MODE K R  one recorded run of MODE (pipelined|unpipelined) against server K in round R
# and the arrays ports (one entry per server) and the variable rounds; run_rounds sets load_before/load_after.
# With ISOLATE=1 and an array procs (each server's pid, in the order of ports), every other server is stopped
# (SIGSTOP) while one is warmed or measured, and continued after: a server whose event loop never sleeps (ddf's
# --io-wait-strategy busy-spin) would otherwise take a core from the others' rows. A stopped server does nothing
# meanwhile (no checkpoint, no AOF fsync, no rewrite in the parent); its children (Redis's rewrite) go on. The price:
# what fell due while a server was stopped (a ddf checkpoint, every 60 s) runs inside its own next row.
isolate() { # SIGNAL K: sends SIGNAL to every server but K, when ISOLATE=1
  if [ "${ISOLATE:-0}" = 1 ]; then
    for j in "${!procs[@]}"; do [ "$j" = "$2" ] || kill "-$1" "${procs[$j]}" 2>/dev/null || true; done
  fi
}
run_rounds() {
  for k in "${!ports[@]}"; do isolate STOP "$k"; warm "$k"; isolate CONT "$k"; done
  load_before="$(uptime)"
  for r in $(seq 1 "$rounds"); do
    for mode in pipelined unpipelined; do
      for k in "${!ports[@]}"; do isolate STOP "$k"; bench "$mode" "$k" "$r"; isolate CONT "$k"; done
    done
  done
  load_after="$(uptime)"
}
# printf, not print: awk prints a computed 1032170 as 1.03217e+06, which bc cannot read (the ratio came out 0.00)
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) printf "%.10g\n", v[(NR + 1) / 2]; else printf "%.10g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
