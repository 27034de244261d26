// The soak: several users at once, each connection going through what a signed-in person's browser
// does: fetch a CSRF token, sign in, then read their account and Voices and rename a Voice, again
// and again, then start over with a new token and a new sign-in. Passes with no errors, no
// non-2xx answers (the mix expects none), and the server's memory (RSS, sampled after a full
// garbage collection) at the end within 10% of where it stood early in the run.

import { median } from '@ownvoice/engine/bench/stats';
import { CSRF_HEADER } from '@ownvoice/shared';
import type autocannon from 'autocannon';
import { CONNECTIONS, problems, run } from './load-run.js';
import type { LoadServer } from './load-setup.js';

/** Reads and renames per sign-in: a sign-in (argon2) costs as much CPU as hundreds of reads. */
const ROUNDS_PER_SIGN_IN = 25;
const MEMORY_TOLERANCE = 0.1;

interface Context {
  csrf?: string;
  cookie?: string;
  token?: string;
}

const firstCookie = (header: string | string[] | undefined) => [header].flat()[0]?.split(';')[0];

/** One user's requests, as autocannon loops them on each of its connections. */
function mixOf(user: { email: string; password: string; voiceId: string }): autocannon.Request[] {
  let renames = 0;
  const signedIn = (method: 'GET' | 'PATCH', path: string, body?: () => string): autocannon.Request => ({
    method,
    path,
    setupRequest: (request, context) => {
      const c = context as Context;
      const headers: Record<string, string> = { authorization: `Bearer ${c.token}` };
      if (method !== 'GET')
        Object.assign(headers, { 'content-type': 'application/json', [CSRF_HEADER]: c.csrf, cookie: c.cookie });
      return { ...request, headers, ...(body ? { body: body() } : {}) };
    },
  });
  return [
    {
      method: 'GET',
      path: '/api/csrf-token',
      onResponse: (status, body, context, headers) => {
        if (status !== 200) return;
        const c = context as Context;
        c.csrf = JSON.parse(body).csrfToken;
        c.cookie = firstCookie(headers?.['set-cookie']);
      },
    },
    {
      method: 'POST',
      path: '/api/auth/login',
      setupRequest: (request, context) => {
        const c = context as Context;
        return {
          ...request,
          headers: { 'content-type': 'application/json', [CSRF_HEADER]: c.csrf as string, cookie: c.cookie as string },
          body: JSON.stringify({ email: user.email, password: user.password }),
        };
      },
      onResponse: (status, body, context) => {
        if (status === 200) (context as Context).token = JSON.parse(body).token;
      },
    },
    ...Array.from({ length: ROUNDS_PER_SIGN_IN }, () => [
      signedIn('GET', '/api/auth/me'),
      signedIn('GET', '/api/loras'),
      signedIn('PATCH', `/api/loras/${user.voiceId}`, () => JSON.stringify({ name: `Soak ${++renames}` })),
    ]).flat(),
  ];
}

export async function soak(setup: LoadServer, seconds: number): Promise<boolean> {
  const { info } = setup;
  const users = info.soakUsers;
  const perUser = Math.max(1, Math.round(CONNECTIONS / users.length));
  const started = Date.now();
  setup.sampleMemory();
  const sampler = setInterval(() => setup.sampleMemory(), 1000);
  const results = await Promise.all(
    users.map((user) =>
      run({
        url: `http://127.0.0.1:${info.port}`,
        connections: perUser,
        requests: mixOf(user),
        seconds,
      }),
    ),
  );
  clearInterval(sampler);
  const ended = Date.now();
  // The last sample asked for arrives shortly after the run.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const total = results.reduce((n, r) => n + r.requests.total, 0);
  const wrong = results.map(problems).filter(Boolean);
  const statuses = new Map<string, number>();
  for (const r of results) {
    for (const [code, { count }] of Object.entries(r.statusCodeStats ?? {})) {
      statuses.set(code, (statuses.get(code) ?? 0) + (count ?? 0));
    }
  }
  console.log(
    `  ${users.length} users x ${perUser} connections, ${seconds} s: ${total} requests (${Math.round(total / seconds)}/s), ` +
      `status codes ${[...statuses].map(([code, n]) => `${code}: ${n}`).join(', ')}`,
  );
  console.log(`  errors and unexpected answers: ${wrong.length ? wrong.join('; ') : 'none'}`);

  // Samples are taken after a full garbage collection, once a second. The end (the median of the
  // last 3) is compared with the first minute, or the first quarter of a run under two minutes.
  const samples = setup.memoryBetween(started, ended + 500);
  const windowMs = ended - started >= 120_000 ? 60_000 : (ended - started) / 4;
  const early = samples.filter((s) => s.t <= started + windowMs);
  const end = samples.slice(-3);
  if (early.length === 0 || end.length === 0) {
    console.log('  memory: too few samples to compare');
    return false;
  }
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
  const earlyRss = median(early.map((s) => s.rss));
  const endRss = median(end.map((s) => s.rss));
  const growth = endRss / earlyRss - 1;
  const memoryOk = growth <= MEMORY_TOLERANCE;
  console.log(
    `  server RSS: ${mb(endRss)} over the last 3 s vs ${mb(earlyRss)} over the first ${Math.round(windowMs / 1000)} s ` +
      `(${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%; target within ${MEMORY_TOLERANCE * 100}%: ${memoryOk ? 'met' : 'NOT met'}); ` +
      `heap used ${mb(median(end.map((s) => s.heapUsed)))} vs ${mb(median(early.map((s) => s.heapUsed)))}`,
  );
  const passed = wrong.length === 0 && memoryOk;
  console.log(`  soak: ${passed ? 'passed' : 'FAILED'}`);
  return passed;
}
