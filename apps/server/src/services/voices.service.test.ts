// The rules of Voices on a real database, without HTTP: who sees which Voice, publishing only a
// trained one, deleting with its files, forking into a private copy under the storage-slot rule
// (ten at once too), the owner's training text kept from everyone else and from forks, and a
// fork racing its source's delete. Rows come from test/factories, the services as the app
// composes them (test/service-context.ts); routes/loras/loras.test.ts keeps what HTTP adds.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type UserRow, type VoiceRow, voices } from '../db/schema.js';
import type { AppError } from '../errors.js';
import { createUser } from '../test/factories/users.js';
import { createVoice } from '../test/factories/voices.js';
import { openServiceTestContext, refusal, type ServiceTestContext } from '../test/service-context.js';
import type { VoicesService } from './voices.service.js';

let ctx: ServiceTestContext;
let service: VoicesService;
let owner: UserRow;
let other: UserRow;

beforeAll(async () => {
  ctx = await openServiceTestContext();
  service = ctx.services.voices;
  owner = await createUser(ctx, { modelStorageSlotsTotal: 1000 });
  other = await createUser(ctx, { modelStorageSlotsTotal: 1000 });
});
afterAll(() => ctx.close());

const addVoice = (userId: string, patch: Partial<VoiceRow> = {}) => createVoice(ctx, userId, patch);
const rowOf = async (id: string) => (await ctx.database.db.select().from(voices).where(eq(voices.id, id)))[0];
const voicesDir = () => path.join(ctx.config.dataDir, 'voices');
const person = (slots: number) => createUser(ctx, { modelStorageSlotsTotal: slots });

describe('who sees which Voice', () => {
  it('lists a person’s own Voices, and others’ only when public', async () => {
    const mine = await addVoice(owner.id, { name: 'Mine' });
    const shared = await addVoice(other.id, { name: 'Shared', isPublic: true });
    const hidden = await addVoice(other.id, { name: 'Hidden' });
    const own = await service.listOwn(owner);
    expect(own.map((v) => v._id)).toContain(mine.id);
    expect(own.every((v) => v.isOwner && v.ownerName === owner.username)).toBe(true);
    const publicIds = (await service.listPublic(owner)).map((v) => v._id);
    expect(publicIds).toContain(shared.id);
    expect(publicIds).not.toContain(hidden.id);
    expect((await service.get(owner, shared.id)).isOwner).toBe(false);
    expect(await refusal(service.get(owner, hidden.id))).toBe('NOT_FOUND');
  });
});

describe('changing a Voice', () => {
  it('publishes only a trained Voice, unpublishes any, and only for its owner', async () => {
    const training = await addVoice(owner.id, { status: 'training', progress: 40 });
    expect(await refusal(service.update(owner, training.id, { isPublic: true }))).toBe('VOICE_NOT_READY');
    expect((await service.update(owner, training.id, { isPublic: false })).isPublic).toBe(false);
    const ready = await addVoice(owner.id, { isPublic: true });
    expect(await refusal(service.update(other, ready.id, { name: 'Stolen' }))).toBe('FORBIDDEN');
    expect((await service.update(owner, ready.id, { name: 'Renamed', isPublic: false })).isPublic).toBe(false);
    expect(await rowOf(ready.id)).toMatchObject({ name: 'Renamed', isPublic: false });
  });

  it('deletes a Voice with its files, for its owner only', async () => {
    const voice = await addVoice(owner.id);
    const folder = path.join(voicesDir(), voice.id);
    expect(await refusal(service.delete(other, voice.id))).toBe('NOT_FOUND');
    expect(existsSync(folder)).toBe(true);
    await service.delete(owner, voice.id);
    expect(await rowOf(voice.id)).toBeUndefined();
    expect(existsSync(folder)).toBe(false);
  });
});

describe('forking', () => {
  it('copies a public trained Voice into a private one of the forker’s, taking a free storage slot', async () => {
    const source = await addVoice(owner.id, { isPublic: true, name: 'Public essays' });
    const forker = await person(1);
    const fork = await service.fork(forker, source.id);
    expect(fork).toMatchObject({ name: 'Public essays', isPublic: false, status: 'ready', isOwner: true });
    expect(await rowOf(fork._id)).toMatchObject({ userId: forker.id, forkedFromId: source.id });
    expect(existsSync(path.join(voicesDir(), fork._id, 'voice-v1.gguf'))).toBe(true);
    // Its one slot is taken now: refused, and no folder is left of the attempt.
    const folders = readdirSync(voicesDir()).length;
    expect(await refusal(service.fork(forker, source.id))).toBe('INSUFFICIENT_LIMIT');
    expect(readdirSync(voicesDir())).toHaveLength(folders);
  });

  it('refuses another person’s private Voice as unknown, and an untrained one', async () => {
    expect(await refusal(service.fork(other, (await addVoice(owner.id)).id))).toBe('NOT_FOUND');
    const training = await addVoice(owner.id, { status: 'training', isPublic: true });
    expect(await refusal(service.fork(other, training.id))).toBe('VOICE_NOT_READY');
  });

  it('lets ten forks at once take only the free storage slots', async () => {
    const source = await addVoice(owner.id, { isPublic: true });
    const forker = await person(3);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => service.fork(forker, source.id)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    for (const r of results) {
      if (r.status === 'rejected') expect((r.reason as AppError).code).toBe('INSUFFICIENT_LIMIT');
    }
    expect(await ctx.database.db.select().from(voices).where(eq(voices.userId, forker.id))).toHaveLength(3);
  });

  it('keeps the owner’s training text from everyone else and from forks', async () => {
    const secret = 'A passage from my private diary that trained this Voice.';
    const evaluation = {
      heldOut: { baseLoss: 2, voiceLoss: 1, basePerplexity: 7, voicePerplexity: 3, examples: 4 },
      style: { voiceDelta: 0.1, baseDelta: 0.3, voiceSimilarity: 0.8, baseSimilarity: 0.5, samples: 1 },
      samples: [{ generic: 'Generic text.', voice: 'Rewritten text.', original: secret }],
    };
    const source = await addVoice(owner.id, { isPublic: true, evaluation });
    // Laid out as a training leaves it: the adapter, its PEFT export, and the evaluation file.
    const adapterDir = path.join(voicesDir(), source.id, 'adapter');
    mkdirSync(path.join(adapterDir, 'peft'), { recursive: true });
    writeFileSync(path.join(adapterDir, 'voice-v1.gguf'), 'adapter bytes');
    writeFileSync(path.join(adapterDir, 'peft', 'adapter_model.safetensors'), 'weights');
    writeFileSync(path.join(adapterDir, 'evaluation.json'), JSON.stringify(evaluation));
    await ctx.database.db
      .update(voices)
      .set({ adapterKey: `voices/${source.id}/adapter/voice-v1.gguf` })
      .where(eq(voices.id, source.id));

    expect((await service.get(owner, source.id)).evaluation?.samples[0]?.original).toBe(secret);
    expect((await service.get(other, source.id)).evaluation).toMatchObject({
      heldOut: evaluation.heldOut,
      samples: [],
    });
    expect(JSON.stringify(await service.listPublic(other))).not.toContain(secret);
    const fork = await service.fork(other, source.id);
    expect(JSON.stringify(fork)).not.toContain(secret);
    expect(JSON.stringify((await rowOf(fork._id))?.evaluation)).not.toContain(secret);
    // Its folder holds the adapter and the PEFT export, and nothing of the writing.
    expect(readdirSync(path.join(voicesDir(), fork._id), { recursive: true, encoding: 'utf8' }).sort()).toEqual([
      'adapter',
      'adapter/peft',
      'adapter/peft/adapter_model.safetensors',
      'adapter/voice-v1.gguf',
    ]);
  });

  it('takes the source’s evaluation out of forks made before forks took only the adapter', async () => {
    const source = await addVoice(owner.id, { isPublic: true });
    const older = await addVoice(other.id, { forkedFromId: source.id });
    const copied = path.join(voicesDir(), older.id, 'evaluation.json');
    writeFileSync(copied, '{"samples":[{"original":"the source owner’s diary"}]}');
    await service.tidyForks();
    expect(existsSync(copied)).toBe(false);
    expect(existsSync(path.join(voicesDir(), older.id, 'voice-v1.gguf'))).toBe(true);
    expect(existsSync(path.join(voicesDir(), source.id, 'voice-v1.gguf'))).toBe(true);
  });

  it('never leaves a fork without files or an orphan folder when its source is deleted meanwhile', async () => {
    for (let round = 0; round < 30; round++) {
      const source = await addVoice(owner.id, { isPublic: true });
      // Files that take a moment to copy, and the delete started at varying moments of the fork.
      for (let i = 0; i < 8; i++) {
        writeFileSync(path.join(voicesDir(), source.id, `part-${i}.bin`), Buffer.alloc(256 * 1024));
      }
      const [fork] = await Promise.allSettled([
        service.fork(other, source.id),
        new Promise((resolve) => setTimeout(resolve, round % 6)).then(() => service.delete(owner, source.id)),
      ]);
      if (fork.status === 'fulfilled') {
        expect(existsSync(path.join(voicesDir(), fork.value._id, 'voice-v1.gguf'))).toBe(true);
      } else {
        expect((fork.reason as AppError).code).toBe('NOT_FOUND');
      }
    }
    const rows = new Set((await ctx.database.db.select({ id: voices.id }).from(voices)).map((r) => r.id));
    expect(readdirSync(voicesDir()).filter((folder) => !rows.has(folder))).toEqual([]);
  });
});
