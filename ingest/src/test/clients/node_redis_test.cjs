// node-redis ('redis' and '@redis/bloom' from npm) driving every bf.* and cf.* helper it has against a running
// ddf daemon. Usage: node node_redis_test.cjs PORT (with NODE_PATH naming the node_modules holding them).
// DDF_EXPECT_BFCF=true once the bfcf branch (BF.INSERT, BF.SCANDUMP/LOADCHUNK, CF.*) is merged: its cases must
// then pass; while false they are skipped, loudly, only when the server answers "unknown command". RESP3 cases
// run unless the server answers HELLO 3 with NOPROTO. Exit status 0 when every case that ran passed.
'use strict';
const assert = require('node:assert/strict');
const net = require('node:net');
const redis = require('redis');
const { expectError } = require('./expect.cjs');

// node-redis 4 (the last for Node.js < 20, Debian 12's) speaks RESP2 only and camel-cases INFO fields; 5+ speaks both.
const MAJOR = Number(require('redis/package.json').version.split('.')[0]);
const CAMEL = {
  'Capacity': 'capacity', 'Size': 'size', 'Number of filters': 'numberOfFilters',
  'Number of items inserted': 'numberOfInsertedItems', 'Number of items deleted': 'numberOfDeletedItems',
};

const PORT = Number(process.argv[2]);
const EXPECT_BFCF = process.env.DDF_EXPECT_BFCF === 'true';
const failures = [];
const skips = [];

function loud(message) {
  console.error('!'.repeat(78));
  console.error('!!! ' + message);
  console.error('!'.repeat(78));
}


/** A BF.INFO / CF.INFO field: an object in RESP2, maybe a Map in RESP3. */
function field(info, name) {
  const value = info instanceof Map ? info.get(name) : (info[name] !== undefined ? info[name] : info[CAMEL[name]]);
  assert.notEqual(value, undefined, `${name} missing from ${JSON.stringify(info)}`);
  return Number(value);
}

// Answers compared as numbers: node-redis turns 1/0 (RESP2) and true/false (RESP3) into booleans either way.
const bits = (array) => array.map((b) => (b ? 1 : 0));

async function bfCore(c, p) {
  assert.equal(await c.bf.reserve(p + 'bf', 0.01, 1000), 'OK');
  await expectError(c.bf.reserve(p + 'bf', 0.01, 1000), 'item exists');
  assert.equal(await c.bf.add(p + 'bf', 'a'), true);
  assert.equal(await c.bf.add(p + 'bf', 'a'), false);
  assert.deepEqual(bits(await c.bf.mAdd(p + 'bf', ['a', 'b', 'c'])), [0, 1, 1]);
  assert.equal(await c.bf.exists(p + 'bf', 'b'), true);
  assert.equal(await c.bf.exists(p + 'bf', 'never-added'), false);
  assert.deepEqual(bits(await c.bf.mExists(p + 'bf', ['a', 'c', 'never-added'])), [1, 1, 0]);
  assert.equal(Number(await c.bf.card(p + 'bf')), 3);
  const info = await c.bf.info(p + 'bf');
  assert.equal(field(info, 'Capacity'), 1000);
  assert.equal(field(info, 'Number of items inserted'), 3);
  assert.ok(field(info, 'Size') > 0);
  assert.equal(await c.bf.exists(p + 'missing', 'a'), false);
  assert.equal(Number(await c.bf.card(p + 'missing')), 0);
  assert.equal(await c.bf.add(p + 'auto', 'x'), true);
  await expectError(c.bf.info(p + 'missing'), 'not found');
  assert.equal(await c.del([p + 'bf', p + 'auto']), 2);
  assert.equal(await c.bf.exists(p + 'bf', 'a'), false);
}

async function bfInsertAndDump(c, p) {
  assert.deepEqual(bits(await c.bf.insert(p + 'ins', ['x', 'y', 'x'], { CAPACITY: 500, ERROR: 0.01 })), [1, 1, 0]);
  assert.equal(field(await c.bf.info(p + 'ins'), 'Capacity'), 500);
  await expectError(c.bf.insert(p + 'nocreate', ['x'], { NOCREATE: true }), 'not found');
  await c.bf.mAdd(p + 'ins', Array.from({ length: 200 }, (_, i) => `item-${i}`));
  // binary chunks: ask for Buffers, not strings
  const scanDump = MAJOR >= 5 ?
    (key, it) => c.withTypeMapping({ [36 /* '$' blob string */]: Buffer }).bf.scanDump(key, it) :
    (key, it) => c.bf.scanDump(redis.commandOptions({ returnBuffers: true }), key, it);
  const chunks = [];
  let iterator = 0;
  for (;;) {
    const dump = await scanDump(p + 'ins', iterator);
    iterator = Number(dump.iterator);
    if (iterator === 0) break;
    chunks.push([iterator, dump.chunk]);
  }
  assert.ok(chunks.length > 0, 'BF.SCANDUMP returned no chunk');
  for (const [it, chunk] of chunks) {
    assert.equal(await c.bf.loadChunk(p + 'copy', it, chunk), 'OK');
  }
  assert.deepEqual(bits(await c.bf.mExists(p + 'copy', ['x', 'y', 'item-0', 'item-199'])), [1, 1, 1, 1]);
  assert.equal(Number(await c.bf.card(p + 'copy')), Number(await c.bf.card(p + 'ins')));
}

async function cfAll(c, p) {
  assert.equal(await c.cf.reserve(p + 'cf', 1000), 'OK');
  assert.equal(await c.cf.add(p + 'cf', 'a'), true);
  assert.equal(await c.cf.addNX(p + 'cf', 'a'), false);
  assert.equal(await c.cf.addNX(p + 'cf', 'b'), true);
  assert.deepEqual(bits(await c.cf.insert(p + 'cf', ['c', 'd'])), [1, 1]);
  assert.deepEqual((await c.cf.insertNX(p + 'cf', ['c', 'e'])).map(Number), [0, 1]);
  assert.equal(await c.cf.exists(p + 'cf', 'a'), true);
  assert.equal(await c.cf.exists(p + 'cf', 'never-added'), false);
  assert.deepEqual(bits(await c.cf.mExists(p + 'cf', ['a', 'e', 'never-added'])), [1, 1, 0]);
  assert.equal(await c.cf.add(p + 'cf', 'a'), true); // a second copy
  assert.equal(Number(await c.cf.count(p + 'cf', 'a')), 2);
  assert.equal(await c.cf.del(p + 'cf', 'a'), true);
  assert.equal(Number(await c.cf.count(p + 'cf', 'a')), 1);
  assert.equal(await c.cf.del(p + 'cf', 'never-added'), false);
  const info = await c.cf.info(p + 'cf');
  // six adds, one delete: RedisBloom's CF.DEL takes the item out of 'Number of items inserted' (numItems--)
  assert.equal(field(info, 'Number of items inserted'), 5);
  assert.equal(field(info, 'Number of items deleted'), 1);
  await expectError(c.cf.insert(p + 'cf-nocreate', ['x'], { NOCREATE: true }), 'not found');
}

async function run(name, test, client, prefix, needsBfcf) {
  try {
    await test(client, prefix);
    console.log(`PASS ${name}`);
  } catch (e) {
    if (needsBfcf && !EXPECT_BFCF && String(e.message).includes('unknown command')) {
      skips.push(name);
      loud(`SKIPPED ${name}: the server does not know the command (${e.message}); set expect.bfcf=true in ` +
        'ingest/src/test/clients/expectations.properties once the bfcf branch is merged');
    } else {
      failures.push(name);
      console.error(`FAIL ${name}:`, e);
    }
  }
}

/** Asks with a bare socket, so that no client is left in a protocol it does not expect. */
function serverSpeaksResp3() {
  return new Promise((resolve, reject) => {
    const s = net.createConnection({ port: PORT, host: '127.0.0.1' }, () => s.write('*2\r\n$5\r\nHELLO\r\n$1\r\n3\r\n'));
    s.once('data', (d) => { s.destroy(); resolve(!d.toString('latin1').startsWith('-NOPROTO')); });
    s.once('error', reject);
  });
}

async function suite(resp) {
  const client = redis.createClient(MAJOR >= 5 ? { socket: { port: PORT, host: '127.0.0.1' }, RESP: resp } :
    { socket: { port: PORT, host: '127.0.0.1' } });
  client.on('error', (e) => console.error('client error', e));
  await client.connect();
  assert.equal(await client.ping(), 'PONG');
  const prefix = `node${resp}:`;
  await run(`resp${resp} bf core`, bfCore, client, prefix, false);
  await run(`resp${resp} bf insert/scandump/loadchunk`, bfInsertAndDump, client, prefix, true);
  await run(`resp${resp} cf`, cfAll, client, prefix, true);
  await client.quit();
}

(async () => {
  console.log(`node-redis ${require('redis/package.json').version}, @redis/bloom ` +
    `${require('@redis/bloom/package.json').version}, daemon on port ${PORT}, expect bfcf: ${EXPECT_BFCF}`);
  await suite(2);
  if (MAJOR < 5) {
    skips.push('resp3');
    loud(`SKIPPED every RESP3 case: node-redis ${MAJOR} speaks only RESP2 (setup.sh installs it when Node.js, here ` +
      `${process.versions.node}, is older than 20)`);
  } else if (await serverSpeaksResp3()) {
    await suite(3);
  } else {
    skips.push('resp3');
    loud('SKIPPED every RESP3 case: the server answers HELLO 3 with NOPROTO (RESP3 is the resp3 branch)');
  }
  console.log(`node-redis: ${failures.length} failed ${JSON.stringify(failures)}, ${skips.length} skipped ${JSON.stringify(skips)}`);
  process.exit(failures.length ? 1 : 0);
})().catch((e) => { console.error(e); process.exit(1); });
