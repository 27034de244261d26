// Convert and its edit pass on a real database and a real model (the house model, a quick Voice
// trained in seconds), without HTTP: a sleeping or another person's Voice is refused before
// anything streams; an awake one writes every passage of the text and is marked used; the edit
// pass spends one proofread into the ledger, refuses without one and spends nothing then, and
// gives it back when the model cannot answer. The streams' wire format and the status codes are
// routes/loras/convert.test.ts's.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, type UserRow, type VoiceRow, voices } from '../db/schema.js';
import { expectLedgerExplainsBalances } from '../test/account-state.js';
import { createTranche } from '../test/factories/usage.js';
import { createUser } from '../test/factories/users.js';
import { quickVoice } from '../test/quick-voice.js';
import { openServiceTestContext, refusal, type ServiceTestContext } from '../test/service-context.js';
import type { Caller } from './sessions.service.js';

let ctx: ServiceTestContext;
let owner: UserRow;
let voice: VoiceRow;

const TEXT = `The committee met on Tuesday evening in the library and agreed to move the spring fair to the school field.

Volunteers should arrive by eight to set up the tables and the bunting.`;

const caller = (user: UserRow): Caller => ({ user, apiKey: null });
const chunkEditLines = async (userId: string) =>
  (await ctx.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, userId))).filter(
    (line) => line.resource === 'chunkEdits' && line.reason !== 'admin',
  );

beforeAll(async () => {
  ctx = await openServiceTestContext();
  owner = await createUser(ctx, { onboardingStep: 'training_started' });
  await createTranche(ctx, owner.id, { type: 'activationHours', amount: 600 });
  voice = await quickVoice(ctx, owner.id);
}, 300_000);
afterAll(() => ctx.close());

describe('Convert', () => {
  it('refuses a sleeping Voice, and another person’s as unknown, before anything streams', async () => {
    expect(await refusal(ctx.services.conversion.prepare(caller(owner), voice.id, TEXT))).toBe('VOICE_NOT_READY');
    const stranger = await createUser(ctx, { onboardingStep: 'training_started' });
    expect(await refusal(ctx.services.conversion.prepare(caller(stranger), voice.id, TEXT))).toBe('NOT_FOUND');
  });

  it('writes every passage of the text in an awake Voice, and marks the Voice used', async () => {
    expect((await ctx.services.activation.activate(owner, voice.id)).status).toBe('active');
    const usedBefore = await lastUsed();
    ctx.clock.advance(60_000);
    const prepared = await ctx.services.conversion.prepare(caller(owner), voice.id, TEXT);
    const types: string[] = [];
    for await (const event of prepared.events(new AbortController().signal)) types.push(event.type);
    expect(types.at(-1)).toBe('complete');
    expect(types.filter((t) => t === 'chunk').length).toBeGreaterThanOrEqual(2);
    expect(types).not.toContain('error');
    expect((await lastUsed())?.getTime()).toBeGreaterThan(usedBefore?.getTime() ?? 0);
  });
});

describe('the edit pass', () => {
  const original = 'The fair moves to the school field on Friday.';
  const rewritten = 'On Friday the fair goes over to the school field.';

  it('spends one proofread into the ledger for an answer', async () => {
    const editor = await createUser(ctx, { onboardingStep: 'training_started' });
    await createTranche(ctx, editor.id, { type: 'chunkEdits', amount: 2 });
    const edited = await ctx.services.conversion.editChunk(caller(editor), original, rewritten);
    expect(edited.trim().length).toBeGreaterThan(0);
    expect((await chunkEditLines(editor.id)).map((line) => [line.reason, line.amount])).toEqual([['usage', -1]]);
    await expectLedgerExplainsBalances(ctx, editor.id);
  });

  it('refuses without a proofread left, spending nothing', async () => {
    const editor = await createUser(ctx, { onboardingStep: 'training_started' });
    expect(await refusal(ctx.services.conversion.editChunk(caller(editor), original, rewritten))).toBe(
      'INSUFFICIENT_LIMIT',
    );
    expect(await chunkEditLines(editor.id)).toEqual([]);
  });

  it('gives the proofread back when the model cannot answer', async () => {
    const editor = await createUser(ctx, { onboardingStep: 'training_started' });
    await createTranche(ctx, editor.id, { type: 'chunkEdits', amount: 1 });
    // Far past the model's context: the server answers an error after the proofread was taken.
    const huge = `${rewritten} `.repeat(4_000);
    expect(await refusal(ctx.services.conversion.editChunk(caller(editor), original, huge))).not.toBe('not refused');
    const lines = (await chunkEditLines(editor.id)).map((line) => [line.reason, line.amount]);
    expect(lines.sort()).toEqual([
      ['refund', 1],
      ['usage', -1],
    ]);
    await expectLedgerExplainsBalances(ctx, editor.id);
  });
});

async function lastUsed(): Promise<Date | null> {
  const [row] = await ctx.database.db
    .select({ at: voices.lastUsedAt })
    .from(voices)
    .where(and(eq(voices.id, voice.id), eq(voices.userId, owner.id)));
  return row?.at ?? null;
}
