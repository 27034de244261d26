import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { downloadsResponseSchema } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
const downloadsDir = mkdtempSync(path.join(tmpdir(), 'ownvoice-downloads-'));
const outside = path.join(path.dirname(downloadsDir), `${path.basename(downloadsDir)}-outside.deb`);
const newer = randomBytes(70_000);
const older = randomBytes(1_000);
const SECRET = 'contents of a file beside the folder';

beforeAll(async () => {
  writeFileSync(path.join(downloadsDir, 'ownvoice_0.2.0_amd64.deb'), newer);
  writeFileSync(path.join(downloadsDir, 'ownvoice_0.1.0-1_arm64.deb'), older);
  utimesSync(path.join(downloadsDir, 'ownvoice_0.1.0-1_arm64.deb'), new Date('2026-01-01'), new Date('2026-01-01'));
  // Things in the folder that are not packages, and a secret beside it.
  writeFileSync(path.join(downloadsDir, 'notes.txt'), 'not a package');
  mkdirSync(path.join(downloadsDir, 'ownvoice_0.3.0_amd64.deb'));
  writeFileSync(outside, SECRET);
  symlinkSync(outside, path.join(downloadsDir, 'ownvoice_0.4.0_amd64.deb.link'));
  ctx = await createTestContext({ downloadsDir });
});
afterAll(async () => {
  await ctx.close();
  rmSync(downloadsDir, { recursive: true, force: true });
  rmSync(outside, { force: true });
});

describe('GET /api/public/downloads', () => {
  it('lists the packages in the folder, newest first, with their sizes', async () => {
    const res = await ctx.client().get('/api/public/downloads');
    expect(res.statusCode).toBe(200);
    expect(downloadsResponseSchema.parse(res.json()).builds).toEqual([
      {
        file: 'ownvoice_0.2.0_amd64.deb',
        format: 'deb',
        version: '0.2.0',
        arch: 'amd64',
        sizeBytes: newer.length,
        url: '/api/public/downloads/ownvoice_0.2.0_amd64.deb',
      },
      {
        file: 'ownvoice_0.1.0-1_arm64.deb',
        format: 'deb',
        version: '0.1.0-1',
        arch: 'arm64',
        sizeBytes: older.length,
        url: '/api/public/downloads/ownvoice_0.1.0-1_arm64.deb',
      },
    ]);
  });

  it('lists nothing when the folder does not exist', async () => {
    const empty = await createTestContext({ downloadsDir: path.join(downloadsDir, 'missing') });
    try {
      expect((await empty.client().get('/api/public/downloads')).json()).toEqual({ builds: [] });
    } finally {
      await empty.close();
    }
  });
});

describe('GET /api/public/downloads/:file', () => {
  it('sends the package with its type, length and file name', async () => {
    const res = await ctx.client().get('/api/public/downloads/ownvoice_0.2.0_amd64.deb');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.debian.binary-package');
    expect(res.headers['content-length']).toBe(String(newer.length));
    expect(res.headers['content-disposition']).toBe('attachment; filename="ownvoice_0.2.0_amd64.deb"');
    expect(res.rawPayload.equals(newer)).toBe(true);
  });

  it.each([
    ['a package the folder does not have', 'ownvoice_9.9.9_amd64.deb'],
    ['a file that is not a package', 'notes.txt'],
    ['a folder named like a package', 'ownvoice_0.3.0_amd64.deb'],
    ['a name outside the pattern', 'ownvoice_0.4.0_amd64.deb.link'],
    ['a path out of the folder', `..%2F${path.basename(outside)}`],
    ['a path out of the folder, undecoded', `../${path.basename(outside)}`],
    ['an absolute path', encodeURIComponent(outside)],
    ['a name with a NUL byte', 'ownvoice_0.2.0_amd64.deb%00'],
  ])('is 404 for %s', async (_, file) => {
    const res = await ctx.client().get(`/api/public/downloads/${file}`);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain(SECRET);
    expect(res.json().code).toMatch(/NOT_FOUND/);
  });
});
