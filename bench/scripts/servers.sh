# Sourced by the bench scripts that start servers and run redis-benchmark against them.

# wait_port PORT: until a server answers PING there (30 s), else exit 1.
wait_port() { for _ in $(seq 1 150); do redis-cli -p "$1" PING >/dev/null 2>&1 && return 0; sleep 0.2; done
  echo "server on port $1 did not start" >&2; exit 1; }

# median: of the numbers on stdin. printf, not print: awk prints a computed 1032170 as 1.03217e+06, which bc cannot
# read (a ratio came out 0.00).
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) printf "%.10g\n", v[(NR + 1) / 2]; else printf "%.10g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# ddf_jar: DDF_JAR when set, else the reactor's ingest/target/ddf.jar, which bin/ddf builds when stale ($root: the
# repository). Prints its path.
ddf_jar() { if [ -n "${DDF_JAR:-}" ]; then echo "$DDF_JAR"; else "$root/bin/ddf" --version >/dev/null
  echo "$root/ingest/target/ddf.jar"; fi; }
