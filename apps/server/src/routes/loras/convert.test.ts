// Convert on the tiny house model: the event stream's order and shapes, chunk offsets that cover
// the text and stitch back with its separators, forced rerolls and their bound, a disconnect
// stopping generation, fair sharing between simultaneous conversions, the awake requirement,
// and the edit pass with its proofread spending.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CHUNK_ERROR_PREFIX,
  CONVERT_MESSAGES,
  type ConvertEvent,
  convertEventSchema,
  isFailedRewrite,
  separatorsOf,
  stitch,
} from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type UserRow, usageTranches, users, type VoiceRow } from '../../db/schema.js';
import { ConversionService } from '../../services/conversion.service.js';
import { embeddedEndpoint } from '../../test/inference.js';
import { copyVoice, ownerWithAwakeVoice, quickVoice } from '../../test/quick-voice.js';
import { createTestContext, type TestClient, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let owner: TestClient;
let ownerId: string;
let voice: VoiceRow;

const TEXT = `# Spring fair

The committee met on Tuesday evening in the library and agreed to move the spring fair to the school field, where there is more room for stalls and for the children's races.

## What changes

- Parking moves to the playground, and the gates open at nine.
- The cake stall stays by the main door, next to the raffle.
- Volunteers should arrive by eight to set up the tables and the bunting.

The fair raised four hundred pounds last year. This year we hope to buy new books for the reading corner and a second climbing frame for the infants.`;

/** Reads `data:` events off a server-sent-event body. */
function parseEvents(body: string): ConvertEvent[] {
  return body
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => convertEventSchema.parse(JSON.parse(block.slice(6))));
}

beforeAll(async () => {
  ctx = await createTestContext();
  let status: string;
  ({ owner, ownerId, voice, status } = await ownerWithAwakeVoice(ctx));
  expect(status).toBe('active');
}, 300_000);
afterAll(() => ctx.close());

const convert = (client: TestClient, id: string, text: string) =>
  client.post(`/api/loras/${id}/convert-stream`, { loraId: id, text });

describe('POST /api/loras/:id/convert-stream', () => {
  it('streams chunk positions, then each chunk in order, then complete', async () => {
    const res = await convert(owner, voice.id, TEXT);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = parseEvents(res.body);
    const first = events[0];
    if (first?.type !== 'chunk_positions') throw new Error(`first event was ${first?.type}`);
    expect(first.baseText).toBe(TEXT);
    expect(events.at(-1)).toEqual({ type: 'complete' });

    // Positions are in order, do not overlap, and leave only whitespace between them.
    const positions = first.chunkPositions;
    expect(positions.length).toBeGreaterThan(1);
    let at = 0;
    for (const p of positions) {
      expect(p.start).toBeGreaterThanOrEqual(at);
      expect(p.end).toBeGreaterThan(p.start);
      at = p.end;
    }
    const separators = separatorsOf(TEXT, positions);
    expect(separators.every((s) => s.trim() === '')).toBe(true);
    // Stitching the originals with the separators gives back the text exactly.
    expect(
      stitch(
        positions.map((p) => TEXT.slice(p.start, p.end)),
        separators,
      ),
    ).toBe(TEXT);

    // Chunks stream in order, several deltas each, and every chunk gets text.
    const chunkEvents = events.filter((e) => e.type === 'chunk');
    const order = chunkEvents.map((e) => e.chunkIndex);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(new Set(order).size).toBe(positions.length);
    expect(chunkEvents.length).toBeGreaterThan(positions.length);
  });

  it('gives the same rewrite again by default, and another one for a variation (Re-rephrase)', async () => {
    const text = 'The committee met on Tuesday evening and agreed to move the spring fair to the school field.';
    const rewrite = async (variation?: number) => {
      const res = await owner.post(`/api/loras/${voice.id}/convert-stream`, {
        loraId: voice.id,
        text,
        ...(variation === undefined ? {} : { variation }),
      });
      expect(res.statusCode).toBe(200);
      return parseEvents(res.body)
        .map((e) => (e.type === 'chunk' ? e.text : e.type === 'chunk_reroll' ? '\u0000' : ''))
        .join('')
        .split('\u0000')
        .at(-1);
    };
    const plain = await rewrite();
    expect(await rewrite()).toBe(plain);
    const varied = await rewrite(1);
    expect(varied).not.toBe(plain);
    // A variation is a seed: the same one gives the same rewrite.
    expect(await rewrite(1)).toBe(varied);
    const bad = await owner.post(`/api/loras/${voice.id}/convert-stream`, { loraId: voice.id, text, variation: -1 });
    expect(bad.statusCode).toBe(400);
  });

  it('takes an API key with the convert scope as its owner, with no CSRF token, and writes the same', async () => {
    const text = 'The cake stall stays by the main door, next to the raffle, and the gates open at nine.';
    const written = (body: string) =>
      parseEvents(body)
        .map((e) => (e.type === 'chunk' ? e.text : e.type === 'chunk_reroll' ? '\u0000' : ''))
        .join('')
        .split('\u0000')
        .at(-1);
    const bySession = await convert(owner, voice.id, text);
    const made = await owner.createApiKey({ name: 'Script', scopes: ['convert'] });
    const { secret } = made.json() as { secret: string };
    const byKey = await ctx.app.inject({
      method: 'POST',
      url: `/api/loras/${voice.id}/convert-stream`,
      headers: { authorization: `Bearer ${secret}` },
      payload: { text },
    });
    expect(byKey.statusCode, byKey.body).toBe(200);
    expect(written(byKey.body)).toBe(written(bySession.body));
    // Another owner's key reaches only its own Voices.
    const stranger = ctx.client();
    await stranger.register();
    await stranger.patch('/api/auth/onboarding', { step: 'training_started' });
    const theirs = (await stranger.createApiKey({ name: 'Theirs', scopes: ['convert'] })).json();
    const refused = await ctx.app.inject({
      method: 'POST',
      url: `/api/loras/${voice.id}/convert-stream`,
      headers: { authorization: `Bearer ${theirs.secret}` },
      payload: { text },
    });
    expect(refused.statusCode).toBe(404);
  });

  it('refuses blank text, a sleeping Voice, someone else’s Voice and a missing CSRF token', async () => {
    const blank = await convert(owner, voice.id, ' \n\t ');
    expect(blank.statusCode).toBe(400);
    expect(blank.json().msg).toBe(CONVERT_MESSAGES.emptyText);

    const stranger = ctx.client();
    await stranger.register();
    await stranger.patch('/api/auth/onboarding', { step: 'training_started' });
    expect((await convert(stranger, voice.id, TEXT)).statusCode).toBe(404);

    const asleep = await quickVoice(ctx, ownerId, 'Asleep');
    const res = await convert(owner, asleep.id, TEXT);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VOICE_NOT_READY', msg: expect.stringMatching(/asleep/) });

    const noCsrf = await ctx.app.inject({
      method: 'POST',
      url: `/api/loras/${voice.id}/convert-stream`,
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { text: TEXT },
    });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().code).toMatch(/^CSRF_/);
  });

  it('runs several conversions at once without failing any', async () => {
    const results = await Promise.all([0, 1, 2].map(() => convert(owner, voice.id, TEXT.slice(0, 700))));
    for (const res of results) {
      expect(res.statusCode).toBe(200);
      expect(parseEvents(res.body).at(-1)).toEqual({ type: 'complete' });
    }
  });

  it('stops generating as soon as the client goes away', async () => {
    const endpoint = await embeddedEndpoint(ctx);
    const original = endpoint.complete.bind(endpoint);
    const calls: { signal?: AbortSignal; settled: boolean }[] = [];
    endpoint.complete = (prompt, options = {}) => {
      const call = { ...(options.signal ? { signal: options.signal } : {}), settled: false };
      calls.push(call);
      return original(prompt, options).finally(() => {
        call.settled = true;
      });
    };
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = ctx.app.server.address() as AddressInfo;
      // A plain node:http client: destroying its socket is exactly a browser tab going away, with
      // no fetch machinery of its own left to settle afterwards.
      // Plain prose: the first chunk event is then the model's own first words (markdown would
      // send its structure first, before any generation starts).
      const plain = TEXT.replace(/^(#+|-) /gm, '');
      const body = JSON.stringify({ text: `${plain}\n\n${plain}\n\n${plain}` });
      const headers = {
        ...(await owner.csrfHeaders()),
        authorization: `Bearer ${owner.token}`,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      };
      await new Promise<void>((resolve, reject) => {
        const request = http.request(
          { host: '127.0.0.1', port, method: 'POST', path: `/api/loras/${voice.id}/convert-stream`, headers },
          (response) => {
            let seen = '';
            response.on('data', (data: Buffer) => {
              seen += data.toString('utf8');
              if (seen.includes('"type":"chunk"')) {
                request.destroy();
                resolve();
              }
            });
            response.on('error', () => {});
            response.on('end', () => reject(new Error(`the stream ended before a chunk: ${seen}`)));
          },
        );
        request.on('error', () => {});
        request.end(body);
      });
      // Every generation started for this request ends, aborted, and no new one starts.
      await expect.poll(() => calls.every((c) => c.settled), { timeout: 20_000 }).toBe(true);
      const started = calls.length;
      expect(calls.every((c) => c.signal?.aborted)).toBe(true);
      await new Promise((r) => setTimeout(r, 500));
      expect(calls.length).toBe(started);
    } finally {
      endpoint.complete = original;
    }
  });
});

describe('rerolls', () => {
  const service = (judge: ConstructorParameters<typeof ConversionService>[3]['judge']) => {
    const { services, inference } = ctx.app.platform;
    return new ConversionService(services.activation, services.usage, inference, {
      maxAttempts: 3,
      preset: undefined,
      ...(judge ? { judge } : {}),
    });
  };
  const ownerRow = async () => (await ctx.database.db.select().from(users).where(eq(users.id, ownerId)))[0] as UserRow;
  const collect = async (s: ConversionService, text: string) => {
    const events: ConvertEvent[] = [];
    for await (const e of (await s.prepare({ user: await ownerRow(), apiKey: null }, voice.id, text)).events(
      new AbortController().signal,
    )) {
      events.push(e);
    }
    return events;
  };

  it('announces a rejected rewrite, resets the chunk and asks again', async () => {
    const tries = new Map<string, number>();
    const events = await collect(
      service((original) => {
        const n = (tries.get(original) ?? 0) + 1;
        tries.set(original, n);
        return n === 1 ? { ok: false, reason: 'it repeated itself' } : { ok: true };
      }),
      TEXT.slice(0, 500),
    );
    const rerolls = events.filter((e) => e.type === 'chunk_reroll');
    expect(rerolls.length).toBe(tries.size);
    expect(rerolls[0]).toEqual({ type: 'chunk_reroll', chunkIndex: 0, reason: 'it repeated itself' });
    // After the reroll, chunk 0 streams again before chunk 1 starts.
    const i = events.indexOf(rerolls[0] as ConvertEvent);
    expect(events[i + 1]).toMatchObject({ type: 'chunk', chunkIndex: 0 });
    expect(events.at(-1)).toEqual({ type: 'complete' });
  });

  it('gives up on a chunk after a bounded number of attempts, with an inline marker', async () => {
    // Every paragraph refused; the heading passes this judge (one the Voice could not rewrite
    // would keep its words, not fail the chunk: rewrite.ts), though the house model's rewrites of
    // it may be asked again for losing its words (judgeShortPiece).
    const tooLong = 'it was much longer than the original';
    const events = await collect(
      service((original) => (original.length < 40 ? { ok: true } : { ok: false, reason: tooLong })),
      TEXT.slice(0, 300),
    );
    const rerolls = events.filter((e) => e.type === 'chunk_reroll' && e.reason === tooLong);
    expect(rerolls).toHaveLength(3);
    const last = events.filter((e) => e.type === 'chunk').at(-1);
    expect(last).toEqual({
      type: 'chunk',
      chunkIndex: 0,
      text: `${CHUNK_ERROR_PREFIX} 1: it was much longer than the original]`,
    });
    expect(events.at(-1)).toEqual({ type: 'complete' });
  });
});

describe('POST /api/loras/:id/convert', () => {
  it('answers the whole text the stream ends with, in the layout, failed passages as written', async () => {
    const streamed = parseEvents((await convert(owner, voice.id, TEXT)).body);
    const first = streamed[0];
    if (first?.type !== 'chunk_positions') throw new Error(`first event was ${first?.type}`);
    const chunks: string[] = [];
    for (const e of streamed) {
      if (e.type === 'chunk') chunks[e.chunkIndex] = (chunks[e.chunkIndex] ?? '') + e.text;
      if (e.type === 'chunk_reroll') chunks[e.chunkIndex] = '';
    }
    const failed = first.chunkPositions.flatMap((_, i) => (isFailedRewrite(chunks[i] ?? '') ? [i] : []));
    const expected = stitch(
      first.chunkPositions.map((p, i) => (failed.includes(i) ? TEXT.slice(p.start, p.end) : (chunks[i] ?? '').trim())),
      separatorsOf(TEXT, first.chunkPositions),
    );

    const res = await owner.post(`/api/loras/${voice.id}/convert`, { text: TEXT });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      text: expected,
      passages: first.chunkPositions.length,
      passagesInVoice: first.chunkPositions.length - failed.length,
      failed,
    });
  });

  it('refuses an empty text and a Voice asleep, as the stream does', async () => {
    const empty = await owner.post(`/api/loras/${voice.id}/convert`, { text: '  ' });
    expect([empty.statusCode, empty.json().msg]).toEqual([400, CONVERT_MESSAGES.emptyText]);
    const sleeper = await copyVoice(ctx, ownerId, voice, 'Sleeper');
    const asleep = await owner.post(`/api/loras/${sleeper.id}/convert`, { text: TEXT });
    expect([asleep.statusCode, asleep.json().code]).toEqual([400, 'VOICE_NOT_READY']);
  });
});

describe('POST /api/loras/edit-chunk', () => {
  const proofreads = async (client: TestClient) =>
    (await client.get('/api/auth/me'))
      .json()
      .user.usageLimits.chunkEdits.reduce((n: number, t: { amount: number }) => n + t.amount, 0);

  it('returns the edited chunk and spends one proofread', async () => {
    const before = await proofreads(owner);
    const res = await owner.post('/api/loras/edit-chunk', {
      originalChunk: 'The fair raised four hundred pounds last year.',
      rephrasedChunk: 'Last year the fair made three hundred pounds, give or take.',
      chunkIndex: 0,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(typeof res.json().editedChunk).toBe('string');
    expect(res.json().editedChunk.length).toBeGreaterThan(0);
    expect(await proofreads(owner)).toBe(before - 1);
  });

  it("names the API key that spent a proofread in the owner's usage ledger", async () => {
    const created = await owner.createApiKey({ name: 'Editor plugin', scopes: ['convert'] });
    expect(created.statusCode, created.body).toBe(201);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/loras/edit-chunk',
      headers: { authorization: `Bearer ${created.json().secret}` },
      payload: { originalChunk: 'The gates open at nine.', rephrasedChunk: 'Gates open at nine sharp.', chunkIndex: 0 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const lines = (await owner.get('/api/plans/ledger')).json().entries as {
      resource: string;
      reason: string;
      amount: number;
      apiKeyName: string | null;
    }[];
    const spends = lines.filter((l) => l.resource === 'chunkEdits' && l.reason === 'usage');
    // The key's spend, and the one made in the pages (the test above); the test clock stands
    // still, so the two lines have the same time and either may come first.
    expect(spends.map((l) => [l.amount, l.apiKeyName])).toEqual(
      expect.arrayContaining([
        [-1, 'Editor plugin'],
        [-1, null],
      ]),
    );
    expect(spends).toHaveLength(2);
  });

  it('answers the insufficient-resource error when no proofreads are left, and checks its input', async () => {
    const client = ctx.client();
    const id = (await client.register()).res.json().user.id;
    await ctx.database.db.delete(usageTranches).where(eq(usageTranches.userId, id));
    await client.patch('/api/auth/onboarding', { step: 'training_started' });
    const res = await client.post('/api/loras/edit-chunk', { originalChunk: 'a', rephrasedChunk: 'b', chunkIndex: 0 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ reason: 'insufficient_limit', limitType: 'chunkEdits' });
    const bad = await owner.post('/api/loras/edit-chunk', { originalChunk: '', rephrasedChunk: 'b', chunkIndex: -1 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_ERROR');
  });
});
