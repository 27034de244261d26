// What HTTP adds to the Voice rules (services/voices.service.test.ts holds the rules themselves,
// on both databases): sign-in, the answers' status codes and schemas, the name rules of the
// request schema, the purchase modal's error body, and malformed ids and bodies refused.
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

  it("answers another user's private Voice with 404 and a public one with 200, listed", async () => {
    const secret = await addVoice(ownerId, { isPublic: false });
    const shared = await addVoice(ownerId, { isPublic: true, name: 'Shared' });
    expect((await other.get(`/api/loras/${secret.id}`)).statusCode).toBe(404);
    expect((await other.get(`/api/loras/${shared.id}`)).json()).toMatchObject({ _id: shared.id, isPublic: true });
    const publicList = (await other.get('/api/loras/public')).json() as { _id: string }[];
    expect(publicList.map((v) => v._id)).toContain(shared.id);
  });

  it('renames with the Voice name rules, and answers anyone else with 403', async () => {
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

  it('answers a publish of an untrained Voice with 400 VOICE_NOT_READY', async () => {
    const training = await addVoice(ownerId, { status: 'training', progress: 40 });
    const res = await owner.patch(`/api/loras/${training.id}`, { isPublic: true });
    expect([res.statusCode, res.json().code]).toEqual([400, 'VOICE_NOT_READY']);
  });

  it('deletes with { ok: true } for the owner and 404 for anyone else', async () => {
    const voice = await addVoice(ownerId);
    expect((await other.request('DELETE', `/api/loras/${voice.id}`)).statusCode).toBe(404);
    expect((await owner.request('DELETE', `/api/loras/${voice.id}`)).json()).toEqual({ ok: true });
    expect((await owner.get(`/api/loras/${voice.id}`)).statusCode).toBe(404);
  });

  it('forks with 201, and a full storage with the purchase modal’s error', async () => {
    const source = await addVoice(ownerId, { isPublic: true, name: 'Public essays' });
    await ctx.database.db.update(users).set({ modelStorageSlotsTotal: 1 }).where(eq(users.id, otherId));
    const refused = await other.post(`/api/loras/${source.id}/fork`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ reason: 'insufficient_limit', limitType: 'storageSlots' });

    await ctx.database.db.update(users).set({ modelStorageSlotsTotal: 5 }).where(eq(users.id, otherId));
    const slotsUsed = async () => (await other.get('/api/auth/me')).json().user.usageLimits.modelStorageSlotsUsed;
    const usedBefore = await slotsUsed();
    const res = await other.post(`/api/loras/${source.id}/fork`);
    expect(res.statusCode).toBe(201);
    expect(voiceSchema.parse(res.json())).toMatchObject({ name: 'Public essays', isPublic: false, status: 'ready' });
    expect(await slotsUsed()).toBe(usedBefore + 1);
  });

  it('answers malformed ids and bodies with 400', async () => {
    expect((await owner.get('/api/loras/not-an-id')).statusCode).toBe(400);
    const voice = await addVoice(ownerId);
    expect((await owner.patch(`/api/loras/${voice.id}`, {})).statusCode).toBe(400);
    expect((await owner.patch(`/api/loras/${voice.id}`, { isPublic: 'yes' })).statusCode).toBe(400);
    expect((await owner.patch(`/api/loras/${voice.id}`, { name: 'x', status: 'active' })).statusCode).toBe(400);
  });
});
