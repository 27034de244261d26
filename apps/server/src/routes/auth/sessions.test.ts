import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const HOUR = 60 * 60 * 1000;

describe('sessions', () => {
  it('GET /api/auth/me answers the user for a valid token and 401 without one', async () => {
    const client = ctx.client();
    const { account } = await client.register();
    const me = await client.get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe(account.email);

    const anonymous = await ctx.client().get('/api/auth/me');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('UNAUTHENTICATED');

    const forged = ctx.client();
    forged.token = 'not-a-real-token';
    expect((await forged.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('logout revokes the token at once, and only that one', async () => {
    const first = ctx.client();
    const { account } = await first.register();
    const second = ctx.client();
    second.token = (await second.post('/api/auth/login', account)).json().token;

    expect((await first.post('/api/auth/logout')).json()).toEqual({ ok: true });
    expect((await first.get('/api/auth/me')).statusCode).toBe(401);
    expect((await second.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('expires a user session after 24 hours without use, measured from last use', async () => {
    const client = ctx.client();
    await client.register();
    ctx.clock.advance(23 * HOUR);
    expect((await client.get('/api/auth/me')).statusCode).toBe(200);
    // Used 23 h in: the limit now counts from then.
    ctx.clock.advance(23 * HOUR);
    expect((await client.get('/api/auth/me')).statusCode).toBe(200);
    ctx.clock.advance(24 * HOUR + 60_000);
    const expired = await client.get('/api/auth/me');
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe('SESSION_EXPIRED');
    // The expired session is gone for good, even if the clock were to go back.
    ctx.clock.advance(-48 * HOUR);
    expect((await client.get('/api/auth/me')).statusCode).toBe(401);
    ctx.clock.advance(48 * HOUR);
  });

  it('expires an admin session after 1 hour without use', async () => {
    const client = ctx.client();
    const { res } = await client.register();
    await ctx.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, res.json().user.id));
    ctx.clock.advance(50 * 60 * 1000);
    expect((await client.get('/api/auth/me')).statusCode).toBe(200);
    ctx.clock.advance(HOUR + 60_000);
    expect((await client.get('/api/auth/me')).json().code).toBe('SESSION_EXPIRED');
  });

  it('rejects a malformed Authorization header with 401, not 500', async () => {
    for (const authorization of ['Bearer', 'Basic abc', 'Bearer a b', 'x'.repeat(5000)]) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization } });
      expect(res.statusCode).toBe(401);
    }
  });
});

describe('PATCH /api/auth/onboarding', () => {
  it('moves the step forward, ignores a step backwards, and refuses steps that billing owns', async () => {
    const client = ctx.client();
    await client.register();
    const forward = await client.patch('/api/auth/onboarding', { step: 'training_started' });
    expect(forward.statusCode).toBe(200);
    expect(forward.json().user.onboarding.step).toBe('training_started');

    const backwards = await client.patch('/api/auth/onboarding', { step: 'choice' });
    expect(backwards.statusCode).toBe(200);
    expect(backwards.json().user.onboarding.step).toBe('training_started');

    const billing = await client.patch('/api/auth/onboarding', { step: 'plan_active' });
    expect(billing.statusCode).toBe(403);
    expect((await client.get('/api/auth/me')).json().user.onboarding.step).toBe('training_started');

    const unknown = await client.patch('/api/auth/onboarding', { step: 'wizard' });
    expect(unknown.statusCode).toBe(400);
  });
});

describe('onboarding moves only by the action each step belongs to', () => {
  it('refuses jumps: tutorial_complete from registered, a quickstart before its tour', async () => {
    const client = ctx.client();
    const { account } = await client.register();
    for (const step of ['tutorial_complete', 'create_quickstart_complete', 'activation_tour_complete']) {
      const jump = await client.patch('/api/auth/onboarding', { step });
      expect(jump.statusCode, step).toBe(403);
      expect(jump.json().code).toBe('FORBIDDEN');
    }
    expect((await client.get('/api/auth/me')).json().user.onboarding.step).toBe('registered');

    // The ladder as the screens climb it, one action at a time.
    for (const step of [
      'training_started',
      'rephrasing_tour_complete',
      'activation_tour_complete',
      'convert_quickstart_complete',
      'create_quickstart_complete',
    ]) {
      const res = await client.patch('/api/auth/onboarding', { step });
      expect(res.statusCode, step).toBe(200);
      expect(res.json().user.onboarding.step).toBe(step);
    }
    // Finish tutorial comes with a paid plan: not on the starter allowance.
    expect((await client.patch('/api/auth/onboarding', { step: 'tutorial_complete' })).statusCode).toBe(403);
    await ctx.database.db.update(users).set({ planName: 'pro' }).where(eq(users.email, account.email));
    const finished = await client.patch('/api/auth/onboarding', { step: 'tutorial_complete' });
    expect(finished.statusCode, finished.body).toBe(200);
    expect(finished.json().user.onboarding.step).toBe('tutorial_complete');
  });

  it('keeps Convert and Create closed before training_started, as the web does', async () => {
    const client = ctx.client();
    await client.register();
    const voiceId = 'a'.repeat(24);
    const calls = () => [
      client.post(`/api/loras/${voiceId}/convert-stream`, { loraId: voiceId, text: 'Some text to convert.' }),
      client.post('/api/loras/edit-chunk', { originalChunk: 'One.', rephrasedChunk: 'Two.', chunkIndex: 0 }),
      client.post('/api/content/interactive/next', {
        state: { version: 1, mode: 'short', step: 'init', request: { prompt: 'A note.' }, loraId: voiceId },
        action: 'ask_questions',
      }),
      client.upload('/api/content/generate-stream', {
        fields: { prompt: 'A note.', format: 'blog_post', selectedLora: voiceId },
      }),
    ];
    for (const res of await Promise.all(calls())) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().msg).toBe('Create your first Voice (or skip that step) to unlock Convert and Create.');
    }
    await client.patch('/api/auth/onboarding', { step: 'training_started' });
    for (const res of await Promise.all(calls())) expect(res.statusCode, res.body).not.toBe(403);
  });
});

describe('the admin bypass of onboarding', () => {
  it('lets an admin or a super admin finish the tutorial from any step; a user asking the same is refused', async () => {
    for (const role of ['admin', 'super_admin'] as const) {
      const admin = ctx.client();
      const { res } = await admin.register();
      await ctx.database.db.update(users).set({ role }).where(eq(users.id, res.json().user.id));
      const bypass = await admin.patch('/api/auth/onboarding', { step: 'tutorial_complete' });
      expect(bypass.statusCode, bypass.body).toBe(200);
      expect(bypass.json().user.onboarding.step).toBe('tutorial_complete');
      // Nothing moves back once it is over.
      await admin.patch('/api/auth/onboarding', { step: 'training_started' });
      expect((await admin.get('/api/auth/me')).json().user.onboarding.step).toBe('tutorial_complete');
    }

    const user = ctx.client();
    await user.register();
    const refused = await user.patch('/api/auth/onboarding', { step: 'tutorial_complete' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('FORBIDDEN');
    expect((await user.get('/api/auth/me')).json().user.onboarding.step).toBe('registered');
  });
});
