import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { voiceSchema } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users, type VoiceRow, voices } from '../../db/schema.js';
import { createVoice } from '../../test/factories/voices.js';
import { createTestContext, type TestClient, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let owner: TestClient;
let other: TestClient;
let ownerId: string;
let otherId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = ctx.client();
  other = ctx.client();
  ownerId = (await owner.register()).res.json().user.id;
  otherId = (await other.register()).res.json().user.id;
});
afterAll(() => ctx.close());

/** A Voice stored directly, with an adapter file in its folder. */
const addVoice = (userId: string, patch: Partial<VoiceRow> = {}) => createVoice(ctx, userId, patch);

const rowOf = async (id: string) => (await ctx.database.db.select().from(voices).where(eq(voices.id, id)))[0];

describe('/api/loras', () => {
  it('lists only your own Voices, and asks anonymous callers to log in', async () => {
    const mine = await addVoice(ownerId, { name: 'Mine' });
    await addVoice(otherId, { name: 'Theirs' });
    const res = await owner.get('/api/loras');
    expect(res.statusCode).toBe(200);
    const list = res.json().map((v: unknown) => voiceSchema.parse(v));
    expect(list.map((v: { _id: string }) => v._id)).toContain(mine.id);
    expect(list.every((v: { name: string }) => v.name !== 'Theirs')).toBe(true);
    expect((await ctx.client().get('/api/loras')).statusCode).toBe(401);
  });

  it("hides another user's private Voice (404) but shows a public one", async () => {
    const secret = await addVoice(ownerId, { isPublic: false });
    const shared = await addVoice(ownerId, { isPublic: true, name: 'Shared' });
    expect((await other.get(`/api/loras/${secret.id}`)).statusCode).toBe(404);
    expect((await other.get(`/api/loras/${shared.id}`)).json()).toMatchObject({ _id: shared.id, isPublic: true });
    const publicList = (await other.get('/api/loras/public')).json() as { _id: string }[];
    expect(publicList.map((v) => v._id)).toContain(shared.id);
    expect(publicList.map((v) => v._id)).not.toContain(secret.id);
  });

  it('lets only the owner rename, with the Voice name rules', async () => {
    const voice = await addVoice(ownerId, { isPublic: true });
    const renamed = await owner.patch(`/api/loras/${voice.id}`, { name: 'New name! #1' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('New name 1');
    expect((await owner.patch(`/api/loras/${voice.id}`, { name: '   ' })).json().msg).toBe(
      'Please enter a name for your Voice',
    );
    expect((await other.patch(`/api/loras/${voice.id}`, { name: 'Stolen' })).statusCode).toBe(403);
    expect((await rowOf(voice.id))?.name).toBe('New name 1');
  });

  it('publishes only trained Voices, and unpublishes any', async () => {
    const training = await addVoice(ownerId, { status: 'training', progress: 40 });
    const res = await owner.patch(`/api/loras/${training.id}`, { isPublic: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VOICE_NOT_READY');
    const ready = await addVoice(ownerId);
    expect((await owner.patch(`/api/loras/${ready.id}`, { isPublic: true })).json().isPublic).toBe(true);
    expect((await owner.patch(`/api/loras/${ready.id}`, { isPublic: false })).json().isPublic).toBe(false);
  });

  it('deletes a Voice with its files, for the owner only', async () => {
    const voice = await addVoice(ownerId);
    const folder = path.join(ctx.config.dataDir, 'voices', voice.id);
    expect((await other.request('DELETE', `/api/loras/${voice.id}`)).statusCode).toBe(404);
    expect(existsSync(folder)).toBe(true);
    expect((await owner.request('DELETE', `/api/loras/${voice.id}`)).json()).toEqual({ ok: true });
    expect(await rowOf(voice.id)).toBeUndefined();
    expect(existsSync(folder)).toBe(false);
    expect((await owner.get(`/api/loras/${voice.id}`)).statusCode).toBe(404);
  });

  it('forks a public trained Voice into a private copy with its files, when a storage slot is free', async () => {
    const source = await addVoice(ownerId, { isPublic: true, name: 'Public essays' });
    // Every slot taken: the fork is refused with the purchase-modal error.
    await ctx.database.db.update(users).set({ modelStorageSlotsTotal: 1 }).where(eq(users.id, otherId));
    const refused = await other.post(`/api/loras/${source.id}/fork`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ reason: 'insufficient_limit', limitType: 'storageSlots' });

    await ctx.database.db.update(users).set({ modelStorageSlotsTotal: 5 }).where(eq(users.id, otherId));
    const slotsUsed = async () => (await other.get('/api/auth/me')).json().user.usageLimits.modelStorageSlotsUsed;
    const usedBefore = await slotsUsed();
    const res = await other.post(`/api/loras/${source.id}/fork`);
    expect(res.statusCode).toBe(201);
    const fork = res.json();
    expect(fork).toMatchObject({ name: 'Public essays', isPublic: false, status: 'ready' });
    expect((await rowOf(fork._id))?.userId).toBe(otherId);
    expect(existsSync(path.join(ctx.config.dataDir, 'voices', fork._id, 'voice-v1.gguf'))).toBe(true);
    expect(await slotsUsed()).toBe(usedBefore + 1);
  });

  it('refuses to fork a private Voice of someone else (404) or an untrained one', async () => {
    const secret = await addVoice(ownerId);
    expect((await other.post(`/api/loras/${secret.id}/fork`)).statusCode).toBe(404);
    const training = await addVoice(otherId, { status: 'training' });
    expect((await other.post(`/api/loras/${training.id}/fork`)).json().code).toBe('VOICE_NOT_READY');
  });

  it('answers malformed ids and bodies with 400', async () => {
    expect((await owner.get('/api/loras/not-an-id')).statusCode).toBe(400);
    const voice = await addVoice(ownerId);
    expect((await owner.patch(`/api/loras/${voice.id}`, {})).statusCode).toBe(400);
    expect((await owner.patch(`/api/loras/${voice.id}`, { isPublic: 'yes' })).statusCode).toBe(400);
    expect((await owner.patch(`/api/loras/${voice.id}`, { name: 'x', status: 'active' })).statusCode).toBe(400);
  });

  it('keeps the owner’s training text (evaluation samples) from everyone else and from forks', async () => {
    const secret = 'A passage from my private diary that trained this Voice.';
    const evaluation = {
      heldOut: { baseLoss: 2, voiceLoss: 1, basePerplexity: 7, voicePerplexity: 3, examples: 4 },
      style: { voiceDelta: 0.1, baseDelta: 0.3, voiceSimilarity: 0.8, baseSimilarity: 0.5, samples: 1 },
      samples: [{ generic: 'Generic text.', voice: 'Rewritten text.', original: secret }],
    };
    const source = await addVoice(ownerId, { isPublic: true, evaluation });
    // Laid out as a training leaves it: the adapter, its PEFT export, and the evaluation file.
    const adapterDir = path.join(ctx.config.dataDir, 'voices', source.id, 'adapter');
    mkdirSync(path.join(adapterDir, 'peft'), { recursive: true });
    writeFileSync(path.join(adapterDir, 'voice-v1.gguf'), 'adapter bytes');
    writeFileSync(path.join(adapterDir, 'peft', 'adapter_model.safetensors'), 'weights');
    writeFileSync(path.join(adapterDir, 'evaluation.json'), JSON.stringify(evaluation));
    await ctx.database.db
      .update(voices)
      .set({ adapterKey: `voices/${source.id}/adapter/voice-v1.gguf` })
      .where(eq(voices.id, source.id));
    expect((await owner.get(`/api/loras/${source.id}`)).json().evaluation.samples[0].original).toBe(secret);
    expect((await owner.get('/api/loras/public')).body).toContain(secret);

    const publicList = await other.get('/api/loras/public');
    expect(publicList.json().map((v: { _id: string }) => v._id)).toContain(source.id);
    expect(publicList.body).not.toContain(secret);
    const view = (await other.get(`/api/loras/${source.id}`)).json();
    expect(view.evaluation).toMatchObject({ heldOut: evaluation.heldOut, samples: [] });
    await ctx.database.db.update(users).set({ modelStorageSlotsTotal: 100 }).where(eq(users.id, otherId));
    const fork = await other.post(`/api/loras/${source.id}/fork`);
    expect(fork.statusCode).toBe(201);
    expect(fork.body).not.toContain(secret);
    expect(JSON.stringify((await rowOf(fork.json()._id))?.evaluation)).not.toContain(secret);
    expect((await other.get(`/api/loras/${fork.json()._id}`)).body).not.toContain(secret);
    // Its folder holds the adapter and the PEFT export, and nothing of the writing.
    const forkFolder = path.join(ctx.config.dataDir, 'voices', fork.json()._id);
    const files = readdirSync(forkFolder, { recursive: true, encoding: 'utf8' }).sort();
    expect(files).toEqual([
      'adapter',
      'adapter/peft',
      'adapter/peft/adapter_model.safetensors',
      'adapter/voice-v1.gguf',
    ]);
    expect((await rowOf(fork.json()._id))?.adapterKey).toBe(`voices/${fork.json()._id}/adapter/voice-v1.gguf`);
  });

  it('takes the source’s evaluation out of forks made before forks took only the adapter', async () => {
    const source = await addVoice(ownerId, { isPublic: true });
    const older = await addVoice(otherId, { forkedFromId: source.id });
    const copied = path.join(ctx.config.dataDir, 'voices', older.id, 'evaluation.json');
    writeFileSync(copied, '{"samples":[{"original":"the source owner’s diary"}]}');
    await ctx.app.platform.services.voices.tidyForks();
    expect(existsSync(copied)).toBe(false);
    expect(existsSync(path.join(ctx.config.dataDir, 'voices', older.id, 'voice-v1.gguf'))).toBe(true);
    expect(existsSync(path.join(ctx.config.dataDir, 'voices', source.id, 'voice-v1.gguf'))).toBe(true);
  });

  it('lets concurrent forks take only the free storage slots', async () => {
    const forker = ctx.client();
    const forkerId = (await forker.register()).res.json().user.id as string;
    await ctx.database.db.update(users).set({ modelStorageSlotsTotal: 3 }).where(eq(users.id, forkerId));
    const source = await addVoice(ownerId, { isPublic: true });
    const results = await Promise.all(Array.from({ length: 10 }, () => forker.post(`/api/loras/${source.id}/fork`)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 400, 400, 400, 400, 400, 400, 400]);
    for (const r of results.filter((x) => x.statusCode === 400)) expect(r.json().limitType).toBe('storageSlots');
    const owned = await ctx.database.db.select().from(voices).where(eq(voices.userId, forkerId));
    expect(owned).toHaveLength(3);
  });

  it('never leaves a fork without files, a 500 or an orphan folder when the source is deleted meanwhile', async () => {
    await ctx.database.db.update(users).set({ modelStorageSlotsTotal: 1000 }).where(eq(users.id, otherId));
    const voicesDir = path.join(ctx.config.dataDir, 'voices');
    for (let round = 0; round < 30; round++) {
      const source = await addVoice(ownerId, { isPublic: true });
      // Files that take a moment to copy, and the delete started at varying moments of the fork.
      for (let i = 0; i < 8; i++)
        writeFileSync(path.join(voicesDir, source.id, `part-${i}.bin`), Buffer.alloc(256 * 1024));
      const [fork, deleted] = await Promise.all([
        other.post(`/api/loras/${source.id}/fork`),
        new Promise((resolve) => setTimeout(resolve, round % 6)).then(() =>
          owner.request('DELETE', `/api/loras/${source.id}`),
        ),
      ]);
      expect(deleted.statusCode).toBe(200);
      expect([201, 404], fork.body).toContain(fork.statusCode);
      if (fork.statusCode === 201) {
        expect(existsSync(path.join(voicesDir, fork.json()._id, 'voice-v1.gguf'))).toBe(true);
      } else {
        expect(fork.json()).toMatchObject({ code: 'NOT_FOUND', msg: 'Voice not found' });
      }
    }
    const rows = new Set((await ctx.database.db.select({ id: voices.id }).from(voices)).map((r) => r.id));
    expect(readdirSync(voicesDir).filter((folder) => !rows.has(folder))).toEqual([]);
  });
});
