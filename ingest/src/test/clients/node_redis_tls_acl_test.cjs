// node-redis over TLS (a client certificate) with ACL users, against a ddf daemon started by RealClientsIT.
// Usage: node node_redis_tls_acl_test.cjs PORT CERT_DIR (NODE_PATH naming the node_modules holding 'redis').
// The daemon's ACL file: writer (>wpw ~clicks:* +@all -@admin), reader (>rpw ~* +@read), 'user default off'.
// One line 'PASS <case>' per case; exit status 0 when every case passed.
'use strict';
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const redis = require('redis');
const { expectError } = require('./expect.cjs');

const PORT = Number(process.argv[2]);
const CERTS = process.argv[3];
const MAJOR = Number(require('redis/package.json').version.split('.')[0]);
const failures = [];

function client(username, password, options = {}) {
  const cert = 'cert' in options ? options.cert : 'client';
  const socket = {
    host: '127.0.0.1', port: PORT, tls: true, servername: 'localhost',
    ca: fs.readFileSync(path.join(CERTS, options.ca ?? 'ca.crt')),
    reconnectStrategy: false, connectTimeout: 20000,
  };
  if (cert) {
    socket.cert = fs.readFileSync(path.join(CERTS, cert + '.crt'));
    socket.key = fs.readFileSync(path.join(CERTS, cert + '.key'));
  }
  const config = { socket, username, password };
  if (options.resp3 && MAJOR >= 5) {
    config.RESP = 3;
  }
  const c = redis.createClient(config);
  c.on('error', () => {});
  return c;
}


async function refused(c) {
  try {
    await c.connect();
    await c.ping();
  } catch (e) {
    return;
  } finally {
    try { await c.disconnect(); } catch (e) { /* already closed */ }
  }
  assert.fail('the connection was let in');
}

async function run(name, body) {
  try {
    await body();
    console.log('PASS ' + name);
  } catch (e) {
    failures.push(name);
    console.log('FAIL ' + name + ': ' + (e.stack || e));
  }
}

(async () => {
  for (const resp3 of [false, true]) {
    await run('tls acl writer ' + (resp3 ? 'resp3' : 'resp2'), async () => {
      const c = client('writer', 'wpw', { resp3 });
      await c.connect();
      assert.equal(await c.sendCommand(['ACL', 'WHOAMI']), 'writer');
      const key = 'clicks:node' + (resp3 ? 3 : 2);
      assert.ok([1, true].includes(await c.sendCommand(['BF.ADD', key, 'a'])));
      assert.ok([0, false].includes(await c.sendCommand(['BF.ADD', key, 'a'])));
      await expectError(c.sendCommand(['BF.ADD', 'orders:1', 'a']), 'No permissions to access a key');
      await expectError(c.sendCommand(['CONFIG', 'GET', '*']), "has no permissions to run the 'config|get' command");
      await c.disconnect();
    });
  }
  await run('tls acl reader', async () => {
    const c = client('reader', 'rpw');
    await c.connect();
    assert.ok([1, true].includes(await c.sendCommand(['BF.EXISTS', 'clicks:node2', 'a'])));
    await expectError(c.sendCommand(['BF.ADD', 'clicks:node2', 'b']),
      "User reader has no permissions to run the 'bf.add' command");
    await c.disconnect();
  });
  await run('tls acl wrongpass', async () => {
    const c = client('writer', 'nope');
    await expectError(c.connect(), 'invalid username-password pair');
    try { await c.disconnect(); } catch (e) { /* closed */ }
  });
  await run('tls no client certificate', () => refused(client('writer', 'wpw', { cert: null })));
  await run('tls foreign client certificate', () => refused(client('writer', 'wpw', { cert: 'foreign' })));
  await run('tls server not trusted', () => refused(client('writer', 'wpw', { ca: 'foreign-ca.crt' })));
  process.exit(failures.length ? 1 : 0);
})();
