// Taking a Voice home and bringing it back, on a real database and the house model, without HTTP:
// the owner's package names the Voice's base model and training; nobody else's download works,
// nor a fork's owner's; a package imported by another person becomes a ready Voice of theirs in a
// storage slot, and with every slot taken it is refused, leaving no Voice and no folder, even
// when several imports race for the last slot. Two servers, streams and status codes are
// routes/loras/voice-package.pglite.test.ts's.
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { VOICE_PACKAGE_FILES, voicePackageManifestSchema } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type UserRow, type VoiceRow, voices } from '../db/schema.js';
import { createStorageSlots } from '../test/factories/usage.js';
import { createUser } from '../test/factories/users.js';
import { quickVoice } from '../test/quick-voice.js';
import { openServiceTestContext, refusal, type ServiceTestContext } from '../test/service-context.js';

let ctx: ServiceTestContext;
let owner: UserRow;
let voice: VoiceRow;
let zip: Buffer;

beforeAll(async () => {
  ctx = await openServiceTestContext();
  owner = await createUser(ctx, { onboardingStep: 'training_started' });
  voice = await quickVoice(ctx, owner.id, 'Evening essays');
  zip = (await ctx.services.voicePackages.download(owner, voice.id)).data;
}, 300_000);
afterAll(() => ctx.close());

/** The package as a received upload: a file of its bytes. */
function received(data: Buffer) {
  const file = path.join(ctx.config.dataDir, `received-${Math.random().toString(36).slice(2)}.zip`);
  writeFileSync(file, data);
  return { file, bytes: data.length };
}
const voiceFolders = () => readdirSync(path.join(ctx.config.artifactDir, 'voices')).length;
const voicesOf = async (userId: string) => ctx.database.db.select().from(voices).where(eq(voices.userId, userId));

describe('a Voice package', () => {
  it('names the Voice, its base model and its training', async () => {
    const archive = await JSZip.loadAsync(zip);
    const manifest = voicePackageManifestSchema.parse(
      JSON.parse(await (archive.file(VOICE_PACKAGE_FILES.manifest) as JSZip.JSZipObject).async('string')),
    );
    const base = await ctx.platform.baseModel.identity();
    expect(manifest.voice).toMatchObject({ name: 'Evening essays', trainedAt: voice.trainedAt?.toISOString() });
    expect(manifest.baseModel).toMatchObject({ file: base.file, sha256: base.sha256, bytes: base.bytes });
  });

  it('is its owner’s alone to download', async () => {
    const stranger = await createUser(ctx);
    expect(await refusal(ctx.services.voicePackages.download(stranger, voice.id))).toBe('NOT_FOUND');
  });

  it('becomes a ready Voice of whoever imports it, in a storage slot', async () => {
    const importer = await createUser(ctx);
    await createStorageSlots(ctx, importer.id, 1);
    const imported = await ctx.services.voicePackages.import(importer, received(zip));
    expect(imported).toMatchObject({ name: 'Evening essays', status: 'ready', isOwner: true });
    expect((await voicesOf(importer.id)).map((v) => v.id)).toEqual([imported._id]);
    // Its package again is the Voice as it was trained.
    expect((await ctx.services.voicePackages.download(importer, imported._id)).fileName).toBe(
      'Evening-essays-ownvoice.zip',
    );
  });

  it('is refused with every storage slot taken, leaving no Voice and no folder, however many race', async () => {
    const importer = await createUser(ctx);
    await createStorageSlots(ctx, importer.id, 1);
    const folders = voiceFolders();
    const results = await Promise.allSettled(
      Array.from({ length: 3 }, () => ctx.services.voicePackages.import(importer, received(zip))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await voicesOf(importer.id)).toHaveLength(1);
    expect(await refusal(ctx.services.voicePackages.import(importer, received(zip)))).toBe('INSUFFICIENT_LIMIT');
    expect(voiceFolders()).toBe(folders + 1);
  });
});
