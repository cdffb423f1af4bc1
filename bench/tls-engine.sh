#!/usr/bin/env bash
# The TLS engine choice, measured: the JDK's SSLEngine against BoringSSL (netty-tcnative) through the daemon's own
# TLS context factory, in memory: handshakes/s (client certificate required) and round trips/s of 16 pipelined
# BF.ADD frames. One command: bench/tls-engine.sh [ROUNDS] [SECONDS]; writes bench/results/tls/<stamp>-engines.md
# with `uptime` before and after (the machine is shared). DDF_SKIP_BUILD=1 reuses the last build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rounds="${1:-3}"
seconds="${2:-3}"
certs="$(mktemp -d)"
trap 'rm -rf "$certs"' EXIT
"$root/bench/scripts/make-certs.sh" "$certs" >/dev/null
out_dir="$root/bench/results/tls"
mkdir -p "$out_dir"
out="$out_dir/$(date -u +%Y-%m-%dT%H%MZ)-engines.md"
{
  echo "# TLS engines, $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`bench/tls-engine.sh $rounds $seconds\` (in memory, P-256 certificates, TLS 1.3, client"
  echo "certificate required; a handshake is both ends' work on one thread)."
  echo
  echo "uptime before: $(uptime)"
  echo
  "$root/bench/run.sh" TlsEngineTiming "$certs" "$rounds" "$seconds"
  echo
  echo "uptime after: $(uptime)"
} | tee "$out"
echo "written: $out"
