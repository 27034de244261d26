// A Voice taken home and brought into another OwnVoice: the owner downloads a .zip holding the
// adapter as GGUF and PEFT, a manifest (the Voice's base model by SHA-256, training settings, the
// evaluation's figures without its quotes), a Modelfile and a README; nobody else may, nor the
// owner of a fork. A second server on an empty data folder imports it without training, and the
// imported Voice converts a text to exactly what the first one wrote; a package for another base
// model, a file that is not one, and a full set of storage slots are refused, leaving nothing.
// On PGlite only: two servers and a Voice each, and nothing here that a database engine decides
// (the slot check's transaction is the fork's, tested on both).
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { GgmlType, HOUSE_MODEL_PATH, readGguf, readTensor, TRAINING_PRESETS, writeGguf } from '@ownvoice/engine';
import {
  MAX_VOICE_PACKAGE_BYTES,
  VOICE_PACKAGE_FILES,
  VOICE_PACKAGE_MESSAGES,
  voicePackageManifestSchema,
} from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users, type VoiceRow, voices } from '../../db/schema.js';
import { ownerWithAwakeVoice } from '../../test/quick-voice.js';
import { createTestContext, type TestClient, type TestContext } from '../../test/test-app.js';

let first: TestContext;
let second: TestContext;
let owner: TestClient;
let voice: VoiceRow;
let zip: Buffer;

const TEXT = `The committee met on Tuesday evening in the library and agreed to move the spring fair to the school field.

Volunteers should arrive by eight to set up the tables and the bunting.`;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const importZip = (client: TestClient, data: Buffer) =>
  client.request('POST', '/api/loras/import', data, { 'content-type': 'application/zip' });

/** A Voice's row as the database holds it now. */
async function rowOf(ctx: TestContext, id: string): Promise<VoiceRow> {
  const [row] = await ctx.database.db.select().from(voices).where(eq(voices.id, id));
  return row as VoiceRow;
}

/** The manifest of the package `client` downloads of Voice `id`. */
async function downloadedManifest(client: TestClient, id: string) {
  const res = await client.get(`/api/loras/${id}/package`);
  expect(res.statusCode, res.body).toBe(200);
  const archive = await JSZip.loadAsync(res.rawPayload);
  const manifest = await (archive.file(VOICE_PACKAGE_FILES.manifest) as JSZip.JSZipObject).async('string');
  return voicePackageManifestSchema.parse(JSON.parse(manifest));
}

async function withManifest(data: Buffer, change: (manifest: Record<string, unknown>) => void): Promise<Buffer> {
  const archive = await JSZip.loadAsync(data);
  const manifest = JSON.parse(await (archive.file(VOICE_PACKAGE_FILES.manifest) as JSZip.JSZipObject).async('string'));
  change(manifest);
  archive.file(VOICE_PACKAGE_FILES.manifest, JSON.stringify(manifest));
  return archive.generateAsync({ type: 'nodebuffer' });
}

beforeAll(async () => {
  first = await createTestContext();
  let status: string;
  ({ owner, voice, status } = await ownerWithAwakeVoice(first));
  expect(status).toBe('active');
  second = await createTestContext();
  await second.app.platform.baseModel.start({ spec: 'tiny', dataDir: second.config.dataDir, log: () => {} });
}, 300_000);
afterAll(async () => {
  await first?.close();
  await second?.close();
});

describe('GET /api/loras/:id/package', () => {
  it('gives the owner a .zip with the adapter as GGUF and PEFT, a manifest, a Modelfile and a README', async () => {
    const res = await owner.get(`/api/loras/${voice.id}/package`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="Quick-ownvoice.zip"');
    zip = res.rawPayload;
    const archive = await JSZip.loadAsync(zip);
    expect(Object.keys(archive.files).sort()).toEqual(
      [
        'Modelfile',
        'README.md',
        'manifest.json',
        'peft/',
        'peft/adapter_config.json',
        'peft/adapter_model.safetensors',
        'voice.gguf',
      ].sort(),
    );
    const read = (name: string) => (archive.file(name) as JSZip.JSZipObject).async('nodebuffer');
    const manifest = voicePackageManifestSchema.parse(JSON.parse((await read('manifest.json')).toString()));
    // The Voice's own base model, as its training recorded it.
    expect(manifest.baseModel).toEqual({
      name: 'tiny',
      file: 'ownvoice-tiny.gguf',
      sha256: sha256(readFileSync(HOUSE_MODEL_PATH)),
      bytes: readFileSync(HOUSE_MODEL_PATH).length,
      huggingFace: null,
    });
    expect(manifest.training).toMatchObject({ rank: TRAINING_PRESETS.tiny.rank, alpha: TRAINING_PRESETS.tiny.alpha });
    expect(manifest.prompt).toContain('{text}');
    expect(manifest.voice.name).toBe('Quick');
    // When its training ended, not when the Voice was created.
    expect(manifest.voice.trainedAt).toBe(voice.trainedAt?.toISOString());
    // The adapter is the Voice's own file, byte for byte.
    const stored = readFileSync(first.app.platform.storage.localPath(voice.adapterKey as string));
    expect((await read('voice.gguf')).equals(stored)).toBe(true);
    const modelfile = (await read('Modelfile')).toString();
    expect(modelfile).toContain('ADAPTER ./voice.gguf');
    expect(modelfile).toContain('FROM ./ownvoice-tiny.gguf');
    expect(modelfile).toContain('{{ .Prompt }}');
    expect((await read('README.md')).toString()).toContain(manifest.baseModel.sha256);
  });

  it('of a Voice trained before its end was recorded says when its adapter was written', async () => {
    await first.database.db.update(voices).set({ trainedAt: null }).where(eq(voices.id, voice.id));
    try {
      const written = statSync(first.app.platform.storage.localPath(voice.adapterKey as string)).mtime;
      expect((await downloadedManifest(owner, voice.id)).voice.trainedAt).toBe(written.toISOString());
    } finally {
      await first.database.db.update(voices).set({ trainedAt: voice.trainedAt }).where(eq(voices.id, voice.id));
    }
  });

  it('is the owner’s alone: others get 404, a key without the training scope is refused, a fork’s owner 403', async () => {
    const other = first.client();
    await other.register();
    expect((await other.get(`/api/loras/${voice.id}/package`)).statusCode).toBe(404);

    // Only a key that may train takes a Voice's adapter away (decision 46).
    const packageBy = async (scopes: string[]) => {
      const key = (await owner.createApiKey({ name: `Tool ${scopes[0]}`, scopes })).json().secret;
      return first.app.inject({
        method: 'GET',
        url: `/api/loras/${voice.id}/package`,
        headers: { authorization: `Bearer ${key}` },
      });
    };
    const reader = await packageBy(['voices:read']);
    expect([reader.statusCode, reader.json().code]).toEqual([403, 'API_KEY_SCOPE']);
    expect((await packageBy(['training'])).statusCode).toBe(200);

    expect((await owner.patch(`/api/loras/${voice.id}`, { isPublic: true })).statusCode).toBe(200);
    await other.patch('/api/auth/onboarding', { step: 'training_started' });
    const fork = await other.post(`/api/loras/${voice.id}/fork`);
    expect(fork.statusCode, fork.body).toBe(201);
    // A fork is its source's adapter, trained when the source was.
    expect((await rowOf(first, fork.json()._id)).trainedAt).toEqual(voice.trainedAt);
    const refused = await other.get(`/api/loras/${fork.json()._id}/package`);
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'FORBIDDEN']);
    expect(refused.json().msg).toContain('stays in OwnVoice');
    await owner.patch(`/api/loras/${voice.id}`, { isPublic: false });
  });
});

describe('GET /api/loras/:id/merged-model', () => {
  const tmpFolders = () => readdirSync(path.join(first.config.dataDir, 'tmp')).filter((n) => n.startsWith('merge-'));

  it('gives the owner one GGUF model: the base with the adapter merged in, built in a folder removed after', async () => {
    const res = await owner.get(`/api/loras/${voice.id}/merged-model`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe('attachment; filename="Quick-ownvoice.gguf"');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    const dir = mkdtempSync(path.join(tmpdir(), 'ownvoice-merged-'));
    try {
      const file = path.join(dir, 'merged.gguf');
      writeFileSync(file, res.rawPayload);
      const [merged, base] = [readGguf(file), readGguf(HOUSE_MODEL_PATH)];
      expect(merged.kv.find((e) => e.key === 'general.name')?.value).toBe('Quick');
      expect(merged.tensors.map((t) => [t.name, t.dims])).toEqual(base.tensors.map((t) => [t.name, t.dims]));
      // The adapter's projections moved; what it does not touch is the base's as it was.
      const adapter = readGguf(first.app.platform.storage.localPath(voice.adapterKey as string));
      const targeted = new Set(adapter.tensors.map((t) => t.name.replace(/\.lora_[ab]$/, '')));
      const moved = (name: string) => {
        const [a, b] = [readTensor(file, merged, name), readTensor(HOUSE_MODEL_PATH, base, name)];
        return a.some((v, i) => Math.abs(v - (b[i] as number)) > 1e-3);
      };
      expect([...targeted].filter(moved)).toEqual([...targeted]);
      expect(base.tensors.filter((t) => !targeted.has(t.name) && moved(t.name))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await expect.poll(tmpFolders).toEqual([]);
  });

  it('is the owner’s alone, and only of a Voice on this server’s base model', async () => {
    const other = first.client();
    await other.register();
    expect((await other.get(`/api/loras/${voice.id}/merged-model`)).statusCode).toBe(404);
    const key = (await owner.createApiKey({ name: 'Reader', scopes: ['voices:read'] })).json().secret;
    const reader = await first.app.inject({
      method: 'GET',
      url: `/api/loras/${voice.id}/merged-model`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect([reader.statusCode, reader.json().code]).toEqual([403, 'API_KEY_SCOPE']);

    await first.database.db
      .update(voices)
      .set({ baseModelSha256: 'f'.repeat(64) })
      .where(eq(voices.id, voice.id));
    try {
      const refused = await owner.get(`/api/loras/${voice.id}/merged-model`);
      expect([refused.statusCode, refused.json().code]).toEqual([409, 'BASE_MODEL_MISMATCH']);
      expect(refused.json().msg).toContain('Download the Voice package instead');
    } finally {
      await first.database.db
        .update(voices)
        .set({ baseModelSha256: voice.baseModelSha256 })
        .where(eq(voices.id, voice.id));
    }
    expect(tmpFolders()).toEqual([]);
  });
});

describe('POST /api/loras/import', () => {
  it('makes a ready Voice on another server that converts exactly as the original does', async () => {
    const person = second.client();
    await person.register();
    const res = await importZip(person, zip);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Quick', status: 'ready', isPublic: false });
    // It keeps the package's base model (this server's too, by its SHA-256).
    expect(res.json().baseModel).toEqual({
      state: 'recorded',
      name: 'tiny',
      file: 'ownvoice-tiny.gguf',
      sha256: sha256(readFileSync(HOUSE_MODEL_PATH)),
      bytes: readFileSync(HOUSE_MODEL_PATH).length,
      onThisServer: 'same',
      serverModel: 'tiny',
    });
    const imported: string = res.json()._id;
    // Trained when the original was, whenever it was imported; its own package says so again.
    expect((await rowOf(second, imported)).trainedAt).toEqual(voice.trainedAt);
    expect((await downloadedManifest(person, imported)).voice.trainedAt).toBe(voice.trainedAt?.toISOString());
    expect((await person.post(`/api/loras/${imported}/activate`)).json().status).toBe('active');

    const there = await person.post(`/api/loras/${imported}/convert`, { text: TEXT });
    const here = await owner.post(`/api/loras/${voice.id}/convert`, { text: TEXT });
    expect(there.statusCode, there.body).toBe(200);
    expect(here.statusCode, here.body).toBe(200);
    expect(there.json()).toEqual(here.json());
    expect(there.json().passagesInVoice).toBeGreaterThan(0);
  });

  it('refuses a package for another base model, a file that is not one, and a full set of slots', async () => {
    const person = second.client();
    const id: string = (await person.register()).res.json().user.id;
    const voicesFolder = path.join(second.config.artifactDir, 'voices');
    const before = existsSync(voicesFolder) ? readdirSync(voicesFolder).length : 0;

    const other = await withManifest(zip, (m) => {
      (m.baseModel as { sha256: string }).sha256 = 'a'.repeat(64);
      (m.baseModel as { file: string }).file = 'SmolLM2-360M-Instruct-Q8_0.gguf';
    });
    const mismatch = await importZip(person, other);
    expect([mismatch.statusCode, mismatch.json().code]).toEqual([409, 'BASE_MODEL_MISMATCH']);
    expect(mismatch.json().msg).toContain('SmolLM2-360M-Instruct-Q8_0.gguf');
    expect(mismatch.json().msg).toContain('ownvoice-tiny.gguf');

    const notZip = await importZip(person, Buffer.from('just some text'));
    expect([notZip.statusCode, notZip.json().code]).toEqual([400, 'VOICE_PACKAGE_INVALID']);
    const archive = await JSZip.loadAsync(zip);
    archive.remove(VOICE_PACKAGE_FILES.gguf);
    const partial = await importZip(person, await archive.generateAsync({ type: 'nodebuffer' }));
    expect([partial.statusCode, partial.json().msg]).toEqual([400, expect.stringContaining('voice.gguf is missing')]);
    archive.file(VOICE_PACKAGE_FILES.gguf, Buffer.from('GGUF and then nothing a model can load'));
    const garbage = await importZip(person, await archive.generateAsync({ type: 'nodebuffer' }));
    expect([garbage.statusCode, garbage.json().msg]).toEqual([
      400,
      expect.stringContaining('does not fit the base model'),
    ]);
    const json = await person.post('/api/loras/import', { package: 'x' });
    expect(json.statusCode).toBe(415);

    await second.database.db.update(users).set({ modelStorageSlotsTotal: 0 }).where(eq(users.id, id));
    const full = await importZip(person, zip);
    expect([full.statusCode, full.json().limitType]).toEqual([400, 'storageSlots']);
    expect(existsSync(voicesFolder) ? readdirSync(voicesFolder).length : 0).toBe(before);
    expect((await person.get('/api/loras')).json()).toEqual([]);
  });
});

describe('POST /api/loras/import of a hostile package', () => {
  /** The downloaded package with `name` replaced, stored as a real package stores its adapters. */
  async function withEntry(name: string, content: Buffer | string): Promise<Buffer> {
    const archive = await JSZip.loadAsync(zip);
    archive.file(name, content, { compression: 'STORE' });
    return archive.generateAsync({ type: 'nodebuffer' });
  }
  const read = async (name: string) => (await JSZip.loadAsync(zip)).file(name)?.async('nodebuffer') as Promise<Buffer>;

  it('refuses an adapter retyped to crash inference, and the server’s files and Voices stay as they were', async () => {
    const person = second.client();
    await person.register();
    const dir = mkdtempSync(path.join(tmpdir(), 'ownvoice-hostile-'));
    const original = path.join(dir, 'voice.gguf');
    writeFileSync(original, await read(VOICE_PACKAGE_FILES.gguf));
    const g = readGguf(original);
    const raw = readFileSync(original);
    const retyped = path.join(dir, 'i32.gguf');
    writeGguf(
      retyped,
      g.kv,
      g.tensors.map((t) => ({
        ...t,
        type: GgmlType.I32,
        data: raw.subarray(g.dataOffset + t.offset, g.dataOffset + t.offset + t.dims.reduce((a, b) => a * b, 4)),
      })),
    );
    const res = await importZip(person, await withEntry(VOICE_PACKAGE_FILES.gguf, readFileSync(retyped)));
    expect([res.statusCode, res.json().code]).toEqual([400, 'VOICE_PACKAGE_INVALID']);
    expect(res.json().msg).toContain("is I32; a Voice's adapter holds F32 tensors");
    expect((await person.get('/api/loras')).json()).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a PEFT config that carries text of its own, and a count of writing past its column', async () => {
    const person = second.client();
    await person.register();
    const config = JSON.parse((await read(VOICE_PACKAGE_FILES.peftConfig)).toString());
    const injected = { ...config, base_model_name_or_path: config.base_model_name_or_path, r: '16; see README' };
    const bad = await importZip(person, await withEntry(VOICE_PACKAGE_FILES.peftConfig, JSON.stringify(injected)));
    expect([bad.statusCode, bad.json().msg]).toEqual([400, expect.stringContaining('adapter_config.json')]);

    const huge = await withManifest(zip, (m) => {
      (m.voice as { characters: number }).characters = 3_000_000_000;
    });
    const counted = await importZip(person, huge);
    expect([counted.statusCode, counted.json().code]).toEqual([400, 'VOICE_PACKAGE_INVALID']);
    expect((await person.get('/api/loras')).json()).toEqual([]);
  });

  it('refuses an archive of many entries and a deflate bomb, keeping no file of either', async () => {
    const person = second.client();
    await person.register();
    const tmp = path.join(second.config.dataDir, 'tmp');
    const many = new JSZip();
    for (let i = 0; i < 5_000; i++) many.file(`e${i}`, '');
    const manyRes = await importZip(person, await many.generateAsync({ type: 'nodebuffer' }));
    expect([manyRes.statusCode, manyRes.json().msg]).toEqual([400, expect.stringContaining('more than 16 files')]);

    // manifest.json declared as 200 bytes, deflating to 64 MiB of zeros.
    const archive = await JSZip.loadAsync(zip);
    archive.file(VOICE_PACKAGE_FILES.manifest, Buffer.alloc(200), { compression: 'DEFLATE' });
    const small = await archive.generateAsync({ type: 'nodebuffer' });
    const bomb = inflateBomb(small, VOICE_PACKAGE_FILES.manifest, deflateRawSync(Buffer.alloc(64 * 1024 * 1024)));
    const bombRes = await importZip(person, bomb);
    expect([bombRes.statusCode, bombRes.json().msg]).toEqual([
      400,
      expect.stringContaining('manifest.json is damaged'),
    ]);
    expect(existsSync(tmp) ? readdirSync(tmp).filter((f) => f.startsWith('package-')) : []).toEqual([]);
  });

  it('refuses a package larger than the limit from its declared length, before reading it', async () => {
    const person = second.client();
    await person.register();
    const res = await person.request('POST', '/api/loras/import', Buffer.alloc(16), {
      'content-type': 'application/zip',
      'content-length': String(MAX_VOICE_PACKAGE_BYTES + 1),
    });
    expect([res.statusCode, res.json().msg]).toEqual([413, VOICE_PACKAGE_MESSAGES.tooLarge]);
  });
});

/**
 * `data` with the entry `name`'s compressed bytes replaced by `bomb`, its declared (inflated) size
 * kept: what a zip directory says against what inflation gives.
 */
function inflateBomb(data: Buffer, name: string, bomb: Buffer): Buffer {
  const CENTRAL = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  let entry = -1;
  for (let p = data.indexOf(CENTRAL); p >= 0; p = data.indexOf(CENTRAL, p + 4)) {
    if (data.toString('utf8', p + 46, p + 46 + data.readUInt16LE(p + 28)) === name) entry = p;
  }
  const local = data.readUInt32LE(entry + 42);
  const start = local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28);
  const oldLength = data.readUInt32LE(entry + 20);
  const grow = bomb.length - oldLength;
  const out = Buffer.concat([data.subarray(0, start), bomb, data.subarray(start + oldLength)]);
  const shifted = (at: number) => (at > local ? at + grow : at);
  for (let p = out.indexOf(CENTRAL); p >= 0; p = out.indexOf(CENTRAL, p + 4)) {
    if (p === entry + grow) out.writeUInt32LE(bomb.length, p + 20);
    out.writeUInt32LE(shifted(out.readUInt32LE(p + 42)), p + 42);
  }
  const end = out.length - 22;
  out.writeUInt32LE(shifted(out.readUInt32LE(end + 16)), end + 16);
  return out;
}
