// A Voice belongs to the base model it was trained on (decision 31). A server restarted on another
// model (here the house model's file with one byte changed) refuses to wake a Voice trained on
// the first, with 409 BASE_MODEL_MISMATCH naming both models and what to do, charging nothing;
// a Voice awake before such a restart goes to sleep, free, saying why. The Voice's API answer
// shows its base and whether this server runs it; a fork carries its source's; its package names
// its own base, not the server's. A Voice trained before bases were recorded is unknown: it
// wakes, unless its adapter's own files name another model file.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HOUSE_MODEL_PATH } from '@ownvoice/engine';
import { VOICE_PACKAGE_FILES, voicePackageManifestSchema, voiceSchema } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, usageTranches, type VoiceRow, voices } from '../../db/schema.js';
import type { BaseModelIdentity } from '../../engine/base-model.service.js';
import { recordedBase } from '../../services/voice-base-model.js';
import { createVoice } from '../../test/factories/voices.js';
import { createTestContext, type TestClient, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let owner: TestClient;
let ownerId: string;
let tiny: BaseModelIdentity;
/** A folder holding ownvoice-tiny.gguf with its last byte changed: another model, by its SHA-256. */
let changedDir: string;

const startOn = (spec: string) =>
  ctx.app.platform.baseModel.start({ spec, dataDir: ctx.config.dataDir, log: () => {} });

const rowOf = async (id: string): Promise<VoiceRow> => {
  const [row] = await ctx.database.db.select().from(voices).where(eq(voices.id, id));
  if (!row) throw new Error(`no Voice ${id}`);
  return row;
};
/** The owner's waking hours spent: their next wake stops at the hours check, past every check before it. */
const spendHours = (userId: string) =>
  ctx.database.db.update(usageTranches).set({ amount: 0 }).where(eq(usageTranches.userId, userId));
const ledgerOf = async (userId: string) =>
  (await ctx.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, userId))).length;

/** A Voice of `userId` stored directly, with a GGUF adapter and a PEFT export beside it naming `peftBase`. */
async function voiceWithFiles(userId: string, patch: Partial<VoiceRow>, peftBase = 'ownvoice-tiny'): Promise<VoiceRow> {
  const voice = await createVoice(ctx, userId, patch);
  const peft = path.join(ctx.config.dataDir, 'voices', voice.id, 'peft');
  mkdirSync(peft, { recursive: true });
  writeFileSync(
    path.join(peft, 'adapter_config.json'),
    JSON.stringify({ base_model_name_or_path: peftBase, r: 4, lora_alpha: 8, target_modules: ['q_proj', 'v_proj'] }),
  );
  writeFileSync(path.join(peft, 'adapter_model.safetensors'), 'weights');
  return voice;
}

beforeAll(async () => {
  ctx = await createTestContext();
  owner = ctx.client();
  ownerId = (await owner.register()).res.json().user.id;
  await startOn('tiny');
  tiny = await ctx.app.platform.baseModel.identity();
  changedDir = mkdtempSync(path.join(tmpdir(), 'ownvoice-changed-model-'));
  const changed = path.join(changedDir, 'ownvoice-tiny.gguf');
  copyFileSync(HOUSE_MODEL_PATH, changed);
  const bytes = readFileSync(changed);
  bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
  writeFileSync(changed, bytes);
});
afterAll(async () => {
  await ctx?.close();
  if (changedDir) rmSync(changedDir, { recursive: true, force: true });
});

describe('a Voice and the base model it was trained on', () => {
  it('shows its base in the API, and whether this server runs it', async () => {
    const voice = await voiceWithFiles(ownerId, recordedBase(tiny));
    const res = await owner.get(`/api/loras/${voice.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(voiceSchema.parse(res.json()).baseModel).toEqual({
      state: 'recorded',
      name: 'tiny',
      file: 'ownvoice-tiny.gguf',
      sha256: tiny.sha256,
      bytes: readFileSync(HOUSE_MODEL_PATH).length,
      onThisServer: 'same',
      serverModel: 'tiny',
    });
    const listed = (await owner.get('/api/loras')).json().find((v: { _id: string }) => v._id === voice.id);
    expect(listed.baseModel.onThisServer).toBe('same');
    // A Voice whose training has not started has none yet.
    const pending = await createVoice(ctx, ownerId, { status: 'pending', progress: 0, adapterKey: null });
    expect((await owner.get(`/api/loras/${pending.id}`)).json().baseModel).toBeNull();
  });

  it('refuses to wake it on a server restarted on another model, says what to do, and charges nothing', async () => {
    const voice = await voiceWithFiles(ownerId, recordedBase(tiny));
    const ledgerBefore = await ledgerOf(ownerId);
    const minutesBefore = (await owner.get('/api/auth/me')).json().user.usageLimits.activationHours;
    await startOn(path.join(changedDir, 'ownvoice-tiny.gguf'));
    try {
      const res = await owner.post(`/api/loras/${voice.id}/activate`);
      expect([res.statusCode, res.json().code]).toEqual([409, 'BASE_MODEL_MISMATCH']);
      const { msg } = res.json();
      expect(msg).toContain(`tiny (ownvoice-tiny.gguf, SHA-256 ${tiny.sha256.slice(0, 12)}…)`);
      expect(msg).toContain('this OwnVoice runs ownvoice-tiny.gguf (SHA-256');
      expect(msg).toContain('create it again from your writing');
      expect(msg).toContain('run OwnVoice on tiny');
      expect(msg).toContain('nothing was charged');

      const row = await rowOf(voice.id);
      expect([row.status, row.meteredUntil, row.inferenceEndpoint]).toEqual(['ready', null, null]);
      expect(await ledgerOf(ownerId)).toBe(ledgerBefore);
      expect((await owner.get('/api/auth/me')).json().user.usageLimits.activationHours).toEqual(minutesBefore);

      const view = voiceSchema.parse((await owner.get(`/api/loras/${voice.id}`)).json());
      expect(view.baseModel).toMatchObject({ state: 'recorded', name: 'tiny', onThisServer: 'other' });
      expect(view.baseModel?.serverModel).toBe('ownvoice-tiny.gguf');
    } finally {
      await startOn('tiny');
    }
    // Back on its own model it wakes past the base check (to the hours check here: none left).
    await spendHours(ownerId);
    const noHours = await owner.post(`/api/loras/${voice.id}/activate`);
    expect([noHours.statusCode, noHours.json().limitType]).toEqual([400, 'activationHours']);
  });

  it('puts a Voice awake before a restart on another model to sleep, free, with the reason on its card', async () => {
    const sleeper = ctx.client();
    const sleeperId: string = (await sleeper.register()).res.json().user.id;
    const awakeSince = new Date(ctx.clock.now().getTime() - 30 * 60_000);
    const voice = await voiceWithFiles(sleeperId, {
      ...recordedBase(tiny),
      status: 'active',
      meteredUntil: awakeSince,
      lastUsedAt: awakeSince,
      inferenceEndpoint: 'embedded',
    });
    const ledgerBefore = await ledgerOf(sleeperId);
    await startOn(path.join(changedDir, 'ownvoice-tiny.gguf'));
    try {
      await ctx.app.platform.services.activation.restore();
      const row = await rowOf(voice.id);
      expect([row.status, row.meteredUntil, row.inferenceEndpoint]).toEqual(['ready', null, null]);
      expect(row.statusMessage).toContain('This Voice was trained on the base model tiny');
      expect(await ledgerOf(sleeperId)).toBe(ledgerBefore);
    } finally {
      await startOn('tiny');
    }
  });

  it('gives a fork its source’s base model', async () => {
    const author = ctx.client();
    const authorId: string = (await author.register()).res.json().user.id;
    const other = { ...tiny, name: 'smollm2-135m', file: 'SmolLM2-135M-Instruct-Q8_0.gguf', sha256: 'c'.repeat(64) };
    const source = await voiceWithFiles(authorId, { ...recordedBase(other), isPublic: true });
    const forker = ctx.client();
    await forker.register();
    await forker.patch('/api/auth/onboarding', { step: 'training_started' });
    const fork = await forker.post(`/api/loras/${source.id}/fork`);
    expect(fork.statusCode, fork.body).toBe(201);
    expect(fork.json().baseModel).toMatchObject({
      state: 'recorded',
      name: 'smollm2-135m',
      sha256: 'c'.repeat(64),
      onThisServer: 'other',
    });
    const refused = await forker.post(`/api/loras/${fork.json()._id}/activate`);
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'BASE_MODEL_MISMATCH']);
    expect(refused.json().msg).toContain('run OwnVoice on smollm2-135m');
  });

  it('packages a Voice with its own base model, not the one this server runs now', async () => {
    const other = {
      name: 'hf:someone/Some-Model-GGUF:Q8_0',
      file: 'Some-Model-Q8_0.gguf',
      sha256: 'd'.repeat(64),
      bytes: 123_456_789,
    };
    const voice = await voiceWithFiles(ownerId, recordedBase(other));
    const res = await owner.get(`/api/loras/${voice.id}/package`);
    expect(res.statusCode, res.body).toBe(200);
    const archive = await JSZip.loadAsync(res.rawPayload);
    const manifest = voicePackageManifestSchema.parse(
      JSON.parse(await (archive.file(VOICE_PACKAGE_FILES.manifest) as JSZip.JSZipObject).async('string')),
    );
    expect(manifest.baseModel).toEqual({ ...other, huggingFace: 'hf:someone/Some-Model-GGUF:Q8_0' });
    const modelfile = await (archive.file(VOICE_PACKAGE_FILES.modelfile) as JSZip.JSZipObject).async('string');
    expect(modelfile).toContain('FROM hf.co/someone/Some-Model-GGUF:Q8_0');
  });
});

describe('a Voice trained before base models were recorded', () => {
  it('wakes with a warning when nothing says it was another model, and is packaged on this server’s', async () => {
    const voice = await voiceWithFiles(ownerId, { baseModelState: 'unknown' });
    await ctx.app.platform.services.voices.recallBaseModels();
    const view = voiceSchema.parse((await owner.get(`/api/loras/${voice.id}`)).json());
    expect(view.baseModel).toMatchObject({
      state: 'unknown',
      name: null,
      file: 'ownvoice-tiny.gguf',
      sha256: null,
      onThisServer: 'unknown',
      serverModel: 'tiny',
    });
    // Past the base check, to the hours check (the owner has none left by now).
    await spendHours(ownerId);
    const wake = await owner.post(`/api/loras/${voice.id}/activate`);
    expect([wake.statusCode, wake.json().limitType]).toEqual([400, 'activationHours']);

    const pkg = await owner.get(`/api/loras/${voice.id}/package`);
    expect(pkg.statusCode, pkg.body).toBe(200);
    const archive = await JSZip.loadAsync(pkg.rawPayload);
    const manifest = JSON.parse(
      await (archive.file(VOICE_PACKAGE_FILES.manifest) as JSZip.JSZipObject).async('string'),
    );
    expect(manifest.baseModel).toMatchObject({ name: 'tiny', file: 'ownvoice-tiny.gguf', sha256: tiny.sha256 });
  });

  it('refuses to wake it, naming the file, when its adapter’s files name another model', async () => {
    const voice = await voiceWithFiles(ownerId, { baseModelState: 'unknown' }, 'SmolLM2-360M-Instruct-Q8_0');
    expect((await owner.get(`/api/loras/${voice.id}`)).json().baseModel.file).toBeNull();
    await ctx.app.platform.services.voices.recallBaseModels();
    expect((await rowOf(voice.id)).baseModelFile).toBe('SmolLM2-360M-Instruct-Q8_0.gguf');
    expect((await owner.get(`/api/loras/${voice.id}`)).json().baseModel).toMatchObject({
      state: 'unknown',
      file: 'SmolLM2-360M-Instruct-Q8_0.gguf',
      onThisServer: 'other',
    });
    const wake = await owner.post(`/api/loras/${voice.id}/activate`);
    expect([wake.statusCode, wake.json().code]).toEqual([409, 'BASE_MODEL_MISMATCH']);
    expect(wake.json().msg).toContain('a model file named SmolLM2-360M-Instruct-Q8_0.gguf');
    const pkg = await owner.get(`/api/loras/${voice.id}/package`);
    expect([pkg.statusCode, pkg.json().code]).toEqual([409, 'BASE_MODEL_MISMATCH']);
  });
});
