// GET /api/health asks the database on every call, but checks asked while one is under way share
// its round trip: a burst of probes is one query, and each answer comes from a query that ended
// after its request arrived.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());
afterEach(() => vi.restoreAllMocks());

const health = () => ctx.app.inject({ method: 'GET', url: '/api/health' });

describe('GET /api/health', () => {
  it('answers a burst of checks from shared queries, and asks again for the next one', async () => {
    const execute = vi.spyOn(ctx.database.db, 'execute');
    const answers = await Promise.all(Array.from({ length: 8 }, health));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    expect(execute.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(execute.mock.calls.length).toBeLessThan(8);
    const before = execute.mock.calls.length;
    expect((await health()).statusCode).toBe(200);
    expect(execute.mock.calls.length).toBe(before + 1);
  });

  it('answers 503 to every check that shared a failed query, and asks afresh after it', async () => {
    const execute = vi.spyOn(ctx.database.db, 'execute');
    execute.mockImplementationOnce((() => Promise.reject(new Error('connection lost'))) as never);
    const answers = await Promise.all(Array.from({ length: 4 }, health));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(4).fill(503));
    expect(answers[0]?.json().code).toBe('INTERNAL_ERROR');
    expect((await health()).statusCode).toBe(200);
  });
});
