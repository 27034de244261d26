// Signed webhooks (decision 46): endpoints added by a signed-in browser with the password again,
// a training's end delivered to a real local HTTP server, signed as Stripe signs (verified here
// with node:crypto), retried on the backoff schedule (attempts driven by the test clock, one
// webhook job at a time as the queue would run them), logged, and replayed.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_MAX_ATTEMPTS, webhookDeliverySchema, webhookEventSchema } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWebhookTarget, isPrivateAddress } from '../../services/webhook-target.js';
import { RETRY_DELAYS_S } from '../../services/webhooks.service.js';
import { createTestContext, type TestClient, type TestContext } from '../../test/test-app.js';
import { writingSample } from '../../test/writing.js';

interface Received {
  path: string;
  signature: string;
  body: string;
}

let ctx: TestContext;
let owner: TestClient;
let server: Server;
let baseUrl: string;
const received: Received[] = [];
/** What the receiver answers next. */
let answer = 200;

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

/** The receiver's side, as a developer writes it from api.md: Stripe's scheme, by hand. */
function verify(secret: string, header: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function addWebhook(events: string[], path = '/hook'): Promise<{ id: string; secret: string }> {
  const res = await owner.post('/api/auth/webhooks', {
    url: `${baseUrl}${path}`,
    events,
    currentPassword: owner.password,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().webhook.id, secret: res.json().secret };
}

/** A Voice queued and cancelled at once: its training ends `cancelled`. */
async function cancelledVoice(): Promise<string> {
  const created = await owner.upload('/api/loras', { fields: { name: 'Hooked', text: writingSample(21_000, 0.2) } });
  expect(created.statusCode, created.body).toBe(201);
  const id: string = created.json()._id;
  expect((await owner.post(`/api/loras/${id}/cancel-training`)).statusCode).toBe(200);
  return id;
}

const deliveriesOf = async (webhookId: string) => {
  const res = await owner.get(`/api/auth/webhooks/${webhookId}/deliveries`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().deliveries.map((d: unknown) => webhookDeliverySchema.parse(d));
};

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await readBody(req);
    received.push({ path: req.url ?? '', signature: String(req.headers['ownvoice-signature'] ?? ''), body });
    res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer === 200 ? 'ok' : 'down for maintenance');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ctx = await createTestContext({ webhooks: { allowPrivate: true } });
  await ctx.app.platform.startWebhookDelivery({ pollingIntervalSeconds: 0.5 });
  owner = ctx.client();
  await owner.register();
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await new Promise((resolve) => server.close(resolve));
});

describe('webhook endpoints', () => {
  it('are added with the password again, the secret shown once', async () => {
    const wrong = await owner.post('/api/auth/webhooks', {
      url: `${baseUrl}/x`,
      events: ['voice.training.succeeded'],
      currentPassword: 'not-my-password',
    });
    expect(wrong.statusCode).toBeGreaterThanOrEqual(400);
    expect(wrong.statusCode).toBeLessThan(500);

    const { id, secret } = await addWebhook(['voice.training.succeeded'], '/listed');
    expect(secret).toMatch(/^whsec_[\w-]{20,}$/);
    const listed = (await owner.get('/api/auth/webhooks')).json().webhooks;
    expect(listed).toEqual([
      expect.objectContaining({ id, url: `${baseUrl}/listed`, events: ['voice.training.succeeded'] }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect((await owner.delete(`/api/auth/webhooks/${id}`)).statusCode).toBe(200);
    expect((await owner.delete(`/api/auth/webhooks/${id}`)).statusCode).toBe(404);
  });

  it.each([
    [{ url: 'ftp://example.com/hook', events: ['voice.training.failed'] }, /https:\/\//],
    [{ url: 'https://example.com/hook', events: [] }, /at least one event/],
    [{ url: 'https://example.com/hook', events: ['voice.deleted'] }, /./],
    [{ url: 'https://user:pw@example.com/hook', events: ['voice.training.failed'] }, /https:\/\//],
  ])('refuses %j with a clear 400', async (body, msg) => {
    const res = await owner.post('/api/auth/webhooks', { ...body, currentPassword: owner.password });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.json())).toMatch(msg);
  });

  it('refuse private, loopback and link-local hosts unless the server allows them', async () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    expect(isPrivateAddress('93.184.216.34')).toBe(false);
    for (const url of [
      'http://127.0.0.1:9/x',
      'http://localhost/x',
      'http://[::1]/x',
      'http://169.254.169.254/latest',
    ]) {
      await expect(checkWebhookTarget(url, false), url).rejects.toMatchObject({
        statusCode: 400,
        message: expect.stringMatching(/private, loopback or link-local/),
      });
    }
    await expect(checkWebhookTarget('https://93.184.216.34/hook', false)).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookTarget('http://127.0.0.1:9/x', true)).resolves.toBeInstanceOf(URL);
  });
});

describe('deliveries', () => {
  it('POSTs a training’s end, signed, to the endpoints that asked for it, and logs it', async () => {
    const { id: hookId, secret } = await addWebhook(['voice.training.cancelled'], '/signed');
    const other = await addWebhook(['voice.training.succeeded'], '/not-asked');
    const voiceId = await cancelledVoice();
    await expect.poll(() => received.filter((r) => r.path === '/signed').length, { timeout: 20_000 }).toBe(1);
    const got = received.find((r) => r.path === '/signed') as Received;
    expect(verify(secret, got.signature, got.body)).toBe(true);
    expect(verify(secret, got.signature, `${got.body} `)).toBe(false);
    const t = Number(/t=(\d+)/.exec(got.signature)?.[1]);
    expect(Math.abs(t - ctx.clock.now().getTime() / 1000)).toBeLessThan(5);
    const event = webhookEventSchema.parse(JSON.parse(got.body));
    expect(event).toMatchObject({
      type: 'voice.training.cancelled',
      data: { voice: { id: voiceId, name: 'Hooked', status: 'failed' } },
    });
    expect(received.some((r) => r.path === '/not-asked')).toBe(false);

    await expect
      .poll(async () => (await deliveriesOf(hookId))[0]?.deliveredAt ?? null, { timeout: 10_000 })
      .not.toBeNull();
    const [logged] = await deliveriesOf(hookId);
    expect(logged).toMatchObject({
      eventId: event.id,
      attempts: 1,
      lastStatus: 200,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(await deliveriesOf(other.id)).toEqual([]);
    await owner.delete(`/api/auth/webhooks/${hookId}`);
    await owner.delete(`/api/auth/webhooks/${other.id}`);
  }, 40_000);

  it('retries a refused delivery on the backoff schedule, gives up after the last attempt, and replays it', async () => {
    answer = 503;
    const { id: hookId, secret } = await addWebhook(['voice.training.cancelled'], '/flaky');
    await cancelledVoice();
    await expect.poll(async () => (await deliveriesOf(hookId))[0]?.attempts ?? 0, { timeout: 20_000 }).toBe(1);
    let [delivery] = await deliveriesOf(hookId);
    expect(delivery).toMatchObject({ lastStatus: 503, deliveredAt: null });
    expect(delivery.lastError).toMatch(/answered 503: down for maintenance/);
    expect(Date.parse(delivery.nextAttemptAt)).toBe(ctx.clock.now().getTime() + RETRY_DELAYS_S[0] * 1000);

    // The later attempts, each when its time comes (the job the queue would run then).
    for (let attempt = 2; attempt <= WEBHOOK_MAX_ATTEMPTS; attempt++) {
      ctx.clock.advance((RETRY_DELAYS_S[attempt - 2] as number) * 1000);
      await ctx.app.platform.services.webhooks.deliver(delivery.id);
      [delivery] = await deliveriesOf(hookId);
      expect(delivery.attempts).toBe(attempt);
      const next = RETRY_DELAYS_S[attempt - 1];
      expect(delivery.nextAttemptAt).toBe(
        next === undefined ? null : new Date(ctx.clock.now().getTime() + next * 1000).toISOString(),
      );
    }
    // Given up: a stray job for it does nothing.
    const before = received.length;
    await ctx.app.platform.services.webhooks.deliver(delivery.id);
    expect(received.length).toBe(before);

    answer = 200;
    const replayed = await owner.post(`/api/auth/webhooks/${hookId}/deliveries/${delivery.id}/replay`);
    expect(replayed.statusCode, replayed.body).toBe(202);
    await expect
      .poll(async () => (await deliveriesOf(hookId))[0]?.deliveredAt ?? null, { timeout: 20_000 })
      .not.toBeNull();
    const last = received.filter((r) => r.path === '/flaky').at(-1) as Received;
    expect(verify(secret, last.signature, last.body)).toBe(true);
    expect((await deliveriesOf(hookId))[0]).toMatchObject({ attempts: 1, lastStatus: 200, nextAttemptAt: null });
  }, 60_000);

  it('are the owner’s alone to read and replay', async () => {
    const { id: hookId } = await addWebhook(['voice.training.failed'], '/private');
    const stranger = ctx.client();
    await stranger.register();
    expect((await stranger.get(`/api/auth/webhooks/${hookId}/deliveries`)).statusCode).toBe(404);
    expect((await stranger.delete(`/api/auth/webhooks/${hookId}`)).statusCode).toBe(404);
    const replay = await stranger.post(`/api/auth/webhooks/${hookId}/deliveries/${hookId}/replay`);
    expect(replay.statusCode).toBe(404);
  });
});
