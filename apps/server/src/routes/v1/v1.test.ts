// /v1 through the `openai` SDK, as a person's tool calls it: the key owner's awake Voices as
// models, chat completions whole and streamed (the same greedy text both ways) charged as one
// short content and named in the ledger by the key, and every refusal as the SDK's own error
// class in OpenAI's shape, a spent balance included, which the SDK does not retry.
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageTranches, type VoiceRow } from '../../db/schema.js';
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

async function createKey(who: TestClient, name: string, scopes: string[]): Promise<string> {
  const res = await who.createApiKey({ name, scopes });
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
    const stream = await client.chat.completions.create({
      model: voice.id,
      messages: [
        { role: 'system', content: 'You write for a primary school.' },
        { role: 'user', content: PROMPT },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
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

    const sleeping = await refusal(ask(client, { model: asleep.id }));
    expect([sleeping.status, sleeping.code]).toEqual([400, 'VOICE_NOT_READY']);
    const notUser = await refusal(ask(client, { messages: [{ role: 'assistant', content: 'Hello' }] }));
    expect(notUser).toBeInstanceOf(OpenAI.BadRequestError);
    expect(notUser.message).toContain('last message must be the user’s');
    const two = await refusal(ask(client, { n: 2 }));
    expect([two.status, two.code, two.param]).toEqual([400, 'VALIDATION_ERROR', 'n']);
    const badModel = await refusal(ask(client, { model: '../etc' }));
    expect([badModel.status, badModel.param]).toEqual([400, 'model']);
    const unknownRoute = await refusal(client.embeddings.create({ model: voice.id, input: 'x' }));
    expect([unknownRoute.status, unknownRoute.code]).toEqual([404, 'ROUTE_NOT_FOUND']);
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
    expect(requests).toBe(1);
    expect(await shortContentLeft(broke)).toBe(0);
  });
});
