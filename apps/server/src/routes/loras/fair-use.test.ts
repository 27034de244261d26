// A few accounts cannot starve everyone of the server's shared parts: the slots for uploads being
// received, and the processes that read uploaded files. Each attack runs beside a normal user,
// who is served.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, encodeMultipart, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
beforeAll(async () => {
  // The shipped limits: 2 uploads per account, 4 per address, 32 in all.
  ctx = await createTestContext();
}, 60_000);
afterAll(() => ctx.close());

const uploadFolders = (): number => {
  try {
    return readdirSync(path.join(ctx.config.dataDir, 'tmp')).filter((name) => name.startsWith('upload-')).length;
  } catch {
    return 0;
  }
};

async function until(check: () => boolean, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return check();
}

/** A signed-in account's request headers, from `ip`. */
async function account(ip: string) {
  const client = ctx.client({ ip });
  await client.register();
  return { ip, headers: { ...(await client.csrfHeaders()), authorization: `Bearer ${client.token}` } };
}
type Account = Awaited<ReturnType<typeof account>>;

/**
 * Starts an upload that sends half its body and then holds on (as a slow client does). Answers
 * 'held' once the server is receiving it, or the refusal.
 */
async function slowUpload(who: Account, held: (() => void)[]): Promise<'held' | LightMyRequestResponse> {
  const { payload, contentType } = encodeMultipart({
    files: [{ field: 'file', name: 'slow.txt', data: 'A slow sentence. '.repeat(10_000) }],
  });
  const body = new PassThrough();
  body.write(payload.subarray(0, payload.length / 2));
  const before = uploadFolders();
  let answer: LightMyRequestResponse | undefined;
  const response = ctx.app
    .inject({
      method: 'POST',
      url: '/api/loras/count-characters',
      headers: { ...who.headers, 'content-type': contentType },
      remoteAddress: who.ip,
      payload: body,
    })
    .then((res) => {
      answer = res;
      return res;
    });
  await until(() => answer !== undefined || uploadFolders() > before);
  if (answer) return answer;
  held.push(() => {
    body.end(payload.subarray(payload.length / 2));
    void response;
  });
  return 'held';
}

describe('upload slots under attack', () => {
  it('six accounts holding slow uploads leave room for everyone else', async () => {
    const held: (() => void)[] = [];
    try {
      // Six accounts on six addresses, each trying to hold six uploads open.
      const attackers = await Promise.all(Array.from({ length: 6 }, (_, i) => account(`10.9.0.${i + 1}`)));
      let holding = 0;
      for (const attacker of attackers) {
        for (let i = 0; i < 6; i++) if ((await slowUpload(attacker, held)) === 'held') holding++;
      }
      expect(holding).toBe(12);
      // And six more accounts behind one address get no more than that address's share.
      const crowd = await Promise.all(Array.from({ length: 6 }, () => account('10.9.9.9')));
      const fromCrowd = [];
      for (const member of crowd) fromCrowd.push(await slowUpload(member, held));
      expect(fromCrowd.filter((r) => r === 'held')).toHaveLength(4);
      const refused = fromCrowd.find((r): r is LightMyRequestResponse => r !== 'held');
      expect(refused?.statusCode).toBe(429);
      expect(refused?.json().msg).toMatch(/from your network/);

      // A normal user is served meanwhile.
      const normal = ctx.client({ ip: '192.0.2.44' });
      await normal.register();
      const res = await normal.upload('/api/loras/count-characters', {
        files: [{ field: 'file', name: 'mine.txt', data: 'My own words, as I write them.' }],
      });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      for (const release of held) release();
    }
    expect(await until(() => uploadFolders() === 0, 10_000)).toBe(true);
  }, 60_000);

  it('keeps a quarter of the slots for people sending their first upload', async () => {
    const small = await createTestContext({ uploads: { perUser: 2, perIp: 100, total: 8 } });
    const saved = ctx;
    ctx = small;
    const held: (() => void)[] = [];
    try {
      const attackers = await Promise.all(Array.from({ length: 4 }, (_, i) => account(`10.8.0.${i + 1}`)));
      let holding = 0;
      for (const attacker of attackers) if ((await slowUpload(attacker, held)) === 'held') holding++;
      // Second uploads only while more than a quarter (2) of the 8 slots are free.
      for (const attacker of attackers) if ((await slowUpload(attacker, held)) === 'held') holding++;
      expect(holding).toBe(6);
      // Two newcomers still get in.
      for (const ip of ['192.0.2.1', '192.0.2.2']) {
        expect(await slowUpload(await account(ip), held)).toBe('held');
      }
    } finally {
      for (const release of held) release();
      ctx = saved;
      await until(() => false, 200);
      await small.close();
    }
  }, 60_000);
});

describe('the file readers under attack', () => {
  it('read a normal user’s small file next, however many slow files two accounts queued first', async () => {
    const attackers = await Promise.all([account('10.7.0.1'), account('10.7.0.2')]);
    // Hostile markdown is now refused at once (text/markdown-work.ts): what holds a reader for
    // seconds is a long file of plain words, read in full (about 1.4 s a megabyte here).
    const words = 'word '.repeat(1_000_000);
    const slow = encodeMultipart({ files: [{ field: 'file', name: 'words.md', data: words }] });
    let attackersDone = 0;
    const attacks = attackers.flatMap((attacker) =>
      [1, 2].map(() =>
        ctx.app
          .inject({
            method: 'POST',
            url: '/api/loras/count-characters',
            headers: { ...attacker.headers, 'content-type': slow.contentType },
            remoteAddress: attacker.ip,
            payload: slow.payload,
          })
          .then((res) => {
            attackersDone++;
            return res;
          }),
      ),
    );
    // The four slow files are in: two being read, two waiting.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const normal = ctx.client({ ip: '192.0.2.80' });
    await normal.register();
    const mine = await normal.upload('/api/loras/count-characters', {
      files: [{ field: 'file', name: 'mine.md', data: `# Notes\n\n${'I write plainly. '.repeat(60)}` }],
    });
    expect(mine.statusCode, mine.body).toBe(200);
    // Read after the first slow file ended, not behind the two that waited before it.
    expect(attackersDone).toBeLessThanOrEqual(2);
    // Read, or refused past the reader's bounds: either way after the normal user's file.
    for (const res of await Promise.all(attacks)) expect([200, 400], res.body).toContain(res.statusCode);
  }, 180_000);
});
