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
