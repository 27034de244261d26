// `npm run bench` (server part): Convert on the tiny house model, a 2,000-word text.
//   1. time to the first streamed chunk, and tokens/s, through the service (HTTP, server-sent events)
//   2. the same conversion calling the engine directly, and the service's overhead as a ratio
//      (target: within 10%)
//   3. the edit pass over every chunk, three at a time, as the web client runs it
// The direct run calls the engine's rewrite, the one the service streams, with the same chunk
// size, so both generate the same tokens. Not a test: figures depend on the machine.
import type { AddressInfo } from 'node:net';
import { rewriteText, VOICE_PRESETS, type VoiceEngine } from '@ownvoice/engine';
import { EDIT_PASS_CONCURRENCY } from '@ownvoice/shared';
import { systemClock } from '../src/clock.js';
import { quickVoice } from '../src/test/quick-voice.js';
import { createTestContext } from '../src/test/test-app.js';
import { writingSample } from '../src/test/writing.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const row = (what: string, value: string, target = '') =>
  console.log(`  ${what}: ${value}${target ? `  (target ${target})` : ''}`);

/** The service's rewrite on the engine directly. Returns ms to first delta and tokens (rerolls included). */
async function direct(engine: VoiceEngine, voiceId: string, text: string) {
  const started = performance.now();
  let first = 0;
  let tokens = 0;
  const chunks: string[] = [];
  for await (const event of rewriteText(engine, text, { voiceId, maxChars: VOICE_PRESETS.tiny.passageMaxChars })) {
    if (event.type === 'chunk') {
      first ||= performance.now() - started;
      chunks[event.chunkIndex] = (chunks[event.chunkIndex] ?? '') + event.text;
    }
    if (event.type === 'chunk_reroll') {
      tokens += engine.runtime.tokenize(chunks[event.chunkIndex] ?? '').length;
      chunks[event.chunkIndex] = '';
    }
  }
  tokens += chunks.reduce((n, c) => n + engine.runtime.tokenize(c).length, 0);
  return { first, total: performance.now() - started, tokens };
}

async function main() {
  console.log('OwnVoice service benchmarks: Convert on the tiny house model');
  const ctx = await createTestContext({}, { clock: systemClock });
  try {
    const owner = ctx.client();
    const ownerId = (await owner.register()).res.json().user.id;
    const voice = await quickVoice(ctx, ownerId);
    await owner.post(`/api/loras/${voice.id}/activate`);
    const engine = await ctx.app.platform.engine.get();
    // About 2,000 words of prose.
    const text = writingSample(12_500, 0.35);
    const words = text.split(/\s+/).length;
    console.log(`text: ${words} words, ${text.length} characters`);

    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const headers = { ...(await owner.csrfHeaders()), authorization: `Bearer ${owner.token}` };

    // Warm both paths once on a short text, so neither pays first-use costs in the figures.
    await direct(engine, voice.id, text.slice(0, 800));

    console.log('1. through the service (HTTP + server-sent events)');
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}/api/loras/${voice.id}/convert-stream`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });
    const reader = response.body?.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let firstChunk = 0;
    const chunks: string[] = [];
    let positions: { start: number; end: number }[] = [];
    let serviceTokens = 0;
    for (;;) {
      const { value, done } = (await reader?.read()) ?? { done: true, value: undefined };
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut = buffer.indexOf('\n\n');
      while (cut >= 0) {
        const event = JSON.parse(buffer.slice(6, cut));
        buffer = buffer.slice(cut + 2);
        cut = buffer.indexOf('\n\n');
        if (event.type === 'chunk_positions') positions = event.chunkPositions;
        if (event.type === 'chunk') {
          firstChunk ||= performance.now() - started;
          chunks[event.chunkIndex] = (chunks[event.chunkIndex] ?? '') + event.text;
        }
        if (event.type === 'chunk_reroll') {
          serviceTokens += engine.runtime.tokenize(chunks[event.chunkIndex] ?? '').length;
          chunks[event.chunkIndex] = '';
        }
      }
    }
    const serviceTotal = performance.now() - started;
    serviceTokens += chunks.reduce((n, c) => n + engine.runtime.tokenize(c).length, 0);
    row('time to first chunk', seconds(firstChunk));
    row('whole conversion', `${seconds(serviceTotal)} (${positions.length} chunks)`);
    row('tokens/s', (serviceTokens / (serviceTotal / 1000)).toFixed(0));

    console.log('2. the engine directly, same work');
    const d = await direct(engine, voice.id, text);
    row('time to first chunk', seconds(d.first));
    row('whole conversion', seconds(d.total));
    row('tokens/s', (d.tokens / (d.total / 1000)).toFixed(0));
    row('service time / engine time', `${(serviceTotal / d.total).toFixed(3)}x`, '<= 1.10x');

    console.log(`3. edit pass, ${EDIT_PASS_CONCURRENCY} chunks at a time`);
    const editStarted = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < positions.length) {
        const i = next++;
        const p = positions[i] as { start: number; end: number };
        await fetch(`http://127.0.0.1:${port}/api/loras/edit-chunk`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({
            originalChunk: text.slice(p.start, p.end),
            rephrasedChunk: chunks[i] || text.slice(p.start, p.end),
            chunkIndex: i,
          }),
        });
      }
    };
    await Promise.all(Array.from({ length: EDIT_PASS_CONCURRENCY }, worker));
    const editTotal = performance.now() - editStarted;
    row('edit pass', seconds(editTotal));
    row('conversion with the edit pass', seconds(serviceTotal + editTotal));
  } finally {
    await ctx.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
