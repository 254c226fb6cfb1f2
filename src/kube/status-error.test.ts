import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ignoreNotFound, ignoreNotFoundOrConflict, KubeApiError, kubeApiErrorFrom } from './status-error.js';

function statusError(code: number, reason: string): KubeApiError {
  return new KubeApiError(code, { kind: 'Status', status: 'Failure', code, reason, message: `${reason} for the test` });
}

void test('ignoreNotFound passes the value through', async () => {
  assert.deepEqual(await ignoreNotFound(Promise.resolve({ name: 'a' })), { name: 'a' });
});

void test('ignoreNotFound resolves undefined on 404, also when the body carried no reason', async () => {
  assert.equal(await ignoreNotFound(Promise.reject(statusError(404, 'NotFound'))), undefined);
  assert.equal(await ignoreNotFound(Promise.reject(kubeApiErrorFrom(404, '<html>not here</html>'))), undefined);
});

void test('ignoreNotFound rethrows everything else, the same error object', async () => {
  for (const err of [
    statusError(409, 'Conflict'),
    statusError(409, 'AlreadyExists'),
    statusError(410, 'Gone'),
    statusError(500, 'InternalError'),
    new Error('network down'),
  ]) {
    await assert.rejects(ignoreNotFound(Promise.reject(err)), (e) => e === err);
  }
});

void test('ignoreNotFoundOrConflict passes the value through', async () => {
  assert.equal(await ignoreNotFoundOrConflict(Promise.resolve(7)), 7);
});

void test('ignoreNotFoundOrConflict resolves undefined on 404 NotFound and 409 Conflict', async () => {
  assert.equal(await ignoreNotFoundOrConflict(Promise.reject(statusError(404, 'NotFound'))), undefined);
  assert.equal(await ignoreNotFoundOrConflict(Promise.reject(statusError(409, 'Conflict'))), undefined);
  assert.equal(await ignoreNotFoundOrConflict(Promise.reject(kubeApiErrorFrom(409, ''))), undefined);
});

void test('ignoreNotFoundOrConflict rethrows 409 AlreadyExists, 410 Gone and anything else', async () => {
  for (const err of [
    statusError(409, 'AlreadyExists'),
    statusError(410, 'Gone'),
    statusError(422, 'Invalid'),
    new TypeError('bug'),
  ]) {
    await assert.rejects(ignoreNotFoundOrConflict(Promise.reject(err)), (e) => e === err);
  }
});
