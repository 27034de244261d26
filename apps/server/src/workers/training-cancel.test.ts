// A Voice deleted while it trains: the training stops and is logged as cancelled because the
// Voice was deleted, never as a failed training.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/test-app.js';
import { writingSample } from '../test/writing.js';

let ctx: TestContext;
const logged: { level: 'info' | 'warn' | 'error'; msg: string }[] = [];

beforeAll(async () => {
  ctx = await createTestContext({ training: { preset: 'tiny', inProcessWorker: false, leaseSeconds: 6 } });
  await ctx.startWorker({
    log: {
      info: (msg) => logged.push({ level: 'info', msg }),
      warn: (msg) => logged.push({ level: 'warn', msg }),
      error: (_error, msg) => logged.push({ level: 'error', msg: msg ?? '' }),
    },
  });
}, 120_000);
afterAll(() => ctx.close());

it('logs a training whose Voice was deleted as cancelled, not failed', async () => {
  const client = ctx.client();
  await client.register();
  const created = await client.upload('/api/loras', { fields: { name: 'Deleted', text: writingSample(21_000, 0.2) } });
  expect(created.statusCode, created.body).toBe(201);
  const id: string = created.json()._id;
  await expect
    .poll(async () => (await client.get(`/api/loras/${id}`)).json().status, { timeout: 30_000 })
    .toBe('training');
  await new Promise((r) => setTimeout(r, 500));
  const deleted = await client.delete(`/api/loras/${id}`);
  expect(deleted.statusCode, deleted.body).toBeLessThan(300);

  await expect
    .poll(() => logged.some((l) => l.msg.includes(id) && /cancelled/.test(l.msg)), { timeout: 30_000 })
    .toBe(true);
  expect(logged.filter((l) => l.msg.includes(id) && /failed/.test(l.msg))).toEqual([]);
}, 60_000);

it('stops a training its owner cancels by key: the Voice fails as cancelled and the training is given back', async () => {
  const client = ctx.client();
  await client.register();
  const made = await client.createApiKey({ name: 'Trainer', scopes: ['training'] });
  const key = ctx.client();
  key.token = made.json().secret;
  const trainingsLeft = async () =>
    (await client.get('/api/auth/me'))
      .json()
      .user.usageLimits.modelsTrained.reduce((n: number, t: { amount: number }) => n + t.amount, 0);
  const before = await trainingsLeft();
  const created = await key.upload('/api/loras', { fields: { name: 'Cancelled', text: writingSample(21_000, 0.3) } });
  expect(created.statusCode, created.body).toBe(201);
  const id: string = created.json()._id;
  await expect
    .poll(async () => (await key.get(`/api/loras/${id}`)).json().status, { timeout: 30_000 })
    .toBe('training');

  const cancelled = await key.post(`/api/loras/${id}/cancel-training`);
  expect(cancelled.statusCode, cancelled.body).toBe(200);
  expect(cancelled.json()).toMatchObject({ status: 'failed', statusMessage: 'Training was cancelled.' });
  // The worker notices at its next lease renewal and stops, as cancelled, never as failed.
  await expect
    .poll(() => logged.some((l) => l.msg === `training of Voice ${id} cancelled by its owner`), { timeout: 30_000 })
    .toBe(true);
  expect(logged.filter((l) => l.msg.includes(id) && /failed/.test(l.msg))).toEqual([]);
  expect(await trainingsLeft()).toBe(before);
  const voice = (await key.get(`/api/loras/${id}`)).json();
  expect(voice).toMatchObject({ status: 'failed', statusMessage: 'Training was cancelled.' });
  const events = (await key.get(`/api/loras/${id}/training-events`)).json() as { stage: string }[];
  expect(events.at(0)?.stage).toBe('queued');
  expect(events.at(-1)?.stage).toBe('cancelled');
}, 90_000);
