// The built web app on the API's port: index.html and Vite's hashed assets from memory with their
// caching, the other files from disk, index.html for client-side routes, JSON 404s under /api.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/test-app.js';
import { HASHED_CACHE_CONTROL, INDEX_CACHE_CONTROL, matchesEtag } from './web-files.js';

const INDEX = '<!doctype html><title>OwnVoice</title><script type="module" src="/assets/index-AbC123.js"></script>';
const SCRIPT = 'console.log("app")';
let ctx: TestContext;
let webDir: string;

beforeAll(async () => {
  webDir = mkdtempSync(path.join(tmpdir(), 'ownvoice-web-'));
  mkdirSync(path.join(webDir, 'assets', 'fonts'), { recursive: true });
  writeFileSync(path.join(webDir, 'index.html'), INDEX);
  writeFileSync(path.join(webDir, 'assets', 'index-AbC123.js'), SCRIPT);
  writeFileSync(path.join(webDir, 'assets', 'fonts', 'inter-XyZ789.woff2'), Buffer.from([1, 2, 3]));
  writeFileSync(path.join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  ctx = await createTestContext({ webDir });
});
afterAll(async () => {
  await ctx.close();
  rmSync(webDir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  ctx.app.inject({ method, url, headers });

describe('the web app', () => {
  it('answers index.html for the root and client-side routes, revalidated on each load', async () => {
    const etags = new Set<string>();
    for (const url of ['/', '/index.html', '/dashboard/loras', '/auth?tab=login', '/assets/index-Gone99.js']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control'], url).toBe(INDEX_CACHE_CONTROL);
      expect(res.body, url).toBe(INDEX);
      etags.add(String(res.headers.etag));
    }
    expect(etags.size).toBe(1);
  });

  it('answers 304 without a body when the browser has this index.html', async () => {
    const { etag } = (await get('/')).headers;
    for (const ifNoneMatch of [String(etag), `"other", W/${etag}`, '*']) {
      const res = await get('/dashboard', { 'if-none-match': ifNoneMatch });
      expect(res.statusCode, ifNoneMatch).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe(INDEX_CACHE_CONTROL);
    }
    expect((await get('/', { 'if-none-match': '"an older build"' })).statusCode).toBe(200);
  });

  it('caches hashed assets for good, by their ETag', async () => {
    const res = await get('/assets/index-AbC123.js');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(SCRIPT);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe(HASHED_CACHE_CONTROL);
    const again = await get('/assets/index-AbC123.js', { 'if-none-match': String(res.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const head = await get('/assets/index-AbC123.js', {}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(SCRIPT.length));
    const font = await get('/assets/fonts/inter-XyZ789.woff2');
    expect(font.headers['content-type']).toBe('font/woff2');
    expect(font.rawPayload).toEqual(Buffer.from([1, 2, 3]));
  });

  it('serves the build as it was at start, and nothing outside it', async () => {
    const before = await get('/assets/index-AbC123.js');
    writeFileSync(path.join(webDir, 'index.html'), '<title>rebuilt</title>');
    writeFileSync(path.join(webDir, 'assets', 'index-AbC123.js'), 'changed');
    writeFileSync(path.join(webDir, 'assets', 'added-New111.js'), 'new');
    expect((await get('/')).body).toBe(INDEX);
    expect((await get('/assets/index-AbC123.js')).body).toBe(before.body);
    expect((await get('/assets/added-New111.js')).body).toBe(INDEX);
    for (const url of ['/assets/../favicon.svg', '/assets/%2e%2e/index.html', '/assets/fonts']) {
      const res = await get(url);
      expect([200, 404], url).toContain(res.statusCode);
      expect(res.headers['cache-control'], url).not.toBe(HASHED_CACHE_CONTROL);
    }
  });

  it('serves the other files of the build from disk, and keeps unknown API paths JSON 404s', async () => {
    const icon = await get('/favicon.svg');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toMatch(/image\/svg\+xml/);
    const api = await get('/api/no-such-route');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ msg: 'No API route GET /api/no-such-route', code: 'ROUTE_NOT_FOUND' });
  });
});

describe('without a built web app', () => {
  it('says so for pages, and the API still answers', async () => {
    const bare = await createTestContext();
    try {
      const res = await bare.app.inject({ method: 'GET', url: '/dashboard' });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('ROUTE_NOT_FOUND');
      expect((await bare.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await bare.close();
    }
  });
});

describe('matchesEtag', () => {
  it('reads lists, weak tags and *', () => {
    expect(matchesEtag(undefined, '"a"')).toBe(false);
    expect(matchesEtag('"a"', '"a"')).toBe(true);
    expect(matchesEtag('"b", W/"a"', '"a"')).toBe(true);
    expect(matchesEtag('"b"', '"a"')).toBe(false);
    expect(matchesEtag('*', '"a"')).toBe(true);
  });
});
