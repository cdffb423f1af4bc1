#!/usr/bin/env bash
# The embedder's view (issue 30), run by .ci/run: an application outside the ddf reactor that follows only the
# README's embedding section and docs/embedding.md, against the engine as `mvn -pl engine -am install` installs it.
#   1. installs the engine (and persistence, and the parent pom) without their tests;
#   2. compiles the README's snippet, extracted from README.md, and runs it twice in a row: the first start creates
#      the file, the second reopens it with openOrCreate() and remembers every id;
#   3. builds this application (Agrona 2.x on its class path, as an Aeron application has) and runs the pipeline
#      example twice, then closes filters under concurrent streams for ROUNDS rounds (100 unless given) and reopens
#      every file: each must be sealed and count every acknowledged element.
#
#   examples/embedder/run.sh [ROUNDS] [MAVEN_ARGS...]     e.g. run.sh 100 -Dmaven.repo.local=/tmp/m2
# Maven arguments (a local repository above all) go to both builds, so a developer can keep ~/.m2 untouched.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rounds=100
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then
  rounds="$1"
  shift
fi
mvn_args=(-B -ntp -q "$@")
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "embedder: installing the engine (mvn -pl engine -am install -DskipTests)"
(cd "$root" && mvn "${mvn_args[@]}" -pl engine -am install -DskipTests)
echo "embedder: building the application against the installed engine"
mvn "${mvn_args[@]}" -f "$here/pom.xml" package dependency:build-classpath -Dmdep.outputFile="$work/classpath.txt"
cp="$here/target/classes:$(cat "$work/classpath.txt")"
# The JVM flags, as the README says: bin/ddf jvm-flags, one per line, which is also a Java argument file.
"$root/bin/ddf" jvm-flags > "$work/ddf.args"

# The README's snippet: the first java block of its embedding section (the heading that says "Embed"), compiled as
# it stands.
mkdir -p "$work/snippet"
awk '/^#+ .*Embed/ { section = 1; next } /^#+ / { section = 0 }
     section && /^```java/ { inside = 1; next } inside && /^```/ { exit } inside { print }' "$root/README.md" \
  > "$work/snippet/ClickDedup.java"
grep -q 'openOrCreate()' "$work/snippet/ClickDedup.java" || { echo "embedder: README's snippet lacks openOrCreate()"; exit 1; }
javac -Xlint:all,-path -Werror -cp "$cp" -d "$work/snippet" "$work/snippet/ClickDedup.java"
# Chronicle's INFO lines (a mapping took N ms) quieted as docs/embedding.md ("Logging") says.
run() { (cd "$work" && java @ddf.args -Dorg.slf4j.simpleLogger.log.net.openhft=warn -cp "$cp:$work/snippet" "$@"); }
first="$(run ClickDedup 11 22 33 22 2>&1)"
second="$(run ClickDedup 11 22 33 44 2>&1)"
echo "$first"; echo "$second"
[ "$(echo "$first" | grep -c 'first time')" = 3 ] && [ "$(echo "$first" | grep -c 'seen before')" = 1 ] \
  || { echo "embedder: the first start did not judge 3 new ids and 1 repeat"; exit 1; }
[ "$(echo "$second" | grep -c 'seen before')" = 3 ] && echo "$second" | grep -q '^44 first time' \
  || { echo "embedder: the second start did not remember the first's ids"; exit 1; }
if echo "$first$second" | grep -q 'SLF4J'; then echo "embedder: SLF4J warned: $first"; exit 1; fi
echo "embedder: the README's snippet ran twice; the second start remembered"

pipeline_first="$(run io.ddf.examples.embedder.PipelineExample "$work/events.ddf" 10000)"
pipeline_second="$(run io.ddf.examples.embedder.PipelineExample "$work/events.ddf" 10000)"
echo "pipeline: $pipeline_first, then $pipeline_second"
[[ "$pipeline_first" =~ ^[0-9]+,\ 0$ ]] && [ "$pipeline_second" = "0, 0" ] \
  || { echo "embedder: the pipeline example did not remember"; exit 1; }

run io.ddf.examples.embedder.CloseUnderLoad "$rounds" "$work/close" | tee "$work/close.log"
grep -q '^agrona 2\.' "$work/close.log" || { echo "embedder: Agrona 2.x was not on the class path"; exit 1; }
echo "embedder: passed"
