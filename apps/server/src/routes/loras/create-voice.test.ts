// POST /api/loras and /api/loras/count-characters: every Create Voice rule (shared validation/voice.ts), the
// resource checks, and that a rejected upload leaves no Voice, no files and nothing spent.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { MAX_FILE_BYTES, VOICE_MESSAGES, voiceSchema } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users, voices } from '../../db/schema.js';
import { makeDocx, makePdf } from '../../test/documents.js';
import { createTestContext, type MultipartForm, type TestClient, type TestContext } from '../../test/test-app.js';
import { writingSample } from '../../test/writing.js';

let ctx: TestContext;
const text = writingSample(21_000);

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function newUser(): Promise<{ client: TestClient; id: string }> {
  const client = ctx.client();
  const { res } = await client.register();
  return { client, id: res.json().user.id };
}

const tmpLeftovers = () => {
  const dir = path.join(ctx.config.dataDir, 'tmp');
  return existsSync(dir) ? readdirSync(dir) : [];
};
const voiceFolders = () => {
  const dir = path.join(ctx.config.artifactDir, 'voices');
  return existsSync(dir) ? readdirSync(dir) : [];
};

async function expectRejected(client: TestClient, form: MultipartForm, status: number, msg: string | RegExp) {
  const before = voiceFolders().length;
  const res = await client.upload('/api/loras', form);
  expect(res.statusCode, res.body).toBe(status);
  if (typeof msg === 'string') expect(res.json().msg).toBe(msg);
  else expect(res.json().msg).toMatch(msg);
  expect(tmpLeftovers()).toEqual([]);
  expect(voiceFolders().length).toBe(before);
  return res;
}

describe('POST /api/loras', () => {
  it('creates a pending Voice from pasted text and files, spends a training and a slot, and queues the job', async () => {
    const { client } = await newUser();
    const docx = await makeDocx(writingSample(6000, 0.5));
    const pdf = await makePdf(writingSample(6000, 0.6));
    const res = await client.upload('/api/loras', {
      fields: { name: 'My Essays!', text: text.slice(0, 10_000) },
      files: [
        { name: 'letters.docx', data: docx },
        { name: 'talk.pdf', data: pdf },
        { name: 'notes.md', data: `# Notes\n\n${writingSample(3000, 0.7)}` },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const voice = voiceSchema.parse(res.json());
    expect(voice).toMatchObject({ name: 'My Essays', status: 'pending', progress: 0, isPublic: false, isOwner: true });
    expect(voice.characters).toBeGreaterThan(20_000);
    expect(voice.pipeline_id).toMatch(/^[0-9a-f-]{36}$/);

    const me = (await client.get('/api/auth/me')).json().user;
    expect(me.usageLimits.modelsTrained.reduce((n: number, t: { amount: number }) => n + t.amount, 0)).toBe(2);
    expect(me.usageLimits.modelStorageSlotsUsed).toBe(1);
    // A Voice in training is the onboarding step "training started".
    expect(me.onboarding.step).toBe('training_started');
    expect((await client.get('/api/loras')).json().map((v: { _id: string }) => v._id)).toEqual([voice._id]);

    // The upload moved into the Voice's folder with the names the person gave.
    const uploads = path.join(ctx.config.artifactDir, 'voices', voice._id, 'uploads');
    expect(readdirSync(uploads).sort()).toEqual(['000.docx', '001.pdf', '002.md', 'manifest.json', 'pasted.txt']);
    expect(tmpLeftovers()).toEqual([]);
    // The job is in the queue under the Voice's pipeline id.
    const queue = await ctx.app.platform.jobs.get();
    expect(await queue.state(voice.pipeline_id as string)).toBe('created');
  });

  it('counts characters on the extracted text, not the file size', async () => {
    const { client } = await newUser();
    // A docx is a zip: its bytes say nothing about its characters. 15,000 + 4,000 < 20,000.
    const docx = await makeDocx(writingSample(15_000, 0.4));
    const res = await expectRejected(
      client,
      { fields: { name: 'Short', text: writingSample(4000, 0.8) }, files: [{ name: 'a.docx', data: docx }] },
      400,
      /^Training requires at least 20,000 characters\. You currently have 1\d,\d{3} characters\.$/,
    );
    expect(res.json().code).toBe('VALIDATION_ERROR');
  });

  it('says how many characters there are when there are too few', async () => {
    const { client } = await newUser();
    await expectRejected(
      client,
      { fields: { name: 'Tiny', text: 'a'.repeat(1234) } },
      400,
      VOICE_MESSAGES.tooFewChars(1234),
    );
  });

  it('requires a name, and keeps only letters, digits, spaces, _ and - of it', async () => {
    const { client } = await newUser();
    await expectRejected(client, { fields: { text } }, 400, VOICE_MESSAGES.nameRequired);
    await expectRejected(client, { fields: { name: '  !!  ', text } }, 400, VOICE_MESSAGES.nameRequired);
    const res = await client.upload('/api/loras', { fields: { name: 'a\u0000b<script>_c-d', text } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().name).toBe('abscript_c-d');
  });

  it('names every file of a type it does not take', async () => {
    const { client } = await newUser();
    await expectRejected(
      client,
      {
        fields: { name: 'Types', text },
        files: [
          { name: 'ok.txt', data: 'fine' },
          { name: 'photo.png', data: 'png' },
          { name: 'sheet.xlsx', data: 'xlsx' },
        ],
      },
      400,
      VOICE_MESSAGES.invalidTypes(['photo.png', 'sheet.xlsx']),
    );
  });

  it('names every file over 10 MB', async () => {
    const { client } = await newUser();
    await expectRejected(
      client,
      {
        fields: { name: 'Big', text },
        files: [
          { name: 'big.txt', data: Buffer.alloc(MAX_FILE_BYTES + 1, 'a') },
          { name: 'ok.txt', data: 'fine' },
        ],
      },
      400,
      VOICE_MESSAGES.tooLarge(['big.txt']),
    );
  });

  it('stops reading past 50 MB in all with 413', async () => {
    const { client } = await newUser();
    const nine = Buffer.alloc(9 * 1024 * 1024, 'a');
    const files = Array.from({ length: 6 }, (_, i) => ({ name: `part${i}.txt`, data: nine }));
    const res = await expectRejected(client, { fields: { name: 'Huge', text }, files }, 413, /50 MB/);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('rejects files holding NUL characters, and files it cannot read', async () => {
    const { client } = await newUser();
    await expectRejected(
      client,
      { fields: { name: 'Nul', text }, files: [{ name: 'utf16.txt', data: Buffer.from('h\u0000i\u0000', 'latin1') }] },
      400,
      VOICE_MESSAGES.badEncoding(['utf16.txt']),
    );
    await expectRejected(
      client,
      { fields: { name: 'Broken', text }, files: [{ name: 'broken.pdf', data: 'this is not a pdf' }] },
      400,
      VOICE_MESSAGES.readError,
    );
  });

  it('takes pasted text up to 2,000,000 characters, NUL removed', async () => {
    const { client } = await newUser();
    await expectRejected(
      client,
      { fields: { name: 'Long', text: 'a'.repeat(2_000_001) } },
      400,
      VOICE_MESSAGES.pastedTooLong,
    );
  });

  it('lists every refused field as a refused JSON body does', async () => {
    const { client } = await newUser();
    const res = await expectRejected(
      client,
      { fields: { name: '  !!  ', text: 'a'.repeat(2_000_001) } },
      400,
      VOICE_MESSAGES.nameRequired,
    );
    expect(res.json()).toEqual({
      msg: VOICE_MESSAGES.nameRequired,
      code: 'VALIDATION_ERROR',
      errors: [
        { msg: VOICE_MESSAGES.nameRequired, path: 'name' },
        { msg: VOICE_MESSAGES.pastedTooLong, path: 'text' },
      ],
    });
    // The same name in a JSON body (renaming a Voice) is refused with the same entry.
    const renamed = await client.patch(`/api/loras/${'0'.repeat(24)}`, { name: '  !!  ' });
    expect(renamed.json()).toEqual({
      msg: VOICE_MESSAGES.nameRequired,
      code: 'VALIDATION_ERROR',
      errors: [{ msg: VOICE_MESSAGES.nameRequired, path: 'name' }],
    });
  });

  it('answers a body that is not multipart with 415', async () => {
    const { client } = await newUser();
    const res = await client.post('/api/loras', { name: 'Json', text });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('needs a training and a free storage slot, and spends neither on a refusal', async () => {
    const noTraining = await newUser();
    await ctx.database.db.delete(voices).where(eq(voices.userId, noTraining.id));
    const { usageTranches } = await import('../../db/schema.js');
    await ctx.database.db.delete(usageTranches).where(eq(usageTranches.userId, noTraining.id));
    const res = await expectRejected(noTraining.client, { fields: { name: 'None', text } }, 400, /trainable voices/i);
    expect(res.json()).toMatchObject({ reason: 'insufficient_limit', limitType: 'modelsTrained' });

    const noSlot = await newUser();
    await ctx.database.db.update(users).set({ modelStorageSlotsTotal: 0 }).where(eq(users.id, noSlot.id));
    const slotRes = await expectRejected(noSlot.client, { fields: { name: 'None', text } }, 400, /storage slots/i);
    expect(slotRes.json()).toMatchObject({ reason: 'insufficient_limit', limitType: 'storageSlots' });
    const me = (await noSlot.client.get('/api/auth/me')).json().user;
    expect(me.usageLimits.modelsTrained.reduce((n: number, t: { amount: number }) => n + t.amount, 0)).toBe(3);
    expect(slotRes.json().limitTypes).toBeUndefined();

    // Short of both: the answer names both, so one purchase can cover them.
    const neither = await newUser();
    await ctx.database.db.update(users).set({ modelStorageSlotsTotal: 0 }).where(eq(users.id, neither.id));
    await ctx.database.db.delete(usageTranches).where(eq(usageTranches.userId, neither.id));
    const both = await expectRejected(neither.client, { fields: { name: 'None', text } }, 400, /storage slots and no/i);
    expect(both.json()).toMatchObject({
      reason: 'insufficient_limit',
      limitType: 'storageSlots',
      limitTypes: ['storageSlots', 'modelsTrained'],
    });
  });

  it('lets only one of two simultaneous uploads (as many as an account may send) take the last training', async () => {
    const { client, id } = await newUser();
    const { usageTranches } = await import('../../db/schema.js');
    await ctx.database.db.update(usageTranches).set({ amount: 1 }).where(eq(usageTranches.userId, id));
    const results = await Promise.all(
      Array.from({ length: 2 }, (_, i) => client.upload('/api/loras', { fields: { name: `Race ${i}`, text } })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400]);
    expect((await client.get('/api/loras')).json()).toHaveLength(1);
  });
});

describe('POST /api/loras/count-characters', () => {
  it('counts the characters the server will train on, per file', async () => {
    const { client } = await newUser();
    const sample = writingSample(3000, 0.5);
    const res = await client.upload('/api/loras/count-characters', {
      files: [{ field: 'file', name: 'chapter.docx', data: await makeDocx(sample) }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().name).toBe('chapter.docx');
    // Paragraph breaks are normalised; the count is the text's, give or take its whitespace.
    expect(Math.abs(res.json().characters - sample.length)).toBeLessThan(sample.length * 0.05);
    expect(tmpLeftovers()).toEqual([]);
  });

  it('answers unreadable and unaccepted files with the upload messages', async () => {
    const { client } = await newUser();
    const nul = await client.upload('/api/loras/count-characters', {
      files: [{ field: 'file', name: 'x.txt', data: Buffer.from([104, 0, 105]) }],
    });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().msg).toBe(VOICE_MESSAGES.badEncoding(['x.txt']));
    const png = await client.upload('/api/loras/count-characters', {
      files: [{ field: 'file', name: 'x.png', data: 'png' }],
    });
    expect(png.statusCode).toBe(400);
    expect(png.json().msg).toBe(VOICE_MESSAGES.invalidTypes(['x.png']));
    const none = await client.upload('/api/loras/count-characters', { fields: { a: 'b' } });
    expect(none.statusCode).toBe(400);
    expect(tmpLeftovers()).toEqual([]);
  });
});
