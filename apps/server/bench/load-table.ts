// The load table: the bare Fastify route and OwnVoice's routes under the same 50 connections,
// interleaved (every route once per round, for several rounds), each as requests/s, p50, p99 and
// its requests/s as a ratio to the bare route's in the same round (see the engine's bench/stats.ts).
import { formatSummary, measureInterleaved, ratio, type Summary, summarize } from '@ownvoice/engine/bench/stats';
import { CONNECTIONS, problems, run } from './load-run.js';
import type { LoadServerInfo } from './load-server.js';

type RouteName = 'bare' | 'health' | 'me' | 'loras' | 'index';

interface Route {
  name: RouteName;
  label: string;
  url: string;
  headers?: Record<string, string>;
}

/** The targets: requests/s as a ratio to the bare route, per database. */
const RATIO_TARGETS: Record<LoadServerInfo['database'], Partial<Record<RouteName, number>>> = {
  postgres: { me: 0.1, health: 0.25, index: 0.5 },
  pglite: { me: 0.04, index: 0.5 },
};
const P99_TARGET_MS = 50;

function routesOf(info: LoadServerInfo): Route[] {
  const base = `http://127.0.0.1:${info.port}`;
  const auth = { authorization: `Bearer ${info.reader.token}` };
  const routes: Route[] = [
    { name: 'bare', label: "bare Fastify GET / {status:'ok'}", url: `http://127.0.0.1:${info.barePort}/` },
    { name: 'health', label: 'GET /api/health', url: `${base}/api/health` },
    { name: 'me', label: 'GET /api/auth/me (signed in)', url: `${base}/api/auth/me`, headers: auth },
    {
      name: 'loras',
      label: `GET /api/loras (signed in, ${info.reader.voices} Voices)`,
      url: `${base}/api/loras`,
      headers: auth,
    },
  ];
  if (info.web) routes.push({ name: 'index', label: 'GET / (index.html)', url: `${base}/` });
  return routes;
}

interface Figures {
  rps: number[];
  p50: number[];
  p99: number[];
  problems: string[];
}

export async function loadTable(info: LoadServerInfo, { seconds, rounds }: { seconds: number; rounds: number }) {
  const routes = routesOf(info);
  if (!info.web) console.log('  GET / (index.html): skipped, the web app is not built (npm run build -w apps/web)');
  // First requests compile code paths and fill caches; none of that belongs in the figures.
  for (const route of routes) await run({ ...route, seconds: Math.min(2, seconds) });

  const figures = new Map<RouteName, Figures>(routes.map((r) => [r.name, { rps: [], p50: [], p99: [], problems: [] }]));
  await measureInterleaved(
    routes.map((route) => ({
      name: route.name,
      run: async () => {
        const result = await run({ ...route, seconds });
        const f = figures.get(route.name) as Figures;
        f.rps.push(result.requests.average);
        f.p50.push(result.latency.p50);
        f.p99.push(result.latency.p99);
        const wrong = problems(result);
        if (wrong) f.problems.push(wrong);
        return result.requests.average;
      },
    })),
    rounds,
  );

  const bare = figures.get('bare') as Figures;
  const width = 30;
  const cell = (s: Summary, digits: number, unit: string) => formatSummary(s, { digits, unit }).padEnd(width);
  console.log(
    `  ${'route'.padEnd(40)}${'requests/s'.padEnd(width)}${'p50'.padEnd(width)}${'p99'.padEnd(width)}${'vs bare (requests/s)'.padEnd(width)}targets`,
  );
  for (const route of routes) {
    const f = figures.get(route.name) as Figures;
    const versus = ratio(f.rps, bare.rps);
    const p99 = summarize(f.p99);
    const target = RATIO_TARGETS[info.database][route.name];
    const targets = [
      target === undefined ? '' : `>= ${target.toFixed(2)}x ${versus.median >= target ? 'met' : 'NOT met'}`,
      `p99 < ${P99_TARGET_MS} ms ${p99.median < P99_TARGET_MS ? 'met' : 'NOT met'}`,
    ].filter(Boolean);
    console.log(
      `  ${route.label.padEnd(40)}${cell(summarize(f.rps), 0, '')}${cell(summarize(f.p50), 1, ' ms')}${cell(p99, 1, ' ms')}${route.name === 'bare' ? '1x'.padEnd(width) : cell(versus, 3, 'x')}${targets.join('; ')}`,
    );
    for (const wrong of f.problems)
      console.log(`    WARNING: ${wrong}: the figures above are not of successful requests`);
  }
  console.log(`  (${CONNECTIONS} connections, ${seconds} s per run; median (smallest-largest, n=rounds))`);
}
