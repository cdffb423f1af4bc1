#!/usr/bin/env bash
# Installs the real clients RealClientsIT drives into DIR (default: ingest/target/clients): a Python venv with
# redis-py (pip 'redis') and node-redis with @redis/bloom (npm). Needs python3 with venv, and node with npm;
# on a bare Debian machine .ci/run installs those first. Prints DIR; pass it as DDF_CLIENTS_DIR.
set -euo pipefail
dir="${1:-$(cd "$(dirname "$0")/../../.." && pwd)/target/clients}"
mkdir -p "$dir"
[ -x "$dir/venv/bin/python" ] || python3 -m venv "$dir/venv"
"$dir/venv/bin/pip" install -q --disable-pip-version-check 'redis>=5,<9' >&2
mkdir -p "$dir/node"
# node-redis 5+ needs Node.js 20; on an older Node.js (Debian 12 has 18) the last that runs, 4.7, RESP2 only.
if [ "$(node -p 'process.versions.node.split(".")[0]')" -ge 20 ]; then
  packages=('redis@^6.3.1' '@redis/bloom@^6.3.1')
else
  packages=('redis@^4.7.1' '@redis/bloom@^1.2.0')
fi
( cd "$dir/node" && { [ -f package.json ] || npm init -y >/dev/null; } &&
  npm install --silent --no-audit --no-fund "${packages[@]}" >&2 )
echo "$dir"
