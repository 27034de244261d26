// `npm run bench` (server part): Convert on the tiny house model, a 2,000-word text.
//   1. time to the first streamed chunk, and tokens/s, through the service: HTTP and server-sent
//      events to the API, which generates on its embedded inference process (vLLM's protocol)
//   2. the same conversion calling an engine in this process directly, and the service's overhead
//      as a ratio (target: within 15%)
//   3. the edit pass over every chunk, three at a time, as the web client runs it
// Each round runs service, direct, edit pass in turn; every figure is the median over the rounds
// with the smallest and largest sample, and the overhead is service/direct within each round
// (see the engine's bench/stats.ts). The direct run calls the engine's rewrite, the one the
// service streams, with the same chunk size, so both generate the same tokens (checked).
// OWNVOICE_BENCH_ROUNDS (default 3, at least 3) and OWNVOICE_BENCH_THREADS set the run's size.
// Not a test: figures depend on the machine.
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { performance as hooks } from 'node:perf_hooks';
import { rewriteText, VOICE_PRESETS, type VoiceEngine } from '@ownvoice/engine';
import { formatSummary, MIN_ROUNDS, measureInterleaved, ratio, summarize } from '@ownvoice/engine/bench/stats';
import { EDIT_PASS_CONCURRENCY } from '@ownvoice/shared';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { quickVoice } from '../src/test/quick-voice.js';
import { createTestContext } from '../src/test/test-app.js';
import { writingSample } from '../src/test/writing.js';
import { benchSetting } from './settings.js';

const rounds = benchSetting('OWNVOICE_BENCH_ROUNDS', MIN_ROUNDS, 1000, 3);
const threads = benchSetting('OWNVOICE_BENCH_THREADS', 1, 1024);

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const inSeconds = (samples: number[]) =>
  formatSummary(summarize(samples.map((ms) => ms / 1000)), { digits: 2, unit: ' s' });
const inMs = (samples: number[]) => formatSummary(summarize(samples), { digits: 1, unit: ' ms' });
const row = (what: string, value: string, target = '') =>
  console.log(`  ${what}: ${value}${target ? `  (target ${target})` : ''}`);

/**
 * What one conversion produced: ms to the first delta, total ms, ms the event loop was busy (the
 * process's JavaScript work, less sensitive than wall time to other processes on the machine),
 * tokens (rerolls included), the chunks.
 */
interface Conversion {
  first: number;
  total: number;
  busy: number;
  tokens: number;
  chunks: string[];
  positions: { start: number; end: number }[];
}

/** Folds rewrite events into chunk texts, counting the tokens of rerolled attempts too. */
function collector(engine: VoiceEngine, started: number) {
  const loop = hooks.eventLoopUtilization();
  const c: Conversion = { first: 0, total: 0, busy: 0, tokens: 0, chunks: [], positions: [] };
  return {
    add(event: { type: string; chunkIndex?: number; text?: string; chunkPositions?: Conversion['positions'] }) {
      const i = event.chunkIndex ?? 0;
      if (event.type === 'chunk_positions') c.positions = event.chunkPositions ?? [];
      if (event.type === 'chunk') {
        c.first ||= performance.now() - started;
        c.chunks[i] = (c.chunks[i] ?? '') + event.text;
      }
      if (event.type === 'chunk_reroll') {
        c.tokens += engine.runtime.tokenize(c.chunks[i] ?? '').length;
        c.chunks[i] = '';
      }
    },
    done(): Conversion {
      c.total = performance.now() - started;
      c.busy = hooks.eventLoopUtilization(loop).active;
      c.tokens += c.chunks.reduce((n, text) => n + engine.runtime.tokenize(text).length, 0);
      return c;
    },
  };
}

/** The service's rewrite on the engine directly. */
async function direct(engine: VoiceEngine, voiceId: string, text: string): Promise<Conversion> {
  const c = collector(engine, performance.now());
  for await (const event of rewriteText(engine, text, { voiceId, maxChars: VOICE_PRESETS.tiny.passageMaxChars })) {
    c.add(event);
  }
  return c.done();
}

/** The same conversion through HTTP and server-sent events, read as the web client reads it. */
async function service(url: string, headers: Record<string, string>, engine: VoiceEngine, text: string) {
  const c = collector(engine, performance.now());
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  if (!response.ok || !response.body) throw new Error(`convert-stream answered ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut = buffer.indexOf('\n\n');
    while (cut >= 0) {
      const event = JSON.parse(buffer.slice(6, cut));
      buffer = buffer.slice(cut + 2);
      cut = buffer.indexOf('\n\n');
      if (event.type === 'error') throw new Error(`the conversion failed: ${event.error}`);
      c.add(event);
    }
  }
  return c.done();
}

async function main() {
  console.log(`OwnVoice service benchmarks: Convert on the tiny house model (${rounds} rounds)`);
  // Enough proofreads for the edit pass of every round.
  const allowance = loadConfig({
    OWNVOICE_DATA_DIR: tmpdir(),
    OWNVOICE_BILLING: 'none',
    OWNVOICE_STARTER_PROOFREADS: '1000000',
  }).starterAllowance;
  const ctx = await createTestContext(
    { starterAllowance: allowance, ...(threads ? { threads } : {}) },
    { clock: systemClock },
  );
  try {
    const owner = ctx.client();
    const ownerId = (await owner.register()).res.json().user.id;
    const voice = await quickVoice(ctx, ownerId);
    await owner.post(`/api/loras/${voice.id}/activate`);
    // The direct path: the same adapter awake in an engine of this process, with the same threads.
    const engine = await ctx.app.platform.engine.get();
    await engine.wake(voice.id, ctx.app.platform.storage.localPath(voice.adapterKey as string));
    // About 2,000 words of prose.
    const text = writingSample(12_500, 0.35);
    const words = text.split(/\s+/).length;
    console.log(`text: ${words} words, ${text.length} characters`);

    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const headers = { ...(await owner.csrfHeaders()), authorization: `Bearer ${owner.token}` };
    const convertUrl = `http://127.0.0.1:${port}/api/loras/${voice.id}/convert-stream`;

    // Warm both paths once on a short text, so neither pays first-use costs in the figures.
    await direct(engine, voice.id, text.slice(0, 800));
    await service(convertUrl, headers, engine, text.slice(0, 800));

    const viaService: Conversion[] = [];
    const viaEngine: Conversion[] = [];
    const editPass = async () => {
      const { positions, chunks } = viaService.at(-1) as Conversion;
      const started = performance.now();
      let next = 0;
      const worker = async () => {
        while (next < positions.length) {
          const i = next++;
          const p = positions[i] as { start: number; end: number };
          const res = await fetch(`http://127.0.0.1:${port}/api/loras/edit-chunk`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({
              originalChunk: text.slice(p.start, p.end),
              rephrasedChunk: chunks[i] || text.slice(p.start, p.end),
              chunkIndex: i,
            }),
          });
          if (!res.ok) throw new Error(`edit-chunk answered ${res.status}: ${await res.text()}`);
        }
      };
      await Promise.all(Array.from({ length: EDIT_PASS_CONCURRENCY }, worker));
      return performance.now() - started;
    };
    const measured = await measureInterleaved(
      [
        {
          name: 'service',
          run: async () => {
            viaService.push(await service(convertUrl, headers, engine, text));
            return (viaService.at(-1) as Conversion).total;
          },
        },
        {
          name: 'direct',
          run: async () => {
            viaEngine.push(await direct(engine, voice.id, text));
            return (viaEngine.at(-1) as Conversion).total;
          },
        },
        { name: 'edit', run: editPass },
      ],
      rounds,
    );
    const tokensPerSecond = (cs: Conversion[]) => formatSummary(summarize(cs.map((c) => c.tokens / (c.total / 1000))));
    const chunks = (viaService[0] as Conversion).positions.length;

    console.log('1. through the service (HTTP + server-sent events, then the inference process)');
    row('time to first chunk', inMs(viaService.map((c) => c.first)));
    row('whole conversion', `${inSeconds(measured.service.samples)}, ${chunks} chunks`);
    row('tokens/s', tokensPerSecond(viaService));

    console.log('2. the engine directly, same work');
    row('time to first chunk', inMs(viaEngine.map((c) => c.first)));
    row('whole conversion', inSeconds(measured.direct.samples));
    row('tokens/s', tokensPerSecond(viaEngine));
    row(
      'event loop busy, service / direct',
      formatSummary(
        ratio(
          viaService.map((c) => c.busy),
          viaEngine.map((c) => c.busy),
        ),
        { digits: 2, unit: 'x' },
      ),
    );
    row('event loop busy, service', inSeconds(viaService.map((c) => c.busy)));
    row('event loop busy, direct', inSeconds(viaEngine.map((c) => c.busy)));
    const overhead = ratio(measured.service.samples, measured.direct.samples);
    row('service time / engine time', formatSummary(overhead, { digits: 3, unit: 'x' }), '<= 1.15x');
    const list = (ms: number[]) => ms.map(seconds).join(', ');
    row(
      'samples, in round order',
      `service ${list(measured.service.samples)} s; direct ${list(measured.direct.samples)} s`,
    );
    const differing = viaService.filter((c, i) => c.tokens !== viaEngine[i]?.tokens).length;
    if (differing) console.log(`  WARNING: ${differing} round(s) generated different token counts on the two paths`);

    console.log(`3. edit pass, ${EDIT_PASS_CONCURRENCY} chunks at a time`);
    row('edit pass', inSeconds(measured.edit.samples));
    const withEdit = measured.service.samples.map((ms, i) => ms + (measured.edit.samples[i] as number));
    row('conversion with the edit pass', inSeconds(withEdit));
  } finally {
    await ctx.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
