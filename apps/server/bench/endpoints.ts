// `npm run bench` (server part): inference spread over endpoints. Two inference servers on this
// machine (`apps/inference`, the house model), each kept on one CPU of its own with taskset as a
// one-core machine would be (llama.cpp otherwise runs two Voices' contexts on two cores even with
// one thread each), and two API servers over them: one that knows only the first endpoint, one
// that knows both (OWNVOICE_INFERENCE_URLS).
//   1. two simultaneous conversions, each with its own Voice: on one endpoint, then on two (the
//      API places the second Voice on the endpoint with fewer Voices). Throughput with two
//      endpoints over one (target >= 1.6x), as the ratio of wall times within each round.
//   2. the second endpoint stopped: its Voice is placed again on the first (found within the
//      5-second health watch) and converts there; the time that took.
// OWNVOICE_BENCH_ROUNDS (default 3, at least 3). Not a test: figures depend on the machine.
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { HOUSE_MODEL_PATH } from '@ownvoice/engine';
import { formatSummary, MIN_ROUNDS, measureInterleaved, ratio, summarize } from '@ownvoice/engine/bench/stats';
import { eq } from 'drizzle-orm';
import { systemClock } from '../src/clock.js';
import { type VoiceRow, voices } from '../src/db/schema.js';
import { InferenceSupervisor } from '../src/inference/supervisor.js';
import { quickVoice } from '../src/test/quick-voice.js';
import { createTestContext, type TestContext } from '../src/test/test-app.js';
import { writingSample } from '../src/test/writing.js';
import { benchSetting } from './settings.js';

const rounds = benchSetting('OWNVOICE_BENCH_ROUNDS', MIN_ROUNDS, 1000, 3);
const KEY = 'bench-endpoints-key-0123456789';
const quiet = { info: () => {}, warn: (msg: string) => console.log(`    ${msg}`) };
const row = (what: string, value: string, target = '') =>
  console.log(`  ${what}: ${value}${target ? `  (target ${target})` : ''}`);

/** An inference server of its own on CPU `cpu`: one thread, the house model. */
function endpoint(cpu: number): InferenceSupervisor {
  return new InferenceSupervisor({
    env: { ...process.env, OWNVOICE_BASE_MODEL: HOUSE_MODEL_PATH, OWNVOICE_THREADS: '1', OWNVOICE_INFERENCE_KEY: KEY },
    log: quiet,
    cpus: String(cpu % Math.max(1, availableParallelism())),
  });
}

interface Api {
  ctx: TestContext;
  url: (voiceId: string) => string;
  headers: Record<string, string>;
  voices: VoiceRow[];
}

/** An API server over `urls`, with one owner and two awake Voices. */
async function api(urls: string[]): Promise<Api> {
  const inference = {
    urls,
    apiKey: KEY,
    adapterFormat: 'gguf' as const,
    artifactDirOnEndpoints: undefined,
    maxAdaptersPerEndpoint: 64,
  };
  const ctx = await createTestContext({ threads: 1, inference }, { clock: systemClock });
  const owner = ctx.client();
  const ownerId: string = (await owner.register()).res.json().user.id;
  const woken: VoiceRow[] = [];
  for (const name of ['First', 'Second']) {
    const voice = await quickVoice(ctx, ownerId, name);
    const res = await owner.post(`/api/loras/${voice.id}/activate`);
    if (res.json().status !== 'active') throw new Error(`waking ${name} answered ${res.body}`);
    woken.push(await rowOf(ctx, voice.id));
  }
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ctx.app.server.address() as AddressInfo;
  return {
    ctx,
    url: (voiceId) => `http://127.0.0.1:${port}/api/loras/${voiceId}/convert-stream`,
    headers: { ...(await owner.csrfHeaders()), authorization: `Bearer ${owner.token}` },
    voices: woken,
  };
}

const rowOf = async (ctx: TestContext, id: string) =>
  (await ctx.database.db.select().from(voices).where(eq(voices.id, id)))[0] as VoiceRow;

/** One conversion through the API, read to its end; the characters written. */
async function convert(target: Api, voiceId: string, text: string): Promise<number> {
  const response = await fetch(target.url(voiceId), {
    method: 'POST',
    headers: { ...target.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  const body = await response.text();
  if (!response.ok || !body.includes('"type":"complete"'))
    throw new Error(`the conversion failed: ${body.slice(-300)}`);
  return body.length;
}

/** Both Voices converting at once; ms from start to the last one's end. */
async function both(target: Api, text: string): Promise<number> {
  const started = performance.now();
  await Promise.all(target.voices.map((v) => convert(target, v.id, text)));
  return performance.now() - started;
}

async function main() {
  console.log(`OwnVoice service benchmarks: two inference endpoints (one CPU each), ${rounds} rounds`);
  const servers = [endpoint(0), endpoint(1)];
  const apis: Api[] = [];
  try {
    const urls = await Promise.all(servers.map((s) => s.url()));
    const one = await api([urls[0] as string]);
    apis.push(one);
    const two = await api(urls);
    apis.push(two);
    const placed = two.voices.map((v) => v.inferenceEndpoint);
    console.log(
      `  Voices placed: one endpoint ${one.voices.map((v) => urls.indexOf(v.inferenceEndpoint as string) + 1).join(' + ')}; two endpoints ${placed.map((u) => urls.indexOf(u as string) + 1).join(' + ')}`,
    );
    if (new Set(placed).size !== 2) throw new Error('the two Voices were not placed on different endpoints');

    const text = writingSample(3_000, 0.35);
    await both(one, text.slice(0, 600));
    await both(two, text.slice(0, 600));
    const measured = await measureInterleaved(
      [
        { name: 'one', run: () => both(one, text) },
        { name: 'two', run: () => both(two, text) },
      ],
      rounds,
    );
    const inSeconds = (ms: number[]) => formatSummary(summarize(ms.map((m) => m / 1000)), { digits: 2, unit: ' s' });
    console.log('1. two simultaneous conversions of the same text, each with its own Voice');
    row('on one endpoint', inSeconds(measured.one.samples));
    row('on two endpoints', inSeconds(measured.two.samples));
    row(
      'throughput, two endpoints / one',
      formatSummary(ratio(measured.one.samples, measured.two.samples), { digits: 2, unit: 'x' }),
      '>= 1.6x',
    );

    console.log('2. the second endpoint stopped');
    const moved = two.voices.find((v) => v.inferenceEndpoint === urls[1]) as VoiceRow;
    const stopped = performance.now();
    await servers[1]?.stop();
    for (;;) {
      const now = await rowOf(two.ctx, moved.id);
      if (now.status !== 'active') throw new Error(`the Voice went to sleep instead: ${now.statusMessage}`);
      if (now.inferenceEndpoint === urls[0]) break;
      if (performance.now() - stopped > 60_000) throw new Error('the Voice was not placed again within a minute');
      await new Promise((r) => setTimeout(r, 100));
    }
    row(
      'its Voice placed on the first endpoint after',
      `${((performance.now() - stopped) / 1000).toFixed(1)} s`,
      '<= 5 s watch + load',
    );
    await convert(two, moved.id, text.slice(0, 600));
    row('and converts there', 'yes');
  } finally {
    for (const a of apis) await a.ctx.close();
    for (const s of servers) await s.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
