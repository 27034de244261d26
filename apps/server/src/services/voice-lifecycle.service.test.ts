// A Voice's life and what it costs, on a real database and the house model, without HTTP:
// creating one takes a training and a storage slot (or names everything it lacks, spending
// nothing); cancelling its training gives the training back; waking needs waking hours, and an
// awake Voice is charged by the minute, put to sleep when its hours run out or after its idle
// time. The ledger explains every balance at the end of each. routes/loras/ keeps what HTTP adds.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, type UserRow, type VoiceRow } from '../db/schema.js';
import { AppError } from '../errors.js';
import { expectLedgerExplainsBalances } from '../test/account-state.js';
import { createStorageSlots, createTranche } from '../test/factories/usage.js';
import { createUser } from '../test/factories/users.js';
import { copyVoice, quickVoice } from '../test/quick-voice.js';
import { openServiceTestContext, refusal, type ServiceTestContext } from '../test/service-context.js';
import { SLEEP_MESSAGES } from './activation.service.js';

let ctx: ServiceTestContext;
let trained: VoiceRow;
const IDLE_MINUTES = 30;
const MINUTE = 60_000;

beforeAll(async () => {
  ctx = await openServiceTestContext({ voiceIdleMinutes: IDLE_MINUTES });
  const trainer = await createUser(ctx, { onboardingStep: 'training_started' });
  trained = await quickVoice(ctx, trainer.id);
}, 300_000);
afterAll(() => ctx.close());

/** A person with `minutes` of waking hours and a copy of the trained Voice, asleep. */
async function sleeperOf(minutes: number): Promise<{ user: UserRow; voice: VoiceRow }> {
  const user = await createUser(ctx, { onboardingStep: 'training_started' });
  if (minutes > 0) await createTranche(ctx, user.id, { type: 'activationHours', amount: minutes });
  return { user, voice: await copyVoice(ctx, user.id, trained) };
}
const remaining = (userId: string, resource: 'activationHours' | 'modelsTrained') =>
  ctx.services.usage.remaining(userId, resource);
const statusOf = async (user: UserRow, id: string) => ctx.services.voices.get(user, id);

/** A pasted text long enough to train on, in an empty upload folder. */
function upload() {
  const dir = mkdtempSync(path.join(tmpdir(), 'ownvoice-upload-'));
  const pastedText = 'Some of my own writing, long enough to learn from. '.repeat(500);
  return { dir, input: { name: 'Evening essays', pastedText, characters: pastedText.length } };
}

describe('creating a Voice', () => {
  it('takes a training and a storage slot', async () => {
    const user = await createUser(ctx, { onboardingStep: 'trial_ready' });
    await createTranche(ctx, user.id, { type: 'modelsTrained', amount: 2 });
    await createStorageSlots(ctx, user.id, 1);
    const { dir, input } = upload();
    const voice = await ctx.services.voiceCreation.create(user, input, dir, []);
    expect(voice.status).toBe('pending');
    expect(await remaining(user.id, 'modelsTrained')).toBe(1);
    expect((await ctx.reload(user.id)).onboardingStep).toBe('training_started');
    await expectLedgerExplainsBalances(ctx, user.id);
  });

  it('names both a full storage and a missing training at once, spending nothing', async () => {
    const user = await createUser(ctx);
    const { dir, input } = upload();
    let refused: unknown;
    await ctx.services.voiceCreation.create(user, input, dir, []).catch((error: unknown) => {
      refused = error;
    });
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).toBody()).toMatchObject({
      code: 'INSUFFICIENT_LIMIT',
      limitType: 'storageSlots',
      limitTypes: ['storageSlots', 'modelsTrained'],
    });
    expect(await ctx.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, user.id))).toEqual([]);
  });

  it('gives the training back when its training is cancelled', async () => {
    const user = await createUser(ctx, { onboardingStep: 'trial_ready' });
    await createTranche(ctx, user.id, { type: 'modelsTrained', amount: 1 });
    await createStorageSlots(ctx, user.id, 1);
    const { dir, input } = upload();
    const voice = await ctx.services.voiceCreation.create(user, input, dir, []);
    expect(await remaining(user.id, 'modelsTrained')).toBe(0);
    const cancelled = await ctx.services.trainingControl.cancel(user, voice._id);
    expect(cancelled).toMatchObject({ status: 'failed', statusMessage: 'Training was cancelled.' });
    expect(await remaining(user.id, 'modelsTrained')).toBe(1);
    await expectLedgerExplainsBalances(ctx, user.id);
  });
});

describe('waking and sleeping', () => {
  it('refuses a wake without waking hours, charging nothing', async () => {
    const { user, voice } = await sleeperOf(0);
    expect(await refusal(ctx.services.activation.activate(user, voice.id))).toBe('INSUFFICIENT_LIMIT');
    expect((await statusOf(user, voice.id)).status).toBe('ready');
  });

  it('charges an awake Voice by the minute, and the started minute when it goes to sleep', async () => {
    const { user, voice } = await sleeperOf(600);
    expect((await ctx.services.activation.activate(user, voice.id)).status).toBe('active');
    ctx.clock.advance(10 * MINUTE + 20_000);
    await ctx.services.activation.touch(voice.id);
    await ctx.services.activation.tick();
    expect(await remaining(user.id, 'activationHours')).toBe(590);
    expect((await ctx.services.activation.deactivate(user, voice.id)).status).toBe('ready');
    expect(await remaining(user.id, 'activationHours')).toBe(589);
    await expectLedgerExplainsBalances(ctx, user.id);
  });

  it('puts a Voice to sleep when its hours run out, spending what was left', async () => {
    const { user, voice } = await sleeperOf(5);
    await ctx.services.activation.activate(user, voice.id);
    ctx.clock.advance(8 * MINUTE);
    await ctx.services.activation.touch(voice.id);
    await ctx.services.activation.tick();
    const asleep = await statusOf(user, voice.id);
    expect(asleep).toMatchObject({ status: 'ready', statusMessage: SLEEP_MESSAGES.hoursRanOut(false) });
    expect(await remaining(user.id, 'activationHours')).toBe(0);
    await expectLedgerExplainsBalances(ctx, user.id);
  });

  it('puts a Voice to sleep after its idle time without use', async () => {
    const { user, voice } = await sleeperOf(600);
    await ctx.services.activation.activate(user, voice.id);
    ctx.clock.advance((IDLE_MINUTES - 1) * MINUTE);
    await ctx.services.activation.tick();
    expect((await statusOf(user, voice.id)).status).toBe('active');
    ctx.clock.advance(2 * MINUTE);
    await ctx.services.activation.tick();
    expect(await statusOf(user, voice.id)).toMatchObject({
      status: 'ready',
      statusMessage: SLEEP_MESSAGES.idle(IDLE_MINUTES),
    });
  });
});
