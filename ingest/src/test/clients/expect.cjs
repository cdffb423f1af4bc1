// Shared by the node-redis scripts: expectError(promise, text) passes when the promise rejects with an error whose
// message contains text, and fails (assert) when it resolves or the message differs.
'use strict';
const assert = require('node:assert/strict');

async function expectError(promise, text) {
  try {
    await promise;
  } catch (e) {
    assert.ok(String(e.message).includes(text), `expected an error containing '${text}', got '${e.message}'`);
    return;
  }
  assert.fail(`expected an error containing '${text}', got a reply`);
}

module.exports = { expectError };
