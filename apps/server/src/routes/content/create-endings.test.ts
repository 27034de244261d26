// Every way a Quick Create can end follows one rule (decision 37): its short content is charged
// only when some of its rewrite came out in the Voice, and given back in the ledger otherwise;
// the stream's last event says which. Here: the Voice put to sleep before and during the
// rewrite, and a stream cut by a timeout (a stalled reader) after the draft. The client hanging
// up is in quick-create-charging.test.ts, the inference process restarting in
// loras/inference-faults.test.ts.
import { type CreateEvent, isFailedRewrite } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type UserRow, users, type VoiceRow } from '../../db/schema.js';
import { shortContentLeft } from '../../test/account-state.js';
import { ownerWithAwakeVoice } from '../../test/quick-voice.js';
import { openStream, rewriteChunksOf, streamEvents } from '../../test/streams.js';
import { createTestContext, encodeMultipart, type TestClient, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let owner: TestClient;
let ownerId: string;
let voice: VoiceRow;

beforeAll(async () => {
  ctx = await createTestContext();
  let status: string;
  ({ owner, ownerId, voice, status } = await ownerWithAwakeVoice(ctx));
  expect(status).toBe('active');
}, 300_000);
afterAll(() => ctx.close());
beforeEach(async () => {
  expect((await owner.post(`/api/loras/${voice.id}/activate`)).json().status).toBe('active');
});

/** How many short-content spends and refunds the owner's ledger holds. */
async function shortContentLines(): Promise<{ used: number; givenBack: number }> {
  const entries = (await owner.get('/api/plans/ledger')).json().entries as { resource: string; reason: string }[];
  const mine = entries.filter((e) => e.resource === 'shortContent');
  return {
    used: mine.filter((e) => e.reason === 'usage').length,
    givenBack: mine.filter((e) => e.reason === 'refund').length,
  };
}

async function generate() {
  const { payload, contentType } = encodeMultipart({
    fields: { prompt: 'A long essay on the history of our town’s river', format: 'article', selectedLora: voice.id },
  });
  return openStream(ctx, owner, '/api/content/generate-stream', { body: payload, contentType });
}

describe('the Voice put to sleep during a Quick Create', () => {
  it('before any rewrite came out: the draft is shown, nothing is charged, and the ledger gives it back', async () => {
    const [before, lines] = [await shortContentLeft(owner), await shortContentLines()];
    const stream = await generate();
    await stream.seen('"type":"generation_start"');
    expect((await owner.post(`/api/loras/${voice.id}/deactivate`)).statusCode).toBe(200);
    const body = await stream.done;
    const events = streamEvents(body);
    expect(events.some((e) => e.type === 'content_chunk')).toBe(true);
    expect(rewriteChunksOf(body).some((t) => !isFailedRewrite(t))).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'VOICE_NOT_READY', charged: 0 });
    await expect.poll(() => shortContentLeft(owner)).toBe(before);
    expect(await shortContentLines()).toEqual({ used: lines.used + 1, givenBack: lines.givenBack + 1 });
  }, 120_000);

  it('once some of the rewrite came out in the Voice: one short content is charged, and the last event says so', async () => {
    let before = 0;
    let lines = { used: 0, givenBack: 0 };
    let events: ReturnType<typeof streamEvents> = [];
    // On a busy machine the rewrite may finish before the sleep lands, or the sleep may cut the
    // chunk short so that its attempt is rejected and cleared (chunk_reroll): then nothing stayed
    // in the Voice and the Create is not this case, so the Voice is woken and it is tried again.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      [before, lines] = [await shortContentLeft(owner), await shortContentLines()];
      const stream = await generate();
      await expect
        .poll(() => rewriteChunksOf(stream.body()).some((t) => !isFailedRewrite(t)), {
          timeout: 60_000,
          interval: 20,
        })
        .toBe(true);
      expect((await owner.post(`/api/loras/${voice.id}/deactivate`)).statusCode).toBe(200);
      const body = await stream.done;
      events = streamEvents(body);
      const keptInVoice = rewriteChunksOf(body).some((t) => !isFailedRewrite(t));
      if (events.at(-1)?.type !== 'complete' && keptInVoice) break;
      // The same rule either way: what the page was left with decides the charge.
      expect(events.at(-1)).toMatchObject({ charged: keptInVoice ? 1 : 0 });
      expect((await owner.post(`/api/loras/${voice.id}/activate`)).json().status).toBe('active');
    }
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'VOICE_NOT_READY', charged: 1 });
    expect(await shortContentLeft(owner)).toBe(before - 1);
    expect(await shortContentLines()).toEqual({ used: lines.used + 1, givenBack: lines.givenBack });
  }, 120_000);
});

describe('a Quick Create cut by a timeout', () => {
  it('after the draft, before any rewrite: given back', async () => {
    const { content } = ctx.app.platform.services;
    const user = (await ctx.database.db.select().from(users).where(eq(users.id, ownerId)))[0] as UserRow;
    const [before, lines] = [await shortContentLeft(owner), await shortContentLines()];
    const prepared = await content.prepareQuick(
      { user, apiKey: null },
      { voiceId: voice.id, prompt: 'A short note about the spring fair', format: 'blog_post', reference: undefined },
    );
    // As the stream cuts a reader who stopped reading: the producer's signal aborts with a reason.
    const controller = new AbortController();
    const events: CreateEvent[] = [];
    await expect(
      (async () => {
        for await (const event of prepared.events(controller.signal)) {
          events.push(event);
          if (event.type === 'generation_complete') controller.abort(new Error('the reader stalled'));
        }
      })(),
    ).rejects.toThrow();
    expect(events.some((e) => e.type === 'generation_complete')).toBe(true);
    expect(await shortContentLeft(owner)).toBe(before);
    expect(await shortContentLines()).toEqual({ used: lines.used + 1, givenBack: lines.givenBack + 1 });
    expect(prepared.charged()).toBe(0);
  }, 120_000);
});
