// The security headers on the web app's pages, its assets and the API's answers: a strict
// Content-Security-Policy (no inline script, nothing frames the app), nosniff, no referrer, and
// HSTS only over https.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/test-app.js';
import { securityHeaders } from './security-headers.js';

let ctx: TestContext;
let webDir: string;

beforeAll(async () => {
  webDir = mkdtempSync(path.join(tmpdir(), 'ownvoice-web-'));
  mkdirSync(path.join(webDir, 'assets'), { recursive: true });
  writeFileSync(
    path.join(webDir, 'index.html'),
    '<!doctype html><title>OwnVoice</title><script type="module" src="/assets/index-AbC123.js"></script>',
  );
  writeFileSync(path.join(webDir, 'assets', 'index-AbC123.js'), 'console.log("app")');
  ctx = await createTestContext({ webDir, trustProxy: true });
});
afterAll(async () => {
  await ctx.close();
  rmSync(webDir, { recursive: true, force: true });
});

/** The policy's directives by name. */
function directives(header: string | string[] | number | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of String(header).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

describe('security headers', () => {
  it('sets a strict policy on the app, its assets, the API and its errors', async () => {
    for (const url of ['/', '/dashboard/loras', '/assets/index-AbC123.js', '/api/health', '/api/nope']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('script-src'), url).toEqual(["'self'"]);
      expect(csp.get('script-src-attr'), url).toEqual(["'none'"]);
      expect(csp.get('default-src'), url).toEqual(["'self'"]);
      expect(csp.get('object-src'), url).toEqual(["'none'"]);
      expect(csp.get('base-uri'), url).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(csp.get('form-action'), url).toEqual(["'self'"]);
      expect(csp.get('connect-src'), url).toEqual(["'self'"]);
      for (const [name, values] of csp) {
        if (name.startsWith('script') || name === 'default-src') {
          expect(values, `${url} ${name}`).not.toContain("'unsafe-inline'");
          expect(values, `${url} ${name}`).not.toContain("'unsafe-eval'");
        }
      }
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['cross-origin-opener-policy'], url).toBe('same-origin');
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('sets every header helmet sets for these options, with helmet’s values, worked out once', async () => {
    const fromHelmet = securityHeaders();
    expect(fromHelmet.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'content-security-policy',
        'cross-origin-opener-policy',
        'cross-origin-resource-policy',
        'origin-agent-cluster',
        'referrer-policy',
        'x-content-type-options',
        'x-dns-prefetch-control',
        'x-download-options',
        'x-frame-options',
        'x-permitted-cross-domain-policies',
        'x-xss-protection',
      ]),
    );
    for (const url of ['/', '/api/health', '/api/nope']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      for (const [name, value] of fromHelmet) expect(res.headers[name], `${url} ${name}`).toBe(value);
    }
  });

  it('asks browsers for https only when the request came over https', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const api = await ctx.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(api.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('leaves the offline checkout page its own, narrower policy', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `/api/offline-checkout/cs_offline_${'0'.repeat(24)}` });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(directives(res.headers['content-security-policy']).get('frame-ancestors')).toEqual(["'none'"]);
  });
});
