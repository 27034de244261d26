/// <reference types="node" />
// The API client against a small real HTTP server: token caching, the early refresh, the single
// retry after a CSRF rejection, and how error answers become ApiErrors.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CSRF_CACHE_MS, CSRF_SAFETY_MARGIN_MS } from '@ownvoice/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api-client';
import { ApiError } from './api-error';

interface Recorded {
  method: string;
  path: string;
  csrf: string | undefined;
  auth: string | undefined;
  mfa: string | undefined;
  body: string;
}

const state = {
  issued: 0,
  /** Tokens the server refuses, as if they had expired or lost their cookie. */
  rejected: new Set<string>(),
  rejectAll: false,
  requests: [] as Recorded[],
};

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  const path = (req.url ?? '').replace(/\?.*$/, '');
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const csrf = header('x-csrf-token');
  const mfa = header('x-mfa-token');
  state.requests.push({ method: req.method ?? '', path, csrf, auth: header('authorization'), mfa, body });

  if (path === '/api/csrf-token') {
    state.issued += 1;
    return send(res, 200, { csrfToken: `token-${state.issued}` });
  }
  if (req.method !== 'GET') {
    if (!csrf) return send(res, 403, { msg: 'Missing security token.', code: 'CSRF_MISSING_TOKEN' });
    if (state.rejectAll || state.rejected.has(csrf)) {
      return send(res, 403, { msg: 'Your security token has expired.', code: 'CSRF_INVALID_TOKEN' });
    }
  }
  if (path === '/api/echo') return send(res, 200, { ok: true, csrf: csrf ?? null, body: body || null });
  if (path === '/api/sensitive') {
    if (mfa === undefined) {
      return send(res, 403, { msg: 'Enter a code', code: 'MFA_TOKEN_REQUIRED', requiresMFAToken: true });
    }
    return send(res, 200, { ok: true });
  }
  if (path === '/api/forbidden') return send(res, 403, { msg: 'Admins only', code: 'FORBIDDEN' });
  if (path === '/api/taken') {
    return send(res, 409, {
      msg: 'Username is already taken',
      code: 'USERNAME_TAKEN',
      errors: [{ msg: 'Username is already taken', path: 'username' }],
      details: { field: 'username' },
    });
  }
  if (path === '/api/expired') return send(res, 401, { msg: 'Session expired', code: 'SESSION_EXPIRED' });
  if (path === '/api/plain-text') {
    res.writeHead(502, { 'Content-Type': 'text/plain' });
    return res.end('Bad gateway');
  }
  return send(res, 404, { msg: 'Not found', code: 'ROUTE_NOT_FOUND' });
}

let server: Server;
let baseUrl: string;
let clock = 0;

const csrfFetches = () => state.requests.filter((r) => r.path === '/api/csrf-token').length;
const callsTo = (path: string) => state.requests.filter((r) => r.path === path);

function client(options: Partial<Parameters<typeof createApiClient>[0]> = {}) {
  return createApiClient({ baseUrl, now: () => clock, getToken: () => 'session-token', ...options });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { msg: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

beforeEach(() => {
  state.issued = 0;
  state.rejected.clear();
  state.rejectAll = false;
  state.requests = [];
  clock = 1_000_000;
});

describe('api client', () => {
  it('sends the bearer token always and the CSRF header only on state-changing requests', async () => {
    const api = client();
    await api.get('/echo');
    await api.post('/echo', { hello: 'world' });
    const [get, post] = callsTo('/api/echo');
    expect(get?.auth).toBe('Bearer session-token');
    expect(get?.csrf).toBeUndefined();
    expect(post?.auth).toBe('Bearer session-token');
    expect(post?.csrf).toBe('token-1');
    expect(post?.body).toBe('{"hello":"world"}');
  });

  it('sends no Authorization header without a token', async () => {
    const api = client({ getToken: () => null });
    await api.post('/echo');
    expect(callsTo('/api/echo')[0]?.auth).toBeUndefined();
  });

  it('reuses the CSRF token until 300 s before its 3000 s expiry, then fetches a new one', async () => {
    expect(CSRF_CACHE_MS).toBe(3000 * 1000);
    expect(CSRF_SAFETY_MARGIN_MS).toBe(300 * 1000);
    const api = client();
    const start = clock;

    await api.post('/echo');
    clock = start + 60_000;
    await api.patch('/echo', { a: 1 });
    clock = start + CSRF_CACHE_MS - CSRF_SAFETY_MARGIN_MS - 1;
    await api.delete('/echo');
    expect(csrfFetches()).toBe(1);

    clock = start + CSRF_CACHE_MS - CSRF_SAFETY_MARGIN_MS;
    await api.post('/echo');
    expect(csrfFetches()).toBe(2);
    expect(callsTo('/api/echo').map((r) => r.csrf)).toEqual(['token-1', 'token-1', 'token-1', 'token-2']);

    // The new token starts a new cache period.
    clock += CSRF_CACHE_MS - CSRF_SAFETY_MARGIN_MS - 1;
    await api.post('/echo');
    expect(csrfFetches()).toBe(2);
  });

  it('shares one token fetch between concurrent requests', async () => {
    const api = client();
    await Promise.all([api.post('/echo'), api.post('/echo'), api.post('/echo')]);
    expect(csrfFetches()).toBe(1);
  });

  it('on a 403 with a CSRF_ code clears the token, fetches a new one and retries once', async () => {
    const api = client();
    await api.post('/echo');
    state.rejected.add('token-1');

    const answer = await api.post<{ ok: boolean; csrf: string }>('/echo', { retry: true });
    expect(answer).toEqual({ ok: true, csrf: 'token-2', body: '{"retry":true}' });
    expect(csrfFetches()).toBe(2);
    expect(callsTo('/api/echo').map((r) => r.csrf)).toEqual(['token-1', 'token-1', 'token-2']);

    // The fresh token is cached for the requests that follow.
    await api.post('/echo');
    expect(csrfFetches()).toBe(2);
  });

  it('retries only once: a second CSRF rejection is thrown', async () => {
    const api = client();
    state.rejectAll = true;
    const error = await api.post('/echo').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, code: 'CSRF_INVALID_TOKEN' });
    expect(callsTo('/api/echo')).toHaveLength(2);
    expect(csrfFetches()).toBe(2);
  });

  it('sends per-request headers on that request only, beside its own', async () => {
    const api = client();
    const refused = await api.post('/sensitive', { a: 1 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 403, code: 'MFA_TOKEN_REQUIRED', requiresMFAToken: true });

    await expect(api.post('/sensitive', { a: 1 }, { headers: { 'x-mfa-token': '123456' } })).resolves.toEqual({
      ok: true,
    });
    await api.delete('/echo', { headers: { 'x-mfa-token': '654321' } });
    await api.post('/echo');
    const [first, second] = callsTo('/api/sensitive');
    expect(first?.mfa).toBeUndefined();
    expect(second).toMatchObject({ mfa: '123456', csrf: 'token-1', auth: 'Bearer session-token' });
    expect(callsTo('/api/echo').map((r) => r.mfa)).toEqual(['654321', undefined]);
  });

  it('keeps its own headers over a per-request one of the same name', async () => {
    const api = client();
    await api.post('/echo', undefined, { headers: { 'x-csrf-token': 'forged', Authorization: 'Bearer other' } });
    expect(callsTo('/api/echo')[0]).toMatchObject({ csrf: 'token-1', auth: 'Bearer session-token' });
  });

  it('does not retry a 403 that is not about CSRF', async () => {
    const api = client();
    await expect(api.post('/forbidden')).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN', msg: 'Admins only' });
    expect(callsTo('/api/forbidden')).toHaveLength(1);
    expect(csrfFetches()).toBe(1);
  });

  it('throws a typed ApiError carrying status, msg, code, errors and details', async () => {
    const api = client();
    const error = await api.post('/taken', { username: 'taken' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(409);
    expect(apiError.msg).toBe('Username is already taken');
    expect(apiError.message).toBe('Username is already taken');
    expect(apiError.code).toBe('USERNAME_TAKEN');
    expect(apiError.errors).toEqual([{ msg: 'Username is already taken', path: 'username' }]);
    expect(apiError.details).toEqual({ field: 'username' });
  });

  it('still throws an ApiError for a non-JSON error answer', async () => {
    const api = client();
    await expect(api.get('/plain-text')).rejects.toMatchObject({ status: 502, code: undefined });
  });

  it('reports a refused session only when a token was sent', async () => {
    const onSessionRejected = vi.fn();
    await expect(client({ onSessionRejected }).get('/expired')).rejects.toMatchObject({ status: 401 });
    expect(onSessionRejected).toHaveBeenCalledTimes(1);

    const anonymous = vi.fn();
    await expect(client({ onSessionRejected: anonymous, getToken: () => null }).get('/expired')).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(anonymous).not.toHaveBeenCalled();
  });

  it('hands a stream its raw answer and reports a refused session there too', async () => {
    const onSessionRejected = vi.fn();
    const api = client({ onSessionRejected });
    const refused = await api.stream('/expired', { body: { text: 'x' } });
    expect(refused.status).toBe(401);
    // The caller can still read the body it was given.
    expect(await refused.json()).toMatchObject({ code: 'SESSION_EXPIRED' });
    expect(onSessionRejected).toHaveBeenCalledTimes(1);
  });
});
