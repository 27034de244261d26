// /v1 through the `openai` SDK, as a person's tool calls it: the key owner's awake Voices as
// models, chat completions whole and streamed (the same greedy text both ways) charged as one
// short content and named in the ledger by the key, and every refusal as the SDK's own error
// class in OpenAI's shape, a spent balance included, which the SDK does not retry.
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageTranches, type VoiceRow, voices } from '../../db/schema.js';
import { shortContentLeft } from '../../test/account-state.js';
import { copyVoice, ownerWithAwakeVoice } from '../../test/quick-voice.js';
import { createTestContext, type TestClient, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let owner: TestClient;
let voice: VoiceRow;
let asleep: VoiceRow;
let baseURL: string;
let client: OpenAI;

const PROMPT = 'A short note to parents: the spring fair moves to the school field this year.';

/** A key's secret; it wakes no Voice unless asked to (decision 45), so asleep Voices stay asleep. */
async function createKey(who: TestClient, name: string, scopes: string[], wakesVoices = false): Promise<string> {
  const res = await who.createApiKey({ name, scopes, wakesVoices });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().secret;
}

/** The error an SDK call threw, for its class, status and OpenAI-shaped body. */
async function refusal(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

beforeAll(async () => {
  ctx = await createTestContext();
  let status: string;
  let ownerId: string;
  ({ owner, ownerId, voice, status } = await ownerWithAwakeVoice(ctx));
  expect(status).toBe('active');
  asleep = await copyVoice(ctx, ownerId, voice, 'Sleeping');
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  baseURL = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/v1`;
  client = new OpenAI({ baseURL, apiKey: await createKey(owner, 'Writing app', ['create']), maxRetries: 0 });
}, 300_000);
afterAll(() => ctx.close());

/** A Voice id no Voice has. */
const NO_SUCH_VOICE = 'ffffffffffffffffffffffff';

/** What OpenAI answers for a model that is not there: 404 `model_not_found`. */
async function expectModelNotFound(call: Promise<unknown>): Promise<void> {
  const error = await refusal(call);
  expect(error).toBeInstanceOf(OpenAI.NotFoundError);
  expect([error.status, error.code, error.type]).toEqual([404, 'model_not_found', 'invalid_request_error']);
  expect(error.message).toContain('does not exist or is not one of your Voices');
}

describe('GET /v1/models', () => {
  it("lists the key owner's awake Voices only", async () => {
    const stranger = ctx.client();
    const strangerId: string = (await stranger.register()).res.json().user.id;
    const theirs = await copyVoice(ctx, strangerId, voice, 'Theirs');
    await stranger.post(`/api/loras/${theirs.id}/activate`);

    const models = (await client.models.list()).data;
    expect(models.map((m) => m.id)).toEqual([voice.id]);
    expect(models[0]).toMatchObject({ object: 'model', owned_by: expect.any(String), name: 'Quick' });
    expect(models.map((m) => m.id)).not.toContain(asleep.id);
  });

  it('says the key’s budget of requests on each answer, in OpenAI’s headers, and names the request', async () => {
    // A key of its own, whose minute starts with its first request.
    const budgeted = new OpenAI({ baseURL, apiKey: await createKey(owner, 'Budget', ['create']), maxRetries: 0 });
    const first = await budgeted.models.list().withResponse();
    const second = await budgeted.models.list().withResponse();
    for (const { response, request_id } of [first, second]) {
      expect(response.headers.get('x-ratelimit-limit-requests')).toBe('60');
      expect(response.headers.get('x-ratelimit-reset-requests')).toMatch(/^(\d{1,3}ms|\d{1,2}s|1m0s)$/);
      expect(request_id).toMatch(/^req_[0-9a-f]{24}$/);
    }
    const remaining = (r: typeof first) => r.response.headers.get('x-ratelimit-remaining-requests');
    expect([remaining(first), remaining(second)]).toEqual(['59', '58']);
    expect(second.request_id).not.toBe(first.request_id);
    // The same budget under /api, where the key’s other scopes reach.
    const reader = await createKey(owner, 'Budget reader', ['voices:read']);
    const res = await ctx.app.inject({ url: '/api/loras', headers: { authorization: `Bearer ${reader}` } });
    expect(res.statusCode).toBe(200);
    expect([res.headers['x-ratelimit-limit-requests'], res.headers['x-ratelimit-remaining-requests']]).toEqual([
      '60',
      '59',
    ]);
  });
});

describe('GET /v1/models/{id}', () => {
  it('answers one of the key owner’s awake Voices as the list does', async () => {
    const listed = (await client.models.list()).data.find((m) => m.id === voice.id);
    const model = await client.models.retrieve(voice.id);
    expect(model).toEqual(listed);
    expect(model).toMatchObject({ id: voice.id, object: 'model', name: 'Quick' });
  });

  it('answers 404 model_not_found for any other model: unknown, malformed, asleep or someone else’s', async () => {
    const stranger = ctx.client();
    const strangerId: string = (await stranger.register()).res.json().user.id;
    const theirs = await copyVoice(ctx, strangerId, voice, 'Public');
    await ctx.database.db.update(voices).set({ isPublic: true }).where(eq(voices.id, theirs.id));
    for (const id of [NO_SUCH_VOICE, 'gpt-4o', 'a%2Fb', theirs.id, 'x'.repeat(300)]) {
      await expectModelNotFound(client.models.retrieve(id));
    }
    const sleeping = await refusal(client.models.retrieve(asleep.id));
    expect([sleeping.status, sleeping.code]).toEqual([404, 'model_not_found']);
    expect(sleeping.message).toContain('asleep');
  });
});

describe('/v1 from a web page', () => {
  const origin = 'https://notes.example';

  it('answers a preflight from any origin without a key, allowing the key’s header', async () => {
    const res = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/v1/chat/completions',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-stainless-os',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect(res.headers['access-control-allow-headers']).toBe('authorization, content-type, x-stainless-os');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
    // A list of headers that is not one is not echoed.
    const odd = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/v1/models',
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'a b\tc' },
    });
    expect(odd.headers['access-control-allow-headers']).toBe('authorization, content-type');
  });

  it('lets the page read every answer, a refusal included, with the request id and budget exposed', async () => {
    const ok = await ctx.app.inject({
      url: '/v1/models',
      headers: { origin, authorization: `Bearer ${client.apiKey}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('*');
    const exposed = String(ok.headers['access-control-expose-headers']).split(/,\s*/);
    expect(exposed).toEqual(
      expect.arrayContaining(['x-request-id', 'x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests']),
    );
    const refused = await ctx.app.inject({ url: '/v1/models', headers: { origin } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    expect(refused.json().error.code).toBe('UNAUTHENTICATED');
  });

  it('keeps /api to OwnVoice’s own pages', async () => {
    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/api/loras',
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const res = await ctx.app.inject({ url: '/api/health', headers: { origin } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('POST /v1/chat/completions', () => {
  let whole: string;

  it('writes in the Voice, charged as one short content and named in the ledger by the key', async () => {
    const before = await shortContentLeft(owner);
    const completion = await client.chat.completions.create({
      model: voice.id,
      messages: [
        { role: 'system', content: 'You write for a primary school.' },
        { role: 'user', content: PROMPT },
      ],
      temperature: 0.2,
      max_tokens: 400,
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe(voice.id);
    const [choice] = completion.choices;
    expect(choice?.finish_reason).toBe('stop');
    expect(choice?.message.role).toBe('assistant');
    whole = choice?.message.content ?? '';
    expect(whole.trim().length).toBeGreaterThan(0);
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(completion.usage?.completion_tokens).toBeGreaterThan(0);
    const passages = (completion as unknown as { ownvoice: { passages: number; passages_in_voice: number } }).ownvoice;
    expect(passages.passages).toBeGreaterThan(0);
    expect(passages.passages_in_voice).toBeLessThanOrEqual(passages.passages);
    // Charged unless none of it came out in the Voice (then given back, as in the pages).
    expect(await shortContentLeft(owner)).toBe(before - (passages.passages_in_voice > 0 ? 1 : 0));
    const spend = (await owner.get('/api/plans/ledger'))
      .json()
      .entries.find((e: { resource: string; reason: string }) => e.resource === 'shortContent' && e.reason === 'usage');
    expect(spend?.apiKeyName).toBe('Writing app');
  });

  it('streams the same greedy text, then stop, [DONE] and the usage when asked', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({
        model: voice.id,
        messages: [
          { role: 'system', content: 'You write for a primary school.' },
          { role: 'user', content: PROMPT },
        ],
        stream: true,
        stream_options: { include_usage: true },
      })
      .withResponse();
    // A stream is written by hand, and still carries the request's id, the key's budget and CORS.
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(response.headers.get('x-ratelimit-remaining-requests')).toMatch(/^\d+$/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    let text = '';
    const finishes: (string | null)[] = [];
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      for (const choice of chunk.choices) {
        text += choice.delta.content ?? '';
        finishes.push(choice.finish_reason);
      }
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(whole);
    expect(finishes.at(-1)).toBe('stop');
    expect(finishes.filter(Boolean)).toEqual(['stop']);
    expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
  });

  it('charges nothing to a client that leaves before any of the Voice’s text reached it', async () => {
    const before = await shortContentLeft(owner);
    const stream = await client.chat.completions.create({
      model: voice.id,
      messages: [{ role: 'user', content: PROMPT }],
      stream: true,
    });
    for await (const chunk of stream) {
      // The role comes at once; the draft is still being written when the client goes.
      expect(chunk.choices[0]?.delta.role).toBe('assistant');
      stream.controller.abort();
      break;
    }
    // The server settles the charge once it sees the client gone.
    for (let waited = 0; waited < 100 && (await shortContentLeft(owner)) !== before; waited++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await shortContentLeft(owner)).toBe(before);
  });

  it('answers refusals in OpenAI’s shape with the SDK’s error classes', async () => {
    const ask = (c: OpenAI, body: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming>) =>
      c.chat.completions.create({ model: voice.id, messages: [{ role: 'user', content: PROMPT }], ...body });

    const wrongKey = new OpenAI({ baseURL, apiKey: 'ovk_not-a-real-key', maxRetries: 0 });
    const unauthenticated = await refusal(ask(wrongKey, {}));
    expect(unauthenticated).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(unauthenticated.error).toMatchObject({ type: 'authentication_error', code: 'UNAUTHENTICATED' });

    const withSession = new OpenAI({ baseURL, apiKey: owner.token as string, maxRetries: 0 });
    expect(await refusal(withSession.models.list())).toBeInstanceOf(OpenAI.AuthenticationError);

    const reader = new OpenAI({ baseURL, apiKey: await createKey(owner, 'Reader', ['voices:read']), maxRetries: 0 });
    const scope = await refusal(ask(reader, {}));
    expect(scope).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(scope.code).toBe('API_KEY_SCOPE');

    // A key acts as its owner, onboarding gate included; past it, another's Voice is not there.
    const stranger = ctx.client();
    await stranger.register();
    const theirs = new OpenAI({ baseURL, apiKey: await createKey(stranger, 'Theirs', ['create']), maxRetries: 0 });
    const gated = await refusal(ask(theirs, {}));
    expect([gated.status, gated.type]).toEqual([403, 'permission_error']);
    await stranger.patch('/api/auth/onboarding', { step: 'training_started' });
    expect(await refusal(ask(theirs, {}))).toBeInstanceOf(OpenAI.NotFoundError);

    // A key that may not wake Voices (decision 45) is refused an asleep one, and told how to let it.
    const sleeping = await refusal(ask(client, { model: asleep.id }));
    expect([sleeping.status, sleeping.code]).toEqual([400, 'VOICE_NOT_READY']);
    expect(sleeping.message).toContain('this API key may not wake Voices');
    const notUser = await refusal(ask(client, { messages: [{ role: 'assistant', content: 'Hello' }] }));
    expect(notUser).toBeInstanceOf(OpenAI.BadRequestError);
    expect(notUser.message).toContain('last message must be the user’s');
    const two = await refusal(ask(client, { n: 2 }));
    expect([two.status, two.code, two.param]).toEqual([400, 'VALIDATION_ERROR', 'n']);
    const unknownRoute = await refusal(client.embeddings.create({ model: voice.id, input: 'x' }));
    expect([unknownRoute.status, unknownRoute.code]).toEqual([404, 'ROUTE_NOT_FOUND']);
  });

  it('answers 404 model_not_found for a model that is not one of the key owner’s Voices, streamed or not', async () => {
    const stranger = ctx.client();
    const strangerId: string = (await stranger.register()).res.json().user.id;
    const theirs = await copyVoice(ctx, strangerId, voice, 'Public');
    await ctx.database.db.update(voices).set({ isPublic: true }).where(eq(voices.id, theirs.id));
    const before = await shortContentLeft(owner);
    for (const model of [NO_SUCH_VOICE, 'gpt-4o', '../etc', theirs.id, 'x'.repeat(5000)]) {
      const messages = [{ role: 'user' as const, content: PROMPT }];
      await expectModelNotFound(client.chat.completions.create({ model, messages }));
      await expectModelNotFound(client.chat.completions.create({ model, messages, stream: true }));
    }
    // An empty model is a request without one.
    const empty = await refusal(
      client.chat.completions.create({ model: '', messages: [{ role: 'user', content: 'x' }] }),
    );
    expect([empty.status, empty.code, empty.param]).toEqual([400, 'VALIDATION_ERROR', 'model']);
    expect(await shortContentLeft(owner)).toBe(before);
  });

  it('says a spent balance as insufficient_quota, which the SDK does not retry, and charges nothing', async () => {
    const broke = ctx.client();
    const brokeId: string = (await broke.register()).res.json().user.id;
    const theirs = await copyVoice(ctx, brokeId, voice, 'Broke');
    expect((await broke.post(`/api/loras/${theirs.id}/activate`)).json().status).toBe('active');
    await ctx.database.db.delete(usageTranches).where(eq(usageTranches.userId, brokeId));
    let requests = 0;
    const counting = new OpenAI({
      baseURL,
      apiKey: await createKey(broke, 'Tool', ['create']),
      maxRetries: 2,
      fetch: (url, init) => {
        requests++;
        return fetch(url, init);
      },
    });
    const quota = await refusal(
      counting.chat.completions.create({ model: theirs.id, messages: [{ role: 'user', content: PROMPT }] }),
    );
    expect(quota).toBeInstanceOf(OpenAI.RateLimitError);
    expect(quota.type).toBe('insufficient_quota');
    // This server sells no usage (billing off): it says who can raise the limits instead.
    expect((quota.error as { message?: string }).message).toBe(
      'You have no short content left in your usage limits. This server does not sell usage: ask its administrator to raise your limits.',
    );
    expect(requests).toBe(1);
    expect(await shortContentLeft(broke)).toBe(0);
  });
});

describe('a key that wakes Voices (decision 45)', () => {
  it('lists the owner’s asleep Voices too, and its first chat wakes the one it names and writes in it', async () => {
    const waking = new OpenAI({
      baseURL,
      apiKey: await createKey(owner, 'Night script', ['create'], true),
      maxRetries: 0,
    });
    const listed = (await waking.models.list()).data.map((m) => m.id);
    expect(listed).toEqual(expect.arrayContaining([voice.id, asleep.id]));
    expect((await waking.models.retrieve(asleep.id)).id).toBe(asleep.id);

    const answer = await waking.chat.completions.create({
      model: asleep.id,
      messages: [{ role: 'user', content: PROMPT }],
    });
    expect(answer.choices[0]?.message.content?.length).toBeGreaterThan(0);
    const woken = await owner.get(`/api/loras/${asleep.id}`);
    expect(woken.json().status).toBe('active');
    await owner.post(`/api/loras/${asleep.id}/deactivate`);
  });
});
